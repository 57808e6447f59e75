#pragma once
// Every array of a peridynamics simulation (pd-bond, Levine et al. 2014 / LAMMPS peri/pmb; pd-state, Chen et al.
// 2018), named once (solvers/state_arrays.h): the lists below give the host storage (PdArrays), the plain views one
// step works on (PdViews, the same on host and device), what a CUDA mirror uploads and downloads, and the state digest.
//
// Which force passes run is a choice made once, PdForcePass; each pass reads only its own arrays (the others stay
// empty), and no stage asks a null pointer which pass is running.
#include <cstdint>
#include <vector>

#include "core/grid.h"
#include "core/math.h"
#include "kernels/pd_bond.h"
#include "kernels/pd_contact.h"
#include "kernels/pd_state.h"
#include "solvers/state_arrays.h"

namespace frac {

enum class PdModel : uint8_t { Bond = 0, State = 1 };  // pd-bond (PMB) or pd-state (Chen's LPS)

enum class PdForcePass : uint8_t {
  Bonds,     // pd-bond: a pass over the bonds leaves each bond's force at both ends' family slots, then a gather
  Families,  // pd-bond: each particle computes every bond of its family itself (each bond at both ends; CUDA)
  States,    // pd-state: extensions, dilatations and the two end forces per bond into the slots, then the gather
};

// What a bond pass leaves for one end of a bond, at that end's place in its particle's family: the bond's force
// already weighted by the other end's volume and signed for this end (eq. 3: V_j f for the first particle, -V_i f for
// the second), and its stretch. The particle pass then reads its family's slots in order.
struct alignas(16) FamilySlot {
  vec3 force;
  float stretch;
};

// The family pass's view of one family entry: what entry k of particle i needs of its bond, at the entry's slot.
// Both ends hold the same constants and reach the same broken flag (endBroken) with the same bits, so neither reads
// what the other writes. 8 bytes, streamed once per entry per step: the partial-volume factor is recomputed from
// |xi| (bondBeta) and the threshold scale lives in its own array, present only where some bond's is not 1.
struct alignas(8) FamilyBond {
  int32_t neighbor;
  float xiLength;  // |X_j - X_i|
};

// Family slots are stored sliced by groups of 2^slotGroupShift consecutive particles: entry k of particle i sits at
// groupStart[i / G] + k G + i % G (G = 2^shift), and a group's block is as long as its largest family (shorter
// families leave unused slots). The layout follows where the passes run (PeridynamicsSolver::arrangeForcePass): on the
// device a group is a warp, so its particles read entry k side by side (one coalesced load per warp); on the CPU a
// group is one particle, so a family's slots are one run of memory that its bonds' writes and its gather walk in order.
// Each particle sums its family in the same order in either layout: the same bits.
constexpr int kDeviceSlotGroupShift = 5;  // 32 particles, a warp
constexpr int kCpuSlotGroupShift = 0;

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

// ---- the lists: X(view type, name, travel, digest) ------------------------------------------------------------------

// Particles on a lattice: reference positions X and displacements u (x = X + u; the stretch is formed from
// displacements, which keeps float precision at small strains, see kernels/pd_bond.h).
#define FRAC_PD_PARTICLE_ARRAYS(X)                                                                         \
  X(const vec3, reference, Constant, false)                                                                \
  X(vec3, displacement, State, true)                                                                       \
  X(vec3, velocity, State, true)                                                                           \
  X(vec3, forceDensity, State, false) /* N/m^3 (LAMMPS peri convention) */                                 \
  X(const float, volume, Constant, false) /* m^3 */                                                        \
  X(const float, density, Constant, false) /* kg/m^3 */                                                    \
  X(const uint16_t, material, Constant, false)                                                             \
  X(const float, radius, Constant, false) /* drawn and picked radius */                                    \
  X(float, thresholdShift, State, false) /* eq. 5 term from the last step's smallest stretch */            \
  X(float, nextThresholdShift, Scratch, false) /* this step's, swapped in after the forces */              \
  X(const vec3, externalForce, Constant, false) /* optional applied force density (tests, loads); empty */ \
  X(const int16_t, drivenBy, Constant, false) /* the grip that moves it, or -1; empty without grips */        \
  X(quat, rotation, Scratch, false) /* its frame for the fracture surfaces, fitted to its family (pd_surface.h) */

// Grips (scene kinematics with grip: true) move their particles at this step's velocity, except along a roller's
// axis (driveSlide: Grips::slideMasks).
#define FRAC_PD_GRIP_ARRAYS(X) X(vec3, driveVelocity, Input, false) X(const vec3, driveSlide, Constant, false)

// pd-state (Chen 2018), per particle.
#define FRAC_PD_STATE_PARTICLE_ARRAYS(X)                                                                   \
  X(const float, weightedVolume, Constant, false) /* m_i over the full initial family */                   \
  X(float, dilatation, State, false) /* theta_i of this step (eq. 6-7) */                                  \
  X(PsEndConstants, endConstants, Scratch, false) /* this step's, for its bond ends (psEndConstants) */     \
  X(float, damage, State, false) /* phi_i = broken fraction of the initial family (eq. 19), last step's */

// Bonds stored once per pair (first < second) with per-particle CSR families and each bond's two family slots.
#define FRAC_PD_BOND_ARRAYS(X)                                                                             \
  X(const int32_t, first, Constant, false)                                                                 \
  X(const int32_t, second, Constant, false)                                                                \
  X(const float, xiLength, Constant, false) /* |X_j - X_i| */                                              \
  X(const float, beta, Constant, false) /* partial volume of the pair (1 without) x surface correction */ \
  X(const float, thresholdScale, Constant, false) /* per-bond s0 / mean s0 (normal scatter) */             \
  X(uint8_t, broken, State, true) /* Families: derived from endBroken when read (bondStateStage) */         \
  X(float, stretch, State, false) /* this step's (kBrokenStretch once broken); Families: as broken */      \
  X(const int32_t, particleStart, Constant, false) /* n + 1 */                                             \
  X(const int32_t, particleEntry, Constant, false) /* 2 bond + (1 if the particle is the second end) */    \
  X(const int32_t, particleNeighbor, Constant, false)                                                      \
  X(const int32_t, slotOfFirst, Constant, false) /* per bond: its slot in the first particle's family */   \
  X(const int32_t, slotOfSecond, Constant, false) /* and in the second's */                                \
  X(const int32_t, groupStart, Constant, false) /* per group of 2^slotGroupShift particles, + the end */

// Bonds and States: each bond's result at both ends (slot count = groupStart's last entry). States also: each end's
// term of eq. 6's dilatation sum, left by the extension pass for the dilatation pass (empty for Bonds).
#define FRAC_PD_SLOT_ARRAYS(X)        \
  X(FamilySlot, slot, Scratch, false) \
  X(float, dilatationTerm, Scratch, false)

// Families: per slot, the entry's bond constants (unused slots: neighbour -1), its threshold scale (empty when every
// bond's is 1: no material scatters its threshold, and the pass reads 1 instead), its beta (empty when every bond's is
// the partial volume of its length: no surface correction, and the pass recomputes it) and the bond as that end last
// saw it.
#define FRAC_PD_FAMILY_ARRAYS(X)                              \
  X(const FamilyBond, familyBond, Constant, false)            \
  X(const float, familyThresholdScale, Constant, false)       \
  X(const float, familyBeta, Constant, false)                 \
  X(uint8_t, endBroken, State, false)

// pd-state per bond end (index 2 b for the first particle, 2 b + 1 for the second), and per bond.
#define FRAC_PD_STATE_BOND_ARRAYS(X)                                                                       \
  X(const float, omega, Constant, false) /* influence of eq. 5 / 17 as seen from that end */               \
  X(float, plasticExtension, State, true) /* e^p of that end (eq. 11-16) */                                \
  X(float, extension, State, false) /* per bond: e = |y| - |xi| of this step (0 once broken) */

// Projectiles: their poses move on the host (constant velocity, or the reaction of the particles for dynamic ones).
#define FRAC_PD_PROJECTILE_ARRAYS(X)                                                                       \
  X(vec3, centre, Input, false)                                                                            \
  X(vec3, velocity, Input, false)                                                                          \
  X(uint8_t, active, Input, false)                                                                         \
  X(const float, radius, Constant, false)                                                                  \
  X(const float, forceConstant, Constant, false)                                                           \
  X(const PdProjectileModel, model, Constant, false)

#define FRAC_PD_PLANE_ARRAYS(X)        \
  X(const vec3, point, Constant, false) \
  X(const vec3, normal, Constant, false)

// The materials; each particle's outer-surface samples (surface/boundary_samples.h: per particle + 1, relative to its
// reference position); the CPU's contact list (CSR, sorted by index: pairs within the contact distance + skin), a
// device builds its own.
#define FRAC_PD_SCENE_ARRAYS(X)                        \
  X(const PdMaterial, materials, Constant, false)      \
  X(const int32_t, sampleStart, Constant, false)       \
  X(const vec3, samplePoint, Constant, false)          \
  X(const vec3, sampleNormal, Constant, false)         \
  X(const int32_t, neighborStart, HostOnly, false)     \
  X(const int32_t, neighborList, HostOnly, false)

// ---- the views --------------------------------------------------------------------------------------------------------

struct PdParticleView {
  int count = 0;
  FRAC_PD_PARTICLE_ARRAYS(FRAC_ARRAY_VIEW_MEMBER)
  FRAC_PD_GRIP_ARRAYS(FRAC_ARRAY_VIEW_MEMBER)
  FRAC_PD_STATE_PARTICLE_ARRAYS(FRAC_ARRAY_VIEW_MEMBER)
};

struct PdBondView {
  int count = 0;
  int slotCount = 0;       // unused slots included
  int slotGroupShift = 0;  // the slots' layout: groups of 2^slotGroupShift particles (see kDeviceSlotGroupShift)
  FRAC_PD_BOND_ARRAYS(FRAC_ARRAY_VIEW_MEMBER)
  FRAC_PD_SLOT_ARRAYS(FRAC_ARRAY_VIEW_MEMBER)
  FRAC_PD_FAMILY_ARRAYS(FRAC_ARRAY_VIEW_MEMBER)
  FRAC_PD_STATE_BOND_ARRAYS(FRAC_ARRAY_VIEW_MEMBER)
};

struct PdProjectileView {
  int count = 0;
  FRAC_PD_PROJECTILE_ARRAYS(FRAC_ARRAY_VIEW_MEMBER)
};

struct PdPlaneView {
  int count = 0;
  FRAC_PD_PLANE_ARRAYS(FRAC_ARRAY_VIEW_MEMBER)
};

struct PdViews {
  PdParticleView particles;
  PdBondView bonds;
  PdProjectileView projectiles;
  PdPlaneView planes;
  GridView grid;  // the device's contact grid (built with its list)
  float listSkin = 0.0f;
  FRAC_PD_SCENE_ARRAYS(FRAC_ARRAY_VIEW_MEMBER)
};

// Where entry k of particle i's family keeps its slot.
FRAC_HD inline int familySlot(const PdBondView& bonds, int i, int k) {
  const int shift = bonds.slotGroupShift;
  return bonds.groupStart[i >> shift] + (k << shift) + (i & ((1 << shift) - 1));
}

// From entry k's slot to entry k + 1's.
FRAC_HD inline int familySlotStride(const PdBondView& bonds) { return 1 << bonds.slotGroupShift; }

// ---- the host storage -------------------------------------------------------------------------------------------------

struct PdParticleArrays {
  FRAC_PD_PARTICLE_ARRAYS(FRAC_ARRAY_HOST_MEMBER)
  FRAC_PD_GRIP_ARRAYS(FRAC_ARRAY_HOST_MEMBER)
  FRAC_PD_STATE_PARTICLE_ARRAYS(FRAC_ARRAY_HOST_MEMBER)
  std::vector<int32_t> body;  // host only: the scene body (or thrown ball) it belongs to
  int size() const { return int(reference.size()); }
};

struct PdBondArrays {
  FRAC_PD_BOND_ARRAYS(FRAC_ARRAY_HOST_MEMBER)
  FRAC_PD_SLOT_ARRAYS(FRAC_ARRAY_HOST_MEMBER)
  FRAC_PD_FAMILY_ARRAYS(FRAC_ARRAY_HOST_MEMBER)
  FRAC_PD_STATE_BOND_ARRAYS(FRAC_ARRAY_HOST_MEMBER)
  long long size() const { return (long long)first.size(); }
  int slotCount() const { return groupStart.empty() ? 0 : groupStart.back(); }
  int slotGroupShift = -1;  // the layout of groupStart and slotOf*: -1 until one is laid out (arrangeForcePass)
};

struct PdProjectileArrays {
  FRAC_PD_PROJECTILE_ARRAYS(FRAC_ARRAY_HOST_MEMBER)
  int size() const { return int(centre.size()); }
};

struct PdPlaneArrays {
  FRAC_PD_PLANE_ARRAYS(FRAC_ARRAY_HOST_MEMBER)
};

struct PdArrays {
  PdParticleArrays particles;
  PdBondArrays bonds;
  PdProjectileArrays projectiles;
  PdPlaneArrays planes;
  FRAC_PD_SCENE_ARRAYS(FRAC_ARRAY_HOST_MEMBER)
};

// Every peridynamics array in list order (the state digest hashes displacements, velocities, the broken flags and,
// for pd-state, the plastic extensions).
template <class F>
void forEachArray(PdArrays& a, PdViews& v, F&& f) {
  {
    PdParticleArrays& host = a.particles;
    PdParticleView& view = v.particles;
    [[maybe_unused]] constexpr const char* arrayGroup = "elements";
    FRAC_PD_PARTICLE_ARRAYS(FRAC_ARRAY_VISIT)
    FRAC_PD_GRIP_ARRAYS(FRAC_ARRAY_VISIT)
    FRAC_PD_STATE_PARTICLE_ARRAYS(FRAC_ARRAY_VISIT)
  }
  {
    PdBondArrays& host = a.bonds;
    PdBondView& view = v.bonds;
    [[maybe_unused]] constexpr const char* arrayGroup = "bonds";
    FRAC_PD_BOND_ARRAYS(FRAC_ARRAY_VISIT)
    FRAC_PD_SLOT_ARRAYS(FRAC_ARRAY_VISIT)
    FRAC_PD_FAMILY_ARRAYS(FRAC_ARRAY_VISIT)
    FRAC_PD_STATE_BOND_ARRAYS(FRAC_ARRAY_VISIT)
  }
  {
    PdProjectileArrays& host = a.projectiles;
    PdProjectileView& view = v.projectiles;
    [[maybe_unused]] constexpr const char* arrayGroup = "projectiles";
    FRAC_PD_PROJECTILE_ARRAYS(FRAC_ARRAY_VISIT)
  }
  {
    PdPlaneArrays& host = a.planes;
    PdPlaneView& view = v.planes;
    [[maybe_unused]] constexpr const char* arrayGroup = "planes";
    FRAC_PD_PLANE_ARRAYS(FRAC_ARRAY_VISIT)
  }
  PdArrays& host = a;
  PdViews& view = v;
  [[maybe_unused]] constexpr const char* arrayGroup = "scene";
  FRAC_PD_SCENE_ARRAYS(FRAC_ARRAY_VISIT)
}

// The views of the host arrays (the device's grid and skin are the device's).
inline PdViews hostViews(PdArrays& a) {
  PdViews v;
  bindHostArrays(a, v);
  v.particles.count = a.particles.size();
  v.bonds.count = int(a.bonds.size());
  v.bonds.slotCount = a.bonds.slotCount();
  v.bonds.slotGroupShift = a.bonds.slotGroupShift < 0 ? 0 : a.bonds.slotGroupShift;
  v.projectiles.count = a.projectiles.size();
  v.planes.count = int(a.planes.point.size());
  return v;
}

}  // namespace frac
