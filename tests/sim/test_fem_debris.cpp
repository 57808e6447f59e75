// fem-debris' debris particles (Zhang et al. sec. 3.2, eq. 18-19): a pair under equal pressures feels eq. 19's force,
// converted nodes are exactly those whose tetrahedra all failed, with the pressure of their compression, and a
// spinning plate
// that shatters into debris keeps its mass, momentum and angular momentum to rounding.
#include <doctest/doctest.h>
#include "../relative_approx.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "io/scene_loader.h"
#include "kernels/fem_debris.h"
#include "kernels/fem_mesh_contact.h"
#include "solvers/fem/fem_solver.h"

using namespace frac;

namespace {

FemSolver loadScene(const std::string& material, const std::string& body, const std::string& extra = "") {
  const std::string scene = R"({"name": "debris", "solver": {"method": "fem-debris", "gravity": [0, 0, 0]},
      "materials": {"m": )" + material + R"(}, "bodies": [)" + body + "]" + extra + "}";
  FemSolver solver;
  solver.load(parseScene(nlohmann::json::parse(scene), "debris.json"), SolverOptions{1});
  return solver;
}

}  // namespace

TEST_CASE("fem-debris: a debris pair at rest under equal pressures feels eq. 19's force, equal and opposite") {
  const double p = 3e6, r = 1e-3, V = 4.0 / 3.0 * M_PI * r * r * r;
  fem::DebrisParticle a, b;
  a.pressure = b.pressure = float(p);
  a.radius = b.radius = float(r);
  a.volume = b.volume = float(V);
  a.mass = b.mass = 1e-5f;
  for (double d : {2.5e-3, 4e-3, 1e-2}) {  // apart: eq. 19's (p r V + p r V) / d^2, repulsive
    a.position = vec3(0.0f);
    b.position = vec3(0.0f, float(d), 0.0f);
    const vec3 fa = fem::debrisPairForce(a, b, 1.0f, 1e-6f, 0.5f, 0.1f);
    const vec3 fb = fem::debrisPairForce(b, a, 1.0f, 1e-6f, 0.5f, 0.1f);
    const double expected = 2.0 * p * r * V / (d * d);
    CHECK(-fa.y == RelApprox(expected).epsilon(1e-5));
    CHECK(fa.x == 0.0f);
    CHECK(fb.y == -fa.y);  // exactly opposite: the pair conserves momentum
  }
  // Overlapping (d < r_a + r_b): eq. 19 held at contact, plus the contact spring pushing them apart.
  b.position = vec3(0.0f, 1.5e-3f, 0.0f);
  const double atContact = 2.0 * p * r * V / (4.0 * r * r);
  CHECK(-fem::debrisPressureForce(a, b).y == RelApprox(atContact).epsilon(1e-5));
  CHECK(-fem::debrisPairForce(a, b, 1.0f, 1e-6f, 0.5f, 0.1f).y > atContact);
  // A tensile pressure attracts nothing: the stage stores p >= 0, and p = 0 leaves the pressure force at 0.
  a.pressure = b.pressure = 0.0f;
  b.position = vec3(0.0f, 4e-3f, 0.0f);
  CHECK(glm::length(fem::debrisPairForce(a, b, 1.0f, 1e-6f, 0.5f, 0.1f)) == 0.0f);
}

