// bdem's cohesive softening bonds (kernels/bdem_bond.h, material key "softening": "linear"), against Hillerborg's
// linear softening law (Hillerborg, Modeer & Petersson 1976): a bond carries its strength sigma_c S at the elongation
// delta_p = sigma_c l0 / E, then a force falling linearly to zero over the opening w_c = 2 G_f / sigma_c, so that
// pulling it apart takes sigma_c S (delta_p + w_c) / 2 = G_f S + sigma_c S delta_p / 2; Lu's brittle bond takes only
// the second term.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "io/checkpoint_file.h"
#include "io/scene_loader.h"
#include "kernels/bdem_bond.h"
#include "solvers/simulation.h"

using namespace frac;
using json = nlohmann::json;

namespace {

constexpr double kBondYoung = 3e10, kBondStrength = 3e6, kBondFractureEnergy = 50.0, kBondRadius = 0.01, kBondSpeed = 1e-3;

// Two elements of radius 1 cm bonded along x, each held by a grip; the high one pulled along x at 1 mm/s. Undamped
// (the dashpots would add their own work), no gravity.
json pulledPair(const char* softening) {
  const json grip = {{"type", "box"}, {"size", {0.015, 0.015, 0.015}}};
  return {{"name", "pulled pair"},
          {"frames", 1},
          {"fps", 1},
          {"solver", {{"dt", 2e-5}, {"gravity", {0, 0, 0}}, {"threads", 1}}},
          {"materials",
           {{"m", {{"density", 2400}, {"young", kBondYoung}, {"shear", 1.25e10}, {"tensile_strength", kBondStrength},
                   {"shear_strength", kBondStrength}, {"damping", 0}, {"softening", softening},
                   {"fracture_energy", kBondFractureEnergy}}}}},
          {"bodies", json::array({{{"shape", {{"type", "box"}, {"size", {0.04, 0.02, 0.02}}}},
                                   {"position", {0, 0, 0}}, {"element_radius", kBondRadius}, {"packing", "cubic"},
                                   {"material", "m"}}})},
          {"kinematics", json::array({{{"name", "low"}, {"grip", true}, {"shape", grip}, {"position", {-0.01, 0, 0}},
                                       {"material", "m"}, {"element_radius", kBondRadius}},
                                      {{"name", "high"}, {"grip", true}, {"shape", grip}, {"position", {0.01, 0, 0}},
                                       {"velocity", {kBondSpeed, 0, 0}}, {"material", "m"},
                                       {"element_radius", kBondRadius}}})}};
}

struct Pull {
  double peakForce = 0.0, elongationAtPeak = 0.0, work = 0.0;
  double forceAtHalfOpening = -1.0;  // at delta_p + w_c / 2
  double elongationAtZero = -1.0;    // where the force first reads zero after the peak
  long long bondsBroken = 0;
  double dissipated = 0.0;  // what the solver's statistics say the bond dissipated
};

// Pulls until `elongation`, integrating the high grip's force over its travel (trapezoids).
Pull pull(const char* softening, double elongation, double halfOpening) {
  Simulation sim(parseScene(pulledPair(softening), "pulled_pair.json"));
  Pull out;
  double lastU = 0.0, lastF = 0.0;
  while (lastU < elongation) {
    sim.step();
    const KinematicLoad load = sim.solver().kinematicLoad("high");
    const double u = load.displacement, f = load.force;
    out.work += 0.5 * (f + lastF) * (u - lastU);
    if (f > out.peakForce) out.peakForce = f, out.elongationAtPeak = u;
    if (out.forceAtHalfOpening < 0.0 && u >= halfOpening)  // linear between the two samples
      out.forceAtHalfOpening = lastF + (f - lastF) * (halfOpening - lastU) / (u - lastU);
    if (out.elongationAtZero < 0.0 && out.peakForce > 0.0 && f == 0.0) out.elongationAtZero = u;
    lastU = u, lastF = f;
  }
  out.bondsBroken = sim.stats().bondsBroken;
  out.dissipated = sim.stats().fractureDissipated;
  return out;
}

}  // namespace

