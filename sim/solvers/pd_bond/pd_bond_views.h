#pragma once
// Plain views (pointers + counts) that one bond-based peridynamics step works on; the same on host and device.
#include <cstdint>

#include "core/grid.h"
#include "core/math.h"

namespace frac {

// Particles on a lattice: reference positions X and displacements u (x = X + u; the stretch is formed from
// displacements, which keeps float precision at small strains, see kernels/pd_bond.h).
struct PdParticleView {
  int count = 0;
  const vec3* reference = nullptr;
  vec3* displacement = nullptr;
  vec3* velocity = nullptr;
  vec3* forceDensity = nullptr;     // N/m^3 (LAMMPS peri convention)
  const float* volume = nullptr;    // m^3
  const float* density = nullptr;   // kg/m^3
  const uint16_t* material = nullptr;
  float* thresholdShift = nullptr;  // eq. 5 term from the last step's smallest stretch: -alpha min(0, s_min)
  // pd-bond's family pass reads every family's thresholdShift while it computes the next: it writes them here (the
  // solver swaps the two after the pass). Null: the particle pass writes thresholdShift in place.
  float* nextThresholdShift = nullptr;
  // pd-state (Chen 2018); null for pd-bond
  const float* weightedVolume = nullptr;  // m_i over the full initial family
  float* dilatation = nullptr;            // theta_i of this step (eq. 6-7)
  float* damage = nullptr;                // phi_i = broken fraction of the initial family (eq. 19), last step's
  const vec3* externalForce = nullptr;    // optional applied force density (loads in tests and scenes)
  // Grips (scene kinematics with grip: true): particle i moves at driveVelocity[drivenBy[i]] when drivenBy[i] >= 0
  const int16_t* drivenBy = nullptr;
  const vec3* driveVelocity = nullptr;
};

// What a bond pass leaves for one end of a bond, at that end's place in its particle's family: the bond's force
// already weighted by the other end's volume and signed for this end (eq. 3: V_j f for the first particle, -V_i f for
// the second), and its stretch. The particle pass then reads its family's slots in order.
struct alignas(16) FamilySlot {
  vec3 force;
  float stretch;
};

// pd-bond's family pass (pd_bond_step.h familyBondPass, CUDA) computes each bond at both ends: what entry k of
// particle i needs of its bond, at the entry's slot. Both ends hold the same constants and reach the same
// broken flag (endBroken, per slot) with the same bits, so neither reads what the other writes.
struct alignas(16) FamilyBond {
  int32_t neighbor;
  float xiLength;        // |X_j - X_i|
  float beta;            // partial-volume factor of the pair
  float thresholdScale;  // the bond's s0 / mean s0
};

// Slots are stored sliced by groups of kSlotGroup consecutive particles (a GPU warp): entry k of particle i sits at
// groupStart[i / kSlotGroup] + k kSlotGroup + i % kSlotGroup, so the particles of a group read entry k side by side
// (one coalesced load per warp) while each still sums its own family in order. A group's block is as long as its
// largest family; shorter families leave unused slots.
constexpr int kSlotGroup = 32;

// Bonds stored once per pair (first < second) with per-particle CSR families; one broken flag serves both ends (the
// family pass keeps one per end, endBroken, and derives this one when it is read).
struct PdBondView {
  int count = 0;
  const int32_t* first = nullptr;
  const int32_t* second = nullptr;
  const float* xiLength = nullptr;         // |X_j - X_i|
  const float* beta = nullptr;             // partial-volume factor of the pair (1 without the correction)
  const float* thresholdScale = nullptr;   // per-bond s0 / mean s0 (normal scatter)
  uint8_t* broken = nullptr;               // family pass: from endBroken, refreshed when read (bondStateFromEnds)
  float* stretch = nullptr;                // this step's stretch (kBrokenStretch once broken); family pass: as broken
  const int32_t* slotOfFirst = nullptr;    // per bond: its slot in the first particle's family
  const int32_t* slotOfSecond = nullptr;   // and in the second's
  const int32_t* groupStart = nullptr;     // per group of kSlotGroup particles: where its slots begin (+ the end)
  int slotCount = 0;                       // slots in all, unused ones included
  FamilySlot* slot = nullptr;              // the bond passes write here (not with the family pass)
  const FamilyBond* familyBond = nullptr;  // family pass, per slot (unused slots: neighbour -1)
  uint8_t* endBroken = nullptr;            // family pass, per slot: the bond as its end last saw it
  // pd-state (Chen 2018); null for pd-bond. Per bond end: index 2 b for the first particle, 2 b + 1 for the second.
  const float* omega = nullptr;            // influence of eq. 5 / 17 as seen from that end
  float* plasticExtension = nullptr;       // e^p of that end (eq. 11-16)
  float* extension = nullptr;              // per bond: e = |y| - |xi| of this step (0 once broken)
  const int32_t* particleStart = nullptr;  // n + 1
  const int32_t* particleEntry = nullptr;  // 2 * bond + (1 if the particle is the second end)
  const int32_t* particleNeighbor = nullptr;
};

// Where entry k of particle i's family keeps its slot.
FRAC_HD inline int familySlot(const PdBondView& bonds, int i, int k) {
  return bonds.groupStart[i / kSlotGroup] + k * kSlotGroup + i % kSlotGroup;
}

// The stretch recorded for a broken bond: above any real stretch, so that it never is a particle's smallest.
constexpr float kBrokenStretch = 3.0e38f;

struct PdMaterial {
  float micromodulus;     // c of eq. 4 (pd-bond)
  float criticalStretch;  // mean s0 (pd-bond) or s_crit of Chen eq. 19 (pd-state)
  float alpha;            // eq. 5 (pd-bond)
  // pd-state (Chen 2018)
  float bulkModulus, shearModulus;
  float psi0;             // eq. 13
  float plasticLimit;     // gamma / |xi|, eq. 16
  float damageAlpha;      // eq. 19
};

enum class PdModel : uint8_t { Bond = 0, State = 1 };

enum class PdContact : uint8_t { Off = 0, Levine = 1, Lammps = 2 };
enum class PdProjectileModel : uint8_t { Levine = 0, Indenter = 1 };

// Projectiles move at constant velocity (Levine sec. 4, LAMMPS fix indent) and push particles away.
struct PdProjectileView {
  int count = 0;
  const vec3* centre = nullptr;
  const vec3* velocity = nullptr;
  const float* radius = nullptr;
  const float* forceConstant = nullptr;
  const PdProjectileModel* model = nullptr;
  const uint8_t* active = nullptr;
};

struct PdPlaneView {
  int count = 0;
  const vec3* point = nullptr;
  const vec3* normal = nullptr;
};

struct PdStepParams {
  PdModel model = PdModel::Bond;
  float dt = 1e-7f;
  float damping = 0.0f;  // 1/s: force density -rho c v
  vec3 gravity{0.0f};
  PdContact contact = PdContact::Levine;
  float contactStiffness = 1e8f;  // K_c of eq. 6
  float spacing = 1e-3f;          // lattice spacing lambda
  float horizon = 3e-3f;          // delta
  float restitution = 0.99f;      // floor
  bool lammpsStrengthening = false;
  bool forceInBreakingStep = false;  // LAMMPS: a bond that breaks still acts in that step
  // pd-bond: each bond computed at both of its ends in one pass over the families (CUDA; the CPU in tests), instead
  // of a bond pass and a gather (the CPU). Same bits; the views then carry familyBond, endBroken, nextThresholdShift.
  bool familyPass = false;
};

struct PdViews {
  PdParticleView particles;
  PdBondView bonds;
  PdProjectileView projectiles;
  PdPlaneView planes;
  const PdMaterial* materials = nullptr;
  // Contact candidates (Verlet list, CSR, sorted by index): pairs within the contact distance + listSkin.
  const int32_t* neighborStart = nullptr;
  const int32_t* neighborList = nullptr;
  float listSkin = 0.0f;
  GridView grid;  // built with the list
};

}  // namespace frac