// Two particles that were never mesh neighbours meet already overlapping (a node converted next to one that flies
// in): their contact must not give back more than the approach brought. Integrated with the step's central
// differences; the 25 m/s vase's debris once gained 100 J this way (fem_contact.h's deep-contact rule).
TEST_CASE("fem-debris: a particle pair that appears overlapping while approaching never leaves faster than it came") {
  const float r = 1e-3f, dt = 1.2e-7f, zeta = float(fem::restitutionDamping(0.3f));
  for (float approach : {1.0f, 20.0f, 110.0f}) {
    for (float overlap : {0.05f, 0.5f, 1.3f}) {  // depth at first sight, mm
      fem::DebrisParticle a, b;
      a.radius = b.radius = r;
      a.volume = b.volume = 4.0f / 3.0f * 3.14159265f * r * r * r;
      a.mass = b.mass = 1.8e-4f;
      a.position = vec3(0.0f);
      b.position = vec3(0.0f, 2.0f * r - overlap * 1e-3f, 0.0f);
      b.velocity = vec3(0.0f, -approach, 0.0f);
      for (int step = 0; step < 20000; ++step) {
        const vec3 fa = fem::particleParticleContact(a, b, dt, 0.5f, zeta);
        const vec3 fb = fem::particleParticleContact(b, a, dt, 0.5f, zeta);
        a.velocity += (dt / a.mass) * fa;
        b.velocity += (dt / b.mass) * fb;
        a.position += dt * a.velocity;
        b.position += dt * b.velocity;
      }
      const float separating = b.velocity.y - a.velocity.y;
      CAPTURE(approach);
      CAPTURE(overlap);
      CHECK(separating >= 0.0f);                                         // they do part (no sticking inside)
      // and never faster than they met: a deep contact is released at kDeepContactRelease, after which the spring
      // still holds at most release / omega of depth, 1/2 mu release^2 of energy: at most sqrt(2) release.
      CHECK(separating <= std::max(approach, std::sqrt(2.0f) * fem::kDeepContactRelease));
    }
  }
}

TEST_CASE("fem-debris: failed elements make debris of exactly the nodes they leave alone, with eq. 19's forces") {
  const double K = 1e9;
  FemSolver solver = loadScene(R"({"density": 2000, "bulk_modulus": 1e9, "shear_modulus": 5e8})",
                               R"({"shape": {"type": "box", "size": [0.02, 0.02, 0.02]}, "position": [0, 0, 0],
                                   "element_radius": 0.0025, "material": "m"})");
  // Every tetrahedron of one half (x < 0) fails; once its nodes are debris (at their mesh distances), the whole body
  // is compressed uniformly by s, so every debris particle has mu = (1 / (1 - s))^3 - 1 and the same pressure K mu
  // (eq. 13 to first order, gamma_0 = 0).
  const double s = 1e-3, mu = std::pow(1.0 / (1.0 - s), 3.0) - 1.0, pressure = K * mu;
  {
    FemTetArrays& t = solver.editTets();
    const FemNodeArrays& n = solver.nodes();
    for (int e = 0; e < solver.tetCount(); ++e) {
      float cx = 0.0f;
      for (int k = 0; k < 4; ++k) cx += 0.25f * n.reference[t.corners[e].node[k]].x;
      if (cx < 0.0f) t.failed[e] = 1;
    }
  }
  const double dt = 1e-9;  // nothing moves measurably: the forces are those of the positions set
  solver.step(dt);         // the debris stage converts
  solver.step(dt);         // the pairs take their rest distances
  {
    FemNodeArrays& n = solver.editNodes();
    for (int i = 0; i < solver.nodeCount(); ++i) n.displacement[i] = float(-s) * n.reference[i];
  }
  solver.step(dt);  // the particles take the pressure of their compression and feel the pairs
  const FemNodeArrays& n = solver.nodes();
  const FemTetArrays& t = solver.tets();
  int converted = 0, checkedPairs = 0;
  double worst = 0.0, worstPressure = 0.0;
  for (int i = 0; i < solver.nodeCount(); ++i) {
    bool allFailed = true;
    for (int c = n.cornerStart[i]; c < n.cornerStart[i + 1]; ++c) allFailed = allFailed && t.failed[n.corner[c] / 4];
    CHECK(bool(n.debris[i]) == allFailed);
    if (!n.debris[i]) continue;
    ++converted;
    // A node with only debris neighbours has the pressure of its compression and feels eq. 19 from each.
    bool onlyDebris = true;
    for (int k = n.neighborStart[i]; k < n.neighborStart[i + 1]; ++k)
      onlyDebris = onlyDebris && n.debris[n.neighbor[k]];
    if (!onlyDebris) continue;
    worstPressure = std::max(worstPressure, std::abs(n.debrisPressure[i] - pressure) / pressure);
    glm::dvec3 expected(0.0);
    bool overlapping = false;
    for (int k = n.neighborStart[i]; k < n.neighborStart[i + 1]; ++k) {
      const int j = n.neighbor[k];
      const glm::dvec3 offset = (1.0 - s) * (glm::dvec3(n.reference[i]) - glm::dvec3(n.reference[j]));
      const double d = glm::length(offset), ri = n.particleRadius[i], rj = n.particleRadius[j];
      overlapping = overlapping || d < ri + rj;
      const double r = std::max(d, ri + rj);
      expected += (pressure * ri * n.volume[j] + pressure * rj * n.volume[i]) / (r * r * d) * offset;
    }
    if (overlapping) continue;  // the contact spring adds to those
    worst = std::max(worst, glm::length(glm::dvec3(n.force[i]) - expected) / glm::length(expected));
    ++checkedPairs;
  }
  MESSAGE(converted << " of " << solver.nodeCount() << " nodes converted; " << checkedPairs
                    << " debris nodes with only debris neighbours: pressure within " << worstPressure << " of K mu = "
                    << pressure << " Pa, force within " << worst << " of eq. 19");
  CHECK(converted > 20);
  REQUIRE(checkedPairs > 5);
  CHECK(worstPressure < 1e-3);
  CHECK(worst < 1e-3);
}

