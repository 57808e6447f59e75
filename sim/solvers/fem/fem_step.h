#pragma once
// One explicit FEM time step on linear tetrahedra (Zhang et al., hybrid FEM / meshfree debris, sec. 3.1): central
// differences with lumped masses (eq. 1, 4). The stage order is written once here (stepStages) for every exec:
//   debris: each particle's pressure from its compression (eq. 11-13), then its forces from its debris neighbours
//           (eq. 19 and contact), and, once there is debris, its contacts with the mesh's boundary faces and with
//           particles that were not its neighbours (on a grid of the nodes; each face node gathers its share); with
//           two bodies or more, each surface node's contacts with the other bodies' boundary faces; all before
//           anything moves
//   nodes:  a = (gathered corner forces + gravity + contact + pairs) / m;  v += dt a;  x += dt v  (eq. 1, 4-6)
//   tets:   the material at the new positions from the velocity gradient (eq. 7-16), failure, the corner forces
//   debris: a node all of whose tetrahedra failed becomes a particle (sec. 3.2)
// Each node gathers its incident corners' forces and its debris pairs in a fixed order (no scatter, no atomics), so
// every thread count gives the same bits. The contact stages are in fem_contact_stages.h.
#include "backend/atomics.h"
#include "kernels/integrate.h"
#include "kernels/fem_contact.h"
#include "kernels/fem_debris.h"
#include "kernels/fem_material.h"
#include "kernels/fem_tet.h"
#include "solvers/fem/fem_arrays.h"
#include "solvers/fem/fem_contact_stages.h"
#include "solvers/fem/fem_pieces.h"
#include "solvers/fem/fem_step_params.h"

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

// The forces on debris particle i from the debris particles among its mesh neighbours (eq. 19 and their contact).
// Departure: only particles that were neighbours in the mesh interact (a fixed list: no search, the same order on
// every backend); particles from different places that meet later pass each other.
FRAC_HD inline vec3 debrisForce(const FemViews& v, int i, float dt) {
  const FemNodeView& n = v.nodes;
  const DebrisParticle a = debrisParticle(n, i);
  const FemMaterial& ma = v.materials[n.material[i]];
  vec3 force(0.0f);
  for (int k = n.neighborStart[i]; k < n.neighborStart[i + 1]; ++k) {
    const int j = n.neighbor[k];
    if (!n.debris[j]) continue;
    const FemMaterial& mb = v.materials[n.material[j]];
    force += debrisPairForce(a, debrisParticle(n, j), n.neighborRest[k], dt, fminf(ma.friction, mb.friction),
                             fmaxf(ma.contactDamping, mb.contactDamping));
  }
  return force;
}

// Debris pressure: each particle's pressure from the equation of state at its compression, "to continually model
// the pressure field resulting from the equation of state" (sec. 3): mu = the mean over its debris neighbours of
// (rest distance / distance)^3 - 1, each at most kDebrisMaxCompression, p = eq. 11-13 at that mu (no energy term),
// tension taken as 0 (fem_debris.h). A pair's rest distance is set when the two first are debris together: their
// distance in the mesh, or their distance then if the failed elements between them let them come closer (both sides
// compute it from the same positions, so the pair stays symmetric).
// Departure: the paper does not say how a particle's pressure evolves; a pressure frozen at conversion would push
// the particles apart with p V of energy each, hundreds of times the elastic energy the failed material held.
template <class Exec>
void debrisPressureStage(const Exec& exec, const FemViews& v) {
  const FemNodeView n = v.nodes;
  const FemMaterial* materials = v.materials;
  parallel_for(exec, n.count, [=] FRAC_HD(int i) {
    if (!n.debris[i]) return;
    float mu = 0.0f;
    int count = 0;
    for (int k = n.neighborStart[i]; k < n.neighborStart[i + 1]; ++k) {
      const int j = n.neighbor[k];
      if (!n.debris[j]) continue;
      const vec3 reference = n.reference[i] - n.reference[j];
      const float distance = glm::length(reference + (n.displacement[i] - n.displacement[j]));
      if (n.neighborRest[k] == 0.0f) n.neighborRest[k] = fminf(glm::length(reference), distance);
      const float ratio = n.neighborRest[k] / fmaxf(distance, 1e-3f * n.neighborRest[k]);
      mu += fminf(ratio * ratio * ratio - 1.0f, kDebrisMaxCompression);
      ++count;
    }
    const FemMaterial& m = materials[n.material[i]];
    n.debrisPressure[i] = count > 0 ? fmaxf(mieGruneisenPressure(m.eos, m.restDensity, mu / float(count), 0.0f), 0.0f)
                                    : 0.0f;
  });
}

