// fem-debris: contact between tetrahedral bodies (Zhang et al. eq. 6, node-to-surface penalty with Coulomb friction;
// fem_mesh_contact.h nodeFaceCandidate, fem_contact_stages.h bodyContactStage). Against closed-form mechanics:
// Saint-Venant's impact of two equal elastic bars (the striker stops, the target leaves at the striker's speed), a
// block resting on another (the contact carries its weight), a beam on two rigid kinematic supports (each carries
// half), momentum through the contact, the same bits on 1 and 2 threads, and the thrown breakable ball.
#include <doctest/doctest.h>
#include "../relative_approx.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "io/scene_error.h"
#include "io/scene_loader.h"
#include "solvers/fem/fem_solver.h"

using namespace frac;

namespace {

std::string number(double v) { return std::to_string(v); }

std::string boxBody(const vec3& size, const vec3& centre, const vec3& velocity, float elementRadius) {
  return R"({"shape": {"type": "box", "size": [)" + number(size.x) + ", " + number(size.y) + ", " + number(size.z) +
         R"(]}, "position": [)" + number(centre.x) + ", " + number(centre.y) + ", " + number(centre.z) +
         R"(], "velocity": [)" + number(velocity.x) + ", " + number(velocity.y) + ", " + number(velocity.z) +
         R"(], "element_radius": )" + number(elementRadius) + R"(, "material": "m"})";
}

// A soft elastic material (E 1.29e7 Pa, nu 0.25: bar speed 113 m/s) without shock viscosity; `gravity` and a ground
// plane at y = 0 on request.
FemSolver contactScene(const std::string& bodies, bool gravity, float restitution, float friction, int threads = 1) {
  std::string scene = R"({"name": "bodies", "solver": {"method": "fem-debris", "viscosity_quadratic": 0,
      "viscosity_linear": 0, "gravity": [0, )" + std::string(gravity ? "-9.81" : "0") + R"(, 0]},
      "materials": {"m": {"density": 1000, "bulk_modulus": 1e7, "shear_modulus": 5e6, "friction": )" +
                      number(friction) + R"(, "restitution": )" + number(restitution) + R"(}},
      "bodies": [)" + bodies + "]";
  if (gravity) scene += R"(, "planes": [{"point": [0, 0, 0], "normal": [0, 1, 0], "material": "m"}])";
  scene += "}";
  FemSolver solver;
  solver.load(parseScene(nlohmann::json::parse(scene), "bodies.json"), SolverOptions{threads});
  return solver;
}

struct BodyMotion {
  glm::dvec3 centre{0.0}, velocity{0.0};
  double mass = 0.0;
};
BodyMotion motionOf(const FemSolver& solver, int body) {
  const FemNodeArrays& n = solver.nodes();
  BodyMotion out;
  for (int i = 0; i < solver.nodeCount(); ++i) {
    if (n.body[i] != body) continue;
    const double m = n.mass[i];
    out.mass += m;
    out.centre += m * glm::dvec3(n.reference[i] + n.displacement[i]);
    out.velocity += m * glm::dvec3(n.velocity[i]);
  }
  out.centre /= out.mass;
  out.velocity /= out.mass;
  return out;
}

}  // namespace

