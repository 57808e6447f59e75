#version 450
// Depth only: the rasteriser writes the triangles' depth; what the clipping plane cut away casts no shadow.
layout(location = 0) in float inBeyondClip;

void main() {
  if (inBeyondClip > 0.0) discard;
}
