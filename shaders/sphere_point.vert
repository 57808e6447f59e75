#version 450
#extension GL_GOOGLE_include_directive : require
// Sphere impostor as one point sprite per instance: a quarter of the vertex work of a quad, which is what limits a
// CPU rasteriser (lavapipe). The point is the exact screen-space bounding square of the projected sphere (tangent
// lines in the xz and yz planes); its depth is that of the sphere's nearest point, so the true depth written by the
// fragment shader is never in front of it (conservative depth).
#include "common.glsl"

layout(location = 0) in vec4 inSphere;
layout(location = 1) in float inScalar;
layout(location = 2) in uint inFragment;
layout(location = 3) in uint inMaterialKind;

layout(location = 0) flat out vec4 outCentreRadius;  // view space
layout(location = 1) flat out vec3 outColor;

// Bounds of tan(angle) of the two tangent lines from the eye to a circle at lateral offset x, depth z, radius r.
vec2 tangentBounds(float x, float z, float r) {
  float t = sqrt(max(x * x + z * z - r * r, 1e-30));
  float lo = (x * t - r * z) / (z * t + r * x);
  float hi = (x * t + r * z) / (z * t - r * x);
  return vec2(lo, hi);
}

void main() {
  float r = inSphere.w * u.viewport.z;
  vec3 c = (u.view * vec4(inSphere.xyz, 1.0)).xyz;
  float depth = -c.z;
  outCentreRadius = vec4(c, r);
  outColor = instanceColor(inScalar, inFragment, inMaterialKind);
  if (r <= 0.0 || depth <= r * 1.001 || beyondClip(inSphere.xyz) > 0.0) {  // not drawn, eye inside, or cut away
    gl_Position = vec4(0.0, 0.0, -1.0, 1.0);  // clipped
    gl_PointSize = 1.0;
    return;
  }
  vec2 bx = tangentBounds(c.x, depth, r) * u.proj[0][0];  // ndc x bounds
  vec2 by = tangentBounds(c.y, depth, r) * u.proj[1][1];  // ndc y bounds (proj[1][1] < 0: y points down)
  vec2 lo = vec2(min(bx.x, bx.y), min(by.x, by.y)), hi = vec2(max(bx.x, bx.y), max(by.x, by.y));
  vec2 centre = 0.5 * (lo + hi);
  vec2 sizePixels = 0.5 * (hi - lo) * u.viewport.xy;
  gl_PointSize = max(sizePixels.x, sizePixels.y) + 1.0;
  float zNear = -(depth - r);  // view z of the nearest point
  float ndcDepth = (u.proj[2][2] * zNear + u.proj[3][2]) / -zNear;
  gl_Position = vec4(centre, max(ndcDepth, 0.0), 1.0);
}
