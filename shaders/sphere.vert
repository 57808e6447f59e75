#version 450
#extension GL_GOOGLE_include_directive : require
// Sphere impostor as a camera-facing quad (4-vertex strip per instance), placed at the sphere's front and sized to
// cover its silhouette cone exactly. Used for spheres too large for a point sprite or crossing the image border
// (SceneRenderer sorts those to the end of the instance buffer); sphere_point.vert draws the rest.
#include "common.glsl"

layout(location = 0) in vec4 inSphere;       // world centre, radius
layout(location = 1) in float inScalar;      // the colour mode's scalar
layout(location = 2) in uint inFragment;     // fragment colour key
layout(location = 3) in uint inMaterialKind; // material | kind << 16

layout(location = 0) flat out vec4 outCentreRadius;  // view space
layout(location = 1) flat out vec3 outColor;

void main() {
  float r = inSphere.w * u.viewport.z;
  vec3 c = (u.view * vec4(inSphere.xyz, 1.0)).xyz;
  float d = length(c);
  outCentreRadius = vec4(c, r);
  outColor = instanceColor(inScalar, inFragment, inMaterialKind);
  if (r <= 0.0 || d <= r * 1.001 || beyondClip(inSphere.xyz) > 0.0) {  // not drawn, eye inside, or cut away
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
  gl_Position = u.proj * vec4(p, 1.0);
}
