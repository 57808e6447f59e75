#pragma once
// What every solver answers the same way, written once: statistics from summed terms, the load on a kinematic body,
// the probes' reference elements, throw checks, which materials a live edit changed, and the scratch of queries
// (query_scratch.h).
#include <string>
#include <vector>

#include "solvers/ray_pick.h"
#include "solvers/solver.h"
#include "solvers/solver_stats.h"

namespace frac {

class Shape;

// The folder a scene's relative paths (meshes) start from.
std::string sceneDirectory(const SceneDesc& scene);
// The index of the scene's material `name`; a SceneError naming the scene file and `where` when there is none.
int sceneMaterial(const SceneDesc& scene, const std::string& name, const std::string& where);
// Whether world point p lies inside `shape` placed by `placed`'s transform (grips take the elements inside them).
bool placedShapeContains(const PlacedShapeDesc& placed, const Shape& shape, const vec3& p);

// The bodies' lattice cell with its axes on the world's (each half-width the reach of the body's turned cell box), for
// ReferenceElements::cell; bodies on different lattices or turned differently, or randomly packed: none.
LatticeCell referenceCell(const SceneDesc& scene);

// SimStats from the sums over the state (solver_stats.h).
SimStats simStats(double time, long long steps, int elements, long long bonds, const StatsTerms& sums);

// The load on a body moved at `velocity`: its displacement along the motion since `initialCentre`, and the force the
// material exerts against the motion (`force`: the sum of what its elements receive), as a load cell reads it.
// The angle and resisting torque of a kinematic turning at `spin` while active in [start, stop), at `time`, from the
// moment about its centre of the forces (and torques) its points receive.
void addTurning(KinematicLoad& load, const vec3& spin, double start, double stop, double time, const vec3& moment);

KinematicLoad loadAgainstMotion(const vec3& velocity, const vec3& centre, const vec3& initialCentre,
                                const vec3& force);

// Throws std::invalid_argument unless 0 <= material < count; returns the density a thrown ball gets (`density` > 0
// overrides the material's).
float throwDensity(const std::vector<MaterialDesc>& materials, int material, float density);

// The materials of `scene` whose properties differ from `current` in anything but the density (live edits keep the
// masses); their indices.
std::vector<int> editedMaterials(const std::vector<MaterialDesc>& current, const SceneDesc& scene);


}  // namespace frac
