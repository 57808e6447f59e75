#version 450
layout(location = 0) in vec2 inLocal;
layout(location = 1) flat in vec2 inDepthRadius;
layout(depth_greater) out float gl_FragDepth;

void main() {
  float d2 = dot(inLocal, inLocal);
  if (d2 > 1.0) discard;
  gl_FragDepth = inDepthRadius.x - inDepthRadius.y * sqrt(1.0 - d2);
}
