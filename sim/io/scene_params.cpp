// The registry itself: one table per scene object, each line a spec bound to the struct member that holds it (the
// material's in scene_params_material.cpp). Adding a parameter = its line here + the member in io/scene_desc.h + its
// use; adding a solver method = a name in kSolverMethods (scene_params_lists.h).
#include "io/scene_params.h"

#include "core/param_builders.h"
#include "io/param_bind.h"
#include "io/scene_params_lists.h"

namespace frac {
namespace registry {
namespace {

using json = nlohmann::json;

ParamGroup sceneGroup() {
  using S = SceneDesc;
  return {"scene", "top level of a scene file", {
      bind(text("name", "", "scene title shown in the UI"), &S::name),
      bind(text("description", "", "what the scene demonstrates"), &S::description),
      bind(integer("seed", "1", 0, 1e18, 1, "random seed (Weibull strength scatter)"), &S::seed),
      bind(integer("frames", "1", 1, 1e7, 120, "number of frames to simulate"), &S::frames),
      bind(live(number("fps", "1/s", 1, 1e6, 60, "frames per simulated second")), &S::fps),
      nested("solver", ParamType::Object, "solver", "time integration settings"),
      nested("materials", ParamType::Map, "material", "named materials: name -> material"),
      nested("bodies", ParamType::List, "body", "breakable bodies filled with bonded elements"),
      nested("kinematics", ParamType::List, "kinematic", "rigid bodies on prescribed paths"),
      nested("projectiles", ParamType::List, "projectile", "single-element projectiles"),
      nested("planes", ParamType::List, "plane", "infinite static planes"),
      nested("probes", ParamType::List, "probe", "measurements recorded during the run"),
      nested("camera", ParamType::Object, "camera", "initial view"),
  }, ""};
}

ParamGroup solverGroup() {
  using S = SolverDesc;
  return {"solver", "time integration", {
      bind(choice("method", kSolverMethods, "bdem", "simulation method"), &S::method),
      bind(live(aboveMin(numberOrAuto(number("dt", "s", 0, 1, "auto",
           "time step; \"auto\" = the method's critical step (Lu eq. 28, Silling-Askari) times safety")))), &S::dt),
      bind(live(number("safety", "1", 0.01, 1, 0.5, "fraction of the critical time step used when dt is \"auto\"")),
           &S::safety),
      bind(number("stiffness_scale", "1", 1e-9, 1, 1,
                  "softer for faster steps with the same look: stresses x s, speeds x sqrt(s), times / sqrt(s), "
                  "gravity x s (a similarity transform of the scene, docs/materials.md); 1 = as written"),
           &S::stiffnessScale),
      bind(live(integer("substeps", "1", 0, 1e6, 0, "steps per frame; 0 = derived from dt and fps")), &S::substeps),
      bind(live(integer("max_steps_per_frame", "1", 1, 1e9, 1e6,
           "a dt (given or auto) that needs more steps per frame at the scene's fps is refused with the reason, "
           "never replaced")), &S::maxStepsPerFrame),
      bind(live(vector3("gravity", "m/s^2", -1e4, 1e4, json::array({0, -9.81, 0}), "gravitational acceleration")),
           &S::gravity),
      bind(forMethods(boolean("contact", true, "collide elements that are not bonded"), kBdemFamily), &S::contact),
      bind(live(integer("threads", "1", 0, 1024, 0, "CPU threads; 0 = all cores")), &S::threads),
      bind(forMethods(number("horizon_factor", "1", 1, 8, 3,
           "pd-bond: horizon delta = factor x lattice spacing (Levine's N; bonds to every particle within delta)"),
           kPeridynamics), &S::horizonFactor),
      bind(forMethods(choice("pd_contact", "levine",
           "pd-bond: short-range contact between particles: Levine eq. 6, LAMMPS peri/pmb's, or none"), kPeridynamics),
           &S::pdContact, {{"levine", PdContact::Levine}, {"lammps", PdContact::Lammps}, {"off", PdContact::Off}}),
      bind(forMethods(live(number("pd_contact_stiffness", "Pa", 0, 1e25, 1e8, "pd-bond: K_c of Levine eq. 6")),
           kPeridynamics), &S::pdContactStiffness),
      bind(forMethods(live(number("floor_restitution", "1", 0, 1, 0.99,
           "pd-bond: share of the normal velocity a particle keeps when it bounces off a plane (Levine: 0.99)")),
           kPeridynamics), &S::floorRestitution),
      bind(forMethods(choice("strengthening", "levine",
           "pd-bond: compression strengthening of eq. 5: s0 - alpha min(0, s_min) (levine) or s0 - alpha s_min "
           "(lammps)"), kPdBond),
           &S::strengthening, {{"levine", PdStrengthening::Levine}, {"lammps", PdStrengthening::Lammps}}),
      bind(forMethods(live(number("pd_damping", "1/s", 0, 1e9, 0,
           "pd-bond, pd-state: velocity damping c (force density -rho c v); 0 = none (dynamic relaxation)")),
           kPeridynamics), &S::pdDamping),
      bind(forMethods(choice("bond_removal", "levine",
           "pd-bond: a bond that breaks carries no force from that step on (levine) or still in it (lammps)"), kPdBond),
           &S::bondRemoval, {{"levine", PdBondRemoval::Levine}, {"lammps", PdBondRemoval::Lammps}}),
      bind(forMethods(boolean("partial_volume", true,
           "pd-bond: scale the volume of particles near the horizon (LAMMPS peri/pmb's linear correction)"),
           kPeridynamics), &S::partialVolume),
      bind(forMethods(boolean("surface_correction", true,
           "pd-bond, pd-state: scale the bonds within a horizon of a surface so that the skin stores a particle's "
           "energy inside (Madenci & Oterkus' energy method; Levine, Chen and LAMMPS have none)"), kPeridynamics),
           &S::surfaceCorrection),
      bind(forMethods(live(choice("integration", "implicit",
           "rbdem: implicit Euler as energy minimisation (Zhang Algorithm 1) or explicit velocity Verlet (Ours_exp)")),
           kRbdem), &S::integration, {{"implicit", RodIntegration::Implicit}, {"explicit", RodIntegration::Explicit}}),
      bind(forMethods(live(number("implicit_step", "1", 1, 1e4, 100,
           "rbdem implicit: the step dt \"auto\" takes, in explicit steps (Lu eq. 28; times safety). The CG's "
           "iterations grow with it: at 10 an implicit step costs about what the ten explicit ones do, at 100 the "
           "interactive scenes run 1.5x explicit BDEM's rate with the same pieces")), kRbdem), &S::implicitStep),
      bind(forMethods(live(number("timoshenko_kappa", "1", 0.1, 1, 5.0 / 6.0,
           "rbdem: Timoshenko shear correction kappa of Zhang eq. 17 (effective shear area kappa S; 1 = explicit BDEM's "
           "response)")), kRbdem), &S::timoshenkoKappa),
      bind(forMethods(live(aboveMin(numberOrAuto(number("contact_stiffness", "Pa", 0, 1e13, "auto",
           "rbdem: k_c of the log-barrier contact (Zhang eq. 30); \"auto\" = a tenth of the largest Young's modulus")))),
           kRbdem), &S::contactStiffness),
      bind(forMethods(live(aboveMin(number("pcg_tolerance", "1", 0, 1, 2e-5,
           "rbdem: the CG stops when the preconditioned residual fell by this factor (Zhang: 2e-5)"))), kRbdem),
           &S::pcgTolerance),
      bind(forMethods(live(integer("pcg_max_iterations", "1", 1, 1e5, 500, "rbdem: iteration cap of the CG")), kRbdem),
           &S::pcgMaxIterations),
      bind(forMethods(live(choice("pcg_preconditioner", "block",
           "rbdem: the CG's preconditioner: each element's 7x7 block of the Hessian inverted (block: position and "
           "rotation together, 25-45% fewer iterations where bonds have broken and contacts press), its diagonal "
           "(jacobi, Zhang's), or the blocks plus an exact solve for the rigid motions of up to 64 aggregates of "
           "elements (two_level: long intact bodies, a beam's bending)")), kRbdem), &S::pcgPreconditioner,
           {{"block", RodPreconditioner::Block}, {"jacobi", RodPreconditioner::Jacobi},
            {"two_level", RodPreconditioner::TwoLevel}}),
      bind(forMethods(live(choice("fracture_criterion", "bond",
           "rbdem: bond stresses against the material strengths (Zhang eq. 24-25) or the hydrostatic stress of each "
           "element (eq. 32, Hertzian cones in glass)")), kRbdem), &S::rodFracture,
           {{"bond", RodFracture::Bond}, {"hydrostatic", RodFracture::Hydrostatic}}),
      bind(forMethods(live(number("hydrostatic_strength", "Pa", 1, 1e12, 4e6,
           "rbdem: tensile hydrostatic stress at which all bonds of an element break (Zhang eq. 32: 4e6 for silica "
           "glass)")), kRbdem), &S::hydrostaticStrength),
      bind(forMethods(live(number("viscosity_quadratic", "1", 0, 10, 1.5,
           "fem-debris: alpha1 of Zhang eq. 14, the artificial viscosity's quadratic term (shocks)")), kFem),
           &S::viscosityQuadratic),
      bind(forMethods(live(number("viscosity_linear", "1", 0, 10, 0.06,
           "fem-debris: alpha2 of Zhang eq. 14, its linear term (times the sound speed)")), kFem), &S::viscosityLinear),
      bind(live(choice("backend", "auto",
           "where the steps run: cuda = the GPU, cpu = OpenMP threads, auto = CUDA when a device is usable")),
           &S::backend, kBackendNames),
  }, ""};
}

// A group of a struct T with a placed shape (BodyDesc, KinematicDesc): the keys they share, then T's own.
// `velocity`, `angularVelocity`: what the velocities mean for T.
template <class T>
ParamGroup placedShapeGroup(std::string name, std::string description, std::string velocity,
                            std::string angularVelocity, std::vector<ParamSpec> own) {
  using P = PlacedShapeDesc;
  ParamGroup g{name, std::move(description), {
      bind<T>(text("name", "", "display name; default " + name + "<index>"), &P::name),
      required(nested("shape", ParamType::Object, "shape", "geometry in the local frame, filled with elements")),
      bind<T>(vector3("position", "m", -kMaxLength, kMaxLength, json::array({0, 0, 0}), "origin of the local frame"),
              &P::transform, &Transform::position),
      bind<T>(vector3("rotation", "deg", -3600, 3600, json::array({0, 0, 0}),
              "Euler angles applied about x, then y, then z (q = qz qy qx)"), &P::transform, &Transform::orientation),
      bind<T>(required(number("element_radius", "m", 1e-5, 10, nullptr,
              "radius of the spheres the shape is filled with")), &P::elementRadius),
      bind<T>(choice("packing", "hcp", "element packing: hexagonal close packing, simple cubic, or random close packing (bdem, rbdem)"),
              &P::packing, {{"hcp", Packing::Hcp}, {"cubic", Packing::SimpleCubic}, {"random", Packing::Random}}),
      bind<T>(required(text("material", nullptr, "name of an entry of 'materials'")), &P::material),
      bind<T>(vector3("velocity", "m/s", -kMaxSpeed, kMaxSpeed, json::array({0, 0, 0}), std::move(velocity)),
              &P::velocity),
      bind<T>(vector3("angular_velocity", "rad/s", -kMaxSpeed, kMaxSpeed, json::array({0, 0, 0}),
              std::move(angularVelocity)), &P::angularVelocity),
  }, ""};
  for (ParamSpec& s : own) g.params.push_back(std::move(s));
  return g;
}

ParamGroup bodyGroup() {
  using B = BodyDesc;
  return placedShapeGroup<B>("body", "breakable body: a shape filled with bonded elements", "initial velocity",
                             "initial angular velocity about the body's origin", {
      bind(boolean("bonded", true, "bond touching elements (false: a granular body of loose grains)"), &B::bonded),
      nested("cracks", ParamType::List, "crack", "initial cracks: bonds crossing these rectangles start broken"),
  });
}

ParamGroup kinematicGroup() {
  using K = KinematicDesc;
  return placedShapeGroup<K>("kinematic", "rigid body moved on a prescribed path (support, indenter, blade, grip)",
                             "velocity while active", "angular velocity about 'position' while active", {
      bind(number("start", "s", 0, kBig, 0, "time the motion starts"), &K::start),
      bind(number("stop", "s", 0, kBig, kBig, "time the motion stops"), &K::stop),
      bind(boolean("grip", false, "take over the body elements inside the shape (keeping their bonds)"), &K::grip),
      bind(choice("hold", "pose",
           "what the kinematic prescribes of its elements: 'pose' = position and orientation (a clamp), 'position' = "
           "position only, each element turning under its bonds' torques (a pin), 'roller_x' (_y, _z) = a pin whose "
           "elements also move freely along that world axis, 'axial_x' (_y, _z) = a pin whose elements follow it along "
           "that axis only and move freely across it (a tension test's frictionless grips: the ends contract) (only "
           "bdem's and rbdem's elements turn: particles and nodes carry no rotation, so there a clamp is a pin)"),
           &K::hold, {{"pose", KinematicHold::Pose}, {"position", KinematicHold::Position},
                      {"roller_x", KinematicHold::RollerX}, {"roller_y", KinematicHold::RollerY},
                      {"roller_z", KinematicHold::RollerZ}, {"axial_x", KinematicHold::AxialX},
                      {"axial_y", KinematicHold::AxialY}, {"axial_z", KinematicHold::AxialZ}}),
  });
}

ParamGroup shapeGroup() {
  using S = ShapeDesc;
  return {"shape", "geometry; 'type' selects which keys apply", {
      bind(required(choice("type", nullptr, "kind of shape")), &S::type,
           {{"box", ShapeType::Box}, {"sphere", ShapeType::Sphere}, {"cylinder", ShapeType::Cylinder},
            {"capsule", ShapeType::Capsule}, {"revolve", ShapeType::Revolve}, {"mesh", ShapeType::Mesh}}),
      bind(required(onlyFor(vector3("size", "m", kMinLength, kMaxLength, nullptr, "full edge lengths"), {"box"})),
           &S::size),
      bind(required(onlyFor(number("radius", "m", kMinLength, kMaxLength, nullptr, "radius"),
                            {"sphere", "cylinder", "capsule"})), &S::radius),
      bind(required(onlyFor(number("height", "m", kMinLength, kMaxLength, nullptr,
                                   "length along the local y axis (capsule: without the caps)"),
                            {"cylinder", "capsule"})), &S::height),
      bind(required(onlyFor(withType(number("profile", "m", 0, kMaxLength, nullptr,
                                            "closed profile of [r, y] points revolved around the local y axis"),
                                     ParamType::Profile),
                            {"revolve"})), &S::profile),
      bind(onlyFor(number("wall", "m", 0, kMaxLength, 0, "> 0 keeps only a shell of this thickness; 0 = solid"),
                   {"revolve"}), &S::wall),
      bind(required(onlyFor(text("file", nullptr, "closed OBJ mesh, relative to the scene file's folder"), {"mesh"})),
           &S::meshPath),
      bind(onlyFor(aboveMin(number("scale", "1", 0, 1e6, 1, "uniform scale applied to the mesh coordinates")),
                   {"mesh"}), &S::meshScale),
  }, "type"};
}

ParamGroup projectileGroup() {
  using P = ProjectileDesc;
  return {"projectile", "single-element projectile", {
      bind(text("name", "", "display name; default projectile<index>"), &P::name),
      bind(required(number("radius", "m", kMinLength, kMaxLength, nullptr, "radius of the projectile")), &P::radius),
      bind(required(text("material", nullptr, "name of an entry of 'materials'")), &P::material),
      bind(vector3("position", "m", -kMaxLength, kMaxLength, json::array({0, 0, 0}), "start position"), &P::position),
      bind(vector3("velocity", "m/s", -kMaxSpeed, kMaxSpeed, json::array({0, 0, 0}), "launch velocity"), &P::velocity),
      bind(number("launch_time", "s", 0, kBig, 0, "time of launch; before it the projectile waits out of contact"),
           &P::launchTime),
      bind(forMethods(choice("force_model", "levine",
           "pd-bond (projectiles move at constant velocity): Levine eq. 7, or LAMMPS fix indent K (R - r)^2"),
           kPeridynamics), &P::forceModel,
           {{"levine", PdProjectileModel::Levine}, {"indenter", PdProjectileModel::Indenter}}),
      bind(forMethods(number("force_constant", "Pa", 0, 1e30, 1e15,
           "pd-bond: K_S of Levine eq. 7 (N/m^2), or K of the indenter (N/m^5 on force densities)"), kPeridynamics),
           &P::forceConstant),
      bind(forMethods(boolean("dynamic", false,
           "pd-bond, pd-state: the projectile feels the reaction of the particles it pushes (its mass from its "
           "material's density) instead of moving at constant velocity"), kPeridynamics), &P::dynamic),
  }, ""};
}

ParamGroup crackGroup() {
  using C = CrackDesc;
  return {"crack", "an initial crack: the rectangle origin + a edge_u + b edge_v, a and b in [0, 1]", {
      bind(required(vector3("origin", "m", -kMaxLength, kMaxLength, nullptr, "a corner of the rectangle (world)")),
           &C::origin),
      bind(required(vector3("edge_u", "m", -kMaxLength, kMaxLength, nullptr, "first edge from the corner")),
           &C::edgeU),
      bind(required(vector3("edge_v", "m", -kMaxLength, kMaxLength, nullptr,
                            "second edge, perpendicular to the first")), &C::edgeV),
  }, ""};
}

ParamGroup planeGroup() {
  using P = PlaneDesc;
  return {"plane", "infinite static plane", {
      bind(vector3("point", "m", -kMaxLength, kMaxLength, json::array({0, 0, 0}), "a point on the plane"), &P::point),
      bind(direction(vector3("normal", "1", -1e6, 1e6, json::array({0, 1, 0}), "outward normal, normalised on load")),
           &P::normal),
      bind(required(text("material", nullptr, "name of an entry of 'materials'")), &P::material),
  }, ""};
}

ParamGroup probeGroup() {
  using P = ProbeDesc;
  const std::vector<std::string> bending = {"three_point_bending"}, point = {"point_history"},
                                 history = {"point_history", "reaction"};
  return {"probe", "measurement; 'type' selects which keys apply", {
      bind(required(choice("type", nullptr, "what to measure")), &P::type,
           {{"three_point_bending", ProbeType::ThreePointBending}, {"energy", ProbeType::Energy},
            {"point_history", ProbeType::PointHistory}, {"reaction", ProbeType::Reaction},
            {"uniaxial", ProbeType::Uniaxial}, {"cone", ProbeType::Cone}}),
      bind(required(onlyFor(text("name", nullptr, "its columns' prefix in history.csv (letters, digits, _ and -)"),
                            history)), &P::name),
      bind(required(onlyFor(vector3("point", "m", -kMaxLength, kMaxLength, nullptr,
                                    "start position: the body element nearest it is followed"), point)), &P::point),
      bind(onlyFor(text("fields", "displacement,velocity",
                        "comma-separated: displacement, and any per-element array of the method by its name"),
                   point), &P::fields),
      bind(onlyFor(integer("every", "steps", 1, 1e9, 1, "a row of history.csv every this many steps"), history),
           &P::every),
      bind(required(onlyFor(text("kinematic", nullptr, "name of the kinematic (or grip) whose load is read"),
                            {"reaction", "uniaxial"})), &P::kinematic),
      bind(required(onlyFor(aboveMin(number("gauge_length", "m", 0, kMaxLength, nullptr,
                                            "distance between the two gauge cross-sections about the bar's middle")),
                            {"uniaxial"})), &P::gaugeLength),
      bind(required(onlyFor(text("indenter", nullptr, "name of the kinematic that pushes the beam"), bending)),
           &P::indenter),
      bind(onlyFor(text("supports", "",
                        "comma-separated names of the kinematics (or grips) the beam rests on: the deflection is then "
                        "the mid-span section's net of the sections over them, as a yoke on the supports measures it "
                        "(ASTM C1609), free of their settlement; empty: the mid-span section's own"), bending),
           &P::supports),
      bind(required(onlyFor(aboveMin(number("span", "m", 0, kMaxLength, nullptr, "support distance l (Lu eq. 29)")),
                            bending)), &P::span),
      bind(required(onlyFor(aboveMin(number("width", "m", 0, kMaxLength, nullptr, "beam width b (Lu eq. 29)")),
                            bending)), &P::width),
      bind(required(onlyFor(aboveMin(number("height", "m", 0, kMaxLength, nullptr, "beam height h (Lu eq. 29)")),
                            bending)), &P::height),
      bind(onlyFor(number("fit_fraction", "1", 0.25, 1, 0.6,
                          "stiffness slope fitted up to this fraction of the peak force"),
                   {"three_point_bending", "uniaxial"}), &P::fitFraction),
      bind(onlyFor(choice("section", "cells",
                          "what the stress is taken over: the cells of the specimen's lattice (HCP layers 1.63 r "
                          "apart fill less than the spheres reach: the section the calibration uses) or the spheres' "
                          "extent (its outer dimensions, as the papers measured their beams)"),
                   {"three_point_bending", "uniaxial"}), &P::section,
           {{"cells", ProbeSection::Cells}, {"spheres", ProbeSection::Spheres}}),
      bind(onlyFor(number("ligament", "m", 0, kMaxLength, 0,
                          "notched beam: depth of the uncut section above the notch; > 0 reports the fracture energy "
                          "(work of fracture over b x ligament)"), bending), &P::ligament),
      bind(onlyFor(number("ligament_area", "m^2", 0, kMaxLength * kMaxLength, 0,
                          "notched bar: the uncut section's area at the notch; > 0 reports the fracture energy "
                          "(work of fracture over it, RILEM TC 162-TDF) and the peak load over it"), {"uniaxial"}),
           &P::ligamentArea),
      bind(required(onlyFor(vector3("apex", "m", -kMaxLength, kMaxLength, nullptr,
                                    "the indentation's first contact point on the surface"), {"cone"})), &P::apex),
      bind(onlyFor(direction(vector3("axis", "1", -1e6, 1e6, json::array({0, -1, 0}),
                                     "the direction into the body below the apex")), {"cone"}), &P::axis),
      bind(onlyFor(number("poisson", "1", 0, 0.5, 0,
                          "> 0: also E_timoshenko, eq. 29's E with the beam's shear deflection for this Poisson's ratio"),
                   bending), &P::poisson),
  }, "type"};
}

ParamGroup cameraGroup() {
  using C = CameraDesc;
  return {"camera", "initial view", {
      bind(vector3("eye", "m", -kMaxLength, kMaxLength, json::array({0.6, 0.4, 0.8}), "camera position"), &C::eye),
      bind(vector3("target", "m", -kMaxLength, kMaxLength, json::array({0.0, 0.1, 0.0}), "point looked at"),
           &C::target),
      bind(number("fov", "deg", 5, 150, 45, "vertical field of view"), &C::fovDeg),
  }, ""};
}

// Not scene keys: the window's render and throw settings, declared here so that their panels, like the others, are
// built from the registry. Unbound: the app reads them as JSON.
std::vector<ParamGroup> windowGroups() {
  return {
      {"render", "how the elements are drawn", {
          live(choice("color_mode", kColorModes, "material", "colour by material, bond stress ratio (Lu eq. 17-18), "
                                                             "damage, fragment or speed")),
          live(boolean("auto_range", true, "speed colours span 0 .. the frame's top speed")),
          live(number("range_min", "1", 0, 1e6, 0, "scalar at the low end of the colour map (stress, damage, speed)")),
          live(number("range_max", "1", 0, 1e6, 1, "scalar at the high end of the colour map")),
          live(boolean("bonds", false, "draw bond lines: intact blue, broken red")),
          live(number("element_scale", "1", 0.05, 1, 1, "drawn radius / element radius (shrink to see bonds)")),
          live(boolean("shadows", true, "key-light shadow map")),
          live(choice("draw", kDrawModes, "spheres", "what shows the bodies: their elements as spheres, their fracture "
                                                     "surfaces (closed meshes, crack faces in the interior colour) or both")),
          live(number("surface_cell_size", "1", 0.5, 4, 1, "surfaces: grid cell edge in element radii (smaller is finer "
                                                           "and slower)")),
          live(boolean("clip", false, "cross-section: cut away what lies beyond the clipping plane (elements whose centre "
                                      "is beyond it, the surfaces' parts beyond it)")),
          live(direction(vector3("clip_normal", "1", -1, 1, json::array({0, 0, 1}),
                                 "clipping plane normal, pointing into the half that is cut away"))),
          live(number("clip_offset", "m", -kMaxLength, kMaxLength, 0,
                      "clipping plane: its signed distance from the origin along the normal")),
      }, ""},
      {"throw", "the ball a left-drag throws", {
          live(number("radius", "m", 1e-4, 1, 0.012, "ball radius")),
          live(number("density", "kg/m^3", 0, 1e5, 0, "ball density; 0 = its material's")),
          live(number("speed_scale", "m/s/px", 1e-3, 1, 0.05, "launch speed per pixel of drag")),
          live(boolean("breakable", false, "a ball of bonded elements that breaks too, instead of one rigid element")),
          live(number("element_radius", "m", 1e-4, 0.1, 0.003, "breakable ball: radius of its elements")),
      }, ""},
  };
}

std::vector<ParamGroup> buildRegistry() {
  std::vector<ParamGroup> groups = {sceneGroup(),      solverGroup(), materialGroup(), bodyGroup(),
                                    kinematicGroup(),  shapeGroup(),  projectileGroup(), crackGroup(),
                                    planeGroup(),      probeGroup(),  cameraGroup()};
  for (ParamGroup& g : windowGroups()) groups.push_back(std::move(g));
  return groups;
}

}  // namespace
}  // namespace registry

const std::vector<ParamGroup>& allParamGroups() {
  static const std::vector<ParamGroup> groups = registry::buildRegistry();
  return groups;
}

template <>
SceneDesc defaultsOf<SceneDesc>() {
  SceneDesc scene = boundDefaults<SceneDesc>();
  scene.solver = defaultsOf<SolverDesc>();
  scene.camera = defaultsOf<CameraDesc>();
  return scene;
}

namespace {

template <class T>
void copyLive(const T& from, T& to) {
  for (const ParamSpec& spec : paramGroup(kGroupOf<T>).params)
    if (spec.liveEditable && spec.binding) spec.binding.copyMember(from, to);
}

}  // namespace

void copyLiveSettings(const SceneDesc& fresh, SceneDesc& current) {
  copyLive(fresh, current);
  copyLive(fresh.solver, current.solver);
  for (size_t m = 0; m < fresh.materials.size() && m < current.materials.size(); ++m)
    copyLive(fresh.materials[m], current.materials[m]);
}

}  // namespace frac
