#include "ui/param_widget.h"

#include <algorithm>
#include <cmath>

#include <imgui.h>

namespace frac::ui {

using json = nlohmann::json;

namespace {

void tooltip(const ParamSpec& spec) {
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::TextUnformatted(spec.description.c_str());
    if (!spec.unit.empty() && spec.unit != "1") ImGui::Text("unit: %s", spec.unit.c_str());
    if (!spec.liveEditable) ImGui::TextUnformatted("applies on reset");
    ImGui::EndTooltip();
  }
}

std::string label(const ParamSpec& spec) {
  std::string text = spec.key;
  if (!spec.unit.empty() && spec.unit != "1") text += " (" + spec.unit + ")";
  if (!spec.liveEditable) text += " *";
  return text;
}

}  // namespace

bool paramWidget(const ParamSpec& spec, const std::string& id, const json& current, json& edited) {
  ImGui::PushID(id.c_str());
  bool done = false;
  const std::string text = label(spec);
  switch (spec.type) {
    case ParamType::Number:
    case ParamType::Integer:
    case ParamType::NumberOrInf:
    case ParamType::NumberOrAuto: {
      const bool special = current.is_string();  // "inf" or "auto"
      if (spec.type == ParamType::NumberOrInf || spec.type == ParamType::NumberOrAuto) {
        const char* word = spec.type == ParamType::NumberOrInf ? "inf" : "auto";
        bool on = special;
        if (ImGui::Checkbox(word, &on)) {
          edited = on ? json(word) : json(spec.type == ParamType::NumberOrAuto ? 1e-5 : spec.max * 0.001);
          done = true;
        }
        ImGui::SameLine();
      }
      if (!special) {
        double value = current.is_number() ? current.get<double>() : 0.0;
        const double lo = std::max(spec.min, spec.minExclusive ? spec.min + 1e-30 : spec.min);
        const double hi = spec.max;
        // Moduli, strengths and steps span decades: a logarithmic slider over a range around the value.
        const bool logarithmic = lo > 0.0 && hi / std::max(lo, 1e-300) > 1e3;
        if (spec.type == ParamType::Integer) {
          int v = int(value);
          ImGui::InputInt(text.c_str(), &v);
          if (ImGui::IsItemDeactivatedAfterEdit()) {
            edited = std::clamp<long long>(v, (long long)spec.min, (long long)spec.max);
            done = true;
          }
        } else if (logarithmic) {
          const double a = std::max(lo, std::abs(value) / 1000.0), b = std::min(hi, std::max(std::abs(value), lo) * 1000.0);
          ImGui::SliderScalar(text.c_str(), ImGuiDataType_Double, &value, &a, &b, "%.4g", ImGuiSliderFlags_Logarithmic);
          if (ImGui::IsItemDeactivatedAfterEdit()) {
            edited = value;
            done = true;
          }
        } else {
          ImGui::SliderScalar(text.c_str(), ImGuiDataType_Double, &value, &lo, &hi, "%.4g");
          if (ImGui::IsItemDeactivatedAfterEdit()) {
            edited = value;
            done = true;
          }
        }
      } else {
        ImGui::TextUnformatted(text.c_str());
      }
      break;
    }
    case ParamType::Bool: {
      bool v = current.is_boolean() && current.get<bool>();
      if (ImGui::Checkbox(text.c_str(), &v)) {
        edited = v;
        done = true;
      }
      break;
    }
    case ParamType::Enum: {
      const std::string value = current.is_string() ? current.get<std::string>() : "";
      if (ImGui::BeginCombo(text.c_str(), value.c_str())) {
        for (const std::string& choice : spec.choices)
          if (ImGui::Selectable(choice.c_str(), choice == value)) {
            edited = choice;
            done = true;
          }
        ImGui::EndCombo();
      }
      break;
    }
    case ParamType::Vec3: {
      float v[3] = {0, 0, 0};
      if (current.is_array() && current.size() == 3)
        for (int k = 0; k < 3; ++k) v[k] = current[k].get<float>();
      if (spec.key == "color" || spec.key == "interior_color") {
        ImGui::ColorEdit3(text.c_str(), v, ImGuiColorEditFlags_Float);
      } else {
        ImGui::DragFloat3(text.c_str(), v, float(std::max(1e-4, 0.01 * std::max(std::abs(v[0]), std::abs(v[1])))), float(spec.min),
                          float(spec.max), "%.4g");
      }
      if (ImGui::IsItemDeactivatedAfterEdit()) {
        edited = json::array({v[0], v[1], v[2]});
        done = true;
      }
      break;
    }
    default:  // strings, shapes, lists: shown, edited in the scene file
      ImGui::Text("%s: %s", spec.key.c_str(), current.dump().substr(0, 40).c_str());
      break;
  }
  tooltip(spec);
  ImGui::PopID();
  return done;
}

}  // namespace frac::ui