TEST_CASE("fem-debris: two equal elastic bars collide end on: the striker stops and the target leaves at its speed") {
  // Saint-Venant's longitudinal impact of equal bars (Graff, Wave Motion in Elastic Solids, sec. 2.3): the contact
  // lasts 2 L / c0 and exchanges the velocities. Bars 0.1 x 0.02 x 0.02 m, 1 mm apart, the striker at 1 m/s.
  const vec3 size(0.1f, 0.02f, 0.02f);
  const std::string bodies = boxBody(size, vec3(-0.0505f, 0.0f, 0.0f), vec3(1.0f, 0.0f, 0.0f), 0.0025f) + ", " +
                             boxBody(size, vec3(0.0505f, 0.0f, 0.0f), vec3(0.0f), 0.0025f);
  FemSolver solver = contactScene(bodies, false, 1.0f, 0.0f);
  const double dt = 0.5 * solver.stableDt();
  const double contact = 2.0 * 0.1 / std::sqrt(1.2857e7 / 1000.0);  // 2 L / c0 = 1.77 ms
  double deepest = 0.0;  // the largest overlap of the striker's nodes past the target's end face
  const FemNodeArrays& n = solver.nodes();
  for (double time = 0.0; time < 0.001 + 1.5 * contact; time += dt) {  // 1 ms to close the gap, then the contact
    solver.step(dt);
    double targetEnd = 1.0;
    for (int i = 0; i < solver.nodeCount(); ++i)
      if (n.body[i] == 1) targetEnd = std::min(targetEnd, double(n.reference[i].x + n.displacement[i].x));
    for (int i = 0; i < solver.nodeCount(); ++i)
      if (n.body[i] == 0) deepest = std::max(deepest, double(n.reference[i].x + n.displacement[i].x) - targetEnd);
  }
  const BodyMotion striker = motionOf(solver, 0), target = motionOf(solver, 1);
  const double momentum = striker.mass * striker.velocity.x + target.mass * target.velocity.x;
  MESSAGE("after the contact: striker " << striker.velocity.x << " m/s, target " << target.velocity.x
                                        << " m/s; momentum " << momentum << " of " << striker.mass
                                        << " kg m/s; deepest overlap " << deepest << " m (edge 5 mm)");
  CHECK(momentum == RelApprox(striker.mass * 1.0).epsilon(1e-5));  // the contact forces are equal and opposite
  CHECK(std::abs(striker.velocity.x) < 0.05);      // stopped (passing through: 1 m/s)
  CHECK(target.velocity.x == RelApprox(1.0).epsilon(0.05));
  CHECK(deepest < 0.1 * 0.005);                    // the ends meet, they do not pass into each other
}

TEST_CASE("fem-debris: a block resting on another: the contact between the bodies carries its weight") {
  const vec3 size(0.04f, 0.02f, 0.04f);
  const std::string bodies = boxBody(size, vec3(0.0f, 0.01f, 0.0f), vec3(0.0f), 0.004f) + ", " +
                             boxBody(vec3(0.03f, 0.02f, 0.03f), vec3(0.002f, 0.03f, 0.001f), vec3(0.0f), 0.004f);
  FemSolver solver = contactScene(bodies, true, 0.2f, 0.5f);
  solver.setDamping(300.0f);  // mass damping: settles within ~20 ms
  const double dt = 0.5 * solver.stableDt();
  for (double time = 0.0; time < 0.06; time += dt) solver.step(dt);
  // The contact force on the upper block (its nodes' own contact forces and their shares as face corners), averaged
  // over 500 steps: the interface nodes keep a jitter of ~1e-4 m/s (docs/methods/fem.md), the mean carries m g.
  const FemNodeArrays& n = solver.nodes();
  double contact = 0.0, speed = 0.0;
  for (int k = 0; k < 500; ++k) {
    solver.step(dt);
    for (int i = 0; i < solver.nodeCount(); ++i)
      if (n.body[i] == 1) contact += n.meshContact[i].y / 500.0;
  }
  for (int i = 0; i < solver.nodeCount(); ++i) speed = std::max(speed, double(glm::length(n.velocity[i])));
  const BodyMotion upper = motionOf(solver, 1);
  const double weight = upper.mass * 9.81;
  MESSAGE("upper block: contact force " << contact << " N, its weight " << weight << " N; centre at "
                                        << upper.centre.y << " m (0.03 at rest on the lower), top speed " << speed
                                        << " m/s");
  CHECK(contact == RelApprox(weight).epsilon(0.01));
  CHECK(upper.centre.y == RelApprox(0.03).epsilon(0.01));  // on the lower block: neither sunk in nor thrown off
  CHECK(speed < 1e-3);
}

