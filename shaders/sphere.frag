#version 450
#extension GL_GOOGLE_include_directive : require
// Ray-sphere intersection per pixel: exact silhouette, normal and depth, so spheres intersect each other correctly.
#include "common.glsl"

layout(location = 0) in vec3 inViewPos;
layout(location = 1) flat in vec4 inCentreRadius;
layout(location = 2) flat in vec3 inColor;
layout(location = 0) out vec4 outColor;
layout(depth_greater) out float gl_FragDepth;

void main() {
  vec3 dir = normalize(inViewPos);
  vec3 c = inCentreRadius.xyz;
  float r = inCentreRadius.w;
  float b = dot(dir, c);
  float h = b * b - (dot(c, c) - r * r);
  if (h < 0.0) discard;
  float t = b - sqrt(h);
  vec3 p = dir * t;
  vec3 n = (p - c) / r;
  vec4 clip = u.proj * vec4(p, 1.0);
  gl_FragDepth = clip.z / clip.w;
  // Cheap occlusion: the side facing away from the viewer's up-light gets a little darker towards the rim.
  float rim = clamp(dot(n, -dir), 0.0, 1.0);
  outColor = vec4(gammaEncode(shade(inColor, n, p, 1.0, 0.75 + 0.25 * rim)), 1.0);
}
