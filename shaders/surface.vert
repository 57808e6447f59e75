#version 450
#extension GL_GOOGLE_include_directive : require
// Fracture surfaces (render/surface_renderer.h): colours computed on the host per vertex.
#include "common.glsl"

layout(location = 0) in vec3 inPosition;  // world
layout(location = 1) in vec3 inNormal;
layout(location = 2) in vec3 inColor;     // the element's colour in the colour mode
layout(location = 3) in vec3 inInterior;  // its material's crack-face colour
layout(location = 4) in float inCrack;    // 1 on a crack face
layout(location = 0) out vec3 outViewPos;
layout(location = 1) out vec3 outViewNormal;
layout(location = 2) out vec3 outColor;
layout(location = 3) out vec3 outInterior;
layout(location = 4) out float outCrack;
layout(location = 5) out float outBeyondClip;

void main() {
  vec4 v = u.view * vec4(inPosition, 1.0);
  outViewPos = v.xyz;
  outViewNormal = mat3(u.view) * inNormal;
  outColor = inColor;
  outInterior = inInterior;
  outCrack = inCrack;
  outBeyondClip = beyondClip(inPosition);
  gl_Position = u.proj * v;
}