// Debris pairs: every particle's pair forces from the positions and velocities before any node moves (a pair's two
// forces are then equal and opposite, and no thread reads a node another one is moving).
template <class Exec>
void debrisPairStage(const Exec& exec, const FemViews& v, const FemStepParams& p) {
  const FemNodeView n = v.nodes;
  parallel_for(exec, n.count, [=] FRAC_HD(int i) {
    if (n.debris[i]) n.pairForce[i] = debrisForce(v, i, p.dt);
  });
}

// Each node's position now.
template <class Exec>
void positionStage(const Exec& exec, const FemViews& v) {
  const FemNodeView n = v.nodes;
  parallel_for(exec, n.count, [=] FRAC_HD(int i) { n.position[i] = n.reference[i] + n.displacement[i]; });
}


// Nodes: gather, accelerate, move (central differences). A node a kinematic drives (a grip's, or a rigid kinematic's
// mesh) moves with it: translated at its velocity and turned about its centre by the step's rotation (an exact
// Dirichlet condition: the stress pass sees the rate it imposes; the rotation in its Cayley form, r' = r + 2 / (1 +
// |a|^2) a x (r + a x r) with a = spin dt / 2: orthogonal, no libm, the same bits on every backend); its force is the
// load on the kinematic.
template <class Exec>
void nodeStage(const Exec& exec, const FemViews& v, const FemStepParams& p) {
  const FemNodeView n = v.nodes;
  const vec3* cornerForce = v.tets.cornerForce;
  const vec3* driveVelocity = v.driveVelocity;
  const vec3* driveSpin = v.driveSpin;
  const vec3* driveSlide = v.driveSlide;
  const vec3* driveCentre = v.driveCentre;
  parallel_for(exec, n.count, [=] FRAC_HD(int i) {
    vec3 f(0.0f);
    for (int c = n.cornerStart[i]; c < n.cornerStart[i + 1]; ++c) f += cornerForce[n.corner[c]];
    const float m = n.mass[i];
    f += m * p.gravity + nodeContactForce(v, i, p.dt) - (p.damping * m) * n.velocity[i];
    if (n.debris[i]) f += n.pairForce[i];
    if (p.contactStages()) f += n.meshContact[i];
    n.force[i] = f;
    const int grip = n.drivenBy ? n.drivenBy[i] : -1;
    if (grip >= 0) {
      const vec3 r = n.reference[i] + n.displacement[i] - driveCentre[grip];
      const vec3 a = (0.5f * p.dt) * driveSpin[grip];
      const vec3 turned = r + (2.0f / (1.0f + glm::dot(a, a))) * glm::cross(a, r + glm::cross(a, r));
      n.velocity[i] = prescribedOrFree(driveSlide[grip], driveVelocity[grip] + (turned - r) / p.dt,
                                       n.velocity[i] + (p.dt / m) * f);
    } else {
      n.velocity[i] = n.velocity[i] + (p.dt / m) * f;
    }
    n.displacement[i] += p.dt * n.velocity[i];
  });
}

