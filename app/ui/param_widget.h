#pragma once
// One ImGui widget per registry parameter, chosen by its type, range and unit: the panels are built from the
// registry (sim/core/params.h), never by hand per parameter.
#include <string>

#include <nlohmann/json.hpp>

#include "core/params.h"

namespace frac::ui {

// Shows the widget for `spec` with the document's current value. Returns true when the user finished an edit
// (released the slider, pressed enter, picked an entry); `edited` then holds the new value for a Set command.
bool paramWidget(const ParamSpec& spec, const std::string& id, const nlohmann::json& current, nlohmann::json& edited);

}  // namespace frac::ui
