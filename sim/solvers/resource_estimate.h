#pragma once
// Resource limits before allocation (issue "Reliability", item 4): the elements each body and kinematic of a scene
// will have, estimated from its shape's volume, its element radius and the method's lattice, and the memory they
// need, checked against what the machine has free before anything is packed or meshed. A scene that would not fit
// is refused (SceneError: the file, the body, the estimate), in milliseconds, instead of swapping for minutes and
// dying in an allocation.
#include <cstdint>
#include <string>
#include <vector>

#include "io/scene_desc.h"

namespace frac {

struct BodyEstimate {
  std::string pointer;  // "/bodies/0", "/kinematics/1"
  double elements = 0;  // particles or (fem-debris) mesh nodes
  double bytes = 0;
};

// Each body's and kinematic's estimate under the scene's method.
std::vector<BodyEstimate> estimateScene(const SceneDesc& scene);
// Their sum: the elements the whole scene will have.
double estimatedElementCount(const SceneDesc& scene);

// The memory this machine has free for a new scene (MemAvailable), bytes; 0 when it cannot be read.
double availableMemoryBytes();
// This process's resident memory (VmRSS), bytes; 0 when it cannot be read.
double residentMemoryBytes();

// Throws SceneError when the scene's estimate exceeds `availableBytes` (by default, what the machine has free),
// naming the largest body and both figures.
void checkSceneFits(const SceneDesc& scene, double availableBytes = availableMemoryBytes());

// The GPU's side (solver.backend cuda or auto, on a machine with CUDA): the device holds the same arrays, so the same
// estimate is checked against `deviceFreeBytes` (by default cudaMemGetInfo's free memory; 0 = no device, no check).
// With backend cuda a scene that would not fit is refused (SceneError on /solver/backend); with auto the reason to run
// on the CPU instead is returned ("" when it fits or there is nothing to check).
std::string checkSceneFitsDevice(const SceneDesc& scene, double deviceFreeBytes);

}  // namespace frac