namespace {

// OBJ text of a box's surface, each face a grid of triangles about `spacing` apart (the meshes are tetrahedralised with
// their triangles as given), outward; `first` is the number of vertices written before (OBJ indices are global).
std::string boxObj(const vec3& centre, const vec3& size, float spacing, int& first) {
  std::string text;
  for (int a = 0; a < 3; ++a)
    for (const float side : {-1.0f, 1.0f}) {
      const int u = (a + 1) % 3, w = (a + 2) % 3;  // e_u x e_w = e_a
      const int nu = int(std::ceil(size[u] / spacing)), nw = int(std::ceil(size[w] / spacing));
      for (int j = 0; j <= nw; ++j)
        for (int i = 0; i <= nu; ++i) {
          vec3 p = centre;
          p[a] += side * 0.5f * size[a];
          p[u] += size[u] * (float(i) / float(nu) - 0.5f);
          p[w] += size[w] * (float(j) / float(nw) - 0.5f);
          text += "v " + number(p.x) + " " + number(p.y) + " " + number(p.z) + "\n";
        }
      auto at = [&](int i, int j) { return std::to_string(first + 1 + j * (nu + 1) + i); };
      for (int j = 0; j < nw; ++j)
        for (int i = 0; i < nu; ++i) {
          const std::string a0 = at(i, j), a1 = at(i + 1, j), a2 = at(i + 1, j + 1), a3 = at(i, j + 1);
          text += side > 0 ? "f " + a0 + " " + a1 + " " + a2 + "\nf " + a0 + " " + a2 + " " + a3 + "\n"
                           : "f " + a0 + " " + a2 + " " + a1 + "\nf " + a0 + " " + a3 + " " + a2 + "\n";
        }
      first += (nu + 1) * (nw + 1);
    }
  return text;
}

}  // namespace

// One body of two pieces (a mesh of two separate boxes, as a body that a crack has cut through): the upper piece
// falls 1 mm onto the lower and rests on it, the contact between the pieces carrying its weight, as between bodies.
TEST_CASE("fem-debris: two pieces of one body collide: the upper rests on the lower, the contact carries its weight") {
  const std::filesystem::path obj = std::filesystem::temp_directory_path() / "frac_two_pieces.obj";
  int vertices = 0;
  std::ofstream(obj) << boxObj(vec3(0.0f, 0.01f, 0.0f), vec3(0.04f, 0.02f, 0.04f), 0.008f, vertices)
                     << boxObj(vec3(0.002f, 0.031f, 0.001f), vec3(0.03f, 0.02f, 0.03f), 0.008f, vertices);
  const std::string body = R"({"shape": {"type": "mesh", "file": ")" + obj.string() +
                           R"("}, "position": [0, 0, 0], "element_radius": 0.004, "material": "m"})";
  FemSolver solver = contactScene(body, true, 0.2f, 0.5f);
  solver.setDamping(300.0f);  // as the two blocks above
  const double dt = 0.5 * solver.stableDt();
  for (double time = 0.0; time < 0.06; time += dt) solver.step(dt);
  const FemNodeArrays& n = solver.nodes();
  auto upper = [&](int i) { return n.reference[i].y > 0.0205f; };
  double contact = 0.0, mass = 0.0, centre = 0.0;
  for (int k = 0; k < 500; ++k) {
    solver.step(dt);
    for (int i = 0; i < solver.nodeCount(); ++i)
      if (upper(i)) contact += n.meshContact[i].y / 500.0;
  }
  for (int i = 0; i < solver.nodeCount(); ++i)
    if (upper(i)) {
      mass += n.mass[i];
      centre += n.mass[i] * (n.reference[i].y + n.displacement[i].y);
    }
  centre /= mass;
  MESSAGE("upper piece: contact force " << contact << " N, its weight " << mass * 9.81 << " N; centre at " << centre
                                        << " m (0.03 at rest on the lower piece, 0.01 fallen through to the ground)");
  CHECK(contact == RelApprox(mass * 9.81).epsilon(0.01));
  CHECK(centre == RelApprox(0.03).epsilon(0.01));
}

