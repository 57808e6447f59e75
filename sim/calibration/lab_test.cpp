#include "calibration/lab_test.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "io/material_library.h"
#include "io/scene_loader.h"
#include "solvers/simulation.h"

namespace frac {

using json = nlohmann::json;

namespace {

// Crossings of the specimen by the longitudinal wave while the load reaches the expected peak: slow enough that the
// curve is the quasi-static one, fast enough for a short run. BDEM's step (Lu eq. 28) is ~1/18 of an element's
// crossing time and its bond dashpots damp the ringing: its curve is smooth at 20 crossings. Peridynamics steps ~1/2
// of a particle's crossing without damping: at 20 crossings its fitted E scattered by +-20% from run to run, at 60
// by under 1% (with the fit over a band of the load; over a stretch of the run, since lab version 7, its E and nu read
// the same at 20 crossings within 0.15%: pd-state's glass bars 8 and 16 across). Its strengths still want the slow
// load (at 20 crossings its glass bar broke 1.0% higher, its beam loaded 3x faster 3.5% higher: docs/materials.md),
// so only a peridynamic elastic run, which measures the moduli alone, takes 20. fem-debris keeps 60 (its glass
// dog-bone read E 0.7% higher at 20).
double crossingsToPeak(const std::string& method, bool toFailure) {
  if (method == "bdem" || method == "rbdem") return 20.0;
  return toFailure || method == "fem-debris" ? 60.0 : 20.0;
}
// A run stops at this many times the expected time to the peak (a material far stronger than expected), when the
// load has fallen below kFallen of its peak after it, or at twice the time of its peak (a slow, damaged plateau).
constexpr double kLongestRun = 4.0;
constexpr double kFallen = 0.5;
// An unnotched beam of brittle bonds has failed at its first crack, when the load falls by this much with bonds
// broken since its peak: that load is its flexural strength (EN 1288's breaking load of a glass specimen). bdem's
// beam falls to ~0.6 of it there; implicit rbdem's falls to ~0.83 and then carries more over spreading damage
// (docs/materials.md), which the run no longer waits for. (A peridynamic beam's load rings by more than this before
// any bond breaks: hence the broken bonds.)
constexpr double kCracked = 0.85;
// A bending beam also swings: its first flexural mode (pinned ends) has the period T1 = 2 pi / w1 with
// w1 = (pi / span)^2 sqrt(E h^2 / (12 rho)), several longitudinal crossings long (3.3 of the 84 r beam's). Loaded to
// its peak within 3.5 T1 (20 x 2 crossings), bdem's calibrated glass measured E_timoshenko 60.2 GPa; within 10.4 T1
// 74.5 GPa, within 28 T1 74.8 GPa (rbdem 67.3, 72.7, 72.7 GPa). So the bending load takes at least this many T1.
constexpr double kFlexuralPeriodsToPeak = 12.0;

struct Expected {
  double modulus, density, strain;  // what the load rate is set from
  double poisson;
  double opening = 0.0;  // m: bdem's softening bonds' w_c = 2 G_f / sigma_c (0: brittle), which lengthens the run
};

// w_c of a material whose bonds soften (kernels/bdem_bond.h), else 0.
double softeningOpening(const MaterialDesc& m, const std::string& method) {
  const bool softens = method == "bdem" && m.softening == BondSoftening::Linear && m.fractureEnergy > 0.0f &&
                       m.tensileStrength < kUnbreakable;
  return softens ? 2.0 * m.fractureEnergy / m.tensileStrength : 0.0;
}

// The material's expected macro modulus, density and peak strain: the library's values where it names one, else
// the keys (a bond modulus for the BDEM family, the moduli for the rest).
Expected expectedOf(const MaterialDesc& m, const std::string& method, const json& material, const std::string& hint) {
  Expected e{0.0, m.density, 0.0, 0.25, softeningOpening(m, method)};
  const bool named = material.contains("library") && material["library"].is_string();
  if (named && !material["library"].get<std::string>().empty()) {
    const LibraryMaterial lib =
        loadLibraryMaterial(material["library"].get<std::string>(), hint, "/materials/specimen/library");
    e.modulus = lib.property("young")->value;
    e.strain = lib.property("tensile_strength")->value / e.modulus;
    e.poisson = lib.property("poisson")->value;
    return e;
  }
  const bool bonded = method == "bdem" || method == "rbdem";
  const double k = m.bulkModulus, g = m.shearModulus;
  e.modulus = bonded ? m.young : 9.0 * k * g / (3.0 * k + g);
  if (!bonded) e.poisson = (3.0 * k - 2.0 * g) / (2.0 * (3.0 * k + g));
  e.strain = bonded ? m.tensileStrength / m.young : m.criticalStretch;
  if (!std::isfinite(e.strain) || e.strain <= 0.0) e.strain = 1e-3;
  return e;
}

struct ReferencePoint {
  vec3 position;
  double radius;  // 0 for mesh nodes
};

json box(double x, double y, double z) { return {{"type", "box"}, {"size", {x, y, z}}}; }

json sceneBase(const LabSetup& s, const json& material) {
  json doc;
  doc["name"] = std::string("lab_") + labTestName(s.test);
  doc["description"] = "virtual lab test (sim/calibration/lab_test.cpp)";
  doc["seed"] = s.seed;
  doc["frames"] = 1;
  doc["fps"] = 1.0;
  doc["solver"] = {{"method", s.method}, {"dt", "auto"}, {"safety", 0.8}, {"gravity", {0, 0, 0}},
                   {"max_steps_per_frame", 1000000000}, {"threads", s.threads}};
  // rbdem's implicit steps at 10 explicit ones (the tables were calibrated so): a lab load reaches its peak in ~20
  // crossings of the longitudinal wave, ~360 explicit steps, which the interactive default (100) would take in 4.
  if (s.method == "rbdem") doc["solver"]["implicit_step"] = 10;
  json steel = {{"density", 7800}};
  if (s.method == "bdem" || s.method == "rbdem")
    steel.update({{"young", 2e11}, {"shear", 8e10}, {"tensile_strength", "inf"}, {"shear_strength", "inf"},
                  {"friction", 0.0}});
  else
    steel.update({{"bulk_modulus", 1.6e11}, {"shear_modulus", 8e10}});
  doc["materials"] = {{"specimen", material}, {"steel", steel}};
  return doc;
}

// A body's elements as packed at rest (the body built once on its own, without kinematics or probes).
std::vector<ReferencePoint> packedElements(json doc, const json& body, const std::string& path) {
  doc.erase("kinematics");
  doc.erase("probes");
  doc["bodies"] = json::array({body});
  const SceneDesc scene = parseScene(doc, path);
  std::unique_ptr<Solver> solver = makeSolver(scene.solver.method);
  solver->load(scene, SolverOptions{1});
  const ReferenceElements& elements = solver->referenceElements();
  std::vector<ReferencePoint> out;
  for (size_t k = 0; k < elements.index.size(); ++k)
    out.push_back({elements.position[k], elements.meshNodes ? 0.0 : double(elements.radius[k])});
  return out;
}

// Where a notch's plane x = const cuts the specimen: midway between two columns of elements at the middle, so that
// no element centre lies on it. A crack rectangle cuts only the bonds whose ends lie on its two sides; one through a
// column of centres (the HCP and cubic lattices put columns at odd multiples of r / 2 along a box's length, so
// x = r / 2 is one) cuts a random few: until 2026-12-06 the notched beam's notch, drawn there and up to the beam's
// top, cut 28 of the 127 bonds across its plane, scattered over the depth.
double notchPlaneX(const std::vector<ReferencePoint>& elements, double radius) {
  // The widest gap between the centres' x within two radii of the middle (the nearest to it of equal ones): a
  // lattice's columns are r apart there, a random packing's have gaps of a few hundredths of r.
  std::vector<double> xs = {-2.0 * radius, 2.0 * radius};
  for (const ReferencePoint& e : elements)
    if (std::abs(e.position.x) < 2.0 * radius) xs.push_back(e.position.x);
  std::sort(xs.begin(), xs.end());
  double best = 0.0, widest = -1.0;
  for (size_t k = 1; k < xs.size(); ++k) {
    const double gap = xs[k] - xs[k - 1], mid = 0.5 * (xs[k] + xs[k - 1]);
    if (gap > widest + 1e-3 * radius || (gap > widest - 1e-3 * radius && std::abs(mid) < std::abs(best)))
      widest = std::max(widest, gap), best = mid;
  }
  return best;
}

// Tension and compression: a bar 3a x a x a along x (a = `across` diameters, 8 by default), grips over its last 1.5
// diameters at each end that hold its ends along x only ("hold": "axial_x", as frictionless platens glued to the
// ends): the ends contract with the rest, so the bar carries a uniform uniaxial stress up to its ends. Grips that
// held the ends' sections (clamps, lab versions up to 4) put a stress concentration at their edges where the bar
// broke, sharper in a finer lattice: pd-bond's concrete bar 16 across read 6.9% weaker than the 8-across one held so,
// +0.5% held axially (docs/materials.md).
json uniaxialScene(const LabSetup& s, const json& material, double gripSpeed, const std::string& path) {
  const double d = 2.0 * s.elementRadius, side = s.across * d, length = 3.0 * side;
  json doc = sceneBase(s, material);
  doc["bodies"] = json::array({{{"name", "specimen"}, {"shape", box(length, side, side)}, {"position", {0, 0, 0}},
                                {"element_radius", s.elementRadius}, {"packing", s.packing},
                                {"material", "specimen"}}});
  const double sign = s.test == LabTest::Compression ? -1.0 : 1.0;
  json grips = json::array();
  for (int end : {-1, 1})
    grips.push_back({{"name", end < 0 ? "low" : "high"}, {"grip", true}, {"shape", box(3 * d, 2 * side, 2 * side)},
                     {"position", {end * 0.5 * length, 0, 0}}, {"velocity", {end * sign * gripSpeed, 0, 0}},
                     {"element_radius", s.elementRadius}, {"material", "steel"}, {"hold", "axial_x"}});
  doc["kinematics"] = grips;
  json probe = {{"type", "uniaxial"}, {"kinematic", "high"}, {"gauge_length", 0.5 * length}};
  if (s.test == LabTest::NotchedTension) {
    // A notch all round the bar's middle, a quarter of the side deep from each face: the ligament a square half the
    // side across (RILEM TC 162-TDF's notched specimen), where the crack forms and whose nominal area the work and
    // the peak load are taken over.
    const double x = notchPlaneX(packedElements(doc, doc["bodies"][0], path), s.elementRadius);
    const double depth = 0.25 * side, far = side;
    json cracks = json::array();
    for (int axis : {1, 2})
      for (int end : {-1, 1}) {
        json origin = {x, -far, -far}, u = {0, 0, 0}, v = {0, 0, 0};
        origin[axis] = end < 0 ? -far : 0.5 * side - depth;
        u[axis] = far - 0.5 * side + depth;
        v[3 - axis] = 2.0 * far;
        cracks.push_back({{"origin", origin}, {"edge_u", u}, {"edge_v", v}});
      }
    doc["bodies"][0]["cracks"] = cracks;
    probe["ligament_area"] = 0.25 * side * side;
  }
  doc["probes"] = json::array({probe});
  doc["camera"] = {{"eye", {1.2 * length, 0.8 * length, 1.6 * length}}, {"target", {0, 0, 0}}, {"fov", 40}};
  return doc;
}

// Three-point bending as Lu sec. 5.1 (the shipped three_point_bending scene in element radii): a beam 84 r long and
// 13.6 r high and wide on supports 72 r apart, pushed at mid-span; notched: a crack from the bottom to mid-height.
// Lu's beam is 11.9 r high; 13.6 r packs 7 HCP layers and 7 cubic rows, so a row of elements lies on the neutral
// axis for the supports to hold (at 11.9 r, 6 layers, the nearest row is 0.08 h off it: see bendingScene).
struct BeamSize {
  double length, height, span;
};
// `across` other than 8 scales the beam by across / 8 (a resolution study: the same beam at half the radius is
// across 16).
BeamSize beamSize(const LabSetup& s) {
  const double k = s.across / 8.0 * s.elementRadius;
  return {84.0 * k, 13.6 * k, 72.0 * k};
}

// The beam as packed at rest: its bottom and top (element extents: a lattice does not fill its nominal shape), for
// each support the element centre nearest the neutral axis at x = -+ span / 2, and the notch's plane.
struct PackedBeam {
  double bottom = 1e30, top = -1e30, notchX = 0.0;
  double notchTop = 0.0;  // the notch's tip: between two layers of elements just below mid-height
  vec3 pin[2];
};
PackedBeam packBeam(const json& doc, const json& body, double span, double radius, const std::string& path) {
  const std::vector<ReferencePoint> elements = packedElements(doc, body, path);
  PackedBeam beam;
  for (const ReferencePoint& e : elements) {
    beam.bottom = std::min(beam.bottom, e.position.y - e.radius);
    beam.top = std::max(beam.top, e.position.y + e.radius);
  }
  const double axis = 0.5 * (beam.bottom + beam.top);
  for (int side = 0; side < 2; ++side) {
    const vec3 want(float((side ? 0.5 : -0.5) * span), float(axis), 0.0f);
    double nearest = 1e30;
    for (const ReferencePoint& e : elements) {
      const double dx = e.position.x - want.x, dy = e.position.y - want.y;
      if (dx * dx + dy * dy < nearest) nearest = dx * dx + dy * dy, beam.pin[side] = vec3(e.position.x, e.position.y, 0.0f);
    }
  }
  beam.notchX = notchPlaneX(elements, radius);
  // The notch's tip in the widest gap between element heights within 1.25 diameters below the axis (between two HCP
  // layers, 1.63 r apart), a quarter of the gap above the lower layer: a tip through a layer's centres would leave
  // its bonds' cut to rounding, and one midway through the bonds between the two layers (across the plane midway
  // between two columns, each crosses it at its middle, midway between the layers).
  std::vector<double> heights = {axis - 2.5 * radius};
  for (const ReferencePoint& e : elements)
    if (e.position.y > axis - 2.5 * radius && e.position.y <= axis + 0.05 * radius) heights.push_back(e.position.y);
  std::sort(heights.begin(), heights.end());
  double gap = -1.0;
  for (size_t k = 1; k < heights.size(); ++k)
    if (heights[k] - heights[k - 1] > gap) gap = heights[k] - heights[k - 1], beam.notchTop = heights[k - 1] + 0.25 * gap;
  return beam;
}

json bendingScene(const LabSetup& s, const json& material, double indenterSpeed, double poisson,
                  const std::string& path) {
  const BeamSize b = beamSize(s);
  json doc = sceneBase(s, material);
  json beam = {{"name", "specimen"}, {"shape", box(b.length, b.height, b.height)}, {"position", {0, 0, 0}},
               {"element_radius", s.elementRadius}, {"packing", s.packing}, {"material", "specimen"}};
  doc["bodies"] = json::array({beam});
  // The supports and the load are grips in every method (peridynamics takes kinematics as grips only, and grips
  // do not chatter as contacts do). Each support is a pin holding one row of elements (the centres within 0.3 r of
  // a line across the beam) on the neutral axis: a hinge, as a roller is. Holding more fixes the section's rotation
  // there and clamps the beam: the earlier pins, 2.4 r wide on Lu's 6-layer beam, held the two rows either side of
  // the axis, and bdem's calibrated glass measured E +87%. A row off the axis by e arches the beam between the fixed
  // pins, stiffer by about 9 (e / h)^2 (6% at 0.08 h). The span of eq. 29 is the pins' distance. The pins are
  // rollers ("hold": "roller_x"): they prescribe their row's height and place across the beam and nothing else. A
  // grip that also prescribed its elements' orientation would stop bdem's and rbdem's held row turning, and its bonds
  // would put a moment on the beam (measured: E rose with the span); one that prescribed x as well makes the cracked
  // beam an arch, the pins taking its thrust (bdem's glass then carried 1.4x its first cracking load and never fell;
  // docs/materials.md).
  const PackedBeam packed = packBeam(doc, beam, b.span, s.elementRadius, path);
  // Notched: a plane between two columns of elements at mid-span, from below the beam to about mid-height; the
  // ligament is the depth above it (the beam's nominal top at h / 2).
  const double ligament = s.test == LabTest::NotchedBending ? 0.5 * b.height - packed.notchTop : 0.0;
  if (ligament > 0.0)
    doc["bodies"][0]["cracks"] = json::array({{{"origin", {packed.notchX, -b.height, -b.height}},
                                               {"edge_u", {0, packed.notchTop + b.height, 0}},
                                               {"edge_v", {0, 0, 2 * b.height}}}});
  // A steel grip: a cylinder of `radius` across the beam (along z) at (x, y).
  const auto grip = [&](const char* name, double radius, double x, double y) {
    return json{{"name", name}, {"shape", {{"type", "cylinder"}, {"radius", radius}, {"height", 1.7 * b.height}}},
                {"position", {x, y, 0}}, {"rotation", {90, 0, 0}}, {"element_radius", s.elementRadius},
                {"material", "steel"}, {"grip", true}};
  };
  json kin = json::array();
  for (int side = 0; side < 2; ++side) {
    json pin = grip(side ? "support_high" : "support_low", 0.3 * s.elementRadius, packed.pin[side].x,
                    packed.pin[side].y);
    pin["hold"] = "roller_x";
    kin.push_back(pin);
  }
  // The load: a grip pushing the top row at mid-span down (a grip through the critical section's middle would hold
  // the crack back), a frictionless knife edge ("axial_y": its elements move freely along and across the beam). A
  // grip that held its elements' orientation would clamp the two halves of the cracked beam, which then carried 1.2x
  // the first cracking load as cantilevers; one that held their place along the beam ("position", lab versions 1-7)
  // kept the top fibres under it from shortening: an elastic continuum in the lab's rig (CalculiX,
  // scripts/bending_continuum_reference.py) read E_timoshenko 2.8% higher with a grip so held on a disc of nodes
  // (fem-debris' grip), 0.6% higher on a row of elements.
  json load = grip("indenter", 1.2 * s.elementRadius, 0.0, packed.top - s.elementRadius);
  load["hold"] = "axial_y";
  load["velocity"] = {0, -indenterSpeed, 0};
  kin.push_back(load);
  doc["kinematics"] = kin;
  const double span = double(packed.pin[1].x) - double(packed.pin[0].x);
  // The deflection is the mid-span section's net of the sections over the pins (a yoke on the supports, as ASTM
  // C1609 measures it): the elements about each held row give under its load (settlement, not bending: 2.0-2.4 GPa
  // of every method's glass E_timoshenko, 3%; since lab version 6).
  doc["probes"] = json::array({{{"type", "three_point_bending"}, {"indenter", "indenter"}, {"span", span},
                                {"width", b.height}, {"height", b.height}, {"ligament", ligament},
                                {"poisson", poisson}, {"supports", "support_low,support_high"}}});
  doc["camera"] = {{"eye", {0.6 * b.length, 0.6 * b.length, 1.4 * b.length}}, {"target", {0, 0, 0}}, {"fov", 40}};
  return doc;
}

bool isBending(LabTest t) { return t == LabTest::Bending || t == LabTest::NotchedBending; }

// The load rate, the time to the expected peak for the test (see crossingsToPeak) and how many times that time a run
// to failure may last (kLongestRun; longer where softening bonds open by w_c before the specimen comes apart).
struct Loading {
  double speed, timeToPeak, longestRun;
};
// A run to failure lasts kLongestRun times the expected peak's time, or, with softening bonds, up to 6 times the
// travel of the peak and six openings w_c: a softening lattice peaks at about twice its bonds' strain (its bonds
// across the crack peak one family after another) and its crack opens over more than one layer of inclined bonds. The
// run stops when the specimen has come apart, so the margin costs nothing.
double longestRun(double travelAtPeak, double openingTravel) {
  return openingTravel > 0.0 ? std::max(kLongestRun, 6.0 * (travelAtPeak + 6.0 * openingTravel) / travelAtPeak)
                             : kLongestRun;
}
Loading loadingFor(const LabSetup& s, const Expected& e) {
  const double c = std::sqrt(e.modulus / e.density);
  if (isBending(s.test)) {
    const BeamSize b = beamSize(s);
    const double deflection = e.strain * b.span * b.span / (6.0 * b.height);  // sigma = 6 E h delta / l^2 at the peak
    const double omega = (kPi / b.span) * (kPi / b.span) * b.height * std::sqrt(e.modulus / (12.0 * e.density));
    const double time = std::max(crossingsToPeak(s.method, s.toFailure) * 2.0 * b.length / c,  // twice the crossings
                                 kFlexuralPeriodsToPeak * 2.0 * kPi / omega);
    // A crack at mid-span opening by w turns each half about the top by w / h: the load point sinks w span / (4 h).
    return {deflection / time, time, longestRun(deflection, e.opening * b.span / (4.0 * b.height))};
  }
  const double length = 6.0 * s.across * s.elementRadius;
  const double time = crossingsToPeak(s.method, s.toFailure) * length / c;
  // each grip moves half the elongation
  return {0.5 * e.strain * length / time, time, longestRun(e.strain * length, e.opening)};
}

double currentLoad(const Simulation& sim) {
  if (const ThreePointBendingProbe* b = sim.bendingProbe()) return b->curve().empty() ? 0.0 : b->curve().back().force;
  return sim.uniaxialProbe()->currentStress();
}

}  // namespace

const char* labTestName(LabTest test) {
  switch (test) {
    case LabTest::Tension: return "tension";
    case LabTest::Compression: return "compression";
    case LabTest::Bending: return "bending";
    case LabTest::NotchedBending: return "notched_bending";
    case LabTest::NotchedTension: return "notched_tension";
  }
  return "?";
}

namespace {

// The lab scene with its loading, and whether its specimen's bonds soften (a run to separation).
struct LabScene {
  json doc;
  Loading loading;
  bool softens;
  int frames;      // the run in whole frames of at most a second
  double seconds;  // the simulated time they cover
};

LabScene labScene(const LabSetup& s) {
  json material = s.material;
  const std::string path = s.libraryHint.empty() ? "lab.json" : s.libraryHint;
  double poisson = 0.25;  // the shear correction's nu (three_point_bending.h): the library's, pd-bond's 1/4
  const auto build = [&](double speed) {
    return isBending(s.test) ? bendingScene(s, material, speed, poisson, path) : uniaxialScene(s, material, speed, path);
  };
  const SceneDesc probe = parseScene(build(0.0), path);
  const auto specimen = std::find_if(probe.materials.begin(), probe.materials.end(),
                                     [](const MaterialDesc& m) { return m.name == "specimen"; });
  const Expected e = expectedOf(*specimen, s.method, material, s.libraryHint);
  // A specimen `across` other than 8 is the default one at 8 / across of the radius, drawn across / 8 times as large:
  // its flaw cells (weibull_cell, the library's or the keys') grow with it, so both hold the same cubes and draws.
  if (s.across != 8 && specimen->weibullCell > 0.0f)
    material["weibull_cell"] = double(specimen->weibullCell) * s.across / 8.0;
  if (s.method != "pd-bond") poisson = std::clamp(e.poisson, 0.0, 0.49);
  const Loading loading = loadingFor(s, e);
  json doc = build(loading.speed);
  // The run in whole frames of at most a second (the scene format takes 1 to 1e6 frames a second): one frame, or
  // several where softening bonds' openings make it longer (concrete's at r = 1 mm: 2.3 s of loading).
  const double time = loading.timeToPeak * (s.toFailure ? loading.longestRun : 1.0);
  const int frames = std::max(1, int(std::ceil(time)));
  doc["frames"] = frames;
  doc["fps"] = double(frames) / time;
  const auto moveBy = [&](json& point) {
    for (int c = 0; c < 3; ++c) point[c] = point[c].get<double>() + s.centre[c];
  };
  for (const char* list : {"bodies", "kinematics"})
    for (json& body : doc[list]) moveBy(body["position"]);
  moveBy(doc["camera"]["eye"]);
  moveBy(doc["camera"]["target"]);
  return {doc, loading, e.opening > 0.0, frames, time};
}

}  // namespace

json labSceneJson(const LabSetup& s) { return labScene(s).doc; }

LabMeasurement runLabTest(const LabSetup& s) {
  const auto start = std::chrono::steady_clock::now();
  const LabScene lab = labScene(s);
  Simulation sim(parseScene(lab.doc, s.libraryHint.empty() ? "lab.json" : s.libraryHint));
  const long long total = (long long)sim.stepsPerFrame() * lab.frames;
  if (s.planned) s.planned(total, lab.seconds);
  // The first quarter of the expected time to the peak is not searched for a fall: the rollers' first touch rings.
  const long long settle = (long long)(double(total) / (4.0 * lab.loading.longestRun));
  double peak = 0.0;
  long long peakStep = 0, peakBroken = 0;
  LabMeasurement out;
  // The load is judged by its mean over blocks of 1/400 of the run (contacts chatter step by step).
  const long long block = std::max(64LL, total / 400);
  double blockSum = 0.0;
  for (long long k = 0; k < total; ++k) {
    sim.step();
    blockSum += currentLoad(sim);
    if ((k + 1) % block) continue;
    const double load = blockSum / double(block);
    blockSum = 0.0;
    if (!s.toFailure || k < settle) continue;
    if (load > peak) {
      peak = load, peakStep = k;
      if (s.test == LabTest::Bending) peakBroken = sim.stats().bondsBroken;
    }
    // Brittle: the load fell, or a damaged plateau lasted as long again as the rise. Softening bonds: the specimen
    // came apart (its work is then the work of fracture), however long their opening takes; or, short of that
    // (toSeparation false), the load fell to half its peak.
    const bool cracked =
        s.test == LabTest::Bending && load < kCracked * peak && sim.stats().bondsBroken > peakBroken;
    const bool ended = lab.softens && s.toSeparation ? load < UniaxialProbe::kSeparated * peak
                       : lab.softens                  ? load < kFallen * peak
                                                      : load < kFallen * peak || cracked || k > 2 * peakStep + 1000;
    if (peak > 0.0 && ended) {
      out.failed = true;
      // Enough of the falling branch for the smoothing, and for a notched beam the tail of its work.
      const long long more = lab.softens && s.toSeparation        ? k / 20
                             : s.test == LabTest::NotchedBending ? k
                                                                 : k / 10;
      for (long long j = 0; j < more && k + j < total; ++j) sim.step();
      break;
    }
  }
  out.summary = sim.measurements();
  out.steps = sim.steps();
  out.young = out.summary.value(isBending(s.test) ? "E_timoshenko" : "E_macro", 0.0);
  out.poisson = out.summary.value("nu_macro", 0.0);
  out.strength = out.summary.value(isBending(s.test)                    ? "sigma_macro"
                                   : s.test == LabTest::NotchedTension ? "ligament_strength"
                                                                       : "strength_macro",
                                   0.0);
  out.fractureEnergy = out.summary.value("fracture_energy", 0.0);
  out.dissipatedEnergy = out.summary.value("dissipated_fracture_energy", 0.0);
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace frac
