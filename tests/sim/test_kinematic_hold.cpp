// A kinematic's hold on its elements: "pose" prescribes position and orientation (a clamp), "position" the position
// only, the element turning (a pin: bdem, rbdem), "roller_x" (_y, _z) two coordinates, the element also moving
// freely along that axis, "axial_x" (_y, _z) one coordinate, the element moving freely across it (every method).
// Checked on a physical pendulum against its closed-form swing time, on a pendulum whose pivot rolls (no horizontal
// force: its centre of mass stays put), on a body sliding through a roller grip along its axis and through an axial
// grip across it at its own speed (Newton's first law), and on the scene key.
#include <doctest/doctest.h>
#include "../relative_approx.h"

#include <cmath>
#include <memory>
#include <string>

#include "bdem_test_scenes.h"
#include "io/scene_error.h"
#include "io/scene_loader.h"
#include "solvers/rbdem/rbdem_solver.h"
#include "solvers/solver.h"

using namespace frac;
using nlohmann::json;

namespace {

enum class Method { BdemExplicit, RbdemImplicit, RbdemExplicit };

// Two bonded elements of radius r, the bond horizontal along x, gravity -y; element 0 held by a kinematic at rest.
// Held by its position only, the pair is a physical pendulum pivoting at element 0's centre: both spheres turn with
// the bond, I = 2 (2/5) m r^2 + m L^2 about the pivot with L = 2r, so from the horizontal it reaches the bottom after
// sqrt(I / (m g L)) K(sin 45 deg), K the complete elliptic integral of the first kind (K(1/sqrt 2) = 1.8540747).
struct Pendulum {
  float r = 0.01f, g = 9.81f;
  std::unique_ptr<BdemSolver> solver;
  double dt = 0.0;

  void build(Method method, KinematicHold hold) {
    MaterialDesc m = test::testMaterial("arm");  // no bond damping
    m.young = 1e8f;
    m.shear = 4e7f;
    m.tensileStrength = m.shearStrength = 1e30f;
    solver = method == Method::BdemExplicit ? std::make_unique<BdemSolver>() : std::make_unique<RbdemSolver>();
    solver->initEmpty({m}, vec3(0, -g, 0), false);
    solver->addElement(vec3(0.0f), r, 0);
    solver->addElement(vec3(2.0f * r, 0.0f, 0.0f), r, 0);
    solver->addBond(0, 1, 0);
    solver->finalizeBonds();
    solver->addKinematicBody("pivot", {0}, vec3(0.0f), vec3(0.0f), vec3(0.0f), hold);
    solver->prepare();
    dt = 0.3 * solver->stableDt();
    if (method != Method::BdemExplicit) {
      auto& rods = static_cast<RbdemSolver&>(*solver);
      RbdemStepParams p;
      p.tolerance = 1e-7f;
      p.maxIterations = 200;
      const RodIntegration integration =
          method == Method::RbdemImplicit ? RodIntegration::Implicit : RodIntegration::Explicit;
      rods.prepareRods(p, integration);
      // implicit: ~460 steps to the bottom, ~20x the explicit step; explicit: the rods' own step, now that it is set
      dt = integration == RodIntegration::Implicit ? 2e-4 : 0.3 * solver->stableDt();
    }
  }
  vec3 arm() const { return solver->elements().position[1] - solver->elements().position[0]; }
  // Theory: the time from release to the bottom of the swing.
  double expectedTimeToBottom() const {
    const double inertiaOverMass = 0.8 * r * r + 4.0 * r * r, lever = 2.0 * r;
    return std::sqrt(inertiaOverMass / (g * lever)) * 1.8540746773013719;
  }
  // Steps until the arm passes below the pivot (x changes sign), the crossing time interpolated; -1 if not by `limit`.
  double timeToBottom(double limit) {
    double t = 0.0, lastX = arm().x;
    while (t < limit) {
      solver->step(dt);
      t += dt;
      const double x = arm().x;
      if (x <= 0.0) return t - dt * x / (x - lastX);
      lastX = x;
    }
    return -1.0;
  }
};

std::string name(Method m) {
  return m == Method::BdemExplicit ? "bdem" : m == Method::RbdemImplicit ? "rbdem implicit" : "rbdem explicit";
}

}  // namespace