TEST_CASE("fem-debris: two bodies colliding give the same bits on 1 and 2 threads") {
  uint64_t digest[2] = {0, 0};
  for (int threads : {1, 2}) {
    const std::string bodies =
        boxBody(vec3(0.04f, 0.02f, 0.04f), vec3(0.0f, 0.01f, 0.0f), vec3(0.0f), 0.003f) + ", " +
        boxBody(vec3(0.02f, 0.02f, 0.02f), vec3(0.004f, 0.0305f, 0.003f), vec3(0.4f, -2.0f, 0.2f), 0.003f);
    FemSolver solver = contactScene(bodies, true, 0.5f, 0.3f, threads);
    const double dt = 0.5 * solver.stableDt();
    for (double time = 0.0; time < 0.003; time += dt) solver.step(dt);
    digest[threads - 1] = solver.stateDigest();
  }
  CHECK(digest[0] == digest[1]);
}

TEST_CASE("fem-debris: a thrown breakable ball is a tetrahedral body that meets a block through the contact") {
  // A 10 mm ball thrown at 3 m/s down onto a block's top face (y = 0.01) with no gravity: without the contact it would
  // be 20 mm deep after 10 ms. The block's earlier state is kept when the ball's mesh is added.
  FemSolver solver =
      contactScene(boxBody(vec3(0.06f, 0.02f, 0.06f), vec3(0.0f), vec3(0.0f), 0.004f), false, 0.5f, 0.3f);
  const int nodesBefore = solver.nodeCount(), tetsBefore = solver.tetCount();
  double dt = 0.5 * solver.stableDt();
  for (int k = 0; k < 20; ++k) solver.step(dt);
  const int added = solver.launchBreakableProjectile(vec3(0.0f, 0.0215f, 0.0f), vec3(0.0f, -3.0f, 0.0f), 0.01f,
                                                     0.0015f, 0);
  REQUIRE(added == solver.nodeCount() - nodesBefore);
  REQUIRE(solver.tetCount() > tetsBefore);
  double mass = 0.0, volume = 0.0;
  for (int i = nodesBefore; i < solver.nodeCount(); ++i) mass += solver.nodes().mass[i];
  for (int e = tetsBefore; e < solver.tetCount(); ++e) volume += solver.tets().restVolume[e];
  MESSAGE("the ball: " << solver.nodeCount() - nodesBefore << " nodes, mesh volume " << volume << " m^3 (sphere "
                       << 4.0 / 3.0 * 3.14159265 * 1e-6 << ")");
  CHECK(mass == RelApprox(1000.0 * volume).epsilon(1e-5));  // lumped masses: density x its tetrahedra
  CHECK(solver.nodes().body[size_t(nodesBefore)] == 1);
  dt = 0.5 * solver.stableDt();
  double lowest = 1.0;
  for (double time = 0.0; time < 0.01; time += dt) {
    solver.step(dt);
    const BodyMotion ball = motionOf(solver, 1);
    lowest = std::min(lowest, ball.centre.y);
  }
  const BodyMotion ball = motionOf(solver, 1), block = motionOf(solver, 0);
  const double momentum = ball.mass * ball.velocity.y + block.mass * block.velocity.y;
  MESSAGE("ball centre lowest at " << lowest << " m (touching the face: 0.02), ball " << ball.velocity.y
                                   << " m/s, block " << block.velocity.y << " m/s; momentum " << momentum << " of "
                                   << -3.0 * ball.mass);
  CHECK(lowest > 0.01 + 0.5 * 0.01);   // the ball's centre stays well above the face (it would reach -0.01)
  CHECK(ball.velocity.y > block.velocity.y - 1e-3);  // they separate or move together: not through each other
  CHECK(block.velocity.y < -0.01);     // the block was pushed
  CHECK(momentum == RelApprox(-3.0 * ball.mass).epsilon(1e-4));
}

