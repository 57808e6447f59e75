#pragma once
// Method "fem-debris" (Zhang et al., hybrid FEM / meshfree debris): bodies meshed into linear tetrahedra by TetGen
// (geometry/tet_mesh.h, edge length 2 element_radius), stepped by explicit central differences with lumped masses and
// the hypo-elasto-plastic material of eq. 7-16 (Jaumann rate, Johnson-Cook flow and fracture strain, Lemaitre
// damage, temperature, Mie-Grueneisen pressure, artificial viscosity; fem_step.h, kernels/fem_material.h): elements
// whose damage reaches 1 fail and become debris particles (sec. 3.2, fem_debris.h). Node-to-surface penalty contact
// with the ground, rigid balls and between bodies (fem_mesh_contact.h), grips (scene kinematics with grip: true) and
// rigid kinematic bodies. On CUDA the same stages run on the device mirror (fem_device.h).
//
// Frames show the mesh nodes as the elements (sphere mode) and, as the surface (writeSurfaces), sec. 4's tetrahedral
// splitting (fem_split_surface.h): the outer faces of intact tetrahedra and the corner pieces of failed ones, debris
// particles' shapes among them, coloured per node: stress = von Mises over the JC yield stress (elastic materials:
// the equivalent elastic strain in percent), damage, speed, fragment.
#include <memory>
#include <string>
#include <vector>

#include "analysis/fragments.h"
#include "backend/exec_memory.h"
#include "solvers/array_solver.h"
#include "solvers/fem/fem_arrays.h"
#include "solvers/fem/fem_device.h"
#include "solvers/fem/fem_split_surface.h"
#include "solvers/fem/fem_step_params.h"
#include "solvers/grips.h"
#include "solvers/solver.h"

namespace frac {

class FemSolver : public ArraySolver<FemArrays, FemViews, fem::FemDevice> {
 public:
  void load(const SceneDesc& scene, const SolverOptions& options) override;  // fem_build.cpp
  void step(double dt) override;
  SimStats stats() const override;
  double freeMass() const override;
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
  FemTetArrays& editTets() { return arrays_.edit().tets; }
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
  void addBody(const BodyDesc& body, int index, int material, float density, const std::string& baseDir,
               const std::string& where);
  void buildCornerLists();
  void checkStartsAbovePlanes(const SceneDesc& scene) const;
  void computeStableDt();
  void setLargestRadius();
  int labelPieces();  // the pieces labelled on the host (fem_pieces.h), their count
  void uploadToDevice() override;
  void saveExtra(CheckpointWriter& out) const override;  // fem_checkpoint.cpp
  void restoreExtra(const CheckpointReader& in) override;
  template <class Io>
  void checkpointFields(Io& io);  // one list for both directions (io/checkpoint_file.h)
  bool anyDebris();
  FragmentLabels meshPieces() const;

  // Elements drawn and picked: the nodes, with this radius each (a quarter of the body's edge length).
  std::vector<float> nodeRadius_;
  std::vector<double> projectileLaunch_;
  std::vector<uint16_t> projectileMaterial_;
  Grips grips_;  // scene kinematics: grips (grip: true) and rigid bodies of their own
  std::vector<uint8_t> kinematicBody_;  // per body index: 1 for a kinematic's mesh (all its nodes driven)
  FemStepParams params_;
  HostElementGrid contactGrids_[2];  // the CPU's contact grids: debris particles, mesh nodes
  FemSplitSurface splitSurface_;     // the surface's split points and debris frames, kept from frame to frame
};

}  // namespace frac
