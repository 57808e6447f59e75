#pragma once
// Conservative CPU occlusion culling for sphere instances on a coarse screen grid (2x2-pixel tiles). Each sphere
// first marks the tiles inside a disc its silhouette surely contains with its centre depth (every visible point of
// its front half is nearer than that); then a sphere whose whole bounding square lies on tiles marked nearer than
// its own nearest point is hidden and need not be drawn. In a packed body only the outer layers survive, which is
// what lets a CPU rasteriser draw a 100k-element frame at interactive rates; the image is unchanged.
#include <cstdint>
#include <vector>

namespace frac::render {

class OcclusionGrid {
 public:
  static constexpr int kTile = 2;  // pixels

  void reset(uint32_t width, uint32_t height);
  // x, y: silhouette centre in pixels; innerRadius: a radius (pixels) the silhouette surely contains.
  void addOccluder(float x, float y, float innerRadius, float centreDepth);
  // True when every tile under the pixel box [x0, x1] x [y0, y1] is covered by an occluder nearer than nearDepth,
  // or when the box lies entirely outside the image.
  bool hidden(float x0, float y0, float x1, float y1, float nearDepth) const;

 private:
  int columns_ = 0, rows_ = 0;
  std::vector<float> depth_;  // per tile: the nearest occluder depth covering it entirely (+inf: none)
};

}  // namespace frac::render
