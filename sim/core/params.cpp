// The registry itself: one table per scene object. Adding a parameter = adding one line here
// (plus reading it in io/scene_loader.cpp); adding a solver method = adding a name to kSolverMethods.
#include "core/params.h"

#include <stdexcept>

namespace frac {
namespace {

using json = nlohmann::json;

const std::vector<std::string> kSolverMethods = {"bdem", "pd-bond", "pd-state"};
const std::vector<std::string> kShapeTypes = {"box", "sphere", "cylinder", "capsule", "revolve", "mesh"};
const std::vector<std::string> kPackings = {"hcp", "cubic"};
const std::vector<std::string> kProbeTypes = {"three_point_bending", "energy"};
const std::vector<std::string> kColorModes = {"material", "stress", "damage", "fragment", "speed"};

constexpr double kBig = 1e30;        // "unbounded" times
constexpr double kMaxLength = 1e4;   // m, sizes and coordinates
constexpr double kMinLength = 1e-6;  // m
constexpr double kMaxSpeed = 1e5;    // m/s and rad/s

// --- builders: keep each table line short --------------------------------------------------------
ParamSpec number(std::string key, std::string unit, double min, double max, json def, std::string desc) {
  ParamSpec s;
  s.key = std::move(key);
  s.type = ParamType::Number;
  s.unit = std::move(unit);
  s.min = min;
  s.max = max;
  s.defaultValue = std::move(def);
  s.description = std::move(desc);
  return s;
}
ParamSpec integer(std::string key, std::string unit, double min, double max, json def, std::string desc) {
  ParamSpec s = number(std::move(key), std::move(unit), min, max, std::move(def), std::move(desc));
  s.type = ParamType::Integer;
  return s;
}
ParamSpec vec3(std::string key, std::string unit, double min, double max, json def, std::string desc) {
  ParamSpec s = number(std::move(key), std::move(unit), min, max, std::move(def), std::move(desc));
  s.type = ParamType::Vec3;
  return s;
}
ParamSpec boolean(std::string key, bool def, std::string desc) {
  ParamSpec s;
  s.key = std::move(key);
  s.type = ParamType::Bool;
  s.defaultValue = def;
  s.description = std::move(desc);
  return s;
}
ParamSpec text(std::string key, json def, std::string desc) {
  ParamSpec s;
  s.key = std::move(key);
  s.type = ParamType::String;
  s.defaultValue = std::move(def);
  s.description = std::move(desc);
  return s;
}
ParamSpec choice(std::string key, std::vector<std::string> choices, json def, std::string desc) {
  ParamSpec s = text(std::move(key), std::move(def), std::move(desc));
  s.type = ParamType::Enum;
  s.choices = std::move(choices);
  return s;
}
ParamSpec nested(std::string key, ParamType type, std::string group, std::string desc) {
  ParamSpec s;
  s.key = std::move(key);
  s.type = type;
  s.group = std::move(group);
  s.defaultValue = type == ParamType::List ? json::array() : json::object();
  s.description = std::move(desc);
  return s;
}
ParamSpec withType(ParamSpec s, ParamType type) {
  s.type = type;
  return s;
}
ParamSpec required(ParamSpec s) {
  s.required = true;
  s.defaultValue = nullptr;
  return s;
}
ParamSpec forMethods(ParamSpec s, std::vector<std::string> methods) {
  s.methods = std::move(methods);
  return s;
}
const std::vector<std::string> kBdem = {"bdem"};
const std::vector<std::string> kPeridynamics = {"pd-bond", "pd-state"};
const std::vector<std::string> kPdBond = {"pd-bond"};
const std::vector<std::string> kPdState = {"pd-state"};

ParamSpec live(ParamSpec s) {
  s.liveEditable = true;
  return s;
}
ParamSpec aboveMin(ParamSpec s) {
  s.minExclusive = true;
  return s;
}
ParamSpec direction(ParamSpec s) {
  s.unitVector = true;
  return s;
}
ParamSpec onlyFor(ParamSpec s, std::vector<std::string> variants) {
  s.variants = std::move(variants);
  return s;
}

// Shared by bodies and kinematics.
std::vector<ParamSpec> placedShapeParams(const std::string& what) {
  return {
      text("name", "", "display name; default " + what + "<index>"),
      required(nested("shape", ParamType::Object, "shape", "geometry in the local frame, filled with elements")),
      vec3("position", "m", -kMaxLength, kMaxLength, json::array({0, 0, 0}), "origin of the local frame"),
      vec3("rotation", "deg", -3600, 3600, json::array({0, 0, 0}),
           "Euler angles applied about x, then y, then z (q = qz qy qx)"),
      required(number("element_radius", "m", 1e-5, 10, nullptr, "radius of the spheres the shape is filled with")),
      choice("packing", kPackings, "hcp", "element lattice: hexagonal close packing or simple cubic"),
      required(text("material", nullptr, "name of an entry of 'materials'")),
  };
}

std::vector<ParamGroup> buildRegistry() {
  std::vector<ParamGroup> groups;

  groups.push_back({"scene", "top level of a scene file", {
      text("name", "", "scene title shown in the UI"),
      text("description", "", "what the scene demonstrates"),
      integer("seed", "1", 0, 1e18, 1, "random seed (Weibull strength scatter)"),
      integer("frames", "1", 1, 1e7, 120, "number of frames to simulate"),
      live(number("fps", "1/s", 1, 1e6, 60, "frames per simulated second")),
      nested("solver", ParamType::Object, "solver", "time integration settings"),
      nested("materials", ParamType::Map, "material", "named materials: name -> material"),
      nested("bodies", ParamType::List, "body", "breakable bodies filled with bonded elements"),
      nested("kinematics", ParamType::List, "kinematic", "rigid bodies on prescribed paths"),
      nested("projectiles", ParamType::List, "projectile", "single-element projectiles"),
      nested("planes", ParamType::List, "plane", "infinite static planes"),
      nested("probes", ParamType::List, "probe", "measurements recorded during the run"),
      nested("camera", ParamType::Object, "camera", "initial view"),
  }, ""});

  groups.push_back({"solver", "time integration", {
      choice("method", kSolverMethods, "bdem", "simulation method"),
      live(aboveMin(withType(number("dt", "s", 0, 1, "auto",
                                    "time step; \"auto\" = the method's critical step (Lu eq. 28, Silling-Askari) times safety"),
                             ParamType::NumberOrAuto))),
      live(number("safety", "1", 0.01, 1, 0.5, "fraction of the critical time step used when dt is \"auto\"")),
      live(integer("substeps", "1", 0, 1e6, 0, "steps per frame; 0 = derived from dt and fps")),
      live(vec3("gravity", "m/s^2", -1e4, 1e4, json::array({0, -9.81, 0}), "gravitational acceleration")),
      forMethods(boolean("contact", true, "collide elements that are not bonded"), kBdem),
      live(integer("threads", "1", 0, 1024, 0, "CPU threads; 0 = all cores")),
      forMethods(number("horizon_factor", "1", 1, 8, 3,
             "pd-bond: horizon delta = factor x lattice spacing (Levine's N; bonds to every particle within delta)"), kPeridynamics),
      forMethods(choice("pd_contact", {"levine", "lammps", "off"}, "levine",
             "pd-bond: short-range contact between particles: Levine eq. 6, LAMMPS peri/pmb's, or none"), kPeridynamics),
      forMethods(live(number("pd_contact_stiffness", "Pa", 0, 1e25, 1e8, "pd-bond: K_c of Levine eq. 6")), kPeridynamics),
      forMethods(live(number("floor_restitution", "1", 0, 1, 0.99,
                  "pd-bond: share of the normal velocity a particle keeps when it bounces off a plane (Levine: 0.99)")), kPeridynamics),
      forMethods(choice("strengthening", {"levine", "lammps"}, "levine",
             "pd-bond: compression strengthening of eq. 5: s0 - alpha min(0, s_min) (levine) or s0 - alpha s_min (lammps)"), kPdBond),
      forMethods(live(number("pd_damping", "1/s", 0, 1e9, 0,
                  "pd-bond, pd-state: velocity damping c (force density -rho c v); 0 = none (dynamic relaxation)")), kPeridynamics),
      forMethods(choice("bond_removal", {"levine", "lammps"}, "levine",
                        "pd-bond: a bond that breaks carries no force from that step on (levine) or still in it (lammps)"),
                 kPdBond),
      forMethods(boolean("partial_volume", true,
              "pd-bond: scale the volume of particles near the horizon (LAMMPS peri/pmb's linear correction)"), kPeridynamics),
      live(choice("backend", {"auto", "cpu", "cuda"}, "auto",
                  "where the steps run: cuda = the GPU, cpu = OpenMP threads, auto = CUDA when a device is usable")),
  }, ""});

  groups.push_back({"material", "material of bodies, kinematics, projectiles and planes (each key names the methods that read it)", {
      number("density", "kg/m^3", 1, 1e5, 2500, "mass density of the elements"),
      forMethods(live(number("young", "Pa", 1e2, 1e13, 1e7, "bond Young's modulus E (Lu eq. 3)")), kBdem),
      forMethods(live(number("shear", "Pa", 1e2, 1e13, 4e6, "bond shear modulus G (Lu eq. 11)")), kBdem),
      forMethods(live(aboveMin(withType(number("tensile_strength", "Pa", 0, 1e12, 1e6,
                                    "bond tensile strength sigma_c (Lu eq. 17); \"inf\" = unbreakable"),
                             ParamType::NumberOrInf))), kBdem),
      forMethods(live(aboveMin(withType(number("shear_strength", "Pa", 0, 1e12, 1e6,
                                    "bond shear strength tau_c (Lu eq. 18); \"inf\" = unbreakable"),
                             ParamType::NumberOrInf))), kBdem),
      forMethods(number("weibull_m", "1", 0, 100, 0, "Weibull modulus of the bond strengths; 0 = no scatter"), kBdem),
      forMethods(live(number("friction", "1", 0, 10, 0.5, "Coulomb friction coefficient of contacts (Lu eq. 27)")), kBdem),
      forMethods(live(number("damping", "1", 0, 1, 0.05, "bond damping ratio")), kBdem),
      forMethods(live(number("restitution", "1", 0, 1, 0.5, "normal coefficient of restitution of contacts")), kBdem),
      forMethods(number("anisotropy", "1", 0, 1000, 0, "strength anisotropy lambda (Lu eq. 30); 0 = isotropic"), kBdem),
      forMethods(direction(vec3("grain_direction", "1", -1e6, 1e6, json::array({0, 1, 0}),
                     "grain direction d_g (Lu eq. 30), normalised on load")), kBdem),
      live(vec3("color", "1", 0, 1, json::array({0.72, 0.75, 0.8}), "display colour (linear RGB, 0..1)")),
      forMethods(live(number("bulk_modulus", "Pa", 1e2, 1e13, 1.4e10,
                  "bulk modulus K: pd-bond's micromodulus c = 18 K / (pi delta^4) (Levine eq. 4), pd-state's a (Chen eq. 10)")), kPeridynamics),
      forMethods(live(number("critical_stretch", "1", 1e-7, 10, 0.0005,
                  "breaking stretch: pd-bond's s0 (Levine's tau is 3 s0 for the same fracture energy), pd-state's s_w (Chen eq. 19)")), kPeridynamics),
      forMethods(live(number("fracture_energy", "J/m^2", 0, 1e9, 0,
                  "pd-bond: G0; > 0 replaces critical_stretch by s0 = sqrt(5 G0 / (9 K delta))")), kPdBond),
      forMethods(live(number("compression_alpha", "1", 0, 100, 0.25, "pd-bond: alpha of eq. 5 (compression strengthening)")), kPdBond),
      forMethods(number("stretch_scatter", "1", 0, 0.3, 0.02,
             "standard deviation of each bond's breaking stretch relative to the mean (Levine: 2%)"), kPeridynamics),
      forMethods(live(number("shear_modulus", "Pa", 1e2, 1e13, 1e10, "pd-state: shear modulus G (Chen eq. 10)")), kPdState),
      forMethods(live(aboveMin(withType(number("yield_psi0", "N^2/m^10", 0, 1e60, "inf",
                                    "pd-state: yield parameter Psi0 of Chen eq. 13; \"inf\" = elastic"),
                             ParamType::NumberOrInf))), kPdState),
      forMethods(live(aboveMin(withType(number("plastic_limit", "1", 0, 1e3, "inf",
                                    "pd-state: gamma / |xi| of Chen eq. 16, the largest plastic stretch; \"inf\" = none"),
                             ParamType::NumberOrInf))), kPdState),
      forMethods(live(number("damage_alpha", "1", 0, 1e3, 0,
                  "pd-state: alpha of Chen eq. 19, the rise of the breaking stretch with damage")), kPdState),
      forMethods(vec3("anisotropy_scale", "1", 1e-3, 1e3, json::array({1, 1, 1}),
           "pd-state: diagonal of Chen's anisotropy matrix G (eq. 17) along x, y, z; [1,1,1] = isotropic"), kPdState),
  }, ""});

  groups.push_back({"body", "breakable body: a shape filled with bonded elements", placedShapeParams("body"), ""});
  groups.back().params.push_back(vec3("velocity", "m/s", -kMaxSpeed, kMaxSpeed, json::array({0, 0, 0}),
                                      "initial velocity"));
  groups.back().params.push_back(vec3("angular_velocity", "rad/s", -kMaxSpeed, kMaxSpeed, json::array({0, 0, 0}),
                                      "initial angular velocity about the body's origin"));
  groups.back().params.push_back(
      boolean("bonded", true, "bond touching elements (false: a granular body of loose grains)"));
  groups.back().params.push_back(nested("cracks", ParamType::List, "crack",
                                        "initial cracks: bonds crossing these rectangles start broken"));

  groups.push_back({"kinematic", "rigid body moved on a prescribed path (support, indenter, blade, grip)",
                    placedShapeParams("kinematic"), ""});
  for (ParamSpec s : {
           vec3("velocity", "m/s", -kMaxSpeed, kMaxSpeed, json::array({0, 0, 0}), "velocity while active"),
           vec3("angular_velocity", "rad/s", -kMaxSpeed, kMaxSpeed, json::array({0, 0, 0}),
                "angular velocity about 'position' while active"),
           number("start", "s", 0, kBig, 0, "time the motion starts"),
           number("stop", "s", 0, kBig, kBig, "time the motion stops"),
           boolean("grip", false, "take over the body elements inside the shape (keeping their bonds)"),
       })
    groups.back().params.push_back(std::move(s));

  groups.push_back({"shape", "geometry; 'type' selects which keys apply", {
      required(choice("type", kShapeTypes, nullptr, "kind of shape")),
      required(onlyFor(vec3("size", "m", kMinLength, kMaxLength, nullptr, "full edge lengths"), {"box"})),
      required(onlyFor(number("radius", "m", kMinLength, kMaxLength, nullptr, "radius"),
                       {"sphere", "cylinder", "capsule"})),
      required(onlyFor(number("height", "m", kMinLength, kMaxLength, nullptr,
                              "length along the local y axis (capsule: without the caps)"),
                       {"cylinder", "capsule"})),
      required(onlyFor(withType(number("profile", "m", 0, kMaxLength, nullptr,
                                       "closed profile of [r, y] points revolved around the local y axis"),
                                ParamType::Profile),
                       {"revolve"})),
      onlyFor(number("wall", "m", 0, kMaxLength, 0, "> 0 keeps only a shell of this thickness; 0 = solid"),
              {"revolve"}),
      required(onlyFor(text("file", nullptr, "closed OBJ mesh, relative to the scene file's folder"), {"mesh"})),
      onlyFor(aboveMin(number("scale", "1", 0, 1e6, 1, "uniform scale applied to the mesh coordinates")), {"mesh"}),
  }, "type"});

  groups.push_back({"projectile", "single-element projectile", {
      text("name", "", "display name; default projectile<index>"),
      required(number("radius", "m", kMinLength, kMaxLength, nullptr, "radius of the projectile")),
      required(text("material", nullptr, "name of an entry of 'materials'")),
      vec3("position", "m", -kMaxLength, kMaxLength, json::array({0, 0, 0}), "start position"),
      vec3("velocity", "m/s", -kMaxSpeed, kMaxSpeed, json::array({0, 0, 0}), "launch velocity"),
      number("launch_time", "s", 0, kBig, 0, "time of launch; before it the projectile waits out of contact"),
      forMethods(choice("force_model", {"levine", "indenter"}, "levine",
             "pd-bond (projectiles move at constant velocity): Levine eq. 7, or LAMMPS fix indent K (R - r)^2"), kPeridynamics),
      forMethods(number("force_constant", "Pa", 0, 1e30, 1e15,
             "pd-bond: K_S of Levine eq. 7 (N/m^2), or K of the indenter (N/m^5 on force densities)"), kPeridynamics),
      forMethods(boolean("dynamic", false,
              "pd-bond, pd-state: the projectile feels the reaction of the particles it pushes (its mass from its "
              "material's density) instead of moving at constant velocity"), kPeridynamics),
  }, ""});

  groups.push_back({"crack", "an initial crack: the rectangle origin + a edge_u + b edge_v, a and b in [0, 1]", {
      required(vec3("origin", "m", -kMaxLength, kMaxLength, nullptr, "a corner of the rectangle (world)")),
      required(vec3("edge_u", "m", -kMaxLength, kMaxLength, nullptr, "first edge from the corner")),
      required(vec3("edge_v", "m", -kMaxLength, kMaxLength, nullptr, "second edge, perpendicular to the first")),
  }, ""});

  groups.push_back({"plane", "infinite static plane", {
      vec3("point", "m", -kMaxLength, kMaxLength, json::array({0, 0, 0}), "a point on the plane"),
      direction(vec3("normal", "1", -1e6, 1e6, json::array({0, 1, 0}), "outward normal, normalised on load")),
      required(text("material", nullptr, "name of an entry of 'materials'")),
  }, ""});

  groups.push_back({"probe", "measurement; 'type' selects which keys apply", {
      required(choice("type", kProbeTypes, nullptr, "what to measure")),
      required(onlyFor(text("indenter", nullptr, "name of the kinematic that pushes the beam"),
                       {"three_point_bending"})),
      required(onlyFor(aboveMin(number("span", "m", 0, kMaxLength, nullptr, "support distance l (Lu eq. 29)")),
                       {"three_point_bending"})),
      required(onlyFor(aboveMin(number("width", "m", 0, kMaxLength, nullptr, "beam width b (Lu eq. 29)")),
                       {"three_point_bending"})),
      required(onlyFor(aboveMin(number("height", "m", 0, kMaxLength, nullptr, "beam height h (Lu eq. 29)")),
                       {"three_point_bending"})),
      onlyFor(number("fit_fraction", "1", 0.25, 1, 0.6,
                     "stiffness slope fitted up to this fraction of the peak force"),
              {"three_point_bending"}),
  }, "type"});

  groups.push_back({"camera", "initial view", {
      vec3("eye", "m", -kMaxLength, kMaxLength, json::array({0.6, 0.4, 0.8}), "camera position"),
      vec3("target", "m", -kMaxLength, kMaxLength, json::array({0.0, 0.1, 0.0}), "point looked at"),
      number("fov", "deg", 5, 150, 45, "vertical field of view"),
  }, ""});

  // Not scene keys: the window's render and throw settings, declared here so that their panels, like the others,
  // are built from the registry.
  groups.push_back({"render", "how the elements are drawn", {
      live(choice("color_mode", kColorModes, "material", "colour by material, bond stress ratio (Lu eq. 17-18), "
                                                         "damage, fragment or speed")),
      live(boolean("auto_range", true, "speed colours span 0 .. the frame's top speed")),
      live(number("range_min", "1", 0, 1e6, 0, "scalar at the low end of the colour map (stress, damage, speed)")),
      live(number("range_max", "1", 0, 1e6, 1, "scalar at the high end of the colour map")),
      live(boolean("bonds", false, "draw bond lines: intact blue, broken red")),
      live(number("element_scale", "1", 0.05, 1, 1, "drawn radius / element radius (shrink to see bonds)")),
      live(boolean("shadows", true, "key-light shadow map")),
  }, ""});
  groups.push_back({"throw", "the ball a left-drag throws", {
      live(number("radius", "m", 1e-4, 1, 0.012, "ball radius")),
      live(number("density", "kg/m^3", 0, 1e5, 0, "ball density; 0 = its material's")),
      live(number("speed_scale", "m/s/px", 1e-3, 1, 0.05, "launch speed per pixel of drag")),
      live(boolean("breakable", false, "a ball of bonded elements that breaks too, instead of one rigid element")),
      live(number("element_radius", "m", 1e-4, 0.1, 0.003, "breakable ball: radius of its elements")),
  }, ""});

  return groups;
}

}  // namespace

const ParamSpec* ParamGroup::find(std::string_view key) const {
  for (const ParamSpec& p : params)
    if (p.key == key) return &p;
  return nullptr;
}

std::vector<std::string> ParamGroup::keys() const {
  std::vector<std::string> out;
  for (const ParamSpec& p : params) out.push_back(p.key);
  return out;
}

bool ParamGroup::appliesTo(const ParamSpec& spec, std::string_view variant) const {
  if (spec.variants.empty() || variant.empty()) return true;
  for (const std::string& v : spec.variants)
    if (v == variant) return true;
  return false;
}

const std::vector<ParamGroup>& allParamGroups() {
  static const std::vector<ParamGroup> groups = buildRegistry();
  return groups;
}

const ParamGroup& paramGroup(std::string_view name) {
  for (const ParamGroup& g : allParamGroups())
    if (g.name == name) return g;
  throw std::out_of_range("no parameter group '" + std::string(name) + "'");
}

}  // namespace frac