TEST_CASE("fem-debris: throwing a breakable ball leaves the bodies already there exactly as they were") {
  // Two copies of a vibrating block; one gets a ball far away (1 m up, at rest) mid-run. Both then step on with the
  // same dt: the block's nodes must have the same bits (corner forces, lists and state kept through the rebuild).
  FemSolver solver[2] = {
      contactScene(boxBody(vec3(0.04f, 0.02f, 0.04f), vec3(0.0f), vec3(0.0f), 0.004f), false, 0.5f, 0.3f),
      contactScene(boxBody(vec3(0.04f, 0.02f, 0.04f), vec3(0.0f), vec3(0.0f), 0.004f), false, 0.5f, 0.3f)};
  const double dt = 0.5 * solver[0].stableDt();
  const int nodes = solver[0].nodeCount();
  for (FemSolver& s : solver) {
    FemNodeArrays& n = s.editNodes();
    for (int i = 0; i < nodes; ++i) n.velocity[i] = vec3(0.2f * n.reference[i].y / 0.01f, 0.0f, -0.1f * n.reference[i].x / 0.02f);
    for (int k = 0; k < 20; ++k) s.step(dt);
  }
  solver[1].launchBreakableProjectile(vec3(0.0f, 1.0f, 0.0f), vec3(0.0f), 0.01f, 0.0025f, 0);
  for (FemSolver& s : solver)
    for (int k = 0; k < 20; ++k) s.step(dt);
  int differing = 0;
  for (int i = 0; i < nodes; ++i)
    differing += solver[0].nodes().displacement[i] != solver[1].nodes().displacement[i] ||
                 solver[0].nodes().velocity[i] != solver[1].nodes().velocity[i];
  CHECK(differing == 0);
}

TEST_CASE("fem-debris: a beam resting on two kinematic supports: each carries half its weight") {
  // Statics: a symmetric beam (0.12 x 0.02 x 0.02 m) on two fixed kinematic blocks 0.08 m apart. The supports are rigid
  // bodies of their own (every node moved by the kinematic); the beam meets them through the contact between bodies.
  const std::string scene = R"({"name": "supports", "solver": {"method": "fem-debris", "gravity": [0, -9.81, 0]},
      "materials": {"m": {"density": 1000, "bulk_modulus": 1e7, "shear_modulus": 5e6, "friction": 0.5,
                          "restitution": 0.2}},
      "bodies": [{"shape": {"type": "box", "size": [0.12, 0.02, 0.02]}, "position": [0, 0.031, 0],
                  "element_radius": 0.003, "material": "m"}],
      "kinematics": [{"name": "left", "shape": {"type": "box", "size": [0.02, 0.02, 0.03]}, "position": [-0.04, 0.01, 0],
                      "element_radius": 0.004, "material": "m"},
                     {"name": "right", "shape": {"type": "box", "size": [0.02, 0.02, 0.03]}, "position": [0.04, 0.01, 0],
                      "element_radius": 0.004, "material": "m"}]})";
  FemSolver solver;
  solver.load(parseScene(nlohmann::json::parse(scene), "supports.json"), SolverOptions{1});
  solver.setDamping(300.0f);
  const double dt = 0.5 * solver.stableDt();
  for (double time = 0.0; time < 0.08; time += dt) solver.step(dt);
  double left = 0.0, right = 0.0;
  for (int k = 0; k < 500; ++k) {  // averaged over 500 steps: the interface nodes' jitter (docs/methods/fem.md)
    solver.step(dt);
    left += solver.kinematicLoad("left").force / 500.0;
    right += solver.kinematicLoad("right").force / 500.0;
  }
  const BodyMotion beam = motionOf(solver, 0), support = motionOf(solver, 1);
  const double weight = beam.mass * 9.81;
  MESSAGE("supports carry " << -left << " N and " << -right << " N of the beam's weight " << weight
                            << " N; beam centre at " << beam.centre.y << " m (0.03 on the supports, sag aside); "
                            << "support centre " << support.centre.y << " m");
  CHECK(-(left + right) == RelApprox(weight).epsilon(0.01));
  CHECK(-left == RelApprox(0.5 * weight).epsilon(0.05));   // the mesh is not exactly symmetric
  CHECK(-right == RelApprox(0.5 * weight).epsilon(0.05));
  CHECK(support.centre.y == RelApprox(0.01).epsilon(1e-6));  // the kinematic does not move
  CHECK(beam.centre.y > 0.029);                              // it rests on them
}

