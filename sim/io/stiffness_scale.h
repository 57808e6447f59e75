#pragma once
// The stiffness scale (scene key solver.stiffness_scale, s in (0, 1]): a stiff material made softer for faster
// interactive steps, with time scaled so that it looks the same. It is a similarity transform of the whole scene:
// lengths and densities stay, every stress-like value (moduli, strengths, pressures, contact stiffnesses) is
// multiplied by s, every speed by sqrt(s), every time divided by sqrt(s) (frames per simulated second by sqrt(s)),
// gravity by s, energies per area and per mass by s. Every dimensionless group of the mechanics (v / c, sigma / E,
// rho g L / E, damping ratios, strains) is unchanged, so the motion, the cracks and the pieces are those of the stiff
// material, seen in slow motion by 1 / sqrt(s): the explicit step grows by 1 / sqrt(s) (Lu eq. 28) while a frame
// covers that much more simulated time, and the steps per frame stay. What changes: the numbers shown are those of
// the scaled scene (times, speeds, stresses), and a throw in the window is scaled like the scene's speeds.
// The scaling is by the registry's units (core/params.h), so a new key with a unit is scaled without a list here.
#include <nlohmann/json.hpp>

#include "core/params.h"

namespace frac {

// The factor a value of `unit` is multiplied by under stiffness scale s (1 for lengths, densities, temperatures,
// angles and dimensionless values).
double stiffnessScaleFactor(const std::string& unit, double s);

// Scales every value of the filled (defaults applied) scene document by its unit's factor; the document's
// solver.stiffness_scale itself stays (1 = nothing changes).
void applyStiffnessScale(nlohmann::json& filledScene);

}  // namespace frac