TEST_CASE("bdem softening: a pulled bond follows Hillerborg's linear law and spends G_f over its section, a brittle "
          "one only its elastic energy") {
  const double area = kPi * kBondRadius * kBondRadius, l0 = 2.0 * kBondRadius;
  const double peak = kBondStrength * area, deltaP = kBondStrength * l0 / kBondYoung, wc = 2.0 * kBondFractureEnergy / kBondStrength;
  const double step = kBondSpeed * 2e-5;  // the grip's travel per step: the resolution of the curve
  INFO("closed form: peak " << peak << " N at " << deltaP << " m, w_c " << wc << " m");
  const Pull soft = pull("linear", 1.3 * (deltaP + wc), deltaP + 0.5 * wc);
  MESSAGE("linear: peak " << soft.peakForce << " N at " << soft.elongationAtPeak << " m, at half opening "
                          << soft.forceAtHalfOpening << " N, zero at " << soft.elongationAtZero << " m, work "
                          << soft.work << " J (closed form " << 0.5 * peak * (deltaP + wc) << ")");
  // Bounds: the curve is sampled every 2e-8 m of travel, 1% of delta_p and 0.06% of w_c; float stretches.
  CHECK(soft.peakForce == doctest::Approx(peak).epsilon(0.005));
  CHECK(soft.elongationAtPeak == doctest::Approx(deltaP).epsilon(0.02));
  CHECK(soft.forceAtHalfOpening == doctest::Approx(0.5 * peak).epsilon(0.005));
  CHECK(soft.elongationAtZero == doctest::Approx(deltaP + wc).epsilon(0.005));
  CHECK(soft.bondsBroken == 1);
  CHECK(soft.work == doctest::Approx(0.5 * peak * (deltaP + wc)).epsilon(0.005));
  CHECK(soft.work - 0.5 * peak * deltaP == doctest::Approx(kBondFractureEnergy * area).epsilon(0.005));
  // The statistics' dissipation (softeningDissipated, from the bond's history alone) is that work: nothing is left.
  CHECK(soft.dissipated == doctest::Approx(soft.work).epsilon(0.005));

  const Pull brittle = pull("brittle", 3.0 * deltaP, deltaP);
  MESSAGE("brittle: peak " << brittle.peakForce << " N, work " << brittle.work << " J (closed form "
                           << 0.5 * peak * deltaP << ")");
  // It breaks in the step that crosses delta_p: the last force it carried is within one step's travel of the peak.
  CHECK(brittle.peakForce <= peak * (1.0 + 1e-5));
  CHECK(brittle.peakForce >= peak * (1.0 - step / deltaP) * (1.0 - 1e-5));
  CHECK(brittle.bondsBroken == 1);
  CHECK(brittle.dissipated == 0.0);  // brittle bonds keep no history
  // So the work misses at most the trapezoid of that step.
  CHECK(std::abs(brittle.work - 0.5 * peak * deltaP) <= 0.6 * peak * step + 1e-3 * 0.5 * peak * deltaP);
}

TEST_CASE("bdem softening: a damaged bond unloads along its secant, keeps its whole normal force in compression and "
          "carries keep of its shear and moments") {
  // A bond 1 cm long, compressed by 1 um and sheared and bent a little.
  BondRest rest;
  rest.d0 = vec3(1, 0, 0);
  rest.r0 = 0.005f;
  rest.l0 = 0.01f;
  const BondStiffness k = bondStiffness(3e10f, 1.25e10f, rest.r0, rest.l0);
  const quat turned = glm::angleAxis(1e-4f, glm::normalize(vec3(0, 1, 1)));
  const BondDeformation d = bondDeformation(vec3(0.01f - 1e-6f, 2e-7f, 0.0f), quat(1, 0, 0, 0), turned, rest.d0);
  const BondLoad whole = bondLoad(d, rest, k);
  // kappa 3 of chi 4: keep = (1 - 2 / 4) / 3 = 1/6.
  const float chi = 4.0f, kappa = 3.0f, keep = softeningKeep(kappa, chi);
  CHECK(keep == doctest::Approx(1.0 / 6.0).epsilon(1e-6));
  CHECK(softeningKeep(0.8f, chi) == 1.0f);        // below the strength: whole
  CHECK(softeningKeep(1.0f + chi, chi) == 0.0f);  // at w_c: nothing
  CHECK(softeningKeep(2.0f, 0.0f) == 1.0f);       // brittle bonds never soften
  BondLoad soft = whole;
  softenLoad(soft, d, rest, k, keep);
  const float normalWhole = glm::dot(whole.forceOnJ, d.n), normalSoft = glm::dot(soft.forceOnJ, d.n);
  const vec3 shearWhole = whole.forceOnJ - normalWhole * d.n, shearSoft = soft.forceOnJ - normalSoft * d.n;
  CHECK(normalWhole > 0.0f);  // compressed: the force on j pushes it away from i
  CHECK(normalSoft == doctest::Approx(normalWhole - (1.0f - keep) * glm::dot(shearWhole, d.n)).epsilon(1e-5));
  CHECK(glm::length(shearSoft) == doctest::Approx(keep * glm::length(shearWhole)).epsilon(1e-5));
  CHECK(glm::length(soft.torqueRelative) == doctest::Approx(keep * glm::length(whole.torqueRelative)).epsilon(1e-6));
  // keep 1 changes no bit
  BondLoad same = whole;
  softenLoad(same, d, rest, k, 1.0f);
  CHECK(same.forceOnJ == whole.forceOnJ);
  CHECK(same.torqueShared == whole.torqueShared);
  // Tension: the whole load scales (the secant to the origin).
  const BondDeformation pulled = bondDeformation(vec3(0.01f + 1e-6f, 0.0f, 0.0f), quat(1, 0, 0, 0), quat(1, 0, 0, 0),
                                                 rest.d0);
  BondLoad tension = bondLoad(pulled, rest, k);
  const float before = glm::dot(tension.forceOnJ, pulled.n);
  softenLoad(tension, pulled, rest, k, keep);
  CHECK(glm::dot(tension.forceOnJ, pulled.n) == doctest::Approx(keep * before).epsilon(1e-6));
}