TEST_CASE("fem-debris: a spinning plate that shatters into debris keeps its mass, momentum and angular momentum") {
  // A weak, brittle plate (yield 20 kPa, fracture strain 0.2%) spun at 150 rad/s: the centrifugal stress fails it
  // and a cloud of debris particles flies off; no gravity, no ground. Frictionless: the particles have no spin, so a
  // friction force between two of them (tangential, off their line of centres) turns orbital angular momentum into
  // nothing (0.1% here with friction 0.5); momentum holds either way.
  FemSolver solver = loadScene(
      R"({"density": 2000, "bulk_modulus": 2e7, "shear_modulus": 1e7, "jc_a": 2e4, "jc_d1": 0.002, "friction": 0})",
      R"({"shape": {"type": "box", "size": [0.1, 0.02, 0.1]}, "position": [0, 0, 0], "element_radius": 0.005,
          "material": "m", "angular_velocity": [0, 150, 0]})");
  auto totals = [&](double& mass, glm::dvec3& momentum, glm::dvec3& angular, double& scale) {
    const FemNodeArrays& n = solver.nodes();
    mass = scale = 0.0;
    momentum = angular = glm::dvec3(0.0);
    for (int i = 0; i < solver.nodeCount(); ++i) {
      const glm::dvec3 x = glm::dvec3(n.reference[i]) + glm::dvec3(n.displacement[i]), v(n.velocity[i]);
      mass += n.mass[i];
      momentum += double(n.mass[i]) * v;
      angular += double(n.mass[i]) * glm::cross(x, v);
      scale += n.mass[i] * glm::length(v);
    }
  };
  double mass0, scale0, mass1, scale1;
  glm::dvec3 p0, l0, p1, l1;
  totals(mass0, p0, l0, scale0);
  const double dt = 0.8 * solver.stableDt();
  for (double time = 0.0; time < 0.01; time += dt) solver.step(dt);
  totals(mass1, p1, l1, scale1);
  int debris = 0;
  for (uint8_t d : solver.nodes().debris) debris += d;
  MESSAGE(debris << " of " << solver.nodeCount() << " nodes are debris, " << solver.stats().bondsBroken
                 << " tetrahedra failed; momentum change " << glm::length(p1 - p0) / scale0
                 << " of sum m|v|, angular momentum " << glm::length(l1 - l0) / glm::length(l0));
  CHECK(debris > solver.nodeCount() / 10);
  CHECK(mass1 == RelApprox(mass0).epsilon(1e-12));
  CHECK(glm::length(p1 - p0) < 1e-5 * scale0);
  CHECK(glm::length(l1 - l0) < 1e-4 * glm::length(l0));
}

