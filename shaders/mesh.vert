#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(location = 0) in vec3 inPosition;  // world
layout(location = 1) in vec3 inNormal;
layout(location = 0) out vec3 outViewPos;
layout(location = 1) out vec3 outViewNormal;
layout(location = 2) out vec2 outGridUv;  // world coordinates across the surface, for the grid lines

void main() {
  vec4 v = u.view * vec4(inPosition, 1.0);
  outViewPos = v.xyz;
  outViewNormal = mat3(u.view) * inNormal;
  vec3 a = abs(inNormal);  // drop the world axis the surface faces
  outGridUv = a.y >= max(a.x, a.z) ? inPosition.xz : (a.x >= a.z ? inPosition.yz : inPosition.xy);
  gl_Position = u.proj * v;
}