TEST_CASE("bdem softening: a checkpoint taken while the bond softens goes on bit-identically (its history travels)") {
  // Half-way down the softening branch: kappa and chi are set, the bond neither intact nor broken.
  const double deltaP = kBondStrength * 2.0 * kBondRadius / kBondYoung, wc = 2.0 * kBondFractureEnergy / kBondStrength;
  const long long half = (long long)((deltaP + 0.5 * wc) / (kBondSpeed * 2e-5)), more = 300;
  Simulation straight(parseScene(pulledPair("linear"), "pulled_pair.json"));
  for (long long k = 0; k < half; ++k) straight.step();
  CheckpointWriter out;
  straight.saveState(out);
  const std::vector<uint8_t> bytes = out.bytes();
  const double lossBefore = straight.stats().fractureDissipated;
  CHECK(lossBefore > 0.0);
  CHECK(straight.stats().bondsBroken == 0);
  for (long long k = 0; k < more; ++k) straight.step();
  Simulation resumed(parseScene(pulledPair("linear"), "pulled_pair.json"));
  resumed.restoreState(CheckpointReader(bytes, "in memory"));
  CHECK(resumed.stats().fractureDissipated == lossBefore);
  for (long long k = 0; k < more; ++k) resumed.step();
  CHECK(resumed.solver().stateDigest() == straight.solver().stateDigest());
  CHECK(resumed.solver().kinematicLoad("high").force == straight.solver().kinematicLoad("high").force);
}

TEST_CASE("bdem softening: a material edited back to brittle reads its bonds whole, and one past its strength breaks") {
  // Half-way down the softening branch the bond carries half its peak force at the elongation delta_p + w_c / 2, so
  // keep = (delta_p / 2) / (delta_p + w_c / 2) of the undamaged load there (0.054): the damage colour counts the rest.
  // Edited live to brittle, its bonds carry their whole loads again (the bond pass): damage and elastic energy read
  // them whole; stretched past the brittle strength, the bond breaks on the next step.
  const double deltaP = kBondStrength * 2.0 * kBondRadius / kBondYoung, wc = 2.0 * kBondFractureEnergy / kBondStrength;
  const long long half = (long long)((deltaP + 0.5 * wc) / (kBondSpeed * 2e-5));
  SceneDesc scene = parseScene(pulledPair("linear"), "pulled_pair.json");
  Simulation sim(scene);
  for (long long k = 0; k < half; ++k) sim.step();
  const auto mostDamaged = [&] {
    const std::vector<float> d = sim.solver().damage();
    return *std::max_element(d.begin(), d.end());
  };
  const double keep = 0.5 * deltaP / (deltaP + 0.5 * wc);
  CHECK(std::abs(mostDamaged() - (1.0 - keep)) < 0.01);  // the element's one bond (a step's travel: 3e-4 of keep)
  const double softElastic = sim.stats().elasticEnergy;
  for (MaterialDesc& m : scene.materials) m.softening = BondSoftening::Brittle;
  sim.solver().applyLiveSettings(scene);
  CHECK(mostDamaged() == 0.0f);
  CHECK(std::abs(sim.stats().elasticEnergy * keep / softElastic - 1.0) < 0.02);  // whole: 1 / keep of the softened
  CHECK(sim.stats().bondsBroken == 0);
  sim.step();
  CHECK(sim.stats().bondsBroken == 1);
  CHECK(mostDamaged() == 1.0f);
}
