#version 450
// Shadow pass for spheres too large for a point sprite: one quad per instance around the light-space centre;
// sphere_shadow.frag writes the depth of the sphere's lit cap.
layout(push_constant) uniform ShadowConstants {
  mat4 lightViewProj;  // world -> light clip (orthographic, depth 0..1)
  vec4 params;         // x element scale, y shadow map size in pixels
  vec4 clipPlane;      // world: what has dot(xyz, p) > w is cut away and casts no shadow; 0 = no cut
} pc;

layout(location = 0) in vec4 inSphere;
layout(location = 0) out vec2 outLocal;             // quad corner in units of the radius
layout(location = 1) flat out vec2 outDepthRadius;  // centre depth, radius in depth units

void main() {
  float r = dot(pc.clipPlane.xyz, inSphere.xyz) > pc.clipPlane.w ? 0.0 : inSphere.w * pc.params.x;
  vec4 c = pc.lightViewProj * vec4(inSphere.xyz, 1.0);
  vec2 corner = vec2((gl_VertexIndex & 1) != 0 ? 1.0 : -1.0, (gl_VertexIndex & 2) != 0 ? 1.0 : -1.0);
  // The light's projection scales every world direction alike per clip axis: the rows' lengths (column-major).
  mat4 m = pc.lightViewProj;
  vec2 radiusNdc = r * vec2(length(vec3(m[0][0], m[1][0], m[2][0])), length(vec3(m[0][1], m[1][1], m[2][1])));
  float radiusDepth = r * length(vec3(m[0][2], m[1][2], m[2][2]));
  outLocal = corner;
  outDepthRadius = vec2(c.z, radiusDepth);
  gl_Position = r > 0.0 ? vec4(c.xy + corner * radiusNdc, max(c.z - radiusDepth, 0.0), 1.0) : vec4(0, 0, -1, 1);
}
