#include "solvers/bdem/bdem_solver.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <stdexcept>

#include "core/bond_adjacency.h"
#include "core/rng.h"
#include "core/state_digest.h"
#include "geometry/packing.h"
#include "geometry/shapes.h"
#include "io/scene_error.h"
#include "solvers/bdem/bdem_stats.h"
#include "solvers/bdem/bdem_step.h"

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
  return k;
}

// Weibull-distributed strength factor with unit scale: sigma_c,bond = sigma_c * (-ln(1 - u))^(1/m) (Lu sec. 3.2).
float weibullFactor(float modulus, unsigned long long seed, uint64_t stream, uint64_t index) {
  if (modulus <= 0.0f) return 1.0f;
  const double u = uniform01(seed, stream, index);
  return float(std::pow(-std::log1p(-u), 1.0 / modulus));
}

std::string directoryOf(const std::string& path) {
  const std::filesystem::path p(path);
  return p.has_parent_path() ? p.parent_path().string() : std::string(".");
}

}  // namespace

void BdemSolver::initEmpty(const std::vector<MaterialDesc>& materials, const vec3& gravity, bool contact) {
  const bool onDevice = device_ != nullptr;
  device_.reset();
  *this = BdemSolver();
  if (onDevice) setBackend(Backend::Cuda);  // a rebuilt scene stays on the backend it was on
  materialDescs_ = materials;
  for (const MaterialDesc& m : materials) materials_.push_back(toKernelMaterial(m));
  params_.gravity = gravity;
  params_.contact = contact;
}

int BdemSolver::addElement(const vec3& position, float radius, int material, uint8_t flags) {
  return elements_.add(position, radius, materialDescs_.at(material).density, uint16_t(material), flags, -1);
}

void BdemSolver::addPlane(const vec3& point, const vec3& normal, int material) {
  planePoint_.push_back(point);
  planeNormal_.push_back(glm::normalize(normal));
  planeMaterial_.push_back(uint16_t(material));
}

int BdemSolver::addKinematicBody(const std::string& name, const std::vector<int32_t>& elementIds,
                                 const vec3& velocity, const vec3& angularVelocity, const vec3& centre) {
  KinematicBody body;
  body.name = name;
  body.centre = body.initialCentre = centre;
  body.velocity = velocity;
  body.angularVelocity = angularVelocity;
  body.elements = elementIds;
  const int index = int(kinematicBodies_.size());
  for (int e : elementIds) {
    elements_.flags[e] |= kFlagKinematic;
    elements_.invMass[e] = 0.0f;
    elements_.invInertia[e] = 0.0f;
    kinematicElement_.push_back(e);
    kinematicBodyOf_.push_back(index);
    kinematicOffset_.push_back(elements_.position[e] - centre);
  }
  kinematicBodies_.push_back(body);
  return index;
}

ElementState& BdemSolver::elements() {
  ensureHostCurrent();
  hostChanged();
  return elements_;
}

const ElementState& BdemSolver::elements() const {
  ensureHostCurrent();
  return elements_;
}

const BondSet& BdemSolver::bonds() const {
  ensureHostCurrent();
  return bonds_;
}

std::string BdemSolver::setBackend(Backend requested) {
  return switchBackend(
      device_, requested,
      [this] {
        ensureHostCurrent();
        listValid_ = false;  // the Verlet list was not kept up to date while the device stepped
      },
      [this] { uploadToDevice(); });
}

void BdemSolver::uploadToDevice() {
  device_->upload(views(), int(kinematicBodies_.size()), int(materials_.size()), fragmentMembers().data());
  deviceStale_ = false;
}

void BdemSolver::finishQueuedWork() {
  if (device_) device_->synchronize();
}

void BdemSolver::ensureHostCurrent() const {
  if (!hostStale_ || !device_) return;
  // Refreshing the host copy changes no state of the simulation, only where it is kept.
  BdemSolver* self = const_cast<BdemSolver*>(this);
  device_->download(self->views());
  hostStale_ = false;
}

const std::vector<float>& BdemSolver::stressRatios() {
  ensureHostCurrent();
  bdem::stressStage(exec_, views());
  return bonds_.stressRatio;
}

