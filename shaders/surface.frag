#version 450
#extension GL_GOOGLE_include_directive : require
// Fracture surfaces: the outer surface in the element's colour, crack faces in the interior colour. The choice is
// made per pixel on the interpolated crack flag, so a crack face ends in a sharp line, not a blend.
#include "common.glsl"

layout(location = 0) in vec3 inViewPos;
layout(location = 1) in vec3 inViewNormal;
layout(location = 2) in vec3 inColor;
layout(location = 3) in vec3 inInterior;
layout(location = 4) in float inCrack;
layout(location = 5) in float inBeyondClip;
layout(location = 0) out vec4 outColor;

void main() {
  if (inBeyondClip > 0.0) discard;  // cut away by the clipping plane (a cross-section)
  vec3 albedo = inCrack >= 0.5 ? inInterior : inColor;
  outColor = vec4(gammaEncode(shade(albedo, normalize(inViewNormal), inViewPos, 1.0)), 1.0);
}