TEST_CASE("fem-debris: a plate shattering into debris gives the same bits on 1 and 2 threads") {
  uint64_t digest[2] = {0, 0};
  int debris = 0;
  for (int threads : {1, 2}) {
    const std::string scene = R"({"name": "spin", "solver": {"method": "fem-debris", "gravity": [0, -9.81, 0]},
        "materials": {"m": {"density": 2000, "bulk_modulus": 2e7, "shear_modulus": 1e7, "jc_a": 2e4,
                            "jc_d1": 0.002}},
        "bodies": [{"shape": {"type": "box", "size": [0.1, 0.02, 0.1]}, "position": [0, 0.0105, 0],
                    "element_radius": 0.005, "material": "m", "angular_velocity": [0, 150, 0]}],
        "planes": [{"point": [0, 0, 0], "normal": [0, 1, 0], "material": "m"}]})";
    FemSolver solver;
    solver.load(parseScene(nlohmann::json::parse(scene), "spin.json"), SolverOptions{threads});
    const double dt = 0.8 * solver.stableDt();
    for (double time = 0.0; time < 0.006; time += dt) solver.step(dt);
    digest[threads - 1] = solver.stateDigest();
    debris = 0;
    for (uint8_t d : solver.nodes().debris) debris += d;
  }
  MESSAGE(debris << " debris particles");
  CHECK(debris > 50);
  CHECK(digest[0] == digest[1]);
}

namespace {

// Two bodies of a soft material, no gravity: all of body `debrisBody`'s tetrahedra failed at the start, so its nodes
// become a cloud of debris particles on the first step.
FemSolver cloudScene(const std::string& bodies, int debrisBody, int threads = 1) {
  const std::string scene = R"({"name": "cloud", "solver": {"method": "fem-debris", "gravity": [0, 0, 0]},
      "materials": {"m": {"density": 1000, "bulk_modulus": 1e7, "shear_modulus": 5e6, "friction": 0.3,
                          "restitution": 0.5}},
      "bodies": [)" + bodies + "]}";
  FemSolver solver;
  solver.load(parseScene(nlohmann::json::parse(scene), "cloud.json"), SolverOptions{threads});
  const std::vector<uint16_t> body = solver.nodes().body;
  FemTetArrays& t = solver.editTets();
  for (int e = 0; e < solver.tetCount(); ++e)
    if (body[size_t(t.corners[e].node[0])] == debrisBody) t.failed[e] = 1;
  return solver;
}

glm::dvec3 momentum(const FemSolver& solver, double& scale) {
  const FemNodeArrays& n = solver.nodes();
  glm::dvec3 p(0.0);
  scale = 0.0;
  for (int i = 0; i < solver.nodeCount(); ++i) {
    p += double(n.mass[i]) * glm::dvec3(n.velocity[i]);
    scale += n.mass[i] * glm::length(glm::dvec3(n.velocity[i]));
  }
  return p;
}

}  // namespace

