#pragma once
// Every array of an explicit BDEM simulation (Lu et al. 2021), named once (solvers/state_arrays.h): the lists below
// give the host storage (BdemArrays), the plain views one step works on (BdemViews, the same on host and device),
// what a CUDA mirror uploads and downloads, and the state digest.
#include <cstdint>
#include <vector>

#include "core/grid.h"
#include "kernels/bdem_bond.h"
#include "solvers/rbdem/rbdem_arrays.h"
#include "solvers/state_arrays.h"

namespace frac {

enum BdemElementFlags : uint8_t {
  kFlagKinematic = 1,   // infinite mass, moved on a prescribed path (Lu sec. 5.2)
  kFlagProjectile = 2,  // a thrown or scripted ball: kept out of the grid, its contacts found by a direct scan
  kFlagInactive = 4,    // not yet launched: no forces, no motion, not drawn
  kFlagTurns = 8,       // with kFlagKinematic: only the position is prescribed, the element turns (a pin's)
  kFlagSlideX = 16,     // with kFlagTurns: x is not prescribed either, the element moves along it (a roller's,
  kFlagSlideY = 32,     //   an axial grip's two axes); kFlagSlideX << axis
  kFlagSlideZ = 64,
};

// Elements whose orientation the step integrates: the free ones and those of kinematics that hold position only.
FRAC_HD inline bool turnsFreely(uint8_t flags) {
  return !(flags & kFlagInactive) && (!(flags & kFlagKinematic) || (flags & kFlagTurns));
}
// The coordinates of a kinematic's element that the step integrates (1) rather than prescribes (0): a roller's axis,
// an axial grip's two.
FRAC_HD inline vec3 slideMask(uint8_t flags) {
  return vec3((flags & kFlagSlideX) ? 1.0f : 0.0f, (flags & kFlagSlideY) ? 1.0f : 0.0f,
              (flags & kFlagSlideZ) ? 1.0f : 0.0f);
}
FRAC_HD inline bool slides(uint8_t flags) {
  return (flags & kFlagKinematic) && !(flags & kFlagInactive) && (flags & (kFlagSlideX | kFlagSlideY | kFlagSlideZ));
}

constexpr int kPlanePartnerBase = -2;  // contact partner id of plane k is kPlanePartnerBase - k
constexpr int kNoPartner = -1;

// BdemBondView::broken: 0 intact; nonzero broken. The bond pass marks a bond that fails kBondBrokeThisStep (its pair
// becomes a contact in the same step, also where the Verlet list was built while it held) and kBondBroken from the
// next step on.
constexpr uint8_t kBondIntact = 0, kBondBroken = 1, kBondBrokeThisStep = 2;

// Material constants as the kernels read them (SI units).
struct BdemMaterial {
  float young, shear;
  float tensileStrength, shearStrength;
  float friction;
  float bondDamping;     // zeta of the bond dashpots
  float contactDamping;  // zeta from the coefficient of restitution
  float fractureEnergy;  // G_f of the bonds' cohesive softening (kernels/bdem_bond.h); 0 = brittle (Lu)
};

// Per-bond constants derived from the material and the rest state; recomputed when a material changes.
struct BondCoefficients {
  BondStiffness stiffness;   // eq. 3, 11, 16 with the eq. 30 factor
  float dampForce;           // 2 zeta sqrt(k_n m_eff), 0 without damping or between two infinite masses
  float dampMoment;          // 2 zeta sqrt(k_b I_eff)
  float tensileStrength;     // sigma_c of this bond (Weibull draw and eq. 30 factor included)
  float shearStrength;       // tau_c
  float fractureWork = 0.0f; // G_f S of a softening bond (kernels/bdem_bond.h); 0 = brittle
  float unused = 0.0f;       // 16 floats: a power of two, so the bond loop vectorises
};

// A projectile's contacts with the grid elements are summed in kProjectileChunks strided chunks (chunk c: the grid
// elements gridElements[c], gridElements[c + kProjectileChunks], ... in that order), each a partial sum, and the
// partials in chunk order: a fixed order on every backend and thread count, and parallel work on a GPU instead of one
// thread scanning every element near the ball (bdem_step.h projectileChunkPass).
constexpr int kProjectileChunks = 256;
struct ProjectilePartial {
  vec3 force;
  vec3 torque;
  double energy;
};

// ---- the lists: X(view type, name, travel, digest) ------------------------------------------------------------------

// Per element (spheres of radius r, Lu sec. 3): state, loads and constants.
#define FRAC_BDEM_ELEMENT_ARRAYS(X)                                                                        \
  X(vec3, position, State, true)                                                                           \
  X(vec3, positionLow, State, true) /* what rounding dropped from position (integrate.h drift): x = hi + lo */ \
  X(vec3, velocity, State, true)                                                                           \
  X(quat, orientation, State, true)                                                                        \
  X(vec3, angularVelocity, State, true) /* world frame (spheres: isotropic inertia) */                     \
  X(vec3, force, State, false)                                                                             \
  X(vec3, torque, State, false)                                                                            \
  X(float, radius, Constant, false)                                                                        \
  X(float, invMass, Constant, false)                                                                       \
  X(float, invInertia, Constant, false)                                                                    \
  X(uint16_t, material, Constant, false)                                                                   \
  X(uint8_t, flags, Constant, false) /* BdemElementFlags; changed only on the host (launches) */           \
  X(const uint8_t, fragmentMember, Constant, false) /* 1: the fragment key joins it into pieces (bodies) */

// Per bond, stored once per pair (first < second), plus a CSR list per element (Lu eq. 2 rest data).
#define FRAC_BDEM_BOND_ARRAYS(X)                                                                           \
  X(const int32_t, first, Constant, false)                                                                 \
  X(const int32_t, second, Constant, false)                                                                \
  X(const BondRest, rest, Constant, false)                                                                 \
  X(const float, stiffnessScale, Constant, false) /* eq. 30 factor (1 without anisotropy) */               \
  X(const float, tensileScale, Constant, false)   /* Weibull draw times eq. 30 factor */                   \
  X(const float, shearScale, Constant, false)                                                              \
  X(const uint16_t, material, Constant, false)                                                             \
  X(uint8_t, broken, State, true) /* kBondIntact, kBondBroken or kBondBrokeThisStep */                     \
  X(float, peakRatio, State, true) /* kappa of a softening bond past its strength (kernels/bdem_bond.h); else 0 */ \
  X(float, ductility, State, true) /* its chi, set when it first passed its strength */                    \
  X(BondCoefficients, coefficients, Constant, false) /* from the material: coefficientStage */             \
  X(vec3, forceOnJ, State, false)                                                                          \
  X(vec3, torqueShared, State, false)                                                                      \
  X(vec3, torqueRelative, State, false)                                                                    \
  X(float, stressRatio, Scratch, false) /* max(sigma / sigma_c, tau / tau_c), filled on request */         \
  X(uint8_t, exactPending, Scratch, false) /* bonds the vectorised bond pass leaves to the exact one */    \
  X(const int32_t, elementStart, Constant, false) /* n + 1 */                                              \
  X(const int32_t, elementEntry, Constant, false) /* 2 bond + (1 if the element is the second end) */      \
  X(const int32_t, elementNeighbor, Constant, false)

// Contact springs: `slots` per element (enough for every sphere that can touch it, see BdemSolver::prepare), read
// from `previous`, written to `next`; the two swap after every step.
#define FRAC_BDEM_CONTACT_ARRAYS(X)                                                                        \
  X(int32_t, previousPartner, State, false)                                                                \
  X(vec3, previousSpring, State, false)                                                                    \
  X(int32_t, nextPartner, State, false)                                                                    \
  X(vec3, nextSpring, State, false)                                                                        \
  X(float, energy, State, false) /* per element: its share of the contact energy this step */

// Elements moved on a prescribed path: element e = centre + rotate(orientation, offset) of its kinematic body. The
// bodies' poses are set on the host before every step.
#define FRAC_BDEM_KINEMATIC_ARRAYS(X)                                                                      \
  X(const int32_t, element, Constant, false)                                                               \
  X(const int32_t, body, Constant, false)                                                                  \
  X(const vec3, offset, Constant, false)                                                                   \
  X(vec3, bodyCentre, Input, false)                                                                        \
  X(vec3, bodyCentreLow, Input, false) /* what float rounding dropped from bodyCentre */                     \
  X(quat, bodyOrientation, Input, false)                                                                   \
  X(vec3, bodyVelocity, Input, false)                                                                      \
  X(vec3, bodyAngularVelocity, Input, false)

#define FRAC_BDEM_PLANE_ARRAYS(X)      \
  X(const vec3, point, Constant, false) \
  X(const vec3, normal, Constant, false) \
  X(const uint16_t, material, Constant, false)

// The scene's other arrays. The Verlet list (CSR: for each element, the grid elements within r_i + r_j + skin at the
// last rebuild that are not held by an intact bond) is the CPU's; a device builds its own.
#define FRAC_BDEM_SCENE_ARRAYS(X)                                                                          \
  X(const BdemMaterial, materials, Constant, false)                                                        \
  X(const int32_t, sampleStart, Constant, false) /* per element + 1: its outer-surface samples (surface/) */ \
  X(const vec3, samplePoint, Constant, false) /* relative to the element's centre, in its frame at t = 0 */ \
  X(const vec3, sampleNormal, Constant, false)                                                             \
  X(const int32_t, projectiles, Constant, false) /* element indices of projectiles (not in the grid) */     \
  X(const int32_t, gridElements, Constant, false) /* elements that are not projectiles, in index order */  \
  X(ProjectilePartial, projectilePartials, Scratch, false) /* kProjectileChunks per projectile */          \
  X(const int32_t, neighborStart, HostOnly, false)                                                         \
  X(const int32_t, neighborList, HostOnly, false)

// ---- the views --------------------------------------------------------------------------------------------------------

struct BdemElementView {
  int count = 0;
  FRAC_BDEM_ELEMENT_ARRAYS(FRAC_ARRAY_VIEW_MEMBER)
};

struct BdemBondView {
  int count = 0;
  FRAC_BDEM_BOND_ARRAYS(FRAC_ARRAY_VIEW_MEMBER)
};

struct BdemContactView {
  int slots = 0;
  FRAC_BDEM_CONTACT_ARRAYS(FRAC_ARRAY_VIEW_MEMBER)
};

struct BdemKinematicView {
  int count = 0;  // kinematic elements
  FRAC_BDEM_KINEMATIC_ARRAYS(FRAC_ARRAY_VIEW_MEMBER)
};

struct BdemPlaneView {
  int count = 0;
  FRAC_BDEM_PLANE_ARRAYS(FRAC_ARRAY_VIEW_MEMBER)
};

struct BdemViews {
  BdemElementView elements;
  BdemBondView bonds;
  BdemContactView contacts;
  BdemKinematicView kinematics;
  BdemPlaneView planes;
  RbdemRodView rods;      // Rod-Bonded DEM only (rbdem_arrays.h); empty under bdem
  RbdemSolveView solve;
  GridView grid;  // where the stages find contact candidates: the CPU's grid or the device's
  int projectileCount = 0;
  int gridElementCount = 0;
  float listSkin = 0.0f;  // the Verlet list holds pairs within r_i + r_j + listSkin; rebuilt after moves of skin / 2
  float listReach = 0.0f;  // the largest grid element's radius + listSkin: r_i + listReach bounds every list pair
  FRAC_BDEM_SCENE_ARRAYS(FRAC_ARRAY_VIEW_MEMBER)
};

// x_j - x_i with both positions' low parts: a bond's vector resolved to its own length's float spacing, not to the
// spacing of the coordinates (about 1e-9 m at 4 cm from the origin, 6e-8 m at 1 m: more than a stiff bond stretches in
// a step of a quasi-static load). Bonds, contacts and planes read it; grids, the Verlet list's candidates and pictures
// read the high part alone.
// `Elements`: BdemElementView, or the host's BdemElementArrays.
template <class Elements>
FRAC_HD inline vec3 separation(const Elements& e, int i, int j) {
  return (e.position[j] - e.position[i]) + (e.positionLow[j] - e.positionLow[i]);
}

// x_i - point with element i's low part (a plane's distance, as separation for a pair).
FRAC_HD inline vec3 offsetFrom(const BdemElementView& e, int i, const vec3& point) {
  return (e.position[i] - point) + e.positionLow[i];
}

// ---- the host storage -------------------------------------------------------------------------------------------------

struct BdemElementArrays {
  FRAC_BDEM_ELEMENT_ARRAYS(FRAC_ARRAY_HOST_MEMBER)
  std::vector<int32_t> body;  // host only: the scene body it belongs to (-1 projectiles, -2 - k kinematic k)

