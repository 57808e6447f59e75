#pragma once
// The registry's shared lists (internal to sim/io/scene_params*.cpp): the solver methods, which methods read a key,
// the bounds of lengths, times and speeds, and the group builders that live in files of their own.
#include <string>
#include <vector>

#include "core/param_builders.h"

namespace frac::registry {

inline const std::vector<std::string> kSolverMethods = {"bdem", "rbdem", "pd-bond", "pd-state", "fem-debris"};
inline const std::vector<std::string> kColorModes = {"material", "stress", "damage", "fragment", "speed"};
inline const std::vector<std::string> kDrawModes = {"spheres", "surfaces", "both"};

inline const std::vector<std::string> kBdem = {"bdem"};
inline const std::vector<std::string> kBdemFamily = {"bdem", "rbdem"};  // keys read by both bonded-element methods
inline const std::vector<std::string> kRbdem = {"rbdem"};
inline const std::vector<std::string> kPeridynamics = {"pd-bond", "pd-state"};
inline const std::vector<std::string> kPdBond = {"pd-bond"};
inline const std::vector<std::string> kWeibullReaders = {"bdem", "rbdem", "pd-bond", "pd-state"};  // weibull_m
inline const std::vector<std::string> kFractureEnergyReaders = {"bdem", "pd-bond"};  // fracture_energy
inline const std::vector<std::string> kPdState = {"pd-state"};
inline const std::vector<std::string> kBulkReaders = {"pd-bond", "pd-state", "fem-debris"};  // bulk_modulus
inline const std::vector<std::string> kShearReaders = {"pd-state", "fem-debris"};            // shear_modulus
inline const std::vector<std::string> kFem = {"fem-debris"};

inline constexpr double kBig = 1e30;        // "unbounded" times
inline constexpr double kMaxLength = 1e4;   // m, sizes and coordinates
inline constexpr double kMinLength = 1e-6;  // m
inline constexpr double kMaxSpeed = 1e5;    // m/s and rad/s

inline ParamSpec numberOrAuto(ParamSpec s) { return withType(std::move(s), ParamType::NumberOrAuto); }
inline ParamSpec numberOrInf(ParamSpec s) { return withType(std::move(s), ParamType::NumberOrInf); }

// scene_params_material.cpp
ParamGroup materialGroup();

}  // namespace frac::registry
