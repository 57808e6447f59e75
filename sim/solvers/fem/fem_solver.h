#pragma once
// Method "fem-debris" (Zhang et al., hybrid FEM / meshfree debris): bodies meshed into linear tetrahedra by TetGen
// (geometry/tet_mesh.h, edge length 2 element_radius), stepped by explicit central differences with lumped masses and
// the hypo-elastic Jaumann-rate stress with the equation of state's pressure (fem_step.h), node-to-surface penalty
// contact with the ground and rigid balls. What this version does not have yet: the plasticity, damage and
// temperature of eq. 9-10 and 12-16, element failure and the debris particles of sec. 3.2, the tetrahedral splitting
// of sec. 4, kinematic bodies (docs/methods/fem.md). On CUDA the same stages run on the device mirror (fem_device.h).
//
// Frames show the mesh nodes as the elements (sphere mode) and, as the surface (writeSurfaces), the faces of intact
// tetrahedra without an intact neighbour (outer surface, or crack faces where the neighbour failed) and a small
// octahedron for each node whose tetrahedra all failed (a debris particle), coloured per node: stress = the largest equivalent elastic strain of the node's
// tetrahedra in percent (von Mises stress / 3 G / 1%; no strength yet), speed, fragment.
#include <memory>
#include <string>
#include <vector>

#include "analysis/fragments.h"
#include "solvers/array_solver.h"
#include "solvers/fem/fem_arrays.h"
#include "solvers/fem/fem_device.h"
#include "solvers/fem/fem_step.h"
#include "solvers/solver.h"

namespace frac {

class FemSolver : public ArraySolver<FemArrays, FemViews, fem::FemDevice> {
 public:
  void load(const SceneDesc& scene, const SolverOptions& options) override;  // fem_build.cpp
  void step(double dt) override;
  SimStats stats() const override;
  KinematicLoad kinematicLoad(const std::string& name) const override;
  std::vector<vec3> displacementsOf(const std::vector<int>& elements) const override;
  void applyLiveSettings(const SceneDesc& scene) override;
  int launchProjectile(const vec3& position, const vec3& velocity, float radius, int material,
                       float density = 0.0f) override;
  int launchBreakableProjectile(const vec3& centre, const vec3& velocity, float radius, float elementRadius,
                                int material, float density = 0.0f) override;
  std::optional<ElementHit> castRay(const vec3& origin, const vec3& direction) override;           // fem_frame.cpp
  void writeFrame(RenderFrame& frame, bool withBonds) override;                                   // fem_frame.cpp
  InstanceSummary writeInstances(SphereInstance* out, int capacity, ElementScalar scalar) override;  // fem_frame.cpp
  void writeFrameWithoutElements(RenderFrame& frame, const InstanceSummary& summary) override;     // fem_frame.cpp
  void writeSurfaces(SurfaceMesh& out, const SurfaceSettings& settings) override;                  // fem_frame.cpp
  std::string method() const override { return "fem-debris"; }
  std::vector<float> damage() const override;
  void setMaterial(int m, const MaterialDesc& desc) override;  // fem_build.cpp

  // For tests and probes.
  int nodeCount() const { return arrays_.layout().nodes.size(); }
  int tetCount() const { return arrays_.layout().tets.size(); }
  const FemNodeArrays& nodes() const { return arrays_.read().nodes; }
  const FemTetArrays& tets() const { return arrays_.read().tets; }
  FemNodeArrays& editNodes() { return arrays_.edit().nodes; }
  void setDamping(float perSecond) { params_.damping = perSecond; }
  // Corner forces for the state as it is (after an edit of positions), as the next step's nodes will gather them.
  void computeStress(float dt);
  // Replaces every tetrahedron's deviatoric stress (tests: a prestressed body).
  void setStress(const std::vector<fem::Sym3>& deviatoric) { arrays_.edit().tets.deviatoric = deviatoric; }
  double elasticEnergy() const;
  double kineticEnergy() const;

 private:
  class CpuStep;
  // fem_build.cpp
  void addBody(const SceneDesc& scene, int body, const std::string& baseDir);
  void buildCornerLists();
  void checkStartsAbovePlanes(const SceneDesc& scene) const;
  void computeStableDt();
  void uploadToDevice() override;
  FragmentLabels meshPieces() const;

  // Elements drawn and picked: the nodes, with this radius each (a quarter of the body's edge length).
  std::vector<float> nodeRadius_;
  std::vector<double> projectileLaunch_;
  std::vector<uint16_t> projectileMaterial_;
  std::vector<int32_t> faceNeighbor_;  // 4 per tetrahedron: the tetrahedron across the face opposite corner k, or -1
  FemStepParams params_;
};

}  // namespace frac