void BdemSolver::setMaterial(int m, const MaterialDesc& desc) {
  ensureHostCurrent();
  hostChanged();
  materialDescs_.at(m) = desc;
  materials_.at(m) = toKernelMaterial(desc);  // density is not live: masses were fixed when the bodies were built
  bdem::coefficientStage(exec_, views());
  computeStableDt();
}

uint64_t BdemSolver::stateDigest() const {
  ensureHostCurrent();
  StateDigest digest;
  digest.add(elements_.position);
  digest.add(elements_.velocity);
  digest.add(elements_.orientation);
  digest.add(elements_.angularVelocity);
  digest.add(bonds_.broken);
  return digest.value();
}

int BdemSolver::launchProjectile(const vec3& position, const vec3& velocity, float radius, int material,
                                 float density) {
  if (material < 0 || material >= int(materialDescs_.size())) throw std::invalid_argument("no such material");
  ensureHostCurrent();
  hostChanged();
  const int n = elements_.size();
  const float rho = density > 0.0f ? density : materialDescs_[material].density;
  const int e = elements_.add(position, radius, rho, uint16_t(material), kFlagLarge, -1);
  elements_.velocity[e] = velocity;
  large_.push_back(e);
  launchTime_.push_back(time_);
  launchVelocity_.push_back(velocity);
  // Per-element buffers grow by one entry; element e's data is appended at the end, so the others stay valid.
  bonds_.elementStart.push_back(bonds_.elementStart.back());  // no bonds
  for (int b = 0; b < 2; ++b) {
    contactPartner_[b].resize(size_t(n + 1) * contactSlots_, kNoPartner);
    contactSpring_[b].resize(size_t(n + 1) * contactSlots_, vec3(0.0f));
  }
  contactEnergy_.push_back(0.0f);
  initialPosition_.push_back(position);
  if (!neighborStart_.empty()) neighborStart_.push_back(neighborStart_.back());
  if (!listPosition_.empty()) listPosition_.push_back(position);
  computeStableDt();  // a light projectile pressing on one element may need a shorter step
  return e;
}

int BdemSolver::launchBreakableProjectile(const vec3& centre, const vec3& velocity, float radius,
                                          float elementRadius, int material, float density) {
  if (material < 0 || material >= int(materialDescs_.size())) throw std::invalid_argument("no such material");
  const std::vector<vec3> ball = packBall(centre, radius, elementRadius, Packing::Hcp);
  ensureHostCurrent();
  hostChanged();
  const float rho = density > 0.0f ? density : materialDescs_[material].density;
  const int32_t body = int32_t(bondedBody_.size());
  bondedBody_.push_back(1);
  const int first = elements_.size();
  for (const vec3& p : ball) {
    const int e = elements_.add(p, elementRadius, rho, uint16_t(material), 0, body);
    elements_.velocity[e] = velocity;
  }
  // Bonds between the touching new elements (the same rule as for the scene's bodies), the old bonds kept as they are.
  const std::vector<uint8_t> broken = bonds_.broken;
  const float reach = 2.0f * elementRadius * 1.01f;
  for (int i = first; i < elements_.size(); ++i)
    for (int j = i + 1; j < elements_.size(); ++j)
      if (length2(elements_.position[j] - elements_.position[i]) <= reach * reach) addBond(i, j, material);
  finalizeBonds();
  std::copy(broken.begin(), broken.end(), bonds_.broken.begin());
  // Rebuild the grid window, the contact buffers and the stable step for the larger scene; forces at this state.
  const std::vector<vec3> initial = initialPosition_;
  prepare();
  std::copy(initial.begin(), initial.end(), initialPosition_.begin());  // probes keep measuring from the start
  return elements_.size() - first;
}

void BdemSolver::addBond(int i, int j, int material) {
  if (i > j) std::swap(i, j);
  BondRest rest;
  const float length = directionAndLength(elements_.position[j] - elements_.position[i], rest.d0);
  rest.r0 = 0.5f * (elements_.radius[i] + elements_.radius[j]);
  // Eq. 2 gives l0 = r_i + r_j for touching elements; the measured distance is used so that float rounding of the
  // packed positions (and the contact tolerance of the bond search) leaves no pre-stress in a body at rest.
  rest.l0 = length;
  const MaterialDesc& m = materialDescs_.at(material);
  const float aniso = anisotropyFactor(m.anisotropy, m.grainDirection, rest.d0);  // eq. 30
  const uint64_t index = uint64_t(bonds_.first.size());
  bonds_.first.push_back(i);
  bonds_.second.push_back(j);
  bonds_.rest.push_back(rest);
  bonds_.stiffnessScale.push_back(aniso);
  bonds_.tensileScale.push_back(aniso * weibullFactor(m.weibullM, seed_, kStreamTensileStrength, index));
  bonds_.shearScale.push_back(aniso * weibullFactor(m.weibullM, seed_, kStreamShearStrength, index));
  bonds_.material.push_back(uint16_t(material));
}

