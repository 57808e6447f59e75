#pragma once
// Every array of an explicit FEM simulation on linear tetrahedra (method "fem-debris", Zhang et al.), named once
// (solvers/state_arrays.h): the lists give the host storage (FemArrays), the views the stages run on (FemViews), the
// state digest, and what a device mirror would copy.
#include <cstdint>
#include <vector>

#include "core/math.h"
#include "kernels/fem_material.h"
#include "kernels/fem_tet.h"
#include "solvers/array_info.h"
#include "solvers/state_arrays.h"

namespace frac {

// A material as the step reads it (from the scene's density, bulk_modulus, shear_modulus, jc_*, damage_strain,
// heat_capacity, temperatures, gruneisen_gamma, hugoniot_*, friction, restitution, spall_strength).
struct FemMaterial {
  float bulkModulus;     // K (a0 of eq. 13)
  float shearModulus;    // G of the deviatoric law (eq. 8)
  float restDensity;     // rho0
  float soundSpeed;      // sqrt((K + 4 G / 3) / rho0): the artificial viscosity's linear term
  fem::JohnsonCook jc;   // flow, fracture, damage threshold, heat (eq. 8-9)
  fem::MieGruneisen eos; // eq. 11-13
  float friction;        // Coulomb mu of the contacts (eq. 6)
  float contactDamping;  // damping ratio from the restitution (kernels/fem_contact.h)
  float spallStrength;   // largest principal stress held (Pa; 3e38: no limit): fem_material.h exceedsPrincipal
};

struct TetCorners {
  int32_t node[4];  // positively oriented at rest
};

// As data files see them (solvers/array_info.h): a tetrahedron's corners (cells), a symmetric tensor in VTK's order.
template <>
struct EntryLayout<TetCorners> {
  static constexpr ScalarType scalar = ScalarType::Int32;
  static constexpr int components = 4;
};
template <>
struct EntryLayout<fem::Sym3> {  // xx, yy, zz, xy, yz, zx
  static constexpr ScalarType scalar = ScalarType::Float32;
  static constexpr int components = 6;
};

// Nodes: lumped masses (a quarter of each incident tetrahedron's rest mass, eq. 1), reference positions X and
// displacements u (x = X + u: an element's edges are formed as (X_b - X_a) + (u_b - u_a), which keeps float precision
// at small strains, as peridynamics does), velocities (central differences: the last half step's), the force of the
// last step, and each node's incident corners (CSR over 4 tet + corner, in tetrahedron order) for the gather; its
// mesh neighbours (the debris pairs), volume and particle radius, and whether it has become a debris particle.
#define FRAC_FEM_NODE_ARRAYS(X)                                                                            \
  X(const vec3, reference, Constant, false)                                                                \
  X(vec3, displacement, State, true)                                                                       \
  X(int32_t, piece, State, false) /* its piece's lowest node index (fem_pieces.h): contact between pieces */ \
  X(int32_t, pieceNext, Scratch, false) /* the labelling's next sweep */                                     \
  X(vec3, velocity, State, true)                                                                           \
  X(vec3, force, State, false) /* internal + gravity + contact of the last step (N) */                     \
  X(const float, mass, Constant, false)                                                                    \
  X(const uint16_t, material, Constant, false) /* of its first incident tetrahedron: its contact law */     \
  X(const uint16_t, body, Constant, false) /* the scene body it belongs to: bodies touch each other */      \
  X(const int32_t, cornerStart, Constant, false) /* n + 1 */                                               \
  X(const int32_t, corner, Constant, false) /* 4 tet + k of each incident corner */                        \
  X(const int16_t, drivenBy, Constant, false) /* the grip that moves it, or -1; empty without grips */      \
  X(const int32_t, neighborStart, Constant, false) /* n + 1: CSR of the nodes it shares a mesh edge with */ \
  X(const int32_t, neighbor, Constant, false)                                                              \
  X(float, neighborRest, State, false) /* per neighbour slot: the pair's rest distance as debris, 0 unseen */ \
  X(const float, volume, Constant, false) /* a quarter of each incident tetrahedron's rest volume: V_i */    \
  X(const float, particleRadius, Constant, false) /* r_i of eq. 18-19: (3V/4pi)^(1/3), <= edge/2 */          \
  X(uint8_t, debris, State, true) /* 1: all its tetrahedra failed: a meshfree particle (sec. 3.2) */        \
  X(float, debrisPressure, State, false) /* p_i (Pa, >= 0) of eq. 19: the EOS at its compression */         \
  X(vec3, pairForce, Scratch, false) /* a debris particle's pair forces (eq. 19, contact) of this step */    \
  X(vec3, position, Scratch, false) /* x = X + u before the step moves it: the contact grids' input */      \
  X(uint8_t, contactGrid, Scratch, false) /* 1: debris, 2: a surface node, 4: inside (grid flags) */       \
  X(int32_t, faceCount, Scratch, false) /* its boundary faces of intact tetrahedra (fem_contact_stages.h) */           \
  X(int32_t, boundaryFace, Scratch, false) /* 3 per corner: those faces, 4 tet + k */                         \
  X(float, faceReach, Scratch, false) /* their longest edge now (m) */                                        \
  X(int32_t, bodyFace, Scratch, false) /* a surface node's contact face on another body, 4 tet + k, or -1 */    \
  X(vec3, bodyFaceWeight, Scratch, false) /* the barycentric weights of its contact point on that face */        \
  X(vec3, bodyFaceForce, Scratch, false) /* the contact force on the node (its face's corners take the rest) */ \
  X(vec3, meshContact, Scratch, false) /* debris against mesh faces and other debris, bodies (fem_mesh_contact.h) */

// Tetrahedra: corners, rest volume and smallest altitude, material, the material state of eq. 7-16 (effective
// deviatoric stress, pressure, volumetric strain, plastic strain, damage, temperature, internal energy, failed) and the
// four corner forces of the last stress pass, which the nodes gather.
#define FRAC_FEM_TET_ARRAYS(X)                                                                             \
  X(const TetCorners, corners, Constant, false)                                                            \
  X(const float, restVolume, Constant, false)                                                              \
  X(const float, length, Constant, false) /* smallest altitude at rest: dx of eq. 14 */                     \
  X(const int32_t, faceNeighbor, Constant, false) /* 4 per tetrahedron: the one across face k, or -1 */      \
  X(const uint16_t, material, Constant, false)                                                             \
  X(fem::Sym3, deviatoric, State, true) /* effective s~ (Pa): the undamaged material's, eq. 7 */           \
  X(float, plasticStrain, State, true) /* equivalent plastic strain eps */                                 \
  X(float, damage, State, true) /* phi of eq. 7 */                                                         \
  X(float, temperature, State, true) /* K, eq. 9 */                                                        \
  X(float, energy, State, true) /* internal energy per unit mass e (J/kg), eq. 15 */                       \
  X(uint8_t, failed, State, true) /* 1: removed (damage reached 1): no stress, no forces */                \
  X(float, pressure, State, true) /* p + q (Pa, compression positive): eq. 11 and 14 */                    \
  X(float, volumetricStrain, State, true) /* J - 1 = V / V0 - 1, integrated from the rate (precise near 0) */ \
  X(float, volume, State, false) /* current V (m^3) */                                                     \
  X(vec3, cornerForce, State, false) /* 4 per tetrahedron: written by a step's stress pass, gathered by the next */ \
  X(uint8_t, exposedFaces, Scratch, false) /* bit k: face k of an intact one lies on the surface (boundaryFacesStage) */

// Rigid balls (scene projectiles and thrown balls) moving at constant velocity; their poses advance on the host.
#define FRAC_FEM_PROJECTILE_ARRAYS(X)    \
  X(vec3, centre, Input, false)          \
  X(vec3, velocity, Input, false)        \
  X(uint8_t, active, Input, false)       \
  X(const float, radius, Constant, false)

#define FRAC_FEM_PLANE_ARRAYS(X)         \
  X(const vec3, point, Constant, false)  \
  X(const vec3, normal, Constant, false) \
  X(const uint16_t, material, Constant, false)

// The materials, each kinematic's velocity, angular velocity and centre this step (grips and rigid kinematics move
// their nodes), and one word
// set once any node has become debris (the host then turns the debris contacts on).
#define FRAC_FEM_SCENE_ARRAYS(X)                  \
  X(const FemMaterial, materials, Constant, false) \
  X(vec3, driveVelocity, Input, false)             \
  X(const vec3, driveSlide, Constant, false) /* a roller's axis: Grips::slideMasks */ \
  X(vec3, driveSpin, Input, false)                 \
  X(vec3, driveCentre, Input, false)               \
  X(int32_t, anyDebris, State, false)              \
  X(int32_t, pieceWords, State, false) /* 2: a tetrahedron failed since the pieces were labelled; a sweep changed */ \
  X(int32_t, contactBounds, Scratch, false) /* 7: the nodes' box, the largest faceReach */

struct FemNodeView {
  int count = 0;
  FRAC_FEM_NODE_ARRAYS(FRAC_ARRAY_VIEW_MEMBER)
};
struct FemTetView {
  int count = 0;
  FRAC_FEM_TET_ARRAYS(FRAC_ARRAY_VIEW_MEMBER)
};
struct FemProjectileView {
  int count = 0;
  FRAC_FEM_PROJECTILE_ARRAYS(FRAC_ARRAY_VIEW_MEMBER)
};
struct FemPlaneView {
  int count = 0;
  FRAC_FEM_PLANE_ARRAYS(FRAC_ARRAY_VIEW_MEMBER)
};
struct FemViews {
  FemNodeView nodes;
  FemTetView tets;
  FemProjectileView projectiles;
  FemPlaneView planes;
  FRAC_FEM_SCENE_ARRAYS(FRAC_ARRAY_VIEW_MEMBER)
};

struct FemNodeArrays {
  FRAC_FEM_NODE_ARRAYS(FRAC_ARRAY_HOST_MEMBER)
  int size() const { return int(reference.size()); }
};
struct FemTetArrays {
  FRAC_FEM_TET_ARRAYS(FRAC_ARRAY_HOST_MEMBER)
  int size() const { return int(corners.size()); }
};
struct FemProjectileArrays {
  FRAC_FEM_PROJECTILE_ARRAYS(FRAC_ARRAY_HOST_MEMBER)
  int size() const { return int(centre.size()); }
};
struct FemPlaneArrays {
  FRAC_FEM_PLANE_ARRAYS(FRAC_ARRAY_HOST_MEMBER)
  int size() const { return int(point.size()); }
};
struct FemArrays {
  FemNodeArrays nodes;
  FemTetArrays tets;
  FemProjectileArrays projectiles;
  FemPlaneArrays planes;
  FRAC_FEM_SCENE_ARRAYS(FRAC_ARRAY_HOST_MEMBER)
};

// Every FEM array in list order (the digest hashes node displacements and velocities and the element stresses).
template <class F>
void forEachArray(FemArrays& a, FemViews& v, F&& f) {
  {
    FemNodeArrays& host = a.nodes;
    FemNodeView& view = v.nodes;
    [[maybe_unused]] constexpr const char* arrayGroup = "elements";
    FRAC_FEM_NODE_ARRAYS(FRAC_ARRAY_VISIT)
  }
  {
    FemTetArrays& host = a.tets;
    FemTetView& view = v.tets;
    [[maybe_unused]] constexpr const char* arrayGroup = "tets";
    FRAC_FEM_TET_ARRAYS(FRAC_ARRAY_VISIT)
  }
  {
    FemProjectileArrays& host = a.projectiles;
    FemProjectileView& view = v.projectiles;
    [[maybe_unused]] constexpr const char* arrayGroup = "projectiles";
    FRAC_FEM_PROJECTILE_ARRAYS(FRAC_ARRAY_VISIT)
  }
  {
    FemPlaneArrays& host = a.planes;
    FemPlaneView& view = v.planes;
    [[maybe_unused]] constexpr const char* arrayGroup = "planes";
    FRAC_FEM_PLANE_ARRAYS(FRAC_ARRAY_VISIT)
  }
  FemArrays& host = a;
  FemViews& view = v;
  [[maybe_unused]] constexpr const char* arrayGroup = "scene";
  FRAC_FEM_SCENE_ARRAYS(FRAC_ARRAY_VISIT)
}

inline FemViews hostViews(FemArrays& a) {
  FemViews v;
  bindHostArrays(a, v);
  v.nodes.count = a.nodes.size();
  v.tets.count = a.tets.size();
  v.projectiles.count = a.projectiles.size();
  v.planes.count = a.planes.size();
  return v;
}

}  // namespace frac
