#version 450
#extension GL_GOOGLE_include_directive : require
// Bond lines (debug view): w of the position says whether the bond is broken.
#include "common.glsl"

layout(location = 0) in vec4 inPositionBroken;
layout(location = 0) out vec3 outColor;

void main() {
  outColor = inPositionBroken.w > 0.5 ? vec3(0.9, 0.15, 0.1) : vec3(0.15, 0.35, 0.9);
  gl_Position = u.proj * u.view * vec4(inPositionBroken.xyz, 1.0);
}
