#version 450
#extension GL_GOOGLE_include_directive : require
// Ray-sphere intersection per pixel (the ray through the pixel centre, from gl_FragCoord): exact silhouette, normal
// and depth, so spheres intersect each other correctly. Shared by the point-sprite and quad impostors.
#include "common.glsl"

layout(location = 0) flat in vec4 inCentreRadius;
layout(location = 1) flat in vec3 inColor;
layout(location = 0) out vec4 outColor;
layout(depth_greater) out float gl_FragDepth;

void main() {
  // The ray t * ray through the pixel centre (ray.z = -1, so t is the view depth); |t ray - c| = r.
  vec2 ndc = 2.0 * gl_FragCoord.xy / u.viewport.xy - 1.0;
  vec3 ray = vec3(ndc.x / u.proj[0][0], ndc.y / u.proj[1][1], -1.0);
  vec3 c = inCentreRadius.xyz;
  float r = inCentreRadius.w;
  float a = dot(ray, ray), b = dot(ray, c);
  float h = b * b - a * (dot(c, c) - r * r);
  if (h < 0.0) discard;
  float t = (b - sqrt(h)) / a;
  vec3 p = ray * t;
  vec3 n = (p - c) / r;
  gl_FragDepth = u.proj[3][2] / t - u.proj[2][2];  // (P22 z + P32) / -z with z = -t
  // Cheap occlusion: darker towards the silhouette, where neighbours in a packing hide the sky.
  float rim = clamp(-dot(n, ray) * inversesqrt(a), 0.0, 1.0);
  outColor = vec4(gammaEncode(shade(inColor, n, p, 0.7 + 0.3 * rim)), 1.0);
}