void BdemSolver::finalizeBonds() {
  const long long nb = bonds_.size();
  const int n = elements_.size();
  bonds_.broken.assign(nb, 0);
  bonds_.coefficients.assign(nb, BondCoefficients{});
  bonds_.forceOnJ.assign(nb, vec3(0.0f));
  bonds_.torqueShared.assign(nb, vec3(0.0f));
  bonds_.torqueRelative.assign(nb, vec3(0.0f));
  bonds_.stressRatio.assign(nb, 0.0f);
  bonds_.exactPending.assign(nb, 0);
  BondAdjacency adjacency = buildBondAdjacency(n, bonds_.first, bonds_.second);
  bonds_.elementStart = std::move(adjacency.start);
  bonds_.elementEntry = std::move(adjacency.entry);
  bonds_.elementNeighbor = std::move(adjacency.neighbor);
}

// Bonds between touching elements of the same body (Algorithm 1 lines 2-4), found with the grid.
void BdemSolver::buildBondsWithinBodies(float tolerance) {
  std::vector<float> r(elements_.radius);
  float maxRadius = 0.0f;
  vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
  for (int i = 0; i < elements_.size(); ++i) {
    if (elements_.body[i] < 0) continue;
    maxRadius = std::max(maxRadius, r[i]);
    lo = glm::min(lo, elements_.position[i]);
    hi = glm::max(hi, elements_.position[i]);
  }
  if (maxRadius == 0.0f) return;
  UniformGrid grid;
  grid.setWindow(lo, hi, 2.0f * maxRadius * (1.0f + tolerance));
  std::vector<uint8_t> notBody(elements_.size());
  for (int i = 0; i < elements_.size(); ++i) notBody[i] = elements_.body[i] < 0 ? 1 : 0;
  grid.build(elements_.position.data(), r.data(), notBody.data(), 1, elements_.size());
  const GridView g = grid.view();
  for (int i = 0; i < elements_.size(); ++i) {
    if (notBody[i]) continue;
    std::vector<int> partners;
    g.forEachCandidate(elements_.position[i], [&](int j, const glm::vec4&) {
      if (j <= i || elements_.body[j] != elements_.body[i] || !bondedBody_[elements_.body[i]]) return;
      const float reach = (r[i] + r[j]) * (1.0f + tolerance);
      if (length2(elements_.position[j] - elements_.position[i]) <= reach * reach) partners.push_back(j);
    });
    std::sort(partners.begin(), partners.end());
    for (int j : partners) addBond(i, j, elements_.material[i]);
  }
}

