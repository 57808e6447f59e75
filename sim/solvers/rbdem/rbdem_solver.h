#pragma once
// Rod-Bonded DEM (Zhang et al.): BDEM's elements, bodies, bonds, contacts, kinematic bodies and projectiles (built by
// BdemSolver from the same scene, so a bdem scene runs unchanged) with Cosserat-rod bonds (kernels/rbdem_rod.h), the
// log-barrier contact (kernels/rbdem_contact.h) and the implicit step of Algorithm 1 or its explicit variant
// (rbdem_step.h). The rod and solve arrays are BdemArrays' rods and solve groups.
#include "io/scene_params.h"
#include "solvers/bdem/bdem_solver.h"
#include "solvers/rbdem/rbdem_step.h"

namespace frac {

class RbdemSolver : public BdemSolver {
 public:
  void load(const SceneDesc& scene, const SolverOptions& options) override;
  void step(double dt) override;
  SimStats stats() const override;
  void applyLiveSettings(const SceneDesc& scene) override;
  std::string method() const override { return "rbdem"; }
  // Explicit: Lu's eq. 28 (the rods are as stiff as Lu's bonds). Implicit: the scene's `implicit_step` times that
  // (not a stability limit: the step "auto" takes); "auto" applies the safety factor on top.
  double stableDt() const override {
    return integration_ == RodIntegration::Implicit ? implicitStep_ * stableDt_ : stableDt_;
  }
  // The implicit step in explicit steps (scene key `implicit_step`; hand-made setups keep the registry's default).
  double implicitStep() const { return implicitStep_; }
  int launchProjectile(const vec3& position, const vec3& velocity, float radius, int material,
                       float density = 0.0f) override;
  int launchBreakableProjectile(const vec3& centre, const vec3& velocity, float radius, float elementRadius,
                                int material, float density = 0.0f) override;

  // CG iterations of the last implicit step (0 for explicit steps).
  int lastIterations() const { return lastIterations_; }
  const RbdemStepParams& params() const { return rod_; }
  RodIntegration integration() const { return integration_; }
  // Hand-made setups (tests): after BdemSolver's initEmpty ... prepare(), the rods' rest state and t = 0 forces.
  void prepareRods(const RbdemStepParams& params, RodIntegration integration);

 private:
  class CpuStep;
  void readSettings(const SceneDesc& scene);
  void sizeArrays();  // rods for every bond (new ones at their current state), the solve arrays per element
  void computeRodForces();

  RbdemStepParams rod_;
  RodIntegration integration_ = RodIntegration::Implicit;
  double implicitStep_ = defaultsOf<SolverDesc>().implicitStep;  // the registry's default until a scene sets it
  std::optional<double> contactStiffness_;  // the scene's k_c; empty = auto
  int lastIterations_ = 0;
  long long totalIterations_ = 0, implicitSteps_ = 0;
};

}  // namespace frac
