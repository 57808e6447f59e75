// The point_history and reaction probes (sim/analysis/history_probes.h): a pd-state bar pushed at one end at a
// constant speed; the probes at two points see the step arrive at sqrt(E / rho) (the closed form
// test_pd_state_solver.cpp checks with a pulse) and the grip reads the bar's impedance force rho c A v.
#include <doctest/doctest.h>
#include "../relative_approx.h"

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "io/scene_error.h"
#include "io/scene_loader.h"
#include "solvers/simulation.h"

using namespace frac;

namespace {

constexpr double kBarYoung = 1e9, kBarDensity = 2000.0, kBarPush = 0.01;  // Pa, kg/m^3, m/s
constexpr int kBarLength = 100, kBarSide = 12;                            // particles of 1 mm

std::string barScene(const std::string& probes) {
  return R"({"name": "bar", "solver": {"method": "pd-state", "dt": "auto", "safety": 0.4, "gravity": [0, 0, 0],
      "horizon_factor": 3, "pd_contact": "off", "partial_volume": true},
    "materials": {"m": {"density": 2000, "bulk_modulus": 3.3333333e8, "shear_modulus": 5e8,
                        "critical_stretch": 10, "stretch_scatter": 0}},
    "bodies": [{"shape": {"type": "box", "size": [0.1, 0.012, 0.012]}, "position": [0, 0, 0],
                "element_radius": 0.0005, "packing": "cubic", "material": "m"}],
    "kinematics": [{"name": "push", "shape": {"type": "box", "size": [0.0035, 0.016, 0.016]},
                    "position": [-0.049, 0, 0], "velocity": [0.01, 0, 0], "element_radius": 0.0005, "material": "m",
                    "grip": true}],
    "probes": )" + probes + "}";
}

// The columns of a CSV text by header name (NaN where a cell is empty).
std::vector<std::vector<double>> columnsOf(const std::string& csv, const std::vector<std::string>& names) {
  std::istringstream in(csv);
  std::string line, cell;
  std::getline(in, line);
  std::vector<std::string> header;
  std::istringstream h(line);
  while (std::getline(h, cell, ',')) header.push_back(cell);
  std::vector<int> index;
  for (const std::string& n : names) {
    int at = -1;
    for (size_t k = 0; k < header.size(); ++k)
      if (header[k] == n) at = int(k);
    REQUIRE_MESSAGE(at >= 0, n);
    index.push_back(at);
  }
  std::vector<std::vector<double>> columns(names.size());
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::istringstream row(line);
    while (std::getline(row, cell, ',')) cells.push_back(cell);
    for (size_t k = 0; k < index.size(); ++k) {  // an empty cell: that probe was not due
      const size_t at = size_t(index[k]);
      columns[k].push_back(at < cells.size() && !cells[at].empty() ? std::stod(cells[at]) : std::nan(""));
    }
  }
  return columns;
}

}  // namespace