void BdemSolver::load(const SceneDesc& scene, const SolverOptions& options) {
  initEmpty(scene.materials, scene.solver.gravity, scene.solver.contact);
  seed_ = scene.seed;
  exec_.threads = options.threads;
  const std::string baseDir = directoryOf(scene.path);
  auto materialOf = [&](const std::string& name, const std::string& where) {
    const int m = scene.materialIndex(name);
    if (m < 0) throw SceneError(scene.path + ": " + where + ": unknown material '" + name + "'");
    return m;
  };

  bondedBody_.clear();
  for (const BodyDesc& body : scene.bodies) bondedBody_.push_back(body.bonded);
  for (size_t b = 0; b < scene.bodies.size(); ++b) {
    const BodyDesc& body = scene.bodies[b];
    const int mat = materialOf(body.material, "/bodies/" + std::to_string(b) + "/material");
    const auto shape = makeShape(body.shape, baseDir);
    for (const vec3& local : packShape(*shape, body.elementRadius, body.packing)) {
      const vec3 arm = rotate(body.transform.orientation, local);
      const int e = elements_.add(body.transform.position + arm, body.elementRadius, materialDescs_[mat].density,
                                  uint16_t(mat), 0, int32_t(b));
      elements_.velocity[e] = body.velocity + glm::cross(body.angularVelocity, arm);
      elements_.angularVelocity[e] = body.angularVelocity;
    }
  }
  buildBondsWithinBodies(1e-3f);

  for (size_t k = 0; k < scene.kinematics.size(); ++k) {
    const KinematicDesc& kin = scene.kinematics[k];
    const int mat = materialOf(kin.material, "/kinematics/" + std::to_string(k) + "/material");
    const auto shape = makeShape(kin.shape, baseDir);
    std::vector<int32_t> ids;
    if (kin.grip) {  // take over the body elements inside the shape; their bonds stay
      for (int i = 0; i < elements_.size(); ++i) {
        if (elements_.body[i] < 0 || (elements_.flags[i] & kFlagKinematic)) continue;
        const vec3 local = rotate(conjugate(kin.transform.orientation), elements_.position[i] - kin.transform.position);
        if (shape->inside(local)) ids.push_back(i);
      }
    } else {
      for (const vec3& local : packShape(*shape, kin.elementRadius, kin.packing))
        ids.push_back(elements_.add(kin.transform.position + rotate(kin.transform.orientation, local),
                                    kin.elementRadius, materialDescs_[mat].density, uint16_t(mat), kFlagKinematic,
                                    -2 - int32_t(k)));
    }
    const int index = addKinematicBody(kin.name, ids, kin.velocity, kin.angularVelocity, kin.transform.position);
    kinematicBodies_[index].start = kin.start;
    kinematicBodies_[index].stop = kin.stop;
  }

  for (const ProjectileDesc& p : scene.projectiles) {
    const int mat = materialOf(p.material, "/projectiles/material");
    const int e = elements_.add(p.position, p.radius, materialDescs_[mat].density, uint16_t(mat), kFlagLarge, -1);
    elements_.velocity[e] = p.launchTime > 0.0f ? vec3(0.0f) : p.velocity;
    if (p.launchTime > 0.0f) elements_.flags[e] |= kFlagInactive;
    launchTime_.push_back(p.launchTime);
    launchVelocity_.push_back(p.velocity);
  }
  for (const PlaneDesc& plane : scene.planes)
    addPlane(plane.point, plane.normal, materialOf(plane.material, "/planes/material"));

  finalizeBonds();
  for (long long b = 0; b < bonds_.size(); ++b) {  // initial cracks of the bodies
    const int i = bonds_.first[b], j = bonds_.second[b], body = elements_.body[i];
    if (body >= 0 && scene.bodies[body].cutByCrack(elements_.position[i], elements_.position[j]))
      bonds_.broken[b] = kBondBroken;
  }
  prepare();
}