TEST_CASE("a kinematic holding position only is a pin: a bonded pair swings as a physical pendulum (bdem, rbdem)") {
  for (Method method : {Method::BdemExplicit, Method::RbdemImplicit, Method::RbdemExplicit}) {
    CAPTURE(name(method));
    Pendulum pin;
    pin.build(method, KinematicHold::Position);
    const double expected = pin.expectedTimeToBottom();
    const double measured = pin.timeToBottom(3.0 * expected);
    MESSAGE(name(method) << ": time to the bottom " << measured << " s, theory " << expected << " s (dt " << pin.dt
                         << ")");
    // 0.2%: the bond's elastic stretch and bend under the swing's loads (strains ~1e-4) and implicit Euler's damping
    // at dt = 2e-4 (measured 0.06% late) stay below it; a pin that held the orientation would not swing at all.
    CHECK(measured == RelApprox(expected).epsilon(0.002));
    CHECK(std::abs(pin.arm().y + 2.0 * pin.r) < 0.01 * pin.r);  // at the bottom, the arm hangs straight down
    CHECK(std::abs(length(pin.arm()) - 2.0 * pin.r) < 1e-3 * pin.r);

    Pendulum clamp;  // the same pair with the pivot's orientation prescribed: a cantilever, barely sagging
    clamp.build(method, KinematicHold::Pose);
    CHECK(clamp.timeToBottom(expected) < 0.0);
    CHECK(std::abs(clamp.arm().y) < 0.01 * clamp.r);
  }
}

TEST_CASE("a roller transmits no force along its axis: a pendulum whose pivot rolls keeps its centre of mass's x") {
  // Released from the horizontal with the pivot on a roller_x, the pair has no horizontal force on it (gravity is
  // vertical, the roller prescribes y and z only): the x of its centre of mass stays where it was while the arm
  // swings down and the pivot rolls back, which a pin (fixed pivot) does not allow.
  for (Method method : {Method::BdemExplicit, Method::RbdemImplicit, Method::RbdemExplicit}) {
    CAPTURE(name(method));
    Pendulum roller;
    roller.build(method, KinematicHold::RollerX);
    const auto centreX = [&] {
      return 0.5 * (double(roller.solver->elements().position[0].x) + roller.solver->elements().position[1].x);
    };
    const double start = centreX(), expectedPin = roller.expectedTimeToBottom();
    const double reached = roller.timeToBottom(3.0 * expectedPin);
    const BdemElementArrays& e = roller.solver->elements();
    MESSAGE(name(method) << ": centre of mass x moved " << centreX() - start << " m, pivot rolled to x = "
                         << e.position[0].x << " m, bottom after " << reached << " s");
    REQUIRE(reached > 0.0);
    // the centre of mass did not move, so with the arm below the pivot both stand at its x, r (equal masses)
    CHECK(std::abs(centreX() - start) < 1e-4 * roller.r);
    CHECK(std::abs(e.position[0].x - roller.r) < 0.01 * roller.r);
    CHECK(std::abs(e.position[0].y) < 1e-6f * roller.r);           // y prescribed
    CHECK(reached < expectedPin);  // a lighter effective inertia: a rolling pivot swings down sooner than a pin
  }
}