TEST_CASE("fem-debris: a turning kinematic turns rigidly about its centre, and a body it carries turns with it") {
  // A kinematic block (no grip) spinning at 10 rad/s about y for 0.05 s: every node of its mesh at its place rotated
  // by 0.5 rad. A grip holding a whole small block turns it the same way, and a rigid turn leaves it unstressed.
  const std::string scene = R"({"name": "turning", "solver": {"method": "fem-debris", "gravity": [0, 0, 0]},
      "materials": {"m": {"density": 1000, "bulk_modulus": 1e7, "shear_modulus": 5e6}},
      "bodies": [{"shape": {"type": "box", "size": [0.02, 0.02, 0.02]}, "position": [0.2, 0.05, 0],
                  "element_radius": 0.004, "material": "m"}],
      "kinematics": [{"name": "turntable", "shape": {"type": "box", "size": [0.06, 0.01, 0.03]},
                      "position": [0, 0.01, 0], "element_radius": 0.004, "material": "m",
                      "angular_velocity": [0, 10, 0]},
                     {"name": "holder", "shape": {"type": "box", "size": [0.03, 0.03, 0.03]},
                      "position": [0.2, 0.05, 0], "element_radius": 0.004, "material": "m", "grip": true,
                      "angular_velocity": [0, 10, 0]}]})";
  FemSolver solver;
  solver.load(parseScene(nlohmann::json::parse(scene), "turning.json"), SolverOptions{1});
  const double dt = 0.5 * solver.stableDt();
  const int steps = int(std::lround(0.05 / dt));
  for (int k = 0; k < steps; ++k) solver.step(dt);
  const double angle = 10.0 * steps * dt;
  const FemNodeArrays& n = solver.nodes();
  double worst = 0.0;
  for (int i = 0; i < solver.nodeCount(); ++i) {
    const glm::dvec3 centre = n.body[i] == 0 ? glm::dvec3(0.2, 0.05, 0.0) : glm::dvec3(0.0, 0.01, 0.0);
    const glm::dvec3 r = glm::dvec3(n.reference[i]) - centre;
    const glm::dvec3 expected = centre + glm::dvec3(std::cos(angle) * r.x + std::sin(angle) * r.z, r.y,
                                                    -std::sin(angle) * r.x + std::cos(angle) * r.z);
    worst = std::max(worst, glm::length(glm::dvec3(n.reference[i] + n.displacement[i]) - expected));
  }
  double stress = 0.0;
  for (int e = 0; e < solver.tetCount(); ++e) stress = std::max(stress, double(fem::vonMises(solver.tets().deviatoric[e])));
  MESSAGE(steps << " steps, turned " << angle << " rad: largest distance from the rigid rotation " << worst
                << " m; largest von Mises stress " << stress << " Pa");
  CHECK(worst < 1e-6);     // float positions of ~0.03 m turned by 0.5 rad in thousands of steps
  CHECK(stress < 1e3);     // of E 1.3e7: a strain below 1e-4 (none in theory)
}
