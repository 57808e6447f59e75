// BdemSolver: building elements, bonds, kinematic bodies, planes and projectiles from a scene or by hand, and the
// state at t = 0 (prepare).
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/bond_adjacency.h"
#include "core/bounds.h"
#include "core/rng.h"
#include "geometry/packing.h"
#include "geometry/random_packing.h"
#include "geometry/shapes.h"
#include "io/scene_error.h"
#include "kernels/bdem_contact.h"
#include "solvers/bdem/bdem_solver.h"
#include "solvers/solver_common.h"

namespace frac {
namespace {

BdemMaterial toKernelMaterial(const MaterialDesc& m) {
  BdemMaterial k;
  k.young = m.young;
  k.shear = m.shear;
  k.tensileStrength = m.tensileStrength;
  k.shearStrength = m.shearStrength;
  k.friction = m.friction;
  k.bondDamping = m.damping;
  k.contactDamping = dampingRatioForRestitution(m.restitution);
  k.fractureEnergy = m.softening == BondSoftening::Linear ? m.fractureEnergy : 0.0f;
  return k;
}

bool anySoftening(const std::vector<BdemMaterial>& materials) {
  return std::any_of(materials.begin(), materials.end(), [](const BdemMaterial& m) { return m.fractureEnergy > 0.0f; });
}

}  // namespace

void BdemSolver::initEmpty(const std::vector<MaterialDesc>& materials, const vec3& gravity, bool contact) {
  const bool onDevice = arrays_.onDevice();
  arrays_.dropDevice();
  *this = BdemSolver();
  if (onDevice) setBackend(Backend::Cuda);  // a rebuilt scene stays on the backend it was on
  materialDescs_ = materials;
  BdemArrays& a = arrays_.edit();
  for (const MaterialDesc& m : materials) a.materials.push_back(toKernelMaterial(m));
  params_.softening = anySoftening(a.materials);
  params_.gravity = gravity;
  params_.contact = contact;
}

void BdemSolver::setMaterial(int m, const MaterialDesc& desc) {
  BdemArrays& a = arrays_.edit();
  materialDescs_.at(m) = desc;
  a.materials.at(m) = toKernelMaterial(desc);  // density is not live: masses were fixed when the bodies were built
  params_.softening = anySoftening(a.materials);
  bdem::coefficientStage(exec_, hostViews(a));
  computeStableDt();
}

int BdemSolver::addElement(const vec3& position, float radius, int material, uint8_t flags) {
  return arrays_.edit().elements.add(position, radius, materialDescs_.at(material).density, uint16_t(material), flags,
                                     -1);
}

void BdemSolver::addPlane(const vec3& point, const vec3& normal, int material) {
  BdemPlaneArrays& planes = arrays_.edit().planes;
  planes.point.push_back(point);
  planes.normal.push_back(glm::normalize(normal));
  planes.material.push_back(uint16_t(material));
}

int BdemSolver::addKinematicBody(const std::string& name, const std::vector<int32_t>& elementIds,
                                 const vec3& velocity, const vec3& angularVelocity, const vec3& centre,
                                 KinematicHold hold) {
  BdemArrays& a = arrays_.edit();
  KinematicBody body;
  body.name = name;
  body.centre = body.initialCentre = centre;
  body.velocity = velocity;
  body.angularVelocity = angularVelocity;
  body.elements = elementIds;
  const int index = int(kinematicBodies_.size());
  for (int e : elementIds) {
    a.elements.flags[e] |= kFlagKinematic;
    // A clamp's elements have infinite mass and inertia (Lu sec. 5.2); a pin's keep the sphere's inertia
    // (BdemElementArrays::add) and a roller's or an axial grip's its mass too, for the axes it slides along.
    const int axes = slideAxes(hold);
    if (hold == KinematicHold::Pose) {
      a.elements.invMass[e] = a.elements.invInertia[e] = 0.0f;
    } else if (axes == 0) {  // a pin
      a.elements.invMass[e] = 0.0f;
      a.elements.flags[e] |= kFlagTurns;
    } else {
      a.elements.flags[e] |= uint8_t(kFlagTurns | kFlagSlideX * axes);  // kFlagSlideX << axis per free axis
    }
    a.kinematics.element.push_back(e);
    a.kinematics.body.push_back(index);
    a.kinematics.offset.push_back(a.elements.position[e] - centre);
  }
  kinematicBodies_.push_back(body);
  return index;
}

void BdemSolver::addBond(int i, int j, int material, int64_t drawIndex) {
  if (i > j) std::swap(i, j);
  BdemArrays& a = arrays_.edit();
  BondRest rest;
  const float length = directionAndLength(a.elements.position[j] - a.elements.position[i], rest.d0);
  rest.r0 = 0.5f * (a.elements.radius[i] + a.elements.radius[j]);
  // Eq. 2 gives l0 = r_i + r_j for touching elements; the measured distance is used so that float rounding of the
  // packed positions (and the contact tolerance of the bond search) leaves no pre-stress in a body at rest.
  rest.l0 = length;
  const MaterialDesc& m = materialDescs_.at(material);
  const float aniso = anisotropyFactor(m.anisotropy, m.grainDirection, rest.d0);  // eq. 30
  BdemBondArrays& bonds = a.bonds;
  const uint64_t index = strengthDrawIndex(m.weibullCell, 0.5f * (a.elements.position[i] + a.elements.position[j]),
                                          uint64_t(drawIndex >= 0 ? drawIndex : int64_t(bonds.first.size())));
  bonds.first.push_back(i);
  bonds.second.push_back(j);
  bonds.rest.push_back(rest);
  bonds.stiffnessScale.push_back(aniso);
  bonds.tensileScale.push_back(aniso * weibullFactor(m.weibullM, seed_, kStreamTensileStrength, index));
  bonds.shearScale.push_back(aniso * weibullFactor(m.weibullM, seed_, kStreamShearStrength, index));
  bonds.material.push_back(uint16_t(material));
}

void BdemSolver::finalizeBonds() {
  BdemArrays& a = arrays_.edit();
  BdemBondArrays& bonds = a.bonds;
  const long long nb = bonds.size();
  bonds.broken.assign(nb, 0);
  bonds.peakRatio.assign(nb, 0.0f);
  bonds.ductility.assign(nb, 0.0f);
  bonds.coefficients.assign(nb, BondCoefficients{});
  bonds.forceOnJ.assign(nb, vec3(0.0f));
  bonds.torqueShared.assign(nb, vec3(0.0f));
  bonds.torqueRelative.assign(nb, vec3(0.0f));
  bonds.stressRatio.assign(nb, 0.0f);
  bonds.exactPending.assign(nb, 0);
  BondAdjacency adjacency = buildBondAdjacency(a.elements.size(), bonds.first, bonds.second);
  bonds.elementStart = std::move(adjacency.start);
  bonds.elementEntry = std::move(adjacency.entry);
  bonds.elementNeighbor = std::move(adjacency.neighbor);
}

// Bonds between touching elements of the same body (Algorithm 1 lines 2-4), found with the grid; "touching" within
// bodyGap[body] of r_i + r_j. packedRank[i]: element i's place in the bodies' packShape lists, one after another.
// The bonds are numbered for their Weibull draws (strengthDrawIndex) as packShape's order lists them, each element's
// partners of higher rank in rank order, and stored by their lower element in the solver's order (longAxisOrder):
// the draws, and so the calibrated strengths, do not depend on how the solver lists the elements.
void BdemSolver::buildBondsWithinBodies(const std::vector<float>& bodyGap, const std::vector<int32_t>& packedRank) {
  const BdemElementArrays& e = arrays_.edit().elements;
  const std::vector<float>& r = e.radius;
  auto inBody = [&](int i) { return e.body[i] >= 0; };
  float maxRadius = 0.0f;
  for (int i = 0; i < e.size(); ++i)
    if (inBody(i)) maxRadius = std::max(maxRadius, r[i]);
  if (maxRadius == 0.0f) return;
  const float tolerance = *std::max_element(bodyGap.begin(), bodyGap.end());
  const Bounds box = boundsOf(0, e.size(), [&](int i) { return e.position[i]; }, inBody);
  UniformGrid grid;
  grid.setWindow(box.lo, box.hi, 2.0f * maxRadius * (1.0f + tolerance));
  std::vector<uint8_t> notBody(e.size());
  for (int i = 0; i < e.size(); ++i) notBody[i] = inBody(i) ? 0 : 1;
  grid.build(e.position.data(), r.data(), notBody.data(), 1, e.size());
  const GridView g = grid.view();
  std::vector<int32_t> byRank(e.size());
  for (int i = 0; i < e.size(); ++i) byRank[size_t(packedRank[size_t(i)])] = i;
  struct Pending {
    int lower, higher;  // in the solver's order
    int material;
    int64_t draw;
  };
  std::vector<Pending> pending;
  std::vector<int> partners;
  const int64_t firstDraw = arrays_.read().bonds.size();
  for (const int32_t i : byRank) {
    if (notBody[i]) continue;
    partners.clear();
    g.forEachCandidate(e.position[i], [&](int j, const glm::vec4&) {
      if (packedRank[j] <= packedRank[i] || e.body[j] != e.body[i] || !bondedBody_[e.body[i]]) return;
      const float reach = (r[i] + r[j]) * (1.0f + bodyGap[e.body[i]]);
      if (length2(e.position[j] - e.position[i]) <= reach * reach) partners.push_back(j);
    });
    std::sort(partners.begin(), partners.end(), [&](int x, int y) { return packedRank[x] < packedRank[y]; });
    for (int j : partners)
      pending.push_back({std::min(i, j), std::max(i, j), e.material[i], firstDraw + int64_t(pending.size())});
  }
  std::sort(pending.begin(), pending.end(), [](const Pending& x, const Pending& y) {
    return x.lower != y.lower ? x.lower < y.lower : x.higher < y.higher;
  });
  for (const Pending& bond : pending) addBond(bond.lower, bond.higher, bond.material, bond.draw);
}

void BdemSolver::load(const SceneDesc& scene, const SolverOptions& options) {
  initEmpty(scene.materials, scene.solver.gravity, scene.solver.contact);
  seed_ = scene.seed;
  exec_.threads = options.threads;
  const std::string baseDir = sceneDirectory(scene);
  BdemArrays& a = arrays_.edit();
  BdemElementArrays& e = a.elements;

  bondedBody_.clear();
  for (const BodyDesc& body : scene.bodies) bondedBody_.push_back(body.bonded);
  referenceCell_ = referenceCell(scene);
  std::vector<int32_t> packedRank;  // each element's place in the bodies' packShape lists (buildBondsWithinBodies)
  for (size_t b = 0; b < scene.bodies.size(); ++b) {
    const BodyDesc& body = scene.bodies[b];
    const int mat = sceneMaterial(scene, body.material, "/bodies/" + std::to_string(b) + "/material");
    const auto shape = makeShape(body.shape, baseDir);
    const std::vector<vec3> packed = packShape(*shape, body.elementRadius, body.packing);
    const int32_t bodyFirst = int32_t(packedRank.size());
    for (const int32_t k : longAxisOrder(packed, body.elementRadius, body.packing)) {
      packedRank.push_back(bodyFirst + k);
      const vec3& local = packed[size_t(k)];
      const vec3 arm = rotate(body.transform.orientation, local);
      const int i = e.add(body.transform.position + arm, body.elementRadius, materialDescs_[mat].density,
                          uint16_t(mat), 0, int32_t(b));
      e.velocity[i] = body.velocity + glm::cross(body.angularVelocity, arm);
      e.angularVelocity[i] = body.angularVelocity;
      samples_.addElement(*shape, body.transform, e.position[i], body.elementRadius);
    }
  }
  // A lattice's neighbours touch up to rounding; a random packing's are bonded across small gaps.
  std::vector<float> bodyGap;
  for (const BodyDesc& body : scene.bodies)
    bodyGap.push_back(body.packing == Packing::Random ? kRandomPackingBondGap : 1e-3f);
  buildBondsWithinBodies(bodyGap, packedRank);

  for (size_t k = 0; k < scene.kinematics.size(); ++k) {
    const KinematicDesc& kin = scene.kinematics[k];
    const int mat = sceneMaterial(scene, kin.material, "/kinematics/" + std::to_string(k) + "/material");
    const auto shape = makeShape(kin.shape, baseDir);
    std::vector<int32_t> ids;
    if (kin.grip) {  // take over the body elements inside the shape; their bonds stay
      for (int i = 0; i < e.size(); ++i) {
        if (e.body[i] < 0 || (e.flags[i] & kFlagKinematic)) continue;
        if (placedShapeContains(kin, *shape, e.position[i])) ids.push_back(i);
      }
    } else {
      for (const vec3& local : packShape(*shape, kin.elementRadius, kin.packing))
        ids.push_back(e.add(kin.transform.position + rotate(kin.transform.orientation, local), kin.elementRadius,
                            materialDescs_[mat].density, uint16_t(mat), kFlagKinematic, -2 - int32_t(k)));
    }
    const int index =
        addKinematicBody(kin.name, ids, kin.velocity, kin.angularVelocity, kin.transform.position, kin.hold);
    kinematicBodies_[index].start = kin.start;
    kinematicBodies_[index].stop = kin.stop;
  }

  for (const ProjectileDesc& p : scene.projectiles) {
    const int mat = sceneMaterial(scene, p.material, "/projectiles/material");
    const int i = e.add(p.position, p.radius, materialDescs_[mat].density, uint16_t(mat), kFlagProjectile, -1);
    e.velocity[i] = p.launchTime > 0.0f ? vec3(0.0f) : p.velocity;
    if (p.launchTime > 0.0f) e.flags[i] |= kFlagInactive;
    launchTime_.push_back(p.launchTime);
    launchVelocity_.push_back(p.velocity);
  }
  for (const PlaneDesc& plane : scene.planes)
    addPlane(plane.point, plane.normal, sceneMaterial(scene, plane.material, "/planes/material"));

  finalizeBonds();
  for (long long b = 0; b < a.bonds.size(); ++b) {  // initial cracks of the bodies
    const int i = a.bonds.first[b], j = a.bonds.second[b], body = e.body[i];
    if (body >= 0 && scene.bodies[body].cutByCrack(e.position[i], e.position[j])) a.bonds.broken[b] = kBondBroken;
  }
  prepare();
}

void BdemSolver::prepare() {
  BdemArrays& a = arrays_.edit();
  BdemElementArrays& e = a.elements;
  const int n = e.size();
  if (a.bonds.elementStart.size() != size_t(n + 1)) finalizeBonds();
  while (samples_.elements() < n) samples_.addEmpty();  // kinematic, projectile and hand-made elements
  a.sampleStart = samples_.start;
  a.samplePoint = samples_.point;
  a.sampleNormal = samples_.normal;
  a.projectiles.clear();
  a.gridElements.clear();
  float maxRadius = 0.0f;
  for (int i = 0; i < n; ++i) {
    e.fragmentMember[i] = e.body[i] >= 0 && !(e.flags[i] & kFlagKinematic);
    if (e.flags[i] & kFlagProjectile) {
      a.projectiles.push_back(i);
      continue;
    }
    a.gridElements.push_back(i);
    maxRadius = std::max(maxRadius, e.radius[i]);
  }
  Bounds box = boundsOf(0, n, [&](int i) { return e.position[i]; },
                        [&](int i) { return !(e.flags[i] & kFlagProjectile); });
  a.projectilePartials.assign(a.projectiles.size() * kProjectileChunks, ProjectilePartial{});
  if (launchTime_.size() < a.projectiles.size()) {
    launchTime_.resize(a.projectiles.size(), 0.0);
    launchVelocity_.resize(a.projectiles.size(), vec3(0.0f));
  }
  if (a.gridElements.empty()) {
    box = Bounds{vec3(0.0f), vec3(0.0f)};
    maxRadius = 0.01f;
  }
  // A window around the scene with room for debris; elements beyond it are clamped to border cells. Cells hold
  // every pair within r_i + r_j + skin, the reach of the Verlet list.
  a.listSkin = 0.3f * maxRadius;
  a.listReach = maxRadius + a.listSkin;
  const float cell = 2.0f * maxRadius + a.listSkin;
  const vec3 margin = 0.5f * (box.hi - box.lo) + vec3(8.0f * cell);
  grid_.setWindow(box.lo - margin, box.hi + margin, cell, std::max<int64_t>(int64_t(8) * n, 1 << 16));
  // Spring slots per element: at most 2 / (1 - cos(theta)) spheres of radius r touch one of radius R without
  // overlapping, theta = asin(r / (R + r)) (14.9 for equal radii); plus planes, projectiles and room for overlap.
  float minRadius = maxRadius;
  for (int i : a.gridElements) minRadius = std::min(minRadius, e.radius[i]);
  const double cosTheta = std::cos(std::asin(double(minRadius) / (double(maxRadius) + minRadius)));
  BdemContactArrays& c = a.contacts;
  c.slots = int(std::ceil(2.0 / (1.0 - cosTheta))) + 4 + int(a.planes.point.size()) + int(a.projectiles.size());
  for (auto* partner : {&c.previousPartner, &c.nextPartner}) partner->assign(size_t(n) * c.slots, kNoPartner);
  for (auto* spring : {&c.previousSpring, &c.nextSpring}) spring->assign(size_t(n) * c.slots, vec3(0.0f));
  c.energy.assign(n, 0.0f);
  initialPosition_ = e.position;
  rebuildReference();
  BdemKinematicArrays& k = a.kinematics;
  for (auto* v : {&k.bodyCentre, &k.bodyCentreLow, &k.bodyVelocity, &k.bodyAngularVelocity})
    v->resize(kinematicBodies_.size());
  k.bodyOrientation.resize(kinematicBodies_.size());
  updateKinematicBodies(a, 0.0);
  computeStableDt();
  // Forces at t = 0 so that the first half kick uses F(0) (Algorithm 1 line 6).
  listValid_ = false;
  refreshContactCandidates(a);
  BdemViews v = hostViews(a);
  v.grid = grid_.view();
  bdem::coefficientStage(exec_, v);
  bdem::kinematicStage(exec_, v);  // kinematic elements carry their prescribed velocity from t = 0
  BdemStepParams p = params_;
  p.dt = 0.0f;
  bdem::forceStage(exec_, v, p);
  std::swap(c.previousPartner, c.nextPartner);
  std::swap(c.previousSpring, c.nextSpring);
}

// The body elements at their initial positions, for the probes.
void BdemSolver::rebuildReference() {
  const BdemElementArrays& e = arrays_.layout().elements;
  reference_ = ReferenceElements{};
  reference_.cell = referenceCell_;
  for (int i = 0; i < e.size(); ++i)
    if (e.fragmentMember[i]) reference_.add(i, initialPosition_[i], e.radius[i]);
}

// Lu eq. 28: T = 2 / sqrt(lambda), lambda = k N / m with k = pi/2 E r (3D hexagonal packing) and N = 293,
// reduced for the bond dashpots by the classic damped central-difference factor.
void BdemSolver::computeStableDt() {
  const BdemArrays& a = arrays_.layout();
  const BdemElementArrays& e = a.elements;
  double best = std::numeric_limits<double>::max();
  for (int i = 0; i < e.size(); ++i) {
    if (e.invMass[i] <= 0.0f || (e.flags[i] & kFlagProjectile)) continue;
    const MaterialDesc& m = materialDescs_[e.material[i]];
    const double r = e.radius[i];
    const double stiffness = 0.5 * M_PI * m.young * (1.0 + m.anisotropy) * r;
    const double mass = 1.0 / e.invMass[i];
    // Explicit steps with a dashpot of ratio zeta are stable up to T (sqrt(1 + zeta^2) - zeta).
    const double zeta = m.damping;
    best = std::min(best, 2.0 / std::sqrt(stiffness * 293.0 / mass) * (std::sqrt(1.0 + zeta * zeta) - zeta));
  }
  // A projectile in contact with an element, a plane or another projectile: the linear spring-dashpot of
  // kernels/bdem_contact.h (k = pi/2 E r, the restitution's damping ratio zeta) over the projectile's mass. Explicit
  // steps are stable up to 2/omega (sqrt(1 + zeta^2) - zeta), but a bounce at that step lasts two steps and gains
  // energy (a lone steel ball dropped at it came back with 2.5x the energy it hit with): kContactResolution of it
  // gives about 16 steps per contact (pi / omega), enough for the bounce to keep e^2 of its energy.
  constexpr double kContactResolution = 0.1;
  for (int i : a.projectiles) {
    for (const MaterialDesc& m : materialDescs_) {
      const double stiffness = 0.5 * M_PI * m.young * e.radius[i];
      const double zeta = dampingRatioForRestitution(m.restitution);
      const double limit = 2.0 / std::sqrt(stiffness / (1.0 / std::max(e.invMass[i], 1e-30f)));
      best = std::min(best, kContactResolution * limit * (std::sqrt(1.0 + zeta * zeta) - zeta));
    }
  }
  stableDt_ = best == std::numeric_limits<double>::max() ? 1e-4 : best;
}

int BdemSolver::launchProjectile(const vec3& position, const vec3& velocity, float radius, int material,
                                 float density) {
  const float rho = throwDensity(materialDescs_, material, density);
  BdemArrays& a = arrays_.edit();
  const int n = a.elements.size();
  const int e = a.elements.add(position, radius, rho, uint16_t(material), kFlagProjectile, -1);
  a.elements.velocity[e] = velocity;
  a.projectiles.push_back(e);
  a.projectilePartials.resize(a.projectiles.size() * kProjectileChunks, ProjectilePartial{});
  launchTime_.push_back(time_);
  launchVelocity_.push_back(velocity);
  // Per-element buffers grow by one entry; element e's data is appended at the end, so the others stay valid.
  a.bonds.elementStart.push_back(a.bonds.elementStart.back());  // no bonds
  samples_.addEmpty();
  a.sampleStart = samples_.start;
  BdemContactArrays& c = a.contacts;
  for (auto* partner : {&c.previousPartner, &c.nextPartner}) partner->resize(size_t(n + 1) * c.slots, kNoPartner);
  for (auto* spring : {&c.previousSpring, &c.nextSpring}) spring->resize(size_t(n + 1) * c.slots, vec3(0.0f));
  c.energy.push_back(0.0f);
  initialPosition_.push_back(position);
  if (!a.neighborStart.empty()) a.neighborStart.push_back(a.neighborStart.back());
  if (!listPosition_.empty()) listPosition_.push_back(position);
  computeStableDt();  // a light projectile pressing on one element may need a shorter step
  return e;
}

int BdemSolver::launchBreakableProjectile(const vec3& centre, const vec3& velocity, float radius,
                                          float elementRadius, int material, float density) {
  const float rho = throwDensity(materialDescs_, material, density);
  const std::vector<vec3> ball = packBall(centre, radius, elementRadius, Packing::Hcp);
  BdemArrays& a = arrays_.edit();
  const int32_t body = int32_t(bondedBody_.size());
  bondedBody_.push_back(1);
  const int first = a.elements.size();
  while (samples_.elements() < first) samples_.addEmpty();
  ShapeDesc sphere;
  sphere.type = ShapeType::Sphere;
  sphere.radius = radius;
  const auto shape = makeShape(sphere, "");
  const Transform placement{centre, quat(1, 0, 0, 0)};
  for (const vec3& p : ball) {
    const int e = a.elements.add(p, elementRadius, rho, uint16_t(material), 0, body);
    a.elements.velocity[e] = velocity;
    samples_.addElement(*shape, placement, p, elementRadius);
  }
  // Bonds between the touching new elements (the same rule as for the scene's bodies), the old bonds kept as they are.
  const std::vector<uint8_t> broken = a.bonds.broken;
  const float reach = 2.0f * elementRadius * 1.01f;
  for (int i = first; i < a.elements.size(); ++i)
    for (int j = i + 1; j < a.elements.size(); ++j)
      if (length2(a.elements.position[j] - a.elements.position[i]) <= reach * reach) addBond(i, j, material);
  finalizeBonds();
  std::copy(broken.begin(), broken.end(), a.bonds.broken.begin());
  // Rebuild the grid window, the contact buffers and the stable step for the larger scene; forces at this state.
  const std::vector<vec3> initial = initialPosition_;
  prepare();
  std::copy(initial.begin(), initial.end(), initialPosition_.begin());  // probes keep measuring from the start
  rebuildReference();
  return a.elements.size() - first;
}

}  // namespace frac
