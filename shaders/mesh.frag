#version 450
#extension GL_GOOGLE_include_directive : require
// Triangle meshes (ground planes, later fracture surfaces); optional 10 cm grid with 1 m major lines.
#include "common.glsl"

layout(push_constant) uniform MeshConstants { vec4 color; } mesh;  // rgb, a = 1 for the grid
layout(location = 0) in vec3 inViewPos;
layout(location = 1) in vec3 inViewNormal;
layout(location = 2) in vec2 inGridUv;
layout(location = 0) out vec4 outColor;

// 1 on a grid line of the given spacing (pixel-width lines through fwidth), 0 between them.
float gridLine(vec2 uv, float spacing, float width) {
  vec2 g = abs(fract(uv / spacing - 0.5) - 0.5) / (fwidth(uv / spacing) + 1e-6);
  return 1.0 - clamp(min(g.x, g.y) / width, 0.0, 1.0);
}

void main() {
  vec3 n = normalize(inViewNormal);
  if (dot(n, inViewPos) > 0.0) n = -n;  // two-sided: light the side facing the viewer
  // The grid is selected, not branched on (a push constant alone: see common.glsl).
  float lines = max(0.55 * gridLine(inGridUv, 0.1, 1.0), gridLine(inGridUv, 1.0, 1.5));
  float fade = clamp(1.0 + inViewPos.z / 3.0, 0.0, 1.0);  // fewer lines far away
  float grid = mesh.color.a > 0.5 ? lines * fade : 0.0;
  vec3 albedo = mix(mesh.color.rgb, mesh.color.rgb * 0.7, grid);
  outColor = vec4(gammaEncode(shade(albedo, n, inViewPos, 1.0)), 1.0);
}
