#pragma once
// A scene after loading and validation: plain data, SI units. The members have no defaults of their own: the
// parameter registry (io/scene_params.cpp) holds them, fills them when a scene is read (io/scene_loader.h) and gives
// structs with them for scenes built in code (defaultsOf in io/scene_params.h).
#include <optional>
#include <string>
#include <vector>

#include "backend/backend.h"
#include "core/math.h"
#include "geometry/shape_desc.h"
#include "kernels/pd_bond.h"
#include "kernels/pd_contact.h"
#include "kernels/rbdem_rod.h"

namespace frac {

constexpr float kUnbreakable = 3e38f;  // "inf" strengths: larger than any stress a float can reach in practice

// What a bdem bond does past its strength: breaks (Lu) or softens to zero over Hillerborg's w_c (kernels/bdem_bond.h).
enum class BondSoftening : uint8_t { Brittle, Linear };

struct MaterialDesc {
  std::string name;
  std::string library;              // the library material its values came from ("" = none; io/material_library.h)
  bool calibrated{};                // true: a library material takes the calibration cache's micro values (calibration_table.h)
  float density{};                  // kg/m^3
  float young{};                    // Pa, bond Young's modulus E (Lu eq. 3)
  float shear{};                    // Pa, bond shear modulus G (Lu eq. 11)
  float tensileStrength{};          // Pa, sigma_c (Lu eq. 17); Weibull scale when weibullM > 0
  float shearStrength{};            // Pa, tau_c (Lu eq. 18)
  float weibullM{};                 // Weibull modulus m of bond strengths (pd: breaking stretch); 0 = none
  float weibullCell{};              // m: bonds in one cube of this edge share their Weibull draw; 0 = a draw per bond
  float friction{};                 // Coulomb coefficient mu (Lu eq. 27, mu_s = mu_d)
  float damping{};                  // bond damping ratio zeta (relative velocity, Lu sec. 4.2)
  float restitution{};              // normal coefficient of restitution of contacts
  float anisotropy{};               // lambda of Lu eq. 30
  vec3 grainDirection{};            // d_g of Lu eq. 30
  BondSoftening softening{};        // bdem: brittle bonds (Lu) or linear cohesive softening with fracture_energy
  vec3 color{};                     // display colour, linear RGB
  vec3 interiorColor{};             // display colour of crack faces (fracture surfaces), linear RGB
  // Bond-based peridynamics (pd-bond, Levine 2014)
  float bulkModulus{};              // Pa, K of eq. 4
  float criticalStretch{};          // s0
  float fractureEnergy{};           // J/m^2; pd-bond > 0: s0 = sqrt(5 G0 / (9 K delta)); bdem: the bonds' G_f
  float compressionAlpha{};         // alpha of eq. 5
  float stretchScatter{};           // relative standard deviation of the per-bond s0 (weibullM 0)
  // State-based elastoplastic peridynamics (pd-state, Chen 2018); bulkModulus, criticalStretch shared
  float shearModulus{};             // Pa, G of eq. 10
  float yieldPsi0{};                // Psi0 of eq. 13; kUnbreakable = elastic
  float plasticLimit{};             // gamma / |xi| of eq. 16
  float damageAlpha{};              // alpha of eq. 19
  vec3 anisotropyScale{};           // diagonal of G, eq. 17
  // fem-debris (Zhang et al., eq. 8-13): Johnson-Cook flow and fracture, damage threshold, heat, Mie-Grueneisen
  float jcA{}, jcB{}, jcN{}, jcC{}, jcM{};          // flow stress (A + B eps^n)(1 + C ln eps*)(1 - T*^m); jcA inf = elastic
  float jcD1{}, jcD2{}, jcD3{}, jcD4{}, jcD5{};     // fracture strain; jcD1 inf = no damage
  float damageStrain{};             // eps_D: damage grows past this plastic strain
  float heatCapacity{};             // J/(kg K), eq. 9
  float roomTemperature{}, meltTemperature{};  // K
  float gruneisenGamma{};           // gamma_0 of eq. 12
  float hugoniotB{}, hugoniotC{};   // b0, c0 of eq. 13 (a0 = bulk_modulus), Pa
  float spallStrength{};            // Pa: largest principal stress a tetrahedron holds; kUnbreakable = no limit

