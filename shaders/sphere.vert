#version 450
#extension GL_GOOGLE_include_directive : require
// Sphere impostor: a camera-facing quad per instance, placed at the sphere's front and sized to cover its silhouette
// cone exactly, so the fragment shader's ray-sphere hit always lies behind the quad (conservative depth).
#include "common.glsl"

layout(location = 0) in vec4 inSphere;       // world centre, radius
layout(location = 1) in float inScalar;      // the colour mode's scalar
layout(location = 2) in uint inFragment;     // fragment colour key
layout(location = 3) in uint inMaterialKind; // material | kind << 16

layout(location = 0) out vec3 outViewPos;
layout(location = 1) flat out vec4 outCentreRadius;
layout(location = 2) flat out vec3 outColor;

vec3 instanceColor() {
  uint mode = uint(u.params.x);
  uint material = inMaterialKind & 0xffffu, kind = inMaterialKind >> 16;
  if (mode == kModeMaterial) return u.materialColors[min(material, 31u)].rgb;
  if (kind != 0u) return u.kindColors[min(kind, 3u)].rgb;
  if (mode == kModeFragment) return fragmentColor(inFragment);
  return scalarColor(inScalar);
}

void main() {
  float r = inSphere.w * u.viewport.z;
  vec3 c = (u.view * vec4(inSphere.xyz, 1.0)).xyz;
  float d = length(c);
  outCentreRadius = vec4(c, r);
  outColor = instanceColor();
  if (r <= 0.0 || d <= r * 1.001) {  // not drawn, or the eye is inside the sphere
    outViewPos = vec3(0.0);
    gl_Position = vec4(0.0, 0.0, -1.0, 1.0);  // clipped
    return;
  }
  vec3 f = c / d;
  vec3 helper = abs(f.y) < 0.99 ? vec3(0.0, 1.0, 0.0) : vec3(1.0, 0.0, 0.0);
  vec3 right = normalize(cross(f, helper));
  vec3 up = cross(right, f);
  float planeDistance = d - r;
  float halfSize = r * planeDistance / sqrt(d * d - r * r);
  vec2 corner = vec2((gl_VertexIndex & 1) != 0 ? 1.0 : -1.0, (gl_VertexIndex & 2) != 0 ? 1.0 : -1.0);
  vec3 p = c - r * f + halfSize * (corner.x * right + corner.y * up);
  outViewPos = p;
  gl_Position = u.proj * vec4(p, 1.0);
}
