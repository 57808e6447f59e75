#pragma once
// The colour legend as an ImGui overlay: the colour mode, its scale (a bar with the map's stops and the range), or
// the material swatches; plus the simulated time. Used by headless recordings and the window's Render panel.
#include <string>
#include <vector>

#include "color_map.h"
#include "scene_renderer.h"

namespace frac::render {

struct LegendInfo {
  std::string title;  // scene name
  ColorMode mode = ColorMode::Material;
  ColorRange range;
  std::vector<std::string> materialNames;
  std::vector<glm::vec3> materialColors;
  int fragments = -1;  // < 0: unknown
  double time = 0.0;
};

// Draws the legend as a window anchored at the bottom-left corner (call between GuiLayer::newFrame and record).
void drawLegendWindow(const LegendInfo& info);
// Only the legend's contents, for embedding in another window.
void drawLegendContents(const LegendInfo& info);

}  // namespace frac::render
