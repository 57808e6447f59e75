#version 450
// Depth only: the rasteriser writes the triangles' depth.
void main() {}