void BdemSolver::prepare() {
  hostChanged();
  const int n = elements_.size();
  if (bonds_.elementStart.size() != size_t(n + 1)) finalizeBonds();
  large_.clear();
  gridElements_.clear();
  float maxRadius = 0.0f;
  vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
  for (int i = 0; i < n; ++i) {
    if (elements_.flags[i] & kFlagLarge) {
      large_.push_back(i);
      continue;
    }
    gridElements_.push_back(i);
    maxRadius = std::max(maxRadius, elements_.radius[i]);
    lo = glm::min(lo, elements_.position[i]);
    hi = glm::max(hi, elements_.position[i]);
  }
  if (launchTime_.size() < large_.size()) {
    launchTime_.resize(large_.size(), 0.0);
    launchVelocity_.resize(large_.size(), vec3(0.0f));
  }
  if (gridElements_.empty()) {
    lo = hi = vec3(0.0f);
    maxRadius = 0.01f;
  }
  // A window around the scene with room for debris; elements beyond it are clamped to border cells. Cells hold
  // every pair within r_i + r_j + skin, the reach of the Verlet list.
  skin_ = 0.3f * maxRadius;
  const float cell = 2.0f * maxRadius + skin_;
  const vec3 margin = 0.5f * (hi - lo) + vec3(8.0f * cell);
  grid_.setWindow(lo - margin, hi + margin, cell, std::max<int64_t>(int64_t(8) * n, 1 << 16));
  // Spring slots per element: at most 2 / (1 - cos(theta)) spheres of radius r touch one of radius R without
  // overlapping, theta = asin(r / (R + r)) (14.9 for equal radii); plus planes, projectiles and room for overlap.
  float minRadius = maxRadius;
  for (int i : gridElements_) minRadius = std::min(minRadius, elements_.radius[i]);
  const double cosTheta = std::cos(std::asin(double(minRadius) / (double(maxRadius) + minRadius)));
  contactSlots_ = int(std::ceil(2.0 / (1.0 - cosTheta))) + 4 + int(planePoint_.size()) + int(large_.size());
  for (int b = 0; b < 2; ++b) {
    contactPartner_[b].assign(size_t(n) * contactSlots_, kNoPartner);
    contactSpring_[b].assign(size_t(n) * contactSlots_, vec3(0.0f));
  }
  contactEnergy_.assign(n, 0.0f);
  initialPosition_ = elements_.position;
  bodyCentre_.resize(kinematicBodies_.size());
  bodyOrientation_.resize(kinematicBodies_.size());
  bodyVelocity_.resize(kinematicBodies_.size());
  bodyAngularVelocity_.resize(kinematicBodies_.size());
  updateKinematicBodies(0.0);
  computeStableDt();
  // Forces at t = 0 so that the first half kick uses F(0) (Algorithm 1 line 6).
  listValid_ = false;
  refreshContactCandidates();
  BdemViews v = views();
  bdem::coefficientStage(exec_, v);
  bdem::kinematicStage(exec_, v);  // kinematic elements carry their prescribed velocity from t = 0
  BdemStepParams p = params_;
  p.dt = 0.0f;
  bdem::forceStage(exec_, v, p);
  contactBuffer_ ^= 1;
}

// Lu eq. 28: T = 2 / sqrt(lambda), lambda = k N / m with k = pi/2 E r (3D hexagonal packing) and N = 293,
// reduced for the bond dashpots by the classic damped central-difference factor.
void BdemSolver::computeStableDt() {
  double best = std::numeric_limits<double>::max();
  for (int i = 0; i < elements_.size(); ++i) {
    if (elements_.invMass[i] <= 0.0f || (elements_.flags[i] & kFlagLarge)) continue;
    const MaterialDesc& m = materialDescs_[elements_.material[i]];
    const double r = elements_.radius[i];
    const double stiffness = 0.5 * M_PI * m.young * (1.0 + m.anisotropy) * r;
    const double mass = 1.0 / elements_.invMass[i];
    // Explicit steps with a dashpot of ratio zeta are stable up to T (sqrt(1 + zeta^2) - zeta).
    const double zeta = m.damping;
    best = std::min(best, 2.0 / std::sqrt(stiffness * 293.0 / mass) * (std::sqrt(1.0 + zeta * zeta) - zeta));
  }
  for (int i : large_) {  // a projectile pressing on one element: k of that contact over the smaller mass
    for (const MaterialDesc& m : materialDescs_) {
      const double stiffness = 0.5 * M_PI * m.young * elements_.radius[i];
      best = std::min(best, 2.0 / std::sqrt(stiffness / (1.0 / std::max(elements_.invMass[i], 1e-30f))));
    }
  }
  stableDt_ = best == std::numeric_limits<double>::max() ? 1e-4 : best;
}

void BdemSolver::refreshContactCandidates() {
  const int n = elements_.size();
  // Bonds that broke since the last build turn their pair into a contact candidate: rebuild then too.
  const long long broken = bonds_.size() - std::count(bonds_.broken.begin(), bonds_.broken.end(), kBondIntact);
  if (listValid_ && broken == listBrokenCount_) {
    float moved2 = 0.0f;  // max is exact and order-free: the same answer for any split of the loop
    for (int i : gridElements_) moved2 = std::max(moved2, length2(elements_.position[i] - listPosition_[i]));
    if (4.0f * moved2 <= skin_ * skin_) return;
  }
  listBrokenCount_ = broken;
  grid_.build(elements_.position.data(), elements_.radius.data(), elements_.flags.data(), kFlagLarge | kFlagInactive,
              n);
  BdemViews v = views();
  v.grid = grid_.view();
  neighborStart_.assign(n + 1, 0);
  neighborList_.clear();
  for (int i = 0; i < n; ++i) {
    neighborStart_[i] = int32_t(neighborList_.size());
    if (elements_.flags[i] & (kFlagLarge | kFlagInactive)) continue;
    bdem::forEachListCandidate(v, i, [&](int j) { neighborList_.push_back(j); });
    // Contacts are summed in partner order on every backend (bdem::TouchingPartners): bit-identical CPU and CUDA.
    std::sort(neighborList_.begin() + neighborStart_[i], neighborList_.end());
  }
  neighborStart_[n] = int32_t(neighborList_.size());
  listPosition_ = elements_.position;
  listValid_ = true;
}

