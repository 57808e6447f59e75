#pragma once
// Structure-of-arrays element state (one entry per discrete element / particle) and its plain view.
#include <cstdint>
#include <vector>

#include "core/math.h"

namespace frac {

enum ElementFlags : uint8_t {
  kFlagKinematic = 1,   // infinite mass, moved on a prescribed path (Lu sec. 5.2)
  kFlagLarge = 2,       // projectile: kept out of the grid, contacts found by a direct scan
  kFlagInactive = 4,    // not yet launched / removed: no forces, no motion
};

struct ElementView {
  int count = 0;
  vec3* position = nullptr;
  vec3* velocity = nullptr;
  quat* orientation = nullptr;
  vec3* angularVelocity = nullptr;  // world frame (spheres: isotropic inertia)
  vec3* force = nullptr;
  vec3* torque = nullptr;
  float* radius = nullptr;
  float* invMass = nullptr;
  float* invInertia = nullptr;
  uint16_t* material = nullptr;
  uint8_t* flags = nullptr;
};

struct ElementState {
  std::vector<vec3> position, velocity, angularVelocity, force, torque;
  std::vector<quat> orientation;
  std::vector<float> radius, invMass, invInertia;
  std::vector<uint16_t> material;
  std::vector<uint8_t> flags;
  std::vector<int32_t> body;  // index of the body / kinematic / projectile it came from (see BdemSolver)

  int size() const { return int(position.size()); }

  int add(const vec3& p, float r, float density, uint16_t mat, uint8_t flag, int32_t bodyIndex) {
    position.push_back(p);
    velocity.push_back(vec3(0.0f));
    angularVelocity.push_back(vec3(0.0f));
    force.push_back(vec3(0.0f));
    torque.push_back(vec3(0.0f));
    orientation.push_back(quat(1, 0, 0, 0));
    radius.push_back(r);
    const float mass = density * 4.0f / 3.0f * kPi * r * r * r;
    const bool infinite = (flag & kFlagKinematic) != 0;
    invMass.push_back(infinite ? 0.0f : 1.0f / mass);
    invInertia.push_back(infinite ? 0.0f : 1.0f / (0.4f * mass * r * r));  // solid sphere
    material.push_back(mat);
    flags.push_back(flag);
    body.push_back(bodyIndex);
    return size() - 1;
  }

  ElementView view() {
    return ElementView{size(), position.data(), velocity.data(), orientation.data(), angularVelocity.data(),
                       force.data(), torque.data(), radius.data(), invMass.data(), invInertia.data(),
                       material.data(), flags.data()};
  }
};

}  // namespace frac