// The material update of one tetrahedron over dt (eq. 7-16) from its rate of deformation; returns the Cauchy stress
// as (deviatoric part, pressure incl. the artificial viscosity): sigma = (1 - phi) s~ - (p + q) I. Departure: the
// damage scales the deviatoric stress only (the failed material "retains the hydrostatic pressure", sec. 3.1).
FRAC_HD inline void materialUpdate(const FemTetView& t, int e, const FemMaterial& m, const Deformation& rate,
                                   const FemStepParams& p, Sym3& stress, float& pressure) {
  const JohnsonCook& jc = m.jc;
  Sym3 s = jaumannUpdate(t.deviatoric[e], rate, m.shearModulus, p.dt);  // trial (effective)
  const float third = trace(rate.rate) / 3.0f;
  const Sym3 dev{rate.rate.xx - third, rate.rate.yy - third, rate.rate.zz - third, rate.rate.xy, rate.rate.yz,
                 rate.rate.zx};
  const float strainRate = sqrtf(2.0f / 3.0f * contract(dev));
  const float homologous = homologousTemperature(jc, t.temperature[e]);
  float equivalent;  // von Mises of the returned stress
  const float plastic =
      radialReturn(s, t.plasticStrain[e], m.shearModulus, jc, flowFactor(jc, strainRate, homologous), equivalent);
  const float strain = volumetricStrainUpdate(t.volumetricStrain[e], rate, p.dt);
  const float mu = -strain / (1.0f + strain), density = m.restDensity * (1.0f + mu);
  float damage = t.damage[e];
  // eq. 10/15: the work of the last stress on this step's rate, per unit mass
  const float work = (1.0f - damage) * (s.xx * dev.xx + s.yy * dev.yy + s.zz * dev.zz +
                                        2.0f * (s.xy * dev.xy + s.yz * dev.yz + s.zx * dev.zx)) -
                     t.pressure[e] * 3.0f * third;
  const float energy = t.energy[e] + p.dt * work / density;
  const float eos = mieGruneisenPressure(m.eos, m.restDensity, mu, energy);
  const float q = artificialViscosity(p.viscosityQuadratic, p.viscosityLinear, t.length[e], density, m.soundSpeed,
                                      third);
  if (plastic > 0.0f) {
    t.temperature[e] += kTaylorQuinney * equivalent * plastic / (density * jc.heatCapacity);  // eq. 9
    const float total = t.plasticStrain[e] + plastic;
    if (total > jc.damageStrain && equivalent > 0.0f) {  // Lemaitre damage past eps_D, to 1 at eps_F
      const float fracture = fractureStrain(jc, -eos / equivalent, strainRate, homologous);
      damage = fracture > jc.damageStrain ? fminf(damage + plastic / (fracture - jc.damageStrain), 1.0f) : 1.0f;
    }
    t.plasticStrain[e] = total;
  }
  // The spall cut-off (departure: not in Zhang, whose damage grows with plastic strain only, so a brittle material
  // fails in tension only where it yields: with a yield stress low enough for that, the compression wave of an
  // impact crushes it): a tetrahedron whose largest principal stress exceeds the material's tensile strength fails.
  if (m.spallStrength < 3e38f) {
    const float held = 1.0f - damage;  // the stress the element carries: (1 - phi) s~ - (p + q) I
    const Sym3 carried{held * s.xx, held * s.yy, held * s.zz, held * s.xy, held * s.yz, held * s.zx};
    if (exceedsPrincipal(carried, eos + q, m.spallStrength)) damage = 1.0f;
  }
  t.deviatoric[e] = s;
  t.volumetricStrain[e] = strain;
  t.energy[e] = energy;
  t.damage[e] = damage;
  t.pressure[e] = eos + q;
  if (damage >= 1.0f) t.failed[e] = 1;  // removed from the next pass on (sec. 3.1)
  const float keep = 1.0f - damage;
  stress = Sym3{keep * s.xx, keep * s.yy, keep * s.zz, keep * s.xy, keep * s.yz, keep * s.zx};
  pressure = eos + q;
}

