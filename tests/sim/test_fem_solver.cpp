// fem-debris (Zhang et al., hybrid FEM / meshfree debris), its elastic core against closed-form mechanics: the patch
// test (a linear displacement field gives the same stress in every tetrahedron, that of linear elasticity, and no
// force on interior nodes), a longitudinal pulse in a bar at sqrt(E / rho) and a plane wave at the dilatational speed,
// a spinning and vibrating free body that
// keeps its energy (the Jaumann rate is objective), a block resting on the ground whose contact carries its weight,
// and the same bits for 1 and 2 threads.
#include <doctest/doctest.h>
#include "../relative_approx.h"

#include <algorithm>
#include <cmath>
#include <string>

#include <glm/gtc/matrix_transform.hpp>

#include "io/scene_error.h"
#include "io/scene_loader.h"
#include "solvers/fem/fem_solver.h"

using namespace frac;

namespace {

struct Elastic {
  double young, poisson, density;
  double bulk() const { return young / (3.0 * (1.0 - 2.0 * poisson)); }
  double shear() const { return young / (2.0 * (1.0 + poisson)); }
};
constexpr Elastic kAluminium{70e9, 0.33, 2700.0};

// A box body of `size` meshed with edge 2 r, centred at `centre`; gravity and a ground plane at y = 0 optional.
FemSolver makeBox(const vec3& size, float r, const vec3& centre, Elastic e, bool gravity, bool ground,
                  int threads = 1) {
  auto number = [](double v) { return std::to_string(v); };
  // The elastic core: no shock viscosity (eq. 14), which would take energy out of the vibration tests.
  std::string scene = R"({"name": "box", "solver": {"method": "fem-debris", "dt": "auto", "viscosity_quadratic": 0,
      "viscosity_linear": 0, "gravity": [0, )" + std::string(gravity ? "-9.81" : "0") + R"(, 0]},
      "materials": {"m": {"density": )" + number(e.density) + R"(, "bulk_modulus": )" + number(e.bulk()) +
                      R"(, "shear_modulus": )" + number(e.shear()) + R"(, "friction": 0.5, "restitution": 0.2}},
      "bodies": [{"shape": {"type": "box", "size": [)" + number(size.x) + ", " + number(size.y) + ", " +
                      number(size.z) + R"(]}, "position": [)" + number(centre.x) + ", " + number(centre.y) + ", " +
                      number(centre.z) + R"(], "element_radius": )" + number(r) + R"(, "material": "m"}])";
  if (ground) scene += R"(, "planes": [{"point": [0, 0, 0], "normal": [0, 1, 0], "material": "m"}])";
  scene += "}";
  FemSolver solver;
  solver.load(parseScene(nlohmann::json::parse(scene), "box.json"), SolverOptions{threads});
  REQUIRE(solver.tetCount() > 0);
  return solver;
}

}  // namespace

TEST_CASE("fem-debris patch test: a linear displacement field gives one stress everywhere, linear elasticity's") {
  FemSolver solver = makeBox(vec3(0.04f, 0.03f, 0.02f), 0.003f, vec3(0.0f), kAluminium, false, false);
  // x = X + H X reached in one step of dt: v = H X / dt. H symmetric (a pure strain), 1e-4.
  const float dt = 1e-7f;
  const glm::mat3 H(glm::vec3(1e-4f, 3e-5f, 0.0f), glm::vec3(3e-5f, -5e-5f, 2e-5f), glm::vec3(0.0f, 2e-5f, 4e-5f));
  FemNodeArrays& n = solver.editNodes();
  for (int i = 0; i < solver.nodeCount(); ++i) {
    const vec3 u = H * n.reference[i];
    n.displacement[i] = u;
    n.velocity[i] = u / dt;
  }
  solver.computeStress(dt);
  const FemTetArrays& t = solver.tets();
  // Linear elasticity: s = 2 G dev(eps), p = -K tr(eps) (to first order in H; H^2 ~ 1e-8 is below the tolerance).
  const double G = kAluminium.shear(), K = kAluminium.bulk(), trace = 1e-4 - 5e-5 + 4e-5;
  const double sxx = 2 * G * (1e-4 - trace / 3), sxy = 2 * G * 3e-5, p = -K * trace;
  double worst = 0.0;
  for (int e = 0; e < solver.tetCount(); ++e) {
    const fem::Sym3& s = t.deviatoric[e];
    worst = std::max({worst, std::abs(s.xx - sxx) / std::abs(sxx), std::abs(s.xy - sxy) / std::abs(sxx),
                      std::abs(t.pressure[e] - p) / std::abs(p)});
  }
  MESSAGE(solver.tetCount() << " tetrahedra, largest relative stress deviation " << worst);
  CHECK(worst < 1e-3);  // the H^2 terms (1e-8 / 1e-4) and float rounding of the strain rates
  // Interior nodes (not on the box's faces) feel no net force: their tetrahedra's forces cancel.
  const FemNodeArrays& nodes = solver.nodes();
  const vec3 half(0.02f, 0.015f, 0.01f);
  double interior = 0.0, typical = 0.0;
  int count = 0;
  for (int i = 0; i < solver.nodeCount(); ++i) {
    const vec3 X = nodes.reference[i];
    vec3 f(0.0f);
    for (int c = nodes.cornerStart[i]; c < nodes.cornerStart[i + 1]; ++c) {
      f += t.cornerForce[nodes.corner[c]];
      typical = std::max(typical, double(glm::length(t.cornerForce[nodes.corner[c]])));
    }
    if (glm::all(glm::lessThan(glm::abs(X), half - vec3(1e-4f)))) {
      interior = std::max(interior, double(glm::length(f)));
      ++count;
    }
  }
  REQUIRE(count > 10);
  MESSAGE(count << " interior nodes: largest net force " << interior << " N, largest corner force " << typical);
  CHECK(interior < 1e-4 * typical);
}

TEST_CASE("fem-debris: a longitudinal pulse runs along a bar at sqrt(E / rho) within 5%") {
  const float length = 0.3f;
  // The front's arrival at a station: when the mean x-velocity of the nodes within 5 mm of it first passes half its
  // peak, after the first 3 cm of the bar were set moving at 1 m/s along +x.
  int tets = 0;
  auto arrival = [&](float station) {
    FemSolver solver = makeBox(vec3(length, 0.012f, 0.012f), 0.003f, vec3(0.0f), kAluminium, false, false);
    tets = solver.tetCount();
    FemNodeArrays& n = solver.editNodes();
    std::vector<int> near;
    for (int i = 0; i < solver.nodeCount(); ++i) {
      n.velocity[i] = n.reference[i].x < -0.5f * length + 0.03f ? vec3(1.0f, 0, 0) : vec3(0.0f);
      if (std::abs(n.reference[i].x - station) < 0.005f) near.push_back(i);
    }
    REQUIRE(!near.empty());
    const double dt = 0.5 * solver.stableDt();
    std::vector<double> history;
    double peak = 0.0;
    for (double time = 0.0; time < 1e-4; time += dt) {
      solver.step(dt);
      double mean = 0.0;
      for (int i : near) mean += solver.nodes().velocity[i].x;
      history.push_back(mean / double(near.size()));
      peak = std::max(peak, history.back());
    }
    for (size_t k = 0; k < history.size(); ++k)
      if (history[k] >= 0.5 * peak) return (double(k) + 1.0) * dt;
    return 0.0;
  };
  const float a = -0.05f, b = 0.1f;
  const double speed = (b - a) / (arrival(b) - arrival(a));
  const double expected = std::sqrt(kAluminium.young / kAluminium.density);
  MESSAGE("pulse speed " << speed << " m/s, sqrt(E/rho) " << expected << " m/s, " << tets << " tets");
  CHECK(speed == RelApprox(expected).epsilon(0.05));
}

TEST_CASE("fem-debris: a plane compression wave runs at the dilatational speed sqrt((K + 4G/3) / rho) within 5%") {
  // A block 0.2 x 0.08 x 0.08 m whose first 2 cm start moving at 1 m/s along +x: near the axis the front is plane
  // (uniaxial strain), a pulse of half that particle velocity. Its arrival (0.25 m/s, half the plane pulse's 0.5) at
  // two stations on the axis, 6 cm apart, gives the dilatational speed (the thin bar above gives the bar speed
  // sqrt(E / rho) instead; here 5,092 m/s would be 18% off).
  const float length = 0.2f, width = 0.08f;
  int tets = 0;
  auto arrival = [&](float station) {
    FemSolver solver = makeBox(vec3(length, width, width), 0.003f, vec3(0.0f), kAluminium, false, false);
    tets = solver.tetCount();
    FemNodeArrays& n = solver.editNodes();
    std::vector<int> near;
    for (int i = 0; i < solver.nodeCount(); ++i) {
      const vec3 X = n.reference[i];
      n.velocity[i] = X.x < -0.5f * length + 0.02f ? vec3(1.0f, 0, 0) : vec3(0.0f);
      if (std::abs(X.x - station) < 0.004f && std::abs(X.y) < 0.012f && std::abs(X.z) < 0.012f) near.push_back(i);
    }
    REQUIRE(near.size() >= 3);
    const double dt = 0.5 * solver.stableDt();
    std::vector<double> history;
    for (double time = 0.0; time < 2e-5; time += dt) {
      solver.step(dt);
      double mean = 0.0;
      for (int i : near) mean += solver.nodes().velocity[i].x;
      history.push_back(mean / double(near.size()));
    }
    for (size_t k = 0; k < history.size(); ++k)
      if (history[k] >= 0.25) return (double(k) + 1.0) * dt;
    return 0.0;
  };
  const float a = -0.06f, b = 0.0f;
  const double speed = (b - a) / (arrival(b) - arrival(a));
  const double expected = std::sqrt((kAluminium.bulk() + 4.0 / 3.0 * kAluminium.shear()) / kAluminium.density);
  MESSAGE("plane wave speed " << speed << " m/s, dilatational sqrt((K + 4G/3) / rho) " << expected << " m/s, bar "
                              << std::sqrt(kAluminium.young / kAluminium.density) << " m/s, " << tets << " tets");
  CHECK(speed == RelApprox(expected).epsilon(0.05));
}

TEST_CASE("fem-debris: an undamaged elastic body spinning and vibrating keeps its total energy within 1%") {
  // A soft block turning twice about z (400 rad/s) while it vibrates.
  const Elastic rubber{1e7, 0.3, 1000.0};
  FemSolver solver = makeBox(vec3(0.03f, 0.02f, 0.02f), 0.003f, vec3(0.0f), rubber, false, false);
  FemNodeArrays& n = solver.editNodes();
  const vec3 spin(0.0f, 0.0f, 400.0f);
  for (int i = 0; i < solver.nodeCount(); ++i) {
    const vec3 X = n.reference[i];
    n.velocity[i] = glm::cross(spin, X) + vec3(0.5f * X.x / 0.015f, 0.0f, 0.0f);  // spin + a stretching mode
  }
  const double dt = 0.5 * solver.stableDt(), turns = 2.0, duration = turns * 2.0 * M_PI / 400.0;
  solver.step(dt);
  const double start = solver.kineticEnergy() + solver.elasticEnergy();
  double worst = 0.0;
  int steps = 0;
  for (double time = 0.0; time < duration; time += dt, ++steps) {
    solver.step(dt);
    if (steps % 50 == 0) worst = std::max(worst, std::abs(solver.kineticEnergy() + solver.elasticEnergy() - start));
  }
  MESSAGE("energy " << start << " J, largest drift " << worst << " J over " << turns << " turns, " << steps
                    << " steps");
  CHECK(worst < 0.01 * start);
}

TEST_CASE("fem-debris: a stressed body turned rigidly by 90 degrees carries its stress along (Jaumann rate, eq. 8)") {
  FemSolver solver = makeBox(vec3(0.03f, 0.02f, 0.02f), 0.004f, vec3(0.0f), kAluminium, false, false);
  // A uniform stress s_xx = 1 MPa, s_yy = -1 MPa (deviatoric), then 90 rigid steps of 1 degree about z: the stress
  // must turn with the body to s_xx = -1 MPa, s_yy = 1 MPa (sigma' = R sigma R^T), whatever the step.
  const float dt = 1e-6f, angle = float(M_PI) / 180.0f;
  std::vector<fem::Sym3> start(size_t(solver.tetCount()));
  for (fem::Sym3& s : start) s = fem::Sym3{1e6f, -1e6f, 0.0f, 0.0f, 0.0f, 0.0f};
  solver.setStress(start);
  // The motion in double, so that the velocities are the rotation's and not the rounding of float positions.
  const glm::dmat3 R = glm::dmat3(glm::rotate(glm::dmat4(1.0), double(angle), glm::dvec3(0, 0, 1)));
  std::vector<glm::dvec3> x;
  for (const vec3& X : solver.nodes().reference) x.push_back(glm::dvec3(X));
  for (int k = 0; k < 90; ++k) {
    FemNodeArrays& n = solver.editNodes();
    for (int i = 0; i < solver.nodeCount(); ++i) {
      const glm::dvec3 next = R * x[i];
      n.velocity[i] = vec3((next - x[i]) / double(dt));
      n.displacement[i] = vec3(next - glm::dvec3(n.reference[i]));
      x[i] = next;
    }
    solver.computeStress(dt);
  }
  double worst = 0.0;
  for (const fem::Sym3& s : solver.tets().deviatoric)
    worst = std::max({worst, std::abs(s.xx + 1e6) / 1e6, std::abs(s.yy - 1e6) / 1e6, std::abs(s.xy) / 1e6,
                      std::abs(s.zz) / 1e6});
  MESSAGE("largest deviation from the turned stress: " << worst << " of 1 MPa");
  CHECK(worst < 0.01);
}

TEST_CASE("fem-debris: a block resting on the ground: the contact carries its weight, nothing moves") {
  const vec3 size(0.04f, 0.02f, 0.04f);
  const Elastic rubber{1e7, 0.3, 1000.0};  // soft: a long stable step, so settling takes few steps
  FemSolver solver = makeBox(size, 0.004f, vec3(0.0f, 0.5f * size.y, 0.0f), rubber, true, true);
  solver.setDamping(300.0f);  // mass damping: settles within ~20 ms
  const double dt = 0.5 * solver.stableDt();
  for (double time = 0.0; time < 0.06; time += dt) solver.step(dt);
  const FemNodeArrays& n = solver.nodes();
  double mass = 0.0, contact = 0.0, speed = 0.0;
  for (int i = 0; i < solver.nodeCount(); ++i) {
    mass += n.mass[i];
    speed = std::max(speed, double(glm::length(n.velocity[i])));
  }
  // At rest the gathered forces (internal + gravity + contact) vanish, so the contact's total is m g.
  solver.setDamping(0.0f);
  for (int i = 0; i < solver.nodeCount(); ++i) contact += n.force[i].y;
  const double weight = mass * 9.81;
  MESSAGE("mass " << mass << " kg, net vertical force " << contact << " N (weight " << weight << " N), top speed "
                  << speed << " m/s");
  CHECK(mass == RelApprox(0.04 * 0.02 * 0.04 * rubber.density).epsilon(1e-3));
  CHECK(std::abs(contact) < 0.01 * weight);
  CHECK(speed < 1e-3);
}

TEST_CASE("fem-debris: a block dropped on the ground gives the same bits on 1 and 2 threads") {
  uint64_t digest[2] = {0, 0};
  for (int threads : {1, 2}) {
    FemSolver solver = makeBox(vec3(0.04f, 0.02f, 0.03f), 0.003f, vec3(0.0f, 0.012f, 0.0f), kAluminium, true, true,
                               threads);
    FemNodeArrays& n = solver.editNodes();
    for (vec3& v : n.velocity) v = vec3(0.3f, -2.0f, 0.1f);
    const double dt = 0.5 * solver.stableDt();
    for (int k = 0; k < 300; ++k) solver.step(dt);
    digest[threads - 1] = solver.stateDigest();
  }
  CHECK(digest[0] == digest[1]);
}

TEST_CASE("fem-debris: a body that starts deep inside the ground is a scene error naming the body's position") {
  // Pushed out node by node, its elements would invert; the error says by how much to move it.
  bool thrown = false;
  try {
    makeBox(vec3(0.04f, 0.02f, 0.04f), 0.003f, vec3(0.0f), kAluminium, true, true);
  } catch (const SceneError& e) {
    thrown = true;
    CHECK(std::string(e.what()).find("box.json: /bodies/0/position") != std::string::npos);
    CHECK(std::string(e.what()).find("0.01") != std::string::npos);  // half the 2 cm height is below the ground
  }
  CHECK(thrown);
}

// A cantilever (0.12 x 0.012 x 0.012 m, nu = 0, one end held by a grip) sagging under its own weight, settled by
// mass damping critical for its first bending mode. Linear tetrahedra are too stiff in bending (shear locking) and
// converge as h^2: meshes of 3 and 4 edges across the section give 80% and 88% of the deflection, and their Richardson
// extrapolation (h -> 0) is compared with Euler-Bernoulli's q L^4 / (8 E I), plus Timoshenko's shear part
// q L^2 / (2 kappa G A) (kappa 5/6: 0.8% here), within 5%.
TEST_CASE("fem-debris: a cantilever's tip deflection under its own weight, extrapolated to h -> 0, is Euler-Bernoulli's within 5%") {
  const double length = 0.12, side = 0.012;
  const Elastic e{2e8, 0.0, 1000.0};  // tip deflection ~1e-4 m = L / 1,100: geometrically linear
  const double inertia = std::pow(side, 4) / 12.0, area = side * side, load = e.density * 9.81 * area;
  const double bending = load * std::pow(length, 4) / (8.0 * e.young * inertia);
  const double expected = bending + load * length * length / (2.0 * (5.0 / 6.0) * e.shear() * area);
  auto tipDeflection = [&](int across) {
    const double edge = side / across;
    auto number = [](double v) { return std::to_string(v); };
    const std::string scene = R"({"name": "cantilever", "solver": {"method": "fem-debris", "dt": "auto",
        "viscosity_quadratic": 0, "viscosity_linear": 0, "gravity": [0, -9.81, 0]},
        "materials": {"m": {"density": )" + number(e.density) + R"(, "bulk_modulus": )" + number(e.bulk()) +
                              R"(, "shear_modulus": )" + number(e.shear()) + R"(}},
        "bodies": [{"shape": {"type": "box", "size": [)" + number(length) + ", " + number(side) + ", " +
                              number(side) + R"(]}, "element_radius": )" + number(0.5 * edge) +
                              R"(, "material": "m"}],
        "kinematics": [{"name": "wall", "position": [)" + number(-0.5 * length) + R"(, 0, 0], "grip": true,
                        "shape": {"type": "box", "size": [)" + number(0.2 * edge) + ", " + number(2 * side) + ", " +
                              number(2 * side) + R"(]}, "element_radius": )" + number(0.5 * edge) +
                              R"(, "material": "m"}]})";
    FemSolver solver;
    solver.load(parseScene(nlohmann::json::parse(scene), "cantilever.json"), SolverOptions{1});  // ctest runs 2 at once
    const FemNodeArrays& n = solver.nodes();
    std::vector<int> tip;  // the free end face's nodes
    for (int i = 0; i < solver.nodeCount(); ++i)
      if (n.reference[i].x > 0.5 * length - 1e-6) tip.push_back(i);
    REQUIRE(tip.size() >= 4);
    const double omega = 1.875 * 1.875 * std::sqrt(e.young * inertia / (e.density * area * std::pow(length, 4)));
    solver.setDamping(float(2.0 * omega));  // critical for the first mode: settled to 0.1% by omega t = 9
    const double dt = 0.9 * solver.stableDt();
    for (double time = 0.0; time < 9.0 / omega; time += dt) solver.step(dt);
    double sum = 0.0;
    for (int i : tip) sum += n.displacement[i].y;
    const double deflection = -sum / double(tip.size());
    MESSAGE(across << " edges across: " << solver.tetCount() << " tetrahedra, tip " << deflection << " m ("
                   << deflection / expected << " of the beam theory's " << expected << " m)");
    return deflection;
  };
  const double coarse = tipDeflection(3), fine = tipDeflection(4);
  const double extrapolated = fine + (fine - coarse) / (16.0 / 9.0 - 1.0);  // error ~ h^2
  MESSAGE("extrapolated " << extrapolated << " m, " << extrapolated / expected << " of the beam theory's");
  CHECK(expected - fine < (expected - coarse) / 1.5);  // converging: the error falls with h (h^2: 1.78x)
  CHECK(extrapolated == RelApprox(expected).epsilon(0.05));
}

// Saint-Venant torsion of a square bar (side a, nu = 0.25): one end held by a grip, the other turned by a grip about
// the bar's axis to a small angle and held while mass damping (critical for the first torsional mode) settles it; the
// turning grip's torque (Solver::kinematicLoad) against T = beta G a^4 theta / L, beta = 0.1406 (Timoshenko & Goodier,
// Theory of Elasticity, sec. 109). Linear tetrahedra are too stiff and converge as h^2: meshes of 3 and 4 edges across
// are extrapolated to h -> 0, as the cantilever's, and compared within 5% (the ends' restrained warping stiffens a
// bar of L = 10 a a little).
TEST_CASE("fem-debris: a twisted square bar's torque, extrapolated to h -> 0, is Saint-Venant's within 5%") {
  const double length = 0.12, side = 0.012, turn = 0.01;  // rad: geometrically linear
  const Elastic e{2.5e8, 0.25, 1000.0};
  const double expected = 0.1406 * e.shear() * std::pow(side, 4) * turn / length;
  const double torsionMode = M_PI / length * std::sqrt(e.shear() / e.density);  // fixed-fixed, first mode (rad/s)
  const double twistTime = 20.0 / torsionMode, settle = 12.0 / torsionMode;
  auto torque = [&](int across) {
    const double edge = side / across;
    auto number = [](double v) { return std::to_string(v); };
    auto grip = [&](const std::string& name, double x, double spin) {
      return R"({"name": ")" + name + R"(", "position": [)" + number(x) + R"(, 0, 0], "grip": true,
          "angular_velocity": [)" + number(spin) + R"(, 0, 0], "stop": )" + number(twistTime) + R"(,
          "shape": {"type": "box", "size": [)" + number(0.2 * edge) + ", " + number(2 * side) + ", " +
             number(2 * side) + R"(]}, "element_radius": )" + number(0.5 * edge) + R"(, "material": "m"})";
    };
    const std::string scene = R"({"name": "torsion", "solver": {"method": "fem-debris", "dt": "auto",
        "viscosity_quadratic": 0, "viscosity_linear": 0, "gravity": [0, 0, 0]},
        "materials": {"m": {"density": )" + number(e.density) + R"(, "bulk_modulus": )" + number(e.bulk()) +
                              R"(, "shear_modulus": )" + number(e.shear()) + R"(}},
        "bodies": [{"shape": {"type": "box", "size": [)" + number(length) + ", " + number(side) + ", " +
                              number(side) + R"(]}, "element_radius": )" + number(0.5 * edge) +
                              R"(, "material": "m"}],
        "kinematics": [)" + grip("held", -0.5 * length, 0.0) + ", " +
                              grip("turned", 0.5 * length, turn / twistTime) + "]}";
    FemSolver solver;
    solver.load(parseScene(nlohmann::json::parse(scene), "torsion.json"), SolverOptions{1});
    solver.setDamping(float(2.0 * torsionMode));
    const double dt = 0.9 * solver.stableDt();
    for (double time = 0.0; time < twistTime + settle; time += dt) solver.step(dt);
    const KinematicLoad load = solver.kinematicLoad("turned");
    MESSAGE(across << " edges across: " << solver.tetCount() << " tetrahedra, turned " << load.angle << " rad, torque "
                   << load.torque << " N m (" << load.torque / expected << " of Saint-Venant's " << expected << ")");
    CHECK(load.angle == RelApprox(turn).epsilon(0.01));
    return load.torque;
  };
  const double coarse = torque(3), fine = torque(4);
  const double extrapolated = fine + (fine - coarse) / (16.0 / 9.0 - 1.0);  // error ~ h^2
  MESSAGE("extrapolated " << extrapolated << " N m, " << extrapolated / expected << " of Saint-Venant's");
  CHECK(fine - expected < (coarse - expected) / 1.5);  // converging from above (too stiff)
  CHECK(extrapolated == RelApprox(expected).epsilon(0.05));
}