TEST_CASE("point_history and reaction: a pushed bar's step arrives at sqrt(E / rho) and the grip reads rho c A v") {
  // Poisson ratio 0 (K = E / 3, G = E / 2): no lateral inertia, so the step runs at sqrt(E / rho) in any section.
  Simulation sim(parseScene(nlohmann::json::parse(barScene(R"([
      {"type": "point_history", "name": "near", "point": [-0.02, 0, 0], "fields": "velocity, displacement"},
      {"type": "point_history", "name": "far", "point": [0.03, 0, 0], "fields": "velocity"},
      {"type": "reaction", "name": "grip", "kinematic": "push", "every": 2}])")),
                            "bar.json"),
                 1);
  const double c0 = std::sqrt(kBarYoung / kBarDensity), endTime = 0.09 / c0;
  while (sim.time() < endTime) sim.step();
  const std::string csv = sim.history()->header() + sim.history()->takeRows();
  const auto columns = columnsOf(csv, {"step", "time", "near.velocity_x", "far.velocity_x", "near.displacement_x",
                                       "grip.force"});
  const std::vector<double>&time = columns[1], &near = columns[2], &far = columns[3], &force = columns[5];
  REQUIRE(time.size() == size_t(sim.steps()) + 1);  // step 0 and every step after it
  // Arrival: the first time the point's axial velocity passes half the push speed, interpolated between rows.
  auto arrival = [&](const std::vector<double>& v) {
    for (size_t k = 1; k < v.size(); ++k)
      if (v[k] >= 0.5 * kBarPush && v[k - 1] < 0.5 * kBarPush)
        return time[k - 1] + (0.5 * kBarPush - v[k - 1]) / (v[k] - v[k - 1]) * (time[k] - time[k - 1]);
    return -1.0;
  };
  const double t1 = arrival(near), t2 = arrival(far);
  REQUIRE(t1 > 0.0);
  REQUIRE(t2 > t1);
  // The followed particles: the body elements nearest the probes' points.
  auto followedX = [&](float x) {
    const ReferenceElements& body = sim.solver().referenceElements();
    size_t best = 0;
    for (size_t k = 1; k < body.position.size(); ++k)
      if (glm::length(body.position[k] - vec3(x, 0, 0)) < glm::length(body.position[best] - vec3(x, 0, 0))) best = k;
    return double(body.position[best].x);
  };
  const double speed = (followedX(0.03f) - followedX(-0.02f)) / (t2 - t1);
  // The grip's force while the step runs along the bar: the impedance rho c A v (A: the section of 12 x 12 particles).
  double sum = 0.0;
  int samples = 0;
  for (size_t k = 0; k < time.size(); ++k)
    if (!std::isnan(force[k]) && time[k] > 0.3 * endTime) {
      sum += force[k];
      ++samples;
    }
  const double impedance = kBarDensity * c0 * (kBarSide * 1e-3) * (kBarSide * 1e-3) * kBarPush;
  MESSAGE("step from x = " << followedX(-0.02f) << " to " << followedX(0.03f) << " m in " << t2 - t1 << " s: "
                           << speed << " m/s, sqrt(E / rho) = " << c0 << " m/s; grip force " << sum / samples
                           << " N over " << samples << " rows, rho c A v = " << impedance << " N");
  CHECK(speed == RelApprox(c0).epsilon(0.05));
  CHECK(sum / samples == RelApprox(impedance).epsilon(0.1));
  CHECK(columns[4].back() > 0.0);  // the near point has moved along
  (void)kBarLength;
}

TEST_CASE("point_history and reaction: an unknown field, kinematic or bad name is a scene error naming the key") {
  auto errorOf = [](const std::string& probes) {
    try {
      Simulation sim(parseScene(nlohmann::json::parse(barScene(probes)), "bar.json"), 1);
    } catch (const SceneError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const std::string field = errorOf(R"([{"type": "point_history", "name": "p", "point": [0, 0, 0], "fields": "velocty"}])");
  CHECK(field.find("bar.json") != std::string::npos);
  CHECK(field.find("/probes/0/fields") != std::string::npos);
  CHECK(field.find("unknown field \"velocty\"") != std::string::npos);
  CHECK(field.find("velocity") != std::string::npos);  // the known ones are listed
  const std::string kinematic = errorOf(R"([{"type": "reaction", "name": "r", "kinematic": "pusher"}])");
  CHECK(kinematic.find("/probes/0/kinematic") != std::string::npos);
  CHECK(kinematic.find("did you mean \"push\"") != std::string::npos);
  const std::string name = errorOf(R"([{"type": "reaction", "name": "a,b", "kinematic": "push"}])");
  CHECK(name.find("/probes/0/name") != std::string::npos);
  const std::string twice = errorOf(R"([{"type": "reaction", "name": "r", "kinematic": "push"},
                                        {"type": "reaction", "name": "r", "kinematic": "push"}])");
  CHECK(twice.find("already used") != std::string::npos);
}
