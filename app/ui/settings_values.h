#pragma once
// The window's render and throw settings as registry values (groups "render" and "throw"): their panels are drawn
// from the registry like the scene's, then converted to the structs the renderer and the throw tool use.
#include <string>

#include <nlohmann/json.hpp>

#include "render_settings.h"
#include "window/throw_tool.h"

namespace frac::ui {

nlohmann::json groupDefaults(const std::string& group);
// Draws one widget per parameter of `group`, editing `values` in place; true when something changed.
bool groupWidgets(const std::string& group, nlohmann::json& values);

nlohmann::json renderValues(const render::RenderSettings& settings);
void applyRenderValues(const nlohmann::json& values, render::RenderSettings& settings);
void applyThrowValues(const nlohmann::json& values, ThrowSettings& settings);

}  // namespace frac::ui