// Tetrahedra: the material advanced with the velocity gradient of this step's half-step velocities (eq. 7-16) and the
// corner forces at the new positions (eq. 4); a failed tetrahedron exerts none.
template <class Exec>
void stressStage(const Exec& exec, const FemViews& v, const FemStepParams& p) {
  const FemNodeView n = v.nodes;
  const FemTetView t = v.tets;
  const FemMaterial* materials = v.materials;
  int32_t* pieceWords = v.pieceWords;
  parallel_for(exec, t.count, [=] FRAC_HD(int e) {
    if (t.failed[e]) {
      for (int k = 0; k < 4; ++k) t.cornerForce[4 * e + k] = vec3(0.0f);
      return;
    }
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
    // Edges from corner 0 now (reference and displacement differences apart: a small strain keeps its precision)
    // and at mid-step.
    vec3 edge[3], middle[3];
    for (int k = 0; k < 3; ++k) {
      edge[k] = (X[k + 1] - X[0]) + (u[k + 1] - u[0]);
      middle[k] = edge[k] - (0.5f * p.dt) * (velocity[k + 1] - velocity[0]);
    }
    const Deformation rate = deformationRate(tetGeometry(vec3(0.0f), middle[0], middle[1], middle[2]), velocity);
    const TetForceGeometry g = tetForceGeometry(edge);
    Sym3 stress;
    float pressure;
    materialUpdate(t, e, materials[t.material[e]], rate, p, stress, pressure);
    if (t.failed[e]) atomicStoreInt(pieceWords, 1);  // failed this step: the pieces may have split
    t.volume[e] = g.volume;
    vec3 force[4];
    cornerForces(g, stress, pressure, force);
    for (int k = 0; k < 4; ++k) t.cornerForce[4 * e + k] = force[k];
  });
}

// Debris (sec. 3.2): a node all of whose tetrahedra have failed becomes a particle, keeping its mass (already a
// quarter of each incident element's), position and velocity, so mass and momentum are conserved exactly.
template <class Exec>
void debrisStage(const Exec& exec, const FemViews& v) {
  const FemNodeView n = v.nodes;
  const FemTetView t = v.tets;
  int32_t* anyDebris = v.anyDebris;
  parallel_for(exec, n.count, [=] FRAC_HD(int i) {
    if (n.debris[i] || n.cornerStart[i] == n.cornerStart[i + 1]) return;
    for (int c = n.cornerStart[i]; c < n.cornerStart[i + 1]; ++c)
      if (!t.failed[n.corner[c] / 4]) return;
    n.debris[i] = 1;
    atomicStoreInt(anyDebris, 1);
  });
}

// One step. `where`: views() of the state where it lives.
template <class Exec, class Where>
void stepStages(const Exec& exec, Where& where, const FemStepParams& p) {
  const FemViews v = where.views();
  if (p.labelCheck) relabelPiecesIfSplit(exec, v);
  debrisPressureStage(exec, v);
  debrisPairStage(exec, v, p);
  if (p.contactStages()) {
    positionStage(exec, v);
    boundaryFacesStage(exec, v);
    // The grids over the nodes' box this step: the mesh nodes' with cells of the largest particle radius plus the
    // largest faceReach, the particles' with cells of 2 largest radii (grown when the box would need more than 8
    // cells a node).
    contactBoundsStage(exec, v);
    int32_t word[7];
    readValues(exec, word, v.contactBounds, 7);
    const vec3 lo(floatFromOrderedBits(word[0]), floatFromOrderedBits(word[1]), floatFromOrderedBits(word[2]));
    const vec3 hi(floatFromOrderedBits(word[3]), floatFromOrderedBits(word[4]), floatFromOrderedBits(word[5]));
    const float reach = floatFromOrderedBits(word[6]);
    const FemNodeView& n = v.nodes;
    const int64_t cells = int64_t(8) * n.count > (1 << 16) ? int64_t(8) * n.count : (1 << 16);
    const GridView debrisGrid = where.contactGrid(0).build(exec, gridWindow(lo, hi, 2.0f * p.largestRadius, cells),
                                                           n.position, n.particleRadius, n.contactGrid, 2 | 4, n.count);
    const GridView meshGrid =
        where.contactGrid(1).build(exec, gridWindow(lo, hi, fmaxf(reach, 1e-6f) + p.largestRadius, cells), n.position,
                                   n.particleRadius, n.contactGrid, 1 | 4, n.count);
    if (p.bodyContact) bodyContactStage(exec, v, meshGrid, reach, p);
    meshContactStage(exec, v, debrisGrid, meshGrid, p);
  }
  nodeStage(exec, v, p);
  stressStage(exec, v, p);
  debrisStage(exec, v);
}

}  // namespace frac::fem