  bool operator==(const MaterialDesc&) const = default;
};

// A shape filled with elements and placed in the world: what bodies and kinematic bodies share.
struct PlacedShapeDesc {
  std::string name;
  ShapeDesc shape;
  Transform transform;
  float elementRadius{};            // m
  Packing packing{};
  std::string material;
  vec3 velocity{};                  // m/s: initial (body) or while active (kinematic)
  vec3 angularVelocity{};           // rad/s about transform.position
};

// An initial crack: bonds whose segment crosses the rectangle origin + a edgeU + b edgeV (a, b in [0, 1]) start broken.
struct CrackDesc {
  vec3 origin{}, edgeU{}, edgeV{};
  bool cuts(const vec3& p, const vec3& q) const;  // scene_loader.cpp
};

struct BodyDesc : PlacedShapeDesc {
  bool bonded{};                    // false: loose grains (granular matter, Lu sec. 4.1)
  std::vector<CrackDesc> cracks;
  bool cutByCrack(const vec3& p, const vec3& q) const {
    for (const CrackDesc& c : cracks)
      if (c.cuts(p, q)) return true;
    return false;
  }
};

// What a kinematic prescribes of its elements: their whole pose (a clamp); their positions only, each element
// turning under its bonds' and contacts' torques (a pin); two coordinates of their positions, each element also
// moving freely along one world axis (a roller: RollerX slides along x); or one coordinate, each element moving
// freely across that axis (an axial grip: AxialX prescribes x only, as a tension test's frictionless platens, which
// let the specimen's ends contract). Particles and mesh nodes carry no rotation: there a clamp is a pin.
enum class KinematicHold { Pose, Position, RollerX, RollerY, RollerZ, AxialX, AxialY, AxialZ };

// The world axes a hold leaves free, bit a for axis a (0: none, a clamp or a pin).
inline int slideAxes(KinematicHold h) {
  switch (h) {
    case KinematicHold::RollerX: return 1;
    case KinematicHold::RollerY: return 2;
    case KinematicHold::RollerZ: return 4;
    case KinematicHold::AxialX: return 2 | 4;
    case KinematicHold::AxialY: return 1 | 4;
    case KinematicHold::AxialZ: return 1 | 2;
    default: return 0;
  }
}

// A rigid body moved along a prescribed path: supports, indenters, blades, grips (Lu sec. 5.2: infinite mass).
struct KinematicDesc : PlacedShapeDesc {
  float start{};                    // s
  float stop{};                     // s
  bool grip{};                      // true: takes over the bodies' elements inside its shape (keeps their bonds)
  KinematicHold hold{};             // pose (clamp), position only (pin), all but one axis (roller) or one (axial)
};

struct ProjectileDesc {
  std::string name;
  float radius{};                   // m, one element
  std::string material;             // density and contact stiffness
  vec3 position{};
  vec3 velocity{};
  float launchTime{};               // s; before it the projectile waits at rest, out of contact
  PdProjectileModel forceModel{};   // pd-bond: Levine eq. 7 or LAMMPS fix indent
  float forceConstant{};            // pd-bond: K_S (eq. 7) or the indenter's K
  bool dynamic{};                   // pd: reacts to the particles (mass from the material) instead of constant velocity
};

struct PlaneDesc {
  vec3 point{};
  vec3 normal{};
  std::string material;
};

enum class ProbeType { ThreePointBending, Energy, PointHistory, Reaction, Uniaxial, Cone };
// What a lab probe measures a specimen's section by: the cells of the lattice its elements were packed on
// (ReferenceElements::depth and sectionArea; the library's calibration, docs/materials.md) or the spheres' extent
// (the outer dimensions calipers would read, as the papers' beams were measured).
enum class ProbeSection { Cells, Spheres };

struct ProbeDesc {
  ProbeType type{};
  std::string name;                 // PointHistory, Reaction: the columns' prefix in history.csv
  vec3 point{};                     // PointHistory: where it looks (the body element nearest this start position)
  std::string fields;               // PointHistory: comma-separated: "displacement" and per-element arrays by name
  int every{};                      // PointHistory, Reaction: a row every this many steps
  std::string kinematic;            // Reaction, Uniaxial: the kinematic or grip whose load it reads
  std::string indenter;             // ThreePointBending: name of the kinematic indenter
  std::string supports;             // ThreePointBending: the kinematics the beam rests on, comma-separated ("" = none)
  float span{};                     // l of Lu eq. 29 (support distance), m
  float width{};                    // b, m
  float height{};                   // h, m
  float fitFraction{};              // slope fitted on the loading branch up to this fraction of F_top
  float ligament{};                 // ThreePointBending: depth of the uncut section above a notch, m; 0 = no notch
  float poisson{};                  // ThreePointBending: nu for the shear-corrected E (> 0), else eq. 29 only
  float gaugeLength{};              // Uniaxial: distance between the extensometer's cross-sections, m
  float ligamentArea{};             // Uniaxial: the uncut section at a notch, m^2; 0 = no notch
  ProbeSection section{};           // ThreePointBending, Uniaxial: the section the stress is taken over
  vec3 apex{};                      // Cone: the first contact point on the surface, m
  vec3 axis{};                      // Cone: the direction into the body
};

struct SolverDesc {
  std::string method;               // a name of the solver registry (solvers/solver_registry.cpp)
  std::optional<double> dt;         // s; empty = "auto" (Lu eq. 28 times safety)
  double safety{};
  double stiffnessScale{};          // s of io/stiffness_scale.h (1 = the scene as written)
  int substeps{};                   // steps per frame; 0 = derived from dt and fps
  int maxStepsPerFrame{};           // a dt (given or auto) needing more steps per frame is refused
  vec3 gravity{};
  bool contact{};
  int threads{};                    // 0 = all cores
  Backend backend{};
  // pd-bond
  float horizonFactor{};            // delta = factor x lattice spacing
  PdContact pdContact{};            // Levine eq. 6, LAMMPS peri/pmb's short-range forces, or none
  float pdContactStiffness{};       // K_c of eq. 6, Pa
  float floorRestitution{};
  PdStrengthening strengthening{};
  bool partialVolume{};             // LAMMPS' volume scaling of particles near the horizon
  bool surfaceCorrection{};         // pd-bond: bonds near a surface stiffened (Madenci & Oterkus energy method)
  float pdDamping{};                // 1/s, velocity damping of pd-bond / pd-state
  PdBondRemoval bondRemoval{};
  // rbdem
  RodIntegration integration{};     // implicit (Algorithm 1) or explicit (Ours_exp)
  float implicitStep{};             // implicit: dt "auto" in explicit steps (Lu eq. 28), before the safety factor
  float timoshenkoKappa{};          // kappa of eq. 17
  std::optional<double> contactStiffness;  // k_c of eq. 30, Pa; empty = "auto" (a tenth of the stiffest Young's modulus)
  float pcgTolerance{};             // relative drop of the preconditioned residual
  int pcgMaxIterations{};
  RodPreconditioner pcgPreconditioner{};  // the element's 7x7 block (ours) or Jacobi (the paper's)
  RodFracture rodFracture{};        // bond stresses (eq. 24-25) or hydrostatic stress (eq. 32)
  float hydrostaticStrength{};      // Pa, threshold of eq. 32
  float viscosityQuadratic{}, viscosityLinear{};  // fem-debris: alpha1, alpha2 of Zhang eq. 14
};

struct CameraDesc {
  vec3 eye{};
  vec3 target{};
  float fovDeg{};
};

struct SceneDesc {
  std::string path;                 // file it came from (for messages and relative mesh paths)
  std::string name;
  std::string description;
  unsigned long long seed{};
  int frames{};
  double fps{};
  SolverDesc solver;
  std::vector<MaterialDesc> materials;
  std::vector<BodyDesc> bodies;
  std::vector<KinematicDesc> kinematics;
  std::vector<ProjectileDesc> projectiles;
  std::vector<PlaneDesc> planes;
  std::vector<ProbeDesc> probes;
  CameraDesc camera;

  int materialIndex(const std::string& n) const {
    for (size_t i = 0; i < materials.size(); ++i)
      if (materials[i].name == n) return int(i);
    return -1;
  }
};

}  // namespace frac
