// fem-debris' material (Zhang et al. eq. 8-16) against closed forms: a Johnson-Cook bar pulled quasi-statically
// follows the flow curve A + B eps^n, the Mie-Grueneisen pressure is eq. 11-13, a bar pulled past its fracture strain
// parts in two where its elements fail, and the libm-free exp and pow the model relies on.
#include <doctest/doctest.h>
#include "../relative_approx.h"

#include <cmath>
#include <string>

#include <glm/gtc/matrix_transform.hpp>

#include "io/scene_loader.h"
#include "kernels/fem_material.h"
#include "solvers/fem/fem_solver.h"

using namespace frac;

namespace {

// A Johnson-Cook bar with 2024-T351's flow curve (A 265 MPa, B 426 MPa, n 0.34) along x, 40 x 10 x 10 mm, meshed
// with edge 2.5 mm, its end faces held by two grips pulling at -+0.5 m/s. A tenth of aluminium's elastic moduli and
// density 1e5 make the step longer; the pull stays quasi-static (the wave crosses the bar ~30 times while it
// stretches 10%; the flow curve depends on neither). No rate, temperature or viscosity terms; `d1` the fracture
// strain.
FemSolver makeJcBar(const std::string& d1) {
  const std::string grip = R"("shape": {"type": "box", "size": [0.003, 0.02, 0.02]}, "material": "al", "grip": true,
                            "element_radius": 0.00125)";
  const std::string scene = R"({"name": "bar", "solver": {"method": "fem-debris", "gravity": [0, 0, 0],
      "viscosity_quadratic": 0, "viscosity_linear": 0},
      "materials": {"al": {"density": 1e5, "bulk_modulus": 6.86e9, "shear_modulus": 2.63e9,
                           "jc_a": 2.65e8, "jc_b": 4.26e8, "jc_n": 0.34, "jc_d1": )" + d1 + R"(}},
      "bodies": [{"shape": {"type": "box", "size": [0.04, 0.01, 0.01]}, "position": [0, 0, 0],
                  "element_radius": 0.00125, "material": "al"}],
      "kinematics": [{"name": "left", "position": [-0.0195, 0, 0], "velocity": [-0.5, 0, 0], )" + grip + R"(},
                     {"name": "right", "position": [0.0195, 0, 0], "velocity": [0.5, 0, 0], )" + grip + R"(}]})";
  FemSolver solver;
  solver.load(parseScene(nlohmann::json::parse(scene), "bar.json"), SolverOptions{1});
  return solver;
}

}  // namespace

TEST_CASE("fem-debris: a Johnson-Cook bar pulled quasi-statically follows A + B eps^n within 2%") {
  FemSolver solver = makeJcBar("\"inf\"");
  solver.setDamping(2000.0f);  // damps the elastic ringing of the mass-scaled bar
  const double dt = 0.8 * solver.stableDt();
  const double A = 2.65e8, B = 4.26e8, n = 0.34;
  int checked = 0;
  double worst = 0.0;
  int step = 0;
  for (double time = 0.0; time < 0.0048; time += dt, ++step) {  // to about 8% plastic strain in the middle
    solver.step(dt);
    if (step % 50) continue;
    // The middle third: mean axial stress sigma_xx = (1 - phi) s_xx - p and mean plastic strain.
    const FemTetArrays& t = solver.tets();
    const FemNodeArrays& nodes = solver.nodes();
    double stress = 0.0, plastic = 0.0;
    int count = 0;
    for (int e = 0; e < solver.tetCount(); ++e) {
      double cx = 0.0;
      for (int k = 0; k < 4; ++k) cx += nodes.reference[t.corners[e].node[k]].x / 4.0;
      if (std::abs(cx) > 0.0067) continue;
      stress += t.deviatoric[e].xx - t.pressure[e];
      plastic += t.plasticStrain[e];
      ++count;
    }
    stress /= count;
    plastic /= count;
    if (plastic > 0.01 && checked < 1000) {
      const double flow = A + B * std::pow(plastic, n);
      worst = std::max(worst, std::abs(stress - flow) / flow);
      ++checked;
    }
  }
  MESSAGE("checked " << checked << " steps past 1% plastic strain: largest deviation from A + B eps^n " << worst);
  REQUIRE(checked > 20);
  CHECK(worst < 0.02);
}