void BdemSolver::updateKinematicBodies(double dt) {
  for (size_t k = 0; k < kinematicBodies_.size(); ++k) {
    KinematicBody& body = kinematicBodies_[k];
    const bool active = time_ + 0.5 * dt >= body.start && time_ + 0.5 * dt < body.stop;
    const vec3 v = active ? body.velocity : vec3(0.0f), w = active ? body.angularVelocity : vec3(0.0f);
    body.centre += float(dt) * v;
    body.orientation = normalized(mul(fromRotationVector(w * float(dt)), body.orientation));
    bodyCentre_[k] = body.centre;
    bodyOrientation_[k] = body.orientation;
    bodyVelocity_[k] = v;
    bodyAngularVelocity_[k] = w;
  }
}

BdemViews BdemSolver::views() {
  BdemViews v;
  v.elements = elements_.view();
  BondView& b = v.bonds;
  b.count = int(bonds_.size());
  b.first = bonds_.first.data();
  b.second = bonds_.second.data();
  b.rest = bonds_.rest.data();
  b.stiffnessScale = bonds_.stiffnessScale.data();
  b.tensileScale = bonds_.tensileScale.data();
  b.shearScale = bonds_.shearScale.data();
  b.material = bonds_.material.data();
  b.broken = bonds_.broken.data();
  b.coefficients = bonds_.coefficients.data();
  b.forceOnJ = bonds_.forceOnJ.data();
  b.torqueShared = bonds_.torqueShared.data();
  b.torqueRelative = bonds_.torqueRelative.data();
  b.stressRatio = bonds_.stressRatio.data();
  b.exactPending = bonds_.exactPending.data();
  b.elementStart = bonds_.elementStart.data();
  b.elementEntry = bonds_.elementEntry.data();
  b.elementNeighbor = bonds_.elementNeighbor.data();
  v.planes = PlaneView{int(planePoint_.size()), planePoint_.data(), planeNormal_.data(), planeMaterial_.data()};
  const int prev = contactBuffer_, next = contactBuffer_ ^ 1;
  v.contacts = ContactView{contactSlots_,         contactPartner_[prev].data(), contactSpring_[prev].data(),
                           contactPartner_[next].data(), contactSpring_[next].data(), contactEnergy_.data()};
  v.kinematics = KinematicView{int(kinematicElement_.size()), kinematicElement_.data(), kinematicBodyOf_.data(),
                               kinematicOffset_.data(), bodyCentre_.data(), bodyOrientation_.data(),
                               bodyVelocity_.data(), bodyAngularVelocity_.data()};
  v.materials = materials_.data();
  v.largeCount = int(large_.size());
  v.large = large_.data();
  v.gridElements = gridElements_.data();
  v.gridElementCount = int(gridElements_.size());
  v.grid = grid_.view();
  v.listSkin = skin_;
  if (listValid_) {
    v.neighborStart = neighborStart_.data();
    v.neighborList = neighborList_.data();
  }
  return v;
}

// Projectiles whose launch time has come. Only the host changes flags, so they are current even while the device
// steps; the launch itself is a host edit.
void BdemSolver::launchDueProjectiles() {
  for (size_t k = 0; k < large_.size(); ++k) {
    const int e = large_[k];
    if ((elements_.flags[e] & kFlagInactive) && time_ >= launchTime_[k]) {
      ensureHostCurrent();
      hostChanged();
      elements_.flags[e] &= uint8_t(~kFlagInactive);
      elements_.velocity[e] = launchVelocity_[k];
    }
  }
}

