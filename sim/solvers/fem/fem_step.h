#pragma once
// One explicit FEM time step on linear tetrahedra (Zhang et al., hybrid FEM / meshfree debris, sec. 3.1): central
// differences with lumped masses (eq. 1, 4). The stage order is written once here (stepStages) for every exec:
//   nodes:  a = (gathered corner forces + gravity + contact) / m;  v += dt a;  x += dt v      (eq. 1, 4-6)
//   tets:   the stress at the new positions from the velocity gradient (eq. 7-8, 11) and the four corner forces
// Each node gathers its incident corners' forces in a fixed order (no scatter, no atomics), so every thread count
// gives the same bits.
#include "kernels/fem_contact.h"
#include "kernels/fem_tet.h"
#include "solvers/fem/fem_arrays.h"

namespace frac {

struct FemStepParams {
  float dt = 1e-6f;
  vec3 gravity{0.0f, -9.81f, 0.0f};
  float damping = 0.0f;  // mass-proportional damping, 1/s (0: none; quasi-static tests)
};

}  // namespace frac

namespace frac::fem {

// Contact of node i with the ground planes and the rigid balls (eq. 6), at its position now.
FRAC_HD inline vec3 nodeContactForce(const FemViews& v, int i, float dt) {
  const FemNodeView& n = v.nodes;
  const vec3 x = n.reference[i] + n.displacement[i], u = n.velocity[i];
  const float m = n.mass[i];
  vec3 force(0.0f);
  for (int k = 0; k < v.planes.count; ++k) {
    const vec3 normal = v.planes.normal[k];
    const float depth = -glm::dot(x - v.planes.point[k], normal);
    if (depth <= 0.0f) continue;
    const FemMaterial& a = v.materials[n.material[i]];
    const FemMaterial& b = v.materials[v.planes.material[k]];
    force += penaltyContactForce(depth, normal, u, m, dt, fminf(a.friction, b.friction),
                                 fmaxf(a.contactDamping, b.contactDamping));
  }
  for (int k = 0; k < v.projectiles.count; ++k) {
    if (!v.projectiles.active[k]) continue;
    const vec3 offset = x - v.projectiles.centre[k];
    const float distance = glm::length(offset);
    const float depth = v.projectiles.radius[k] - distance;
    if (depth <= 0.0f || distance <= 0.0f) continue;
    const FemMaterial& a = v.materials[n.material[i]];
    force += penaltyContactForce(depth, offset / distance, u - v.projectiles.velocity[k], m, dt, a.friction,
                                 a.contactDamping);
  }
  return force;
}

// Nodes: gather, accelerate, move (central differences).
template <class Exec>
void nodeStage(const Exec& exec, const FemViews& v, const FemStepParams& p) {
  const FemNodeView n = v.nodes;
  const vec3* cornerForce = v.tets.cornerForce;
  parallel_for(exec, n.count, [=] FRAC_HD(int i) {
    vec3 f(0.0f);
    for (int c = n.cornerStart[i]; c < n.cornerStart[i + 1]; ++c) f += cornerForce[n.corner[c]];
    const float m = n.mass[i];
    f += m * p.gravity + nodeContactForce(v, i, p.dt) - (p.damping * m) * n.velocity[i];
    n.force[i] = f;
    n.velocity[i] += (p.dt / m) * f;
    n.displacement[i] += p.dt * n.velocity[i];
  });
}

// Tetrahedra: the stress advanced with the velocity gradient of this step's half-step velocities (eq. 7-8), the
// pressure (eq. 11), and the corner forces at the new positions (eq. 4).
template <class Exec>
void stressStage(const Exec& exec, const FemViews& v, const FemStepParams& p) {
  const FemNodeView n = v.nodes;
  const FemTetView t = v.tets;
  const FemMaterial* materials = v.materials;
  parallel_for(exec, t.count, [=] FRAC_HD(int e) {
    const TetCorners c = t.corners[e];
    vec3 X[4], u[4], velocity[4];
    for (int k = 0; k < 4; ++k) {
      X[k] = n.reference[c.node[k]];
      u[k] = n.displacement[c.node[k]];
      velocity[k] = n.velocity[c.node[k]];
    }
    // The rate on the mid-step configuration x - dt/2 v (where the half-step velocities belong): for a rigid
    // rotation its velocity gradient is exactly skew (the Cayley transform of the step's rotation), so turning
    // bodies feel no spurious strain rate; the forces act at the new configuration.
    vec3 middle[4];
    for (int k = 0; k < 4; ++k) middle[k] = u[k] - (0.5f * p.dt) * velocity[k];
    const Deformation rate = deformationRate(tetGeometry(X, middle), velocity);
    const TetGeometry g = tetGeometry(X, u);
    const FemMaterial& m = materials[t.material[e]];
    const Sym3 s = jaumannUpdate(t.deviatoric[e], rate, m.shearModulus, p.dt);
    const float strain = volumetricStrainUpdate(t.volumetricStrain[e], rate, p.dt);
    const float pressure = linearPressure(m.bulkModulus, strain);
    t.deviatoric[e] = s;
    t.volumetricStrain[e] = strain;
    t.pressure[e] = pressure;
    t.volume[e] = g.volume;
    for (int k = 0; k < 4; ++k) t.cornerForce[4 * e + k] = cornerForce(g, s, pressure, k);
  });
}

// One step. `where`: views() of the state where it lives.
template <class Exec, class Where>
void stepStages(const Exec& exec, Where& where, const FemStepParams& p) {
  const FemViews v = where.views();
  nodeStage(exec, v, p);
  stressStage(exec, v, p);
}

}  // namespace frac::fem
