#version 450
// Shadow pass for the fracture surfaces: their triangles' depth seen from the light.
layout(push_constant) uniform ShadowConstants {
  mat4 lightViewProj;  // world -> light clip (orthographic, depth 0..1)
  vec4 params;         // x element scale, y shadow map size in pixels
  vec4 clipPlane;      // world: what has dot(xyz, p) > w is cut away and casts no shadow; 0 = no cut
} pc;

layout(location = 0) in vec3 inPosition;
layout(location = 0) out float outBeyondClip;

void main() {
  outBeyondClip = dot(pc.clipPlane.xyz, inPosition) - pc.clipPlane.w;
  gl_Position = pc.lightViewProj * vec4(inPosition, 1.0);
}