void BdemSolver::stepOnDevice(double dt) {
  if (deviceStale_) uploadToDevice();
  updateKinematicBodies(dt);
  if (!kinematicBodies_.empty()) device_->uploadBodies(views().kinematics, int(kinematicBodies_.size()));
  device_->step(params_);
  contactBuffer_ ^= 1;  // the device swapped its spring buffers too (see BdemCuda::download)
  hostStale_ = true;
  time_ += dt;
  ++steps_;
}

void BdemSolver::step(double dt) {
  params_.dt = float(dt);
  launchDueProjectiles();
  if (device_) {
    stepOnDevice(dt);
    return;
  }
  BdemViews v = views();
  bdem::driftStage(exec_, v, params_);
  updateKinematicBodies(dt);
  bdem::kinematicStage(exec_, v);
  refreshContactCandidates();
  v = views();
  bdem::forceStage(exec_, v, params_);
  bdem::kickStage(exec_, v, params_);
  contactBuffer_ ^= 1;
  time_ += dt;
  ++steps_;
}

const std::vector<float>& BdemSolver::contactEnergies() const {
  ensureHostCurrent();
  return contactEnergy_;
}

SimStats BdemSolver::stats() const {
  SimStats s;
  s.time = time_;
  s.steps = steps_;
  s.elements = elements_.size();
  s.bonds = bonds_.size();
  StatsTerms sums;
  if (device_ && !deviceStale_) {
    sums = device_->stats();  // summed on the device: the state stays there
  } else {
    ensureHostCurrent();
    const int n = elements_.size();
    const std::vector<uint8_t> member = fragmentMembers();
    std::vector<int32_t> key(n);
    int32_t changed = 0;
    std::vector<StatsTerms> partial(kStatsChunks);
    const bdem::InstanceScratch scratch{member.data(), key.data(), &changed, nullptr};
    sums = bdem::elementStats(exec_, const_cast<BdemSolver*>(this)->views(), scratch, partial.data());
  }
  s.bondsBroken = sums.bondsBroken;
  s.bondsIntact = s.bonds - s.bondsBroken;
  s.kineticEnergy = sums.kineticEnergy;
  s.elasticEnergy = sums.elasticEnergy;
  s.fragments = int(sums.fragments);
  return s;
}

KinematicLoad BdemSolver::kinematicLoad(const std::string& name) const {
  ensureHostCurrent();
  for (const KinematicBody& body : kinematicBodies_) {
    if (body.name != name) continue;
    const float speed = glm::length(body.velocity);
    const vec3 dir = speed > 0.0f ? body.velocity / speed : vec3(0, -1, 0);
    vec3 total(0.0f);
    for (int e : body.elements) total += elements_.force[e];
    KinematicLoad load;
    load.initialCentre = body.initialCentre;
    load.direction = dir;
    load.displacement = glm::dot(body.centre - body.initialCentre, dir);
    load.force = -glm::dot(total, dir);  // the material pushes back against the motion
    return load;
  }
  throw std::invalid_argument("no kinematic body named '" + name + "'");
}

std::vector<int> BdemSolver::bodyElementsNearLine(const vec3& point, const vec3& direction, float radius) const {
  std::vector<int> found;
  for (int i = 0; i < elements_.size(); ++i) {
    if (elements_.body[i] < 0 || (elements_.flags[i] & kFlagKinematic)) continue;
    const vec3 d = initialPosition_[i] - point;
    if (length2(d - glm::dot(d, direction) * direction) <= radius * radius) found.push_back(i);
  }
  return found;
}

double BdemSolver::bodyExtent(const vec3& direction) const {
  double lo = 1e30, hi = -1e30;
  for (int i = 0; i < elements_.size(); ++i) {
    if (elements_.body[i] < 0 || (elements_.flags[i] & kFlagKinematic)) continue;
    const double x = glm::dot(initialPosition_[i], direction);
    lo = std::min(lo, x - elements_.radius[i]);
    hi = std::max(hi, x + elements_.radius[i]);
  }
  return hi > lo ? hi - lo : 0.0;
}

double BdemSolver::meanDisplacement(const std::vector<int>& ids, const vec3& direction) const {
  ensureHostCurrent();
  double sum = 0.0;
  for (int i : ids) sum += glm::dot(elements_.position[i] - initialPosition_[i], direction);
  return ids.empty() ? 0.0 : sum / double(ids.size());
}

}  // namespace frac
