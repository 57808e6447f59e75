#version 450
layout(location = 0) flat in vec3 inDepthRadiusScale;
layout(depth_greater) out float gl_FragDepth;

void main() {
  vec2 local = (2.0 * gl_PointCoord - 1.0) * inDepthRadiusScale.z;  // in units of the radius
  float d2 = dot(local, local);
  if (d2 > 1.0) discard;
  gl_FragDepth = inDepthRadiusScale.x - inDepthRadiusScale.y * sqrt(1.0 - d2);
}
