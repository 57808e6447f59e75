#pragma once
// A user action that changes the simulation. Commands are applied between two steps and stamped with the number of
// steps done since the last reset; the list of applied commands is the replay log (replay.jsonl).
#include <string>

#include <nlohmann/json.hpp>

#include "core/math.h"

namespace frac {

struct Command {
  enum class Type { Set, Throw, Reset, Grab, GrabMove, Release };
  Type type = Type::Set;
  long long step = -1;  // stamped when applied: steps since the last reset

  // Set: a scene parameter by its dotted key, as `--set key=value` (e.g. materials.stone.young, solver.dt).
  std::string key;
  nlohmann::json value;
  std::string edit;  // "undo" / "redo" when the Set takes an edit back or makes it again (session/edit_history.h)
  // Throw: a rigid projectile launched from `position` at `velocity`.
  vec3 position{0.0f}, velocity{0.0f};
  float radius = 0.01f;
  std::string material;
  float density = 0.0f;        // kg/m^3; 0 = the material's
  bool breakable = false;      // a ball of bonded elements instead of one rigid element
  float elementRadius = 0.0f;  // breakable: radius of its elements
  // Grab (solvers/mouse_grab.h): the picked body element, the radius of the group pulled with it, the spring's
  // frequency (Hz), the target in `position`; GrabMove: the new target; Release: lets go.
  int element = -1;
  float frequency = 10.0f;
  // Aimed throw (the window, while the elements stay on the device): the ball starts just outside the first element
  // the ray from aimOrigin along the unit aimDirection enters (Solver::castRay), when that comes before `position`
  // along the ray; else at `position`. Resolved when applied: the log keeps the resolved start, not the ray.
  bool aimed = false;
  vec3 aimOrigin{0.0f}, aimDirection{0.0f};

  static Command set(std::string key, nlohmann::json value);
  static Command throwProjectile(const vec3& position, const vec3& velocity, float radius, std::string material);
  static Command reset();
  static Command grab(int element, float radius, const vec3& target, float frequency);
  static Command grabMove(const vec3& target);
  static Command release();

  // Where a ball of `radius` starts when it is thrown at a surface point with outward `normal`: just outside it.
  static vec3 startOutside(const vec3& point, const vec3& normal, float radius) {
    return point + (radius * 1.05f) * normal;
  }

  std::string setArgument() const;  // "key=value" for applyOverride
  nlohmann::json toJson() const;
  // Throws std::invalid_argument naming `where` (e.g. "replay.jsonl line 3") and what was expected.
  static Command fromJson(const nlohmann::json& j, const std::string& where);
};

}  // namespace frac