TEST_CASE("a body moving along a roller grip's axis, or across an axial grip's, slides through it at its own speed "
          "(every method)") {
  // A bar moving at 1 m/s along x, its left end held by a grip at rest: a roller_x leaves that motion alone (every
  // point displaced by v t along x, nothing across), a pin stops the held end. The same bar moving at 1 m/s along y
  // through an axial_x grip (which prescribes x only) moves on as if the grip were not there.
  for (const char* method : {"bdem", "rbdem", "pd-bond", "pd-state", "fem-debris"}) {
    for (const char* hold : {"roller_x", "axial_x", "position"}) {
      const bool across = std::string(hold) == "axial_x";
      const int along = across ? 1 : 0;  // the axis the bar moves along
      CAPTURE(std::string(method));
      CAPTURE(std::string(hold));
      const json doc = {
          {"name", "slide"},
          {"solver", {{"method", method}, {"gravity", {0, 0, 0}}, {"threads", 1}}},
          {"materials", {{"m", {{"density", 2000}, {"young", 1e7}, {"bulk_modulus", 6.7e6},
                                {"shear_modulus", 4e6}, {"shear", 4e6}, {"critical_stretch", 1},
                                {"tensile_strength", 1e12}, {"shear_strength", 1e12}, {"jc_a", 1e12}}}}},
          {"bodies", json::array({{{"name", "bar"}, {"shape", {{"type", "box"}, {"size", {0.12, 0.03, 0.03}}}},
                                   {"element_radius", 0.005}, {"packing", "cubic"}, {"material", "m"},
                                   {"velocity", {across ? 0 : 1, across ? 1 : 0, 0}}}})},
          {"kinematics", json::array({{{"name", "grip"}, {"grip", true}, {"hold", hold},
                                       {"shape", {{"type", "box"}, {"size", {0.02, 0.04, 0.04}}}},
                                       {"position", {-0.06, 0, 0}}, {"element_radius", 0.005},
                                       {"material", "m"}}})}};
      const SceneDesc scene = parseScene(doc, "slide.json");
      std::unique_ptr<Solver> solver = makeSolver(method);
      solver->load(scene, SolverOptions{1});
      const double dt = 0.5 * solver->stableDt();
      const int steps = 50;
      for (int k = 0; k < steps; ++k) solver->step(dt);
      const ReferenceElements& bar = solver->referenceElements();
      const std::vector<vec3> u = solver->displacementsOf(bar.index);
      const double travel = steps * dt;  // v t at 1 m/s
      double worstAlong = 0.0, worstAcross = 0.0, leftmost = 0.0;
      for (size_t k = 0; k < u.size(); ++k) {
        worstAlong = std::max(worstAlong, std::abs(u[k][along] - travel));
        worstAcross = std::max(worstAcross, double(std::max(std::abs(u[k][1 - along]), std::abs(u[k].z))));
        if (bar.position[k].x < -0.05f) leftmost = std::max(leftmost, std::abs(double(u[k].x)));
      }
      MESSAGE(std::string(method) << " " << std::string(hold) << ": travel " << travel << " m, worst along " << worstAlong
                     << " m, across " << worstAcross << " m");
      if (std::string(hold) != "position") {
        CHECK(worstAlong < 1e-3 * travel);  // float rounding of a uniform motion
        CHECK(worstAcross < 1e-3 * travel);
      } else {
        CHECK(leftmost < 1e-6 * travel);  // the pinned end stays
      }
    }
  }
}

TEST_CASE("scene key kinematics.hold: pose by default, position on request, anything else named in the error") {
  auto doc = [](const char* hold) {
    json kin = {{"name", "pin"}, {"shape", {{"type", "sphere"}, {"radius", 0.01}}}, {"element_radius", 0.005},
                {"material", "m"}};
    if (hold) kin["hold"] = hold;
    return json{{"name", "hold"},
                {"materials", {{"m", {{"density", 1000}, {"young", 1e6}}}}},
                {"kinematics", json::array({kin})}};
  };
  CHECK(parseScene(doc(nullptr), "hold.json").kinematics[0].hold == KinematicHold::Pose);
  CHECK(parseScene(doc("position"), "hold.json").kinematics[0].hold == KinematicHold::Position);
  CHECK(parseScene(doc("roller_z"), "hold.json").kinematics[0].hold == KinematicHold::RollerZ);
  CHECK(parseScene(doc("axial_y"), "hold.json").kinematics[0].hold == KinematicHold::AxialY);
  try {
    parseScene(doc("hinge"), "hold.json");
    FAIL("a hold of 'hinge' was accepted");
  } catch (const SceneError& e) {
    const std::string what = e.what();
    CHECK(what.find("hold.json") != std::string::npos);
    CHECK(what.find("/kinematics/0/hold") != std::string::npos);
    CHECK(what.find("position") != std::string::npos);
  }
}
