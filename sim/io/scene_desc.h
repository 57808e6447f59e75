#pragma once
// A scene after loading and validation: plain data, SI units, every default filled in.
// sim/io/scene_loader.h builds it from JSON through the parameter registry (sim/core/params.h).
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "core/math.h"
#include "geometry/shape_desc.h"

namespace frac {

struct MaterialDesc {
  std::string name;
  float density = 2500.0f;          // kg/m^3
  float young = 1e7f;               // Pa, bond Young's modulus E (Lu eq. 3)
  float shear = 4e6f;               // Pa, bond shear modulus G (Lu eq. 11)
  float tensileStrength = 1e6f;     // Pa, sigma_c (Lu eq. 17); Weibull scale when weibullM > 0
  float shearStrength = 1e6f;       // Pa, tau_c (Lu eq. 18)
  float weibullM = 0.0f;            // Weibull modulus m; 0 = every bond gets exactly the strength
  float friction = 0.5f;            // Coulomb coefficient mu (Lu eq. 27, mu_s = mu_d)
  float damping = 0.05f;            // bond damping ratio zeta (relative velocity, Lu sec. 4.2)
  float restitution = 0.5f;         // normal coefficient of restitution of contacts
  float anisotropy = 0.0f;          // lambda of Lu eq. 30
  vec3 grainDirection{0, 1, 0};     // d_g of Lu eq. 30
  vec3 color{0.72f, 0.75f, 0.8f};   // display colour, linear RGB
  // Bond-based peridynamics (pd-bond, Levine 2014)
  float bulkModulus = 1.4e10f;      // Pa, K of eq. 4
  float criticalStretch = 0.0005f;  // s0
  float fractureEnergy = 0.0f;      // J/m^2; > 0: s0 = sqrt(5 G0 / (9 K delta))
  float compressionAlpha = 0.25f;   // alpha of eq. 5
  float stretchScatter = 0.02f;     // relative standard deviation of the per-bond s0
  // State-based elastoplastic peridynamics (pd-state, Chen 2018); bulkModulus, criticalStretch shared
  float shearModulus = 1e10f;       // Pa, G of eq. 10
  float yieldPsi0 = INFINITY;       // Psi0 of eq. 13; infinity = elastic
  float plasticLimit = INFINITY;    // gamma / |xi| of eq. 16
  float damageAlpha = 0.0f;         // alpha of eq. 19
  vec3 anisotropyScale{1.0f};       // diagonal of G, eq. 17

  bool operator==(const MaterialDesc&) const = default;
};

// A shape filled with elements and placed in the world: what bodies and kinematic bodies share.
struct PlacedShapeDesc {
  std::string name;
  ShapeDesc shape;
  Transform transform;
  float elementRadius = 0.01f;      // m
  Packing packing = Packing::Hcp;
  std::string material;
  vec3 velocity{0.0f};              // m/s: initial (body) or while active (kinematic)
  vec3 angularVelocity{0.0f};       // rad/s about transform.position
};

// An initial crack: bonds whose segment crosses the rectangle origin + a edgeU + b edgeV (a, b in [0, 1]) start broken.
struct CrackDesc {
  vec3 origin{0.0f}, edgeU{0.0f}, edgeV{0.0f};
  bool cuts(const vec3& p, const vec3& q) const;  // scene_loader.cpp
};

struct BodyDesc : PlacedShapeDesc {
  bool bonded = true;               // false: loose grains (granular matter, Lu sec. 4.1)
  std::vector<CrackDesc> cracks;
  bool cutByCrack(const vec3& p, const vec3& q) const {
    for (const CrackDesc& c : cracks)
      if (c.cuts(p, q)) return true;
    return false;
  }
};

// A rigid body moved along a prescribed path: supports, indenters, blades, grips (Lu sec. 5.2: infinite mass).
struct KinematicDesc : PlacedShapeDesc {
  float start = 0.0f;               // s
  float stop = 1e30f;               // s
  bool grip = false;                // true: takes over the bodies' elements inside its shape (keeps their bonds)
};

struct ProjectileDesc {
  std::string name;
  float radius = 0.02f;             // m, one element
  std::string material;             // density and contact stiffness
  vec3 position{0.0f};
  vec3 velocity{0.0f};
  float launchTime = 0.0f;          // s; before it the projectile waits at rest, out of contact
  std::string forceModel = "levine";  // pd-bond: "levine" (eq. 7) or "indenter" (LAMMPS fix indent)
  float forceConstant = 1e15f;      // pd-bond: K_S (eq. 7) or the indenter's K
  bool dynamic = false;             // pd: reacts to the particles (mass from the material) instead of constant velocity
};

struct PlaneDesc {
  vec3 point{0.0f};
  vec3 normal{0, 1, 0};
  std::string material;
};

enum class ProbeType { ThreePointBending, Energy };

struct ProbeDesc {
  ProbeType type = ProbeType::Energy;
  std::string indenter;             // ThreePointBending: name of the kinematic indenter
  float span = 0.0f;                // l of Lu eq. 29 (support distance), m
  float width = 0.0f;               // b, m
  float height = 0.0f;              // h, m
  float fitFraction = 0.6f;         // slope fitted on the loading branch up to this fraction of F_top
};

struct SolverDesc {
  std::string method = "bdem";
  std::optional<double> dt;         // s; empty = "auto" (Lu eq. 28 times safety)
  double safety = 0.5;
  int substeps = 0;                 // steps per frame; 0 = derived from dt and fps
  vec3 gravity{0.0f, -9.81f, 0.0f};
  bool contact = true;
  int threads = 0;                  // 0 = all cores
  std::string backend = "auto";     // "auto", "cpu" or "cuda" (backend/backend.h)
  // pd-bond
  float horizonFactor = 3.0f;       // delta = factor x lattice spacing
  std::string pdContact = "levine"; // "levine" (eq. 6), "lammps" (peri/pmb short-range forces) or "off"
  float pdContactStiffness = 1e8f;  // K_c of eq. 6, Pa
  float floorRestitution = 0.99f;
  std::string strengthening = "levine";  // "levine": s0 - alpha min(0, s_min); "lammps": s0 - alpha s_min
  bool partialVolume = true;        // LAMMPS' volume scaling of particles near the horizon
  float pdDamping = 0.0f;           // 1/s, velocity damping of pd-bond / pd-state
  std::string bondRemoval = "levine";  // pd-bond: "levine" (a breaking bond carries nothing) or "lammps" (once more)
};

struct CameraDesc {
  vec3 eye{0.6f, 0.4f, 0.8f};
  vec3 target{0.0f, 0.1f, 0.0f};
  float fovDeg = 45.0f;
};

struct SceneDesc {
  std::string path;                 // file it came from (for messages and relative mesh paths)
  std::string name;
  std::string description;
  unsigned long long seed = 1;
  int frames = 120;
  double fps = 60.0;
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
