#include "legend.h"

#include <cstdio>

#include <imgui.h>

namespace frac::render {

namespace {

ImU32 toImGui(const glm::vec3& linear) {
  return IM_COL32(toSrgb8(linear.r), toSrgb8(linear.g), toSrgb8(linear.b), 255);
}

void colorBar(const ColorRange& range) {
  const float width = 220.0f, height = 14.0f;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const auto& stops = scalarColorStops();
  for (size_t k = 1; k < stops.size(); ++k) {
    const float x0 = origin.x + width * stops[k - 1].position, x1 = origin.x + width * stops[k].position;
    const ImU32 c0 = toImGui(stops[k - 1].color), c1 = toImGui(stops[k].color);
    draw->AddRectFilledMultiColor(ImVec2(x0, origin.y), ImVec2(x1, origin.y + height), c0, c1, c1, c0);
  }
  draw->AddRect(origin, ImVec2(origin.x + width, origin.y + height), IM_COL32(0, 0, 0, 160));
  ImGui::Dummy(ImVec2(width, height));
  char lo[32], mid[32], hi[32];
  std::snprintf(lo, sizeof lo, "%.3g", range.min);
  std::snprintf(mid, sizeof mid, "%.3g", 0.5f * (range.min + range.max));
  std::snprintf(hi, sizeof hi, "%.3g", range.max);
  const float start = ImGui::GetCursorPosX();
  ImGui::TextUnformatted(lo);
  ImGui::SameLine(start + 0.5f * width - 0.5f * ImGui::CalcTextSize(mid).x);
  ImGui::TextUnformatted(mid);
  ImGui::SameLine(start + width - ImGui::CalcTextSize(hi).x);
  ImGui::TextUnformatted(hi);
}

}  // namespace

void drawLegendContents(const LegendInfo& info) {
  if (!info.title.empty()) ImGui::TextUnformatted(info.title.c_str());
  ImGui::Text("t = %.4f s", info.time);
  ImGui::Separator();
  ImGui::TextUnformatted(colorModeLabel(info.mode));
  if (isScalarMode(info.mode)) {
    colorBar(info.range);
  } else if (info.mode == ColorMode::Material) {
    for (size_t m = 0; m < info.materialColors.size(); ++m) {
      const glm::vec3 c = info.materialColors[m];
      ImGui::ColorButton(("##material" + std::to_string(m)).c_str(),
                         ImVec4(toSrgb8(c.r) / 255.0f, toSrgb8(c.g) / 255.0f, toSrgb8(c.b) / 255.0f, 1.0f),
                         ImGuiColorEditFlags_NoTooltip, ImVec2(14, 14));
      ImGui::SameLine();
      ImGui::TextUnformatted(m < info.materialNames.size() ? info.materialNames[m].c_str() : "?");
    }
  } else if (info.fragments >= 0) {
    ImGui::Text("%d pieces, one colour each", info.fragments);
  }
}

void drawLegendWindow(const LegendInfo& info) {
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos(ImVec2(10.0f, display.y - 10.0f), ImGuiCond_Always, ImVec2(0.0f, 1.0f));
  ImGui::SetNextWindowBgAlpha(0.7f);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                 ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoInputs;
  if (ImGui::Begin("Legend", nullptr, flags)) drawLegendContents(info);
  ImGui::End();
}

}  // namespace frac::render