  int size() const { return int(position.size()); }
  // Appends an element at rest (a solid sphere of `density`); returns its index. A kinematic's element has its
  // mass and inertia until BdemSolver::addKinematicBody takes what its hold prescribes.
  int add(const vec3& p, float r, float density, uint16_t mat, uint8_t flag, int32_t bodyIndex);
};

struct BdemBondArrays {
  FRAC_BDEM_BOND_ARRAYS(FRAC_ARRAY_HOST_MEMBER)
  long long size() const { return (long long)first.size(); }
};

struct BdemContactArrays {
  FRAC_BDEM_CONTACT_ARRAYS(FRAC_ARRAY_HOST_MEMBER)
  int slots = 0;
};

struct BdemKinematicArrays {
  FRAC_BDEM_KINEMATIC_ARRAYS(FRAC_ARRAY_HOST_MEMBER)
};

struct BdemPlaneArrays {
  FRAC_BDEM_PLANE_ARRAYS(FRAC_ARRAY_HOST_MEMBER)
};

struct BdemArrays {
  BdemElementArrays elements;
  BdemBondArrays bonds;
  BdemContactArrays contacts;
  BdemKinematicArrays kinematics;
  BdemPlaneArrays planes;
  RbdemRodArrays rods;      // Rod-Bonded DEM only (rbdem_arrays.h); empty under bdem
  RbdemSolveArrays solve;
  FRAC_BDEM_SCENE_ARRAYS(FRAC_ARRAY_HOST_MEMBER)
  float listSkin = 0.0f, listReach = 0.0f;
};

FRAC_ARRAY_GROUP_VISITOR(BdemElementArrays, BdemElementView, "elements", FRAC_BDEM_ELEMENT_ARRAYS)
FRAC_ARRAY_GROUP_VISITOR(BdemBondArrays, BdemBondView, "bonds", FRAC_BDEM_BOND_ARRAYS)
FRAC_ARRAY_GROUP_VISITOR(BdemContactArrays, BdemContactView, "contacts", FRAC_BDEM_CONTACT_ARRAYS)
FRAC_ARRAY_GROUP_VISITOR(BdemKinematicArrays, BdemKinematicView, "kinematics", FRAC_BDEM_KINEMATIC_ARRAYS)
FRAC_ARRAY_GROUP_VISITOR(BdemPlaneArrays, BdemPlaneView, "planes", FRAC_BDEM_PLANE_ARRAYS)

// Every BDEM array, in list order (elements first: the state digest hashes position, velocity, orientation, spin,
// then the broken flags).
template <class F>
void forEachArray(BdemArrays& host, BdemViews& view, F&& f) {
  forEachArray(host.elements, view.elements, f);
  forEachArray(host.bonds, view.bonds, f);
  forEachArray(host.contacts, view.contacts, f);
  forEachArray(host.kinematics, view.kinematics, f);
  forEachArray(host.planes, view.planes, f);
  forEachArray(host.rods, view.rods, f);
  forEachArray(host.solve, view.solve, f);
  [[maybe_unused]] constexpr const char* arrayGroup = "scene";
  FRAC_BDEM_SCENE_ARRAYS(FRAC_ARRAY_VISIT)
}

// The views of the host arrays (the grid is the caller's).
inline BdemViews hostViews(BdemArrays& a) {
  BdemViews v;
  bindHostArrays(a, v);
  v.elements.count = a.elements.size();
  v.bonds.count = int(a.bonds.size());
  v.contacts.slots = a.contacts.slots;
  v.kinematics.count = int(a.kinematics.element.size());
  v.planes.count = int(a.planes.point.size());
  v.projectileCount = int(a.projectiles.size());
  v.gridElementCount = int(a.gridElements.size());
  v.listSkin = a.listSkin;
  v.listReach = a.listReach;
  v.rods.kappa = a.rods.kappa;
  v.solve.aggregates = a.solve.aggregateStart.empty() ? 0 : int(a.solve.aggregateStart.size()) - 1;
  v.solve.coarseBlocks = int(a.solve.coarseBlockRow.size());
  return v;
}

inline int BdemElementArrays::add(const vec3& p, float r, float density, uint16_t mat, uint8_t flag,
                                  int32_t bodyIndex) {
  position.push_back(p);
  positionLow.push_back(vec3(0.0f));
  velocity.push_back(vec3(0.0f));
  orientation.push_back(quat(1, 0, 0, 0));
  angularVelocity.push_back(vec3(0.0f));
  force.push_back(vec3(0.0f));
  torque.push_back(vec3(0.0f));
  radius.push_back(r);
  const float mass = density * 4.0f / 3.0f * kPi * r * r * r;
  const bool kinematic = (flag & kFlagKinematic) != 0;
  invMass.push_back(1.0f / mass);
  invInertia.push_back(1.0f / (0.4f * mass * r * r));  // solid sphere
  material.push_back(mat);
  flags.push_back(flag);
  fragmentMember.push_back(bodyIndex >= 0 && !kinematic);
  body.push_back(bodyIndex);
  return size() - 1;
}

}  // namespace frac