TEST_CASE("fem-debris: a debris cloud thrown at a block stays outside its top face, and momentum is conserved") {
  // The block's top face is at y = 0.01; the cloud (a 12 mm cube of debris) starts 4 mm above it at 2 m/s down and
  // would be 8 mm into the block after 6 ms if nothing stopped it. The cloud is another body: its particles meet the
  // block's faces as points (the node-to-surface contact between bodies, fem_contact_stages.h bodyContactStage), as the
  // ground.
  const std::string bodies =
      R"({"shape": {"type": "box", "size": [0.04, 0.02, 0.04]}, "position": [0, 0, 0], "element_radius": 0.002,
          "material": "m"},
         {"shape": {"type": "box", "size": [0.012, 0.012, 0.012]}, "position": [0, 0.02, 0], "element_radius": 0.002,
          "material": "m", "velocity": [0, -2, 0]})";
  FemSolver solver = cloudScene(bodies, 1);
  double scale0 = 0.0;
  const glm::dvec3 p0 = momentum(solver, scale0);
  const double dt = 0.5 * solver.stableDt();
  double deepest = 0.0;  // the largest depth of a particle's centre below the block's top face
  for (double time = 0.0; time < 0.006; time += dt) {
    solver.step(dt);
    const FemNodeArrays& n = solver.nodes();
    for (int i = 0; i < solver.nodeCount(); ++i)
      if (n.debris[i] && std::abs(n.reference[i].x) < 0.018 && std::abs(n.reference[i].z) < 0.018)
        deepest = std::max(deepest, 0.01 - double(n.reference[i].y + n.displacement[i].y));
  }
  double scale1 = 0.0;
  const glm::dvec3 p1 = momentum(solver, scale1);
  int debris = 0;
  double up = 0.0, cloudMass = 0.0;
  const FemNodeArrays& n = solver.nodes();
  for (int i = 0; i < solver.nodeCount(); ++i)
    if (n.debris[i]) {
      ++debris;
      up += n.mass[i] * n.velocity[i].y;
      cloudMass += n.mass[i];
    }
  float radius = 0.0f;
  for (int i = 0; i < solver.nodeCount(); ++i) radius = std::max(radius, n.debris[i] ? n.particleRadius[i] : 0.0f);
  MESSAGE(debris << " debris particles (radius up to " << radius << " m): deepest centre " << deepest
                 << " m below the face, the cloud's mean velocity after " << up / cloudMass
                 << " m/s; momentum change " << glm::length(p1 - p0) / scale0 << " of sum m|v|");
  REQUIRE(debris > 20);
  // A penalty contact yields: the cloud piling on the lowest particles presses them in; they stay within half a radius
  // of the face (without the contact: 8 mm deep).
  CHECK(deepest < 0.5 * double(radius));
  CHECK(std::abs(up / cloudMass) < 1.0);  // stopped on the face (and piled up): without the contact, still -2 m/s
  CHECK(glm::length(p1 - p0) < 1e-5 * scale0);
}

TEST_CASE("fem-debris: two debris clouds that were never neighbours collide instead of passing through each other") {
  const std::string bodies =
      R"({"shape": {"type": "box", "size": [0.012, 0.012, 0.012]}, "position": [-0.01, 0, 0], "element_radius": 0.002,
          "material": "m", "velocity": [2, 0, 0]},
         {"shape": {"type": "box", "size": [0.012, 0.012, 0.012]}, "position": [0.01, 0, 0], "element_radius": 0.002,
          "material": "m", "velocity": [-2, 0, 0]})";
  FemSolver solver = cloudScene(bodies, 0);
  FemTetArrays& t = solver.editTets();
  for (int e = 0; e < solver.tetCount(); ++e) t.failed[e] = 1;  // both clouds
  const double dt = 0.5 * solver.stableDt();
  for (double time = 0.0; time < 0.008; time += dt) solver.step(dt);  // 16 mm each: they would have swapped sides
  const FemNodeArrays& n = solver.nodes();
  double left = 0.0, right = 0.0, leftMass = 0.0, rightMass = 0.0;
  for (int i = 0; i < solver.nodeCount(); ++i) {
    const double x = n.reference[i].x + n.displacement[i].x, m = n.mass[i];
    (n.body[i] == 0 ? left : right) += m * x;
    (n.body[i] == 0 ? leftMass : rightMass) += m;
  }
  MESSAGE("centres of mass after 8 ms: " << left / leftMass << " m and " << right / rightMass << " m");
  CHECK(left / leftMass < 0.0);  // each stayed on its side (passing through: +0.006 and -0.006)
  CHECK(right / rightMass > 0.0);
}

TEST_CASE("fem-debris: a debris cloud hitting a block gives the same bits on 1 and 2 threads") {
  uint64_t digest[2] = {0, 0};
  for (int threads : {1, 2}) {
    FemSolver solver = cloudScene(
        R"({"shape": {"type": "box", "size": [0.04, 0.02, 0.04]}, "position": [0, 0, 0], "element_radius": 0.002,
            "material": "m"},
           {"shape": {"type": "box", "size": [0.012, 0.012, 0.012]}, "position": [0, 0.02, 0],
            "element_radius": 0.002, "material": "m", "velocity": [0.5, -2, 0.3]})",
        1, threads);
    const double dt = 0.5 * solver.stableDt();
    for (double time = 0.0; time < 0.004; time += dt) solver.step(dt);
    digest[threads - 1] = solver.stateDigest();
  }
  CHECK(digest[0] == digest[1]);
}
