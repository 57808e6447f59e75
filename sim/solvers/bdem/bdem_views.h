#pragma once
// Plain views (pointers + counts) that one explicit BDEM step works on; the same on host and device.
#include <cstdint>

#include "core/element_state.h"
#include "core/grid.h"
#include "kernels/bdem_bond.h"

namespace frac {

constexpr int kPlanePartnerBase = -2;  // contact partner id of plane k is kPlanePartnerBase - k
constexpr int kNoPartner = -1;

// BondView::broken: 0 intact; nonzero broken. The bond pass marks a bond that fails kBondBrokeThisStep (its pair
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
};

// Per-bond constants derived from the material and the rest state; recomputed when a material changes.
struct BondCoefficients {
  BondStiffness stiffness;   // eq. 3, 11, 16 with the eq. 30 factor
  float dampForce;           // 2 zeta sqrt(k_n m_eff), 0 without damping or between two infinite masses
  float dampMoment;          // 2 zeta sqrt(k_b I_eff)
  float tensileStrength;     // sigma_c of this bond (Weibull draw and eq. 30 factor included)
  float shearStrength;       // tau_c
  float unused[2] = {0.0f, 0.0f};  // 16 floats: a power of two, so the bond loop vectorises
};

// Bonds stored once per pair (first < second) plus a CSR list per element (Lu eq. 2 rest data).
struct BondView {
  int count = 0;
  const int32_t* first = nullptr;
  const int32_t* second = nullptr;
  const BondRest* rest = nullptr;
  const float* stiffnessScale = nullptr;  // eq. 30 factor (1 without anisotropy)
  const float* tensileScale = nullptr;    // Weibull draw times eq. 30 factor
  const float* shearScale = nullptr;
  const uint16_t* material = nullptr;
  uint8_t* broken = nullptr;             // kBondIntact, kBondBroken or kBondBrokeThisStep
  BondCoefficients* coefficients = nullptr;
  vec3* forceOnJ = nullptr;
  vec3* torqueShared = nullptr;
  vec3* torqueRelative = nullptr;
  float* stressRatio = nullptr;           // max(sigma / sigma_c, tau / tau_c), filled on request (stressStage)
  uint8_t* exactPending = nullptr;        // set by the vectorised bond pass for bonds it leaves to the exact one
  const int32_t* elementStart = nullptr;  // n + 1
  const int32_t* elementEntry = nullptr;  // 2 * bond + (1 if the element is the second end)
  const int32_t* elementNeighbor = nullptr;
};

struct PlaneView {
  int count = 0;
  const vec3* point = nullptr;
  const vec3* normal = nullptr;
  const uint16_t* material = nullptr;
};

// Contact springs: `slots` per element (enough for every sphere that can touch it, see BdemSolver::prepare), read
// from `previous`, written to `next`.
struct ContactView {
  int slots = 0;
  const int32_t* previousPartner = nullptr;
  const vec3* previousSpring = nullptr;
  int32_t* nextPartner = nullptr;
  vec3* nextSpring = nullptr;
  float* energy = nullptr;  // per element: its share of the contact energy this step
};

// Elements moved on a prescribed path: element e = centre + rotate(orientation, offset) of its kinematic body.
struct KinematicView {
  int count = 0;
  const int32_t* element = nullptr;
  const int32_t* body = nullptr;
  const vec3* offset = nullptr;
  const vec3* bodyCentre = nullptr;
  const quat* bodyOrientation = nullptr;
  const vec3* bodyVelocity = nullptr;
  const vec3* bodyAngularVelocity = nullptr;
};

struct BdemStepParams {
  float dt = 1e-5f;
  vec3 gravity{0.0f, -9.81f, 0.0f};
  bool contact = true;
};

struct BdemViews {
  ElementView elements;
  BondView bonds;
  PlaneView planes;
  ContactView contacts;
  KinematicView kinematics;
  GridView grid;
  const BdemMaterial* materials = nullptr;
  int largeCount = 0;
  const int32_t* large = nullptr;  // element indices of projectiles (not in the grid)
  const int32_t* gridElements = nullptr;  // elements that are not large, in index order
  int gridElementCount = 0;
  // Verlet list: for each element, the grid elements within r_i + r_j + skin at the last rebuild that are not held
  // by an intact bond (CSR); rebuilt after any bond breaks. When null, candidates come from the grid directly.
  const int32_t* neighborStart = nullptr;
  const int32_t* neighborList = nullptr;
  float listSkin = 0.0f;  // the list holds pairs within r_i + r_j + listSkin; rebuilt when anything moved skin / 2
};

}  // namespace frac
