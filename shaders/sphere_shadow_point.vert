#version 450
// Shadow pass for spheres small in the shadow map: one point sprite per sphere (a quarter of the vertex work of
// sphere_shadow.vert's quads). Orthographic, so the sprite is centred on the sphere and 2 r wide.
layout(push_constant) uniform ShadowConstants {
  mat4 lightViewProj;  // world -> light clip (orthographic, depth 0..1)
  vec4 params;         // x element scale, y shadow map size in pixels
  vec4 clipPlane;      // world: what has dot(xyz, p) > w is cut away and casts no shadow; 0 = no cut
} pc;

layout(location = 0) in vec4 inSphere;
layout(location = 0) flat out vec3 outDepthRadiusScale;  // centre depth, radius in depth units, size / diameter

void main() {
  float r = dot(pc.clipPlane.xyz, inSphere.xyz) > pc.clipPlane.w ? 0.0 : inSphere.w * pc.params.x;
  vec4 c = pc.lightViewProj * vec4(inSphere.xyz, 1.0);
  mat4 m = pc.lightViewProj;
  float radiusPixels = r * length(vec3(m[0][0], m[1][0], m[2][0])) * 0.5 * pc.params.y;
  float radiusDepth = r * length(vec3(m[0][2], m[1][2], m[2][2]));
  gl_PointSize = 2.0 * radiusPixels + 2.0;
  outDepthRadiusScale = vec3(c.z, radiusDepth, gl_PointSize / max(2.0 * radiusPixels, 1e-6));
  gl_Position = r > 0.0 ? vec4(c.xy, max(c.z - radiusDepth, 0.0), 1.0) : vec4(0, 0, -1, 1);
}