TEST_CASE("fem-debris: the spall test finds the largest principal stress of a turned stress state within 0.1%") {
  // s with principal values (60, -20, 5) MPa under pressure 10 MPa (sigma = s - p I), turned by two rotations: the
  // largest principal stress is 50 MPa; a limit 0.1% below it is exceeded, 0.1% above it is not.
  const float principal[3] = {60e6f, -20e6f, 5e6f}, pressure = 10e6f;
  for (const vec3& axis : {vec3(0.0f, 0.0f, 1.0f), glm::normalize(vec3(1.0f, 2.0f, -0.5f))}) {
    const glm::mat3 R = glm::mat3(glm::rotate(glm::mat4(1.0f), 0.7f, axis));
    const glm::mat3 S = R * glm::mat3(vec3(principal[0], 0, 0), vec3(0, principal[1], 0), vec3(0, 0, principal[2])) *
                        glm::transpose(R);
    // s = S (not deviatoric: exceedsPrincipal takes any symmetric s), sigma = S - p I: principal (50, -30, -5) MPa
    const fem::Sym3 s{S[0][0], S[1][1], S[2][2], S[1][0], S[2][1], S[0][2]};
    const float largest = principal[0] - pressure;
    CHECK(fem::exceedsPrincipal(s, pressure, 0.999f * largest));
    CHECK_FALSE(fem::exceedsPrincipal(s, pressure, 1.001f * largest));
  }
  // Hydrostatic tension of 30 MPa (p = -30 MPa) exceeds 29.9 MPa and not 30.1 MPa.
  CHECK(fem::exceedsPrincipal(fem::Sym3{}, -30e6f, 29.9e6f));
  CHECK_FALSE(fem::exceedsPrincipal(fem::Sym3{}, -30e6f, 30.1e6f));
}

TEST_CASE("fem-debris: the Mie-Grueneisen pressure is eq. 11-13") {
  const fem::MieGruneisen eos{2.0e10f, 3.0e10f, 5.0e10f, 1.7f};
  const float rho0 = 2300.0f;
  for (float mu : {-0.02f, -0.001f, 0.0f, 0.001f, 0.03f, 0.2f})
    for (float e : {0.0f, 1e4f, 2e5f}) {
      const double eta = 1.0 + mu, rho = rho0 * eta;
      const double pH = mu > 0 ? 2.0e10 * mu + 3.0e10 * mu * mu + 5.0e10 * double(mu) * mu * mu : 2.0e10 * mu;
      const double gamma = eta > 1 ? 1.7 / eta : 1.7;
      const double expected = (1.0 - 0.5 * gamma * mu) * pH + gamma * rho * e;
      const double p = fem::mieGruneisenPressure(eos, rho0, mu, e);
      CHECK(p == doctest::Approx(expected).epsilon(1e-5).scale(1e3));
    }
}

TEST_CASE("fem-debris: a bar pulled past its fracture strain parts in two where its elements fail") {
  FemSolver solver = makeJcBar("0.05");  // eps_F = D1 = 5%, damage from eps_D = 0
  solver.setDamping(2000.0f);
  const double dt = 0.8 * solver.stableDt();
  const double mass = [&] {
    double m = 0.0;
    for (float v : solver.nodes().mass) m += v;
    return m;
  }();
  int pieces = 1;
  double time = 0.0;
  for (int step = 0; time < 0.012 && pieces < 2; time += dt, ++step) {
    solver.step(dt);
    if (step % 100 == 0) pieces = solver.stats().fragments;
  }
  int failed = 0;
  float largest = 0.0f;
  for (int e = 0; e < solver.tetCount(); ++e) {
    failed += solver.tets().failed[e];
    if (!solver.tets().failed[e]) largest = std::max(largest, solver.tets().plasticStrain[e]);
  }
  double massAfter = 0.0;
  for (float v : solver.nodes().mass) massAfter += v;
  MESSAGE("parted after " << time << " s (" << 1.0 * time / 0.04 * 100 << "% elongation): " << failed
                          << " failed tetrahedra, largest plastic strain left " << largest);
  CHECK(pieces >= 2);
  CHECK(failed > 0);
  CHECK(largest < 0.05f);  // every element past eps_F has failed
  CHECK(massAfter == RelApprox(mass).epsilon(1e-6));
}

TEST_CASE("expBasic and powBasic (libm-free, the same bits on CPU and CUDA) within 1e-6 of exp and pow") {
  double worst = 0.0;
  for (float x = -20.0f; x <= 20.0f; x += 0.0137f)
    worst = std::max(worst, std::abs(expBasic(x) - std::exp(double(x))) / std::exp(double(x)));
  for (float a : {1e-6f, 0.003f, 0.1f, 0.5f, 1.0f, 2.0f, 37.0f})
    for (float b : {0.34f, -0.66f, 1.0f, 2.5f})
      worst = std::max(worst, std::abs(powBasic(a, b) - std::pow(double(a), double(b))) /
                                  std::pow(double(a), double(b)));
  MESSAGE("largest relative error " << worst);
  CHECK(worst < 1e-6);
}
