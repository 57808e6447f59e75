#include "solvers/pd_bond/pd_bond_solver.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <stdexcept>

#include "analysis/damage.h"
#include "core/bond_adjacency.h"
#include "core/rng.h"
#include "core/state_digest.h"
#include "geometry/packing.h"
#include "geometry/shapes.h"
#include "io/scene_error.h"
#include "kernels/pd_state.h"
#include "solvers/pd_bond/pd_bond_step.h"
#include "solvers/pd_bond/pd_stats.h"

namespace frac {
namespace {

// Standard normal draw for (seed, bond) by Box-Muller over two counter-based uniforms.
double normalDraw(unsigned long long seed, uint64_t index) {
  const double u1 = uniform01(seed, kStreamCriticalStretch, 2 * index);
  const double u2 = uniform01(seed, kStreamCriticalStretch, 2 * index + 1);
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
}

// Volume a particle stands for: the lattice cell of its packing with spacing 2r.
float latticeVolume(float radius, Packing packing) {
  const double r = radius;
  return float(packing == Packing::SimpleCubic ? 8.0 * r * r * r : 4.0 * std::sqrt(2.0) * r * r * r);
}

PdProjectileModel projectileModel(const std::string& name) {
  return name == "indenter" ? PdProjectileModel::Indenter : PdProjectileModel::Levine;
}

}  // namespace

void PeridynamicsSolver::load(const SceneDesc& scene, const SolverOptions& options) {
  const bool onDevice = device_ != nullptr;
  device_.reset();
  *this = PeridynamicsSolver(model_);
  if (onDevice) setBackend(Backend::Cuda);  // a reloaded scene stays on the backend it was on
  seed_ = scene.seed;
  exec_.threads = options.threads;
  exec_.minParallel = 64;  // a particle gathers a whole family: worth a thread from a few dozen particles on
  materialDescs_ = scene.materials;
  horizonFactor_ = scene.solver.horizonFactor;
  partialVolume_ = scene.solver.partialVolume;
  params_.gravity = scene.solver.gravity;
  params_.contact = scene.solver.pdContact == "off"      ? PdContact::Off
                    : scene.solver.pdContact == "lammps" ? PdContact::Lammps
                                                         : PdContact::Levine;
  params_.contactStiffness = scene.solver.pdContactStiffness;
  params_.restitution = scene.solver.floorRestitution;
  params_.lammpsStrengthening = scene.solver.strengthening == "lammps";
  params_.model = model_;
  params_.forceInBreakingStep = scene.solver.bondRemoval == "lammps";
  params_.damping = scene.solver.pdDamping;
  const std::filesystem::path scenePath(scene.path);
  const std::string baseDir = scenePath.has_parent_path() ? scenePath.parent_path().string() : ".";
  auto materialOf = [&](const std::string& name, const std::string& where) {
    const int m = scene.materialIndex(name);
    if (m < 0) throw SceneError(scene.path + ": " + where + ": unknown material '" + name + "'");
    return m;
  };
  for (size_t k = 0; k < scene.kinematics.size(); ++k)
    if (!scene.kinematics[k].grip || scene.kinematics[k].angularVelocity != vec3(0.0f))
      throw SceneError(scene.path + ": /kinematics/" + std::to_string(k) +
                       ": peridynamics takes kinematics as grips only: expected \"grip\": true and no angular_velocity");
  // The lattice spacing lambda is the smallest of the bodies' (Levine: the minimum inter-particle distance).
  float spacing = 0.0f;
  for (const BodyDesc& body : scene.bodies)
    spacing = spacing == 0.0f ? 2.0f * body.elementRadius : std::min(spacing, 2.0f * body.elementRadius);
  params_.spacing = spacing > 0.0f ? spacing : 1e-3f;
  params_.horizon = horizonFactor_ * params_.spacing;
  for (size_t b = 0; b < scene.bodies.size(); ++b) {
    const BodyDesc& body = scene.bodies[b];
    const int mat = materialOf(body.material, "/bodies/" + std::to_string(b) + "/material");
    std::vector<vec3> world;
    for (const vec3& local : packShape(*makeShape(body.shape, baseDir), body.elementRadius, body.packing))
      world.push_back(body.transform.position + rotate(body.transform.orientation, local));
    const int first = addParticles(world, body.elementRadius, mat, materialDescs_[mat].density, int32_t(b),
                                   body.velocity);
    for (int i = first; i < particleCount(); ++i) {
      volume_[i] = latticeVolume(body.elementRadius, body.packing);
      velocity_[i] = body.velocity + glm::cross(body.angularVelocity, reference_[i] - body.transform.position);
    }
  }
  buildFamilies(0);
  for (long long b = 0; b < bonds_.size(); ++b) {  // initial cracks of the bodies
    const int i = bonds_.first[b], j = bonds_.second[b];
    if (scene.bodies[body_[i]].cutByCrack(reference_[i], reference_[j])) bonds_.broken[b] = 1;
  }
  for (size_t k = 0; k < scene.kinematics.size(); ++k) {  // grips take over the particles inside their shape
    const KinematicDesc& kin = scene.kinematics[k];
    const auto shape = makeShape(kin.shape, baseDir);
    drivenBy_.resize(particleCount(), -1);
    for (int i = 0; i < particleCount(); ++i) {
      const vec3 local = rotate(conjugate(kin.transform.orientation), reference_[i] - kin.transform.position);
      if (drivenBy_[i] < 0 && shape->inside(local)) drivenBy_[i] = int16_t(k);
    }
    grips_.push_back(Grip{kin.name, kin.velocity, kin.transform.position, kin.transform.position, kin.start, kin.stop});
  }
  driveVelocity_.assign(grips_.size(), vec3(0.0f));
  updateGrips(0.0);
  for (const ProjectileDesc& p : scene.projectiles) {
    projectileCentre_.push_back(p.position);
    projectileVelocity_.push_back(p.velocity);
    projectileRadius_.push_back(p.radius);
    projectileConstant_.push_back(p.forceConstant);
    projectileModel_.push_back(projectileModel(p.forceModel));
    projectileActive_.push_back(p.launchTime <= 0.0f);
    projectileLaunch_.push_back(p.launchTime);
    projectileMaterial_.push_back(uint16_t(materialOf(p.material, "/projectiles/material")));
    const float volume = 4.0f / 3.0f * kPi * p.radius * p.radius * p.radius;
    projectileMass_.push_back(p.dynamic ? volume * materialDescs_[projectileMaterial_.back()].density : 0.0f);
  }
  if (!scene.projectiles.empty()) {
    throwConstant_ = scene.projectiles.front().forceConstant;
    throwModel_ = projectileModel(scene.projectiles.front().forceModel);
  }
  for (const PlaneDesc& plane : scene.planes) {
    planePoint_.push_back(plane.point);
    planeNormal_.push_back(glm::normalize(plane.normal));
    planeMaterial_.push_back(uint16_t(materialOf(plane.material, "/planes/material")));
  }
  refreshMaterials();
  computeForces();  // F(0) for the first half kick
}

int PeridynamicsSolver::addParticles(const std::vector<vec3>& positions, float radius, int material, float density,
                               int32_t body, const vec3& velocity) {
  const int first = particleCount();
  for (const vec3& x : positions) {
    reference_.push_back(x);
    displacement_.push_back(vec3(0.0f));
    velocity_.push_back(velocity);
    forceDensity_.push_back(vec3(0.0f));
    volume_.push_back(latticeVolume(radius, Packing::SimpleCubic));
    density_.push_back(density);
    thresholdShift_.push_back(0.0f);
    nextThresholdShift_.push_back(0.0f);
    particleRadius_.push_back(radius);
    material_.push_back(uint16_t(material));
    body_.push_back(body);
    if (!drivenBy_.empty()) drivenBy_.push_back(-1);
    if (!externalForce_.empty()) externalForce_.push_back(vec3(0.0f));
  }
  return first;
}

// Families (Levine sec. 4 preprocessing): every pair of particles of the same body within the horizon delta
// (a relative 1e-5 more, so lattice sites exactly at delta are in whatever the rounding), found with a grid of
// cells delta. Bonds are numbered in (first, second) order.
void PeridynamicsSolver::buildFamilies(int firstParticle) {
  const int n = particleCount();
  const float delta = params_.horizon, reach = delta * (1.0f + 1e-5f);
  vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
  for (int i = firstParticle; i < n; ++i) {
    lo = glm::min(lo, reference_[i]);
    hi = glm::max(hi, reference_[i]);
  }
  if (n > firstParticle) {
    UniformGrid grid;
    grid.setWindow(lo, hi, reach, std::max<int64_t>(int64_t(4) * (n - firstParticle), 1 << 16));
    std::vector<uint8_t> exclude(n, 0);
    for (int i = 0; i < firstParticle; ++i) exclude[i] = 1;
    std::vector<float> zero(n, 0.0f);
    grid.build(reference_.data(), zero.data(), exclude.data(), 1, n);
    const GridView g = grid.view();
    std::vector<int32_t> partners;
    for (int i = firstParticle; i < n; ++i) {
      partners.clear();
      g.forEachCandidate(reference_[i], [&](int j, const glm::vec4&) {
        if (j <= i || body_[j] != body_[i]) return;
        if (length2(reference_[j] - reference_[i]) <= reach * reach) partners.push_back(j);
      });
      std::sort(partners.begin(), partners.end());
      for (int j : partners) {
        const uint64_t index = uint64_t(bonds_.first.size());
        const float length = std::sqrt(length2(reference_[j] - reference_[i]));
        bonds_.first.push_back(i);
        bonds_.second.push_back(j);
        bonds_.xiLength.push_back(length);
        bonds_.beta.push_back(partialVolume_ ? pmbPartialVolume(length, delta, params_.spacing) : 1.0f);
        const float scatter = materialDescs_[material_[i]].stretchScatter;
        bonds_.thresholdScale.push_back(scatter > 0.0f ? float(std::max(0.0, 1.0 + scatter * normalDraw(seed_, index)))
                                                       : 1.0f);
      }
    }
  }
  finalizeBonds();
}

void PeridynamicsSolver::finalizeBonds() {
  const long long nb = bonds_.size();
  if (2 * nb + 1 > std::numeric_limits<int32_t>::max())
    throw SceneError("solver.horizon_factor: " + std::to_string(nb) + " bonds are more than this build indexes (" +
                     std::to_string(std::numeric_limits<int32_t>::max() / 2) +
                     "): expected a smaller horizon_factor or fewer particles");
  const int n = particleCount();
  bonds_.broken.resize(nb, 0);
  bonds_.stretch.resize(nb, 0.0f);
  BondAdjacency adjacency = buildBondAdjacency(n, bonds_.first, bonds_.second);
  bonds_.particleStart = std::move(adjacency.start);
  bonds_.particleEntry = std::move(adjacency.entry);
  bonds_.particleNeighbor = std::move(adjacency.neighbor);
  // Sliced family slots: each group of kSlotGroup particles gets a block as long as its largest family.
  const int groups = (n + kSlotGroup - 1) / kSlotGroup;
  std::vector<long long> start(size_t(groups) + 1, 0);
  for (int g = 0; g < groups; ++g) {
    int largest = 0;
    for (int i = g * kSlotGroup; i < std::min(n, (g + 1) * kSlotGroup); ++i)
      largest = std::max(largest, bonds_.particleStart[i + 1] - bonds_.particleStart[i]);
    start[g + 1] = start[g] + (long long)largest * kSlotGroup;
  }
  if (start[groups] > std::numeric_limits<int32_t>::max())
    throw SceneError("solver.horizon_factor: " + std::to_string(start[groups]) + " family slots are more than this " +
                     "build indexes: expected a smaller horizon_factor or fewer particles");
  bonds_.groupStart.assign(start.begin(), start.end());
  PdBondView slots;
  slots.groupStart = bonds_.groupStart.data();
  bonds_.slotOfFirst.assign(nb, 0);
  bonds_.slotOfSecond.assign(nb, 0);
  for (int i = 0; i < n; ++i)
    for (int k = bonds_.particleStart[i]; k < bonds_.particleStart[i + 1]; ++k) {
      const int32_t entry = bonds_.particleEntry[k];
      ((entry & 1) ? bonds_.slotOfSecond : bonds_.slotOfFirst)[entry >> 1] =
          familySlot(slots, i, k - bonds_.particleStart[i]);
    }
  prepareSlotStorage();
  if (model_ == PdModel::State) computeStateSetup();
}

void PeridynamicsSolver::prepareSlotStorage() {
  const size_t slots = bonds_.groupStart.empty() ? 0 : size_t(bonds_.groupStart.back());
  if (familyPassOnCpu_) {
    bonds_.slot = {};
    buildFamilyBonds(bonds_.familyBond, bonds_.endBroken);
  } else {
    bonds_.familyBond = {};
    bonds_.endBroken = {};
    bonds_.slot.assign(slots, FamilySlot{vec3(0.0f), 0.0f});
  }
}

// Each entry's bond constants at its slot, and both ends' broken flags from the bond's. Unused slots keep neighbour
// -1 (a family pass never reads them).
void PeridynamicsSolver::buildFamilyBonds(std::vector<FamilyBond>& constants, std::vector<uint8_t>& endBroken) const {
  const size_t slots = bonds_.groupStart.empty() ? 0 : size_t(bonds_.groupStart.back());
  constants.assign(slots, FamilyBond{-1, 0.0f, 0.0f, 0.0f});
  endBroken.assign(slots, 0);
  for (long long b = 0; b < bonds_.size(); ++b) {
    const float xiLength = bonds_.xiLength[b], beta = bonds_.beta[b], scale = bonds_.thresholdScale[b];
    constants[bonds_.slotOfFirst[b]] = FamilyBond{bonds_.second[b], xiLength, beta, scale};
    constants[bonds_.slotOfSecond[b]] = FamilyBond{bonds_.first[b], xiLength, beta, scale};
    endBroken[bonds_.slotOfFirst[b]] = endBroken[bonds_.slotOfSecond[b]] = bonds_.broken[b];
  }
}

void PeridynamicsSolver::setFamilyPass(bool onCpu) {
  ensureHostCurrent();
  hostChanged();
  familyPassOnCpu_ = onCpu && model_ == PdModel::Bond;
  prepareSlotStorage();
}

// pd-state: the influence of every bond end (eq. 5, or eq. 17 with the material's anisotropy matrix G = diag) and
// each particle's weighted volume m_i = sum_j omega |xi|^2 beta V_j over its full initial family.
void PeridynamicsSolver::computeStateSetup() {
  const int n = particleCount();
  const long long nb = bonds_.size();
  bonds_.omega.resize(2 * nb);
  bonds_.plasticExtension.resize(2 * nb, 0.0f);
  bonds_.extension.resize(nb, 0.0f);
  weightedVolume_.assign(n, 0.0f);
  dilatation_.resize(n, 0.0f);
  particleDamage_.resize(n, 0.0f);
  for (long long b = 0; b < nb; ++b) {
    const int ends[2] = {bonds_.first[b], bonds_.second[b]};
    const vec3 xi = reference_[ends[1]] - reference_[ends[0]];
    for (int end = 0; end < 2; ++end) {
      const int i = ends[end], j = ends[1 - end];
      const vec3 scale = materialDescs_[material_[i]].anisotropyScale;
      const glm::mat3 g(vec3(scale.x, 0, 0), vec3(0, scale.y, 0), vec3(0, 0, scale.z));
      const float omega = psInfluenceAnisotropic(g, xi, params_.horizon);
      bonds_.omega[2 * b + end] = omega;
      weightedVolume_[i] += psWeightedVolumeTerm(omega, bonds_.xiLength[b], volume_[j] * bonds_.beta[b]);
    }
  }
}

// Kernel constants from the materials: c of eq. 4 and s0 (given, or from G0).
void PeridynamicsSolver::refreshMaterials() {
  materials_.clear();
  for (const MaterialDesc& m : materialDescs_) {
    PdMaterial k;
    k.micromodulus = pmbMicromodulus(m.bulkModulus, params_.horizon);
    k.criticalStretch = m.fractureEnergy > 0.0f ? pmbCriticalStretch(m.fractureEnergy, m.bulkModulus, params_.horizon)
                                                : m.criticalStretch;
    k.alpha = m.compressionAlpha;
    k.bulkModulus = m.bulkModulus;
    k.shearModulus = m.shearModulus;
    k.psi0 = m.yieldPsi0;
    k.plasticLimit = m.plasticLimit;
    k.damageAlpha = m.damageAlpha;
    materials_.push_back(k);
  }
  computeStableDt();
}

// Silling & Askari 2005, eq. 22: dt < sqrt(2 rho_i / sum_j c beta V_j / |xi|), smallest over the particles; the
// projectiles' and floor's stiffness are not part of it.
void PeridynamicsSolver::computeStableDt() {
  const int n = particleCount();
  std::vector<double> sum(n, 0.0);
  // pd-state: the micromodulus of a PMB solid with the same P-wave modulus M = K + 4/3 G (PMB has nu = 1/4, where
  // M = 1.8 K): c = 10 M / (pi delta^4).
  auto micromodulus = [&](int material) {
    const PdMaterial& m = materials_[material];
    if (model_ == PdModel::Bond) return double(m.micromodulus);
    const double d2 = double(params_.horizon) * params_.horizon;
    return 10.0 * (m.bulkModulus + 4.0 / 3.0 * m.shearModulus) / (M_PI * d2 * d2);
  };
  for (long long b = 0; b < bonds_.size(); ++b) {
    const int i = bonds_.first[b], j = bonds_.second[b];
    const double k = micromodulus(material_[i]) * bonds_.beta[b] / bonds_.xiLength[b];
    sum[i] += k * volume_[j];
    sum[j] += k * volume_[i];
  }
  // Contacts and projectiles are springs too: their stiffness per unit mass, k / m = omega^2, limits the step to
  // 2 / omega. Levine eq. 6: dF/dd = 2 K_c (lambda / 2) on a particle of mass rho V; LAMMPS: 15 c V_j / delta per
  // unit density; indenter: 2 K (R - d) at a quarter radius deep; eq. 7: about 4 K_S r (its peak K_S r^2 is reached
  // within r / 2) on force densities.
  double omega2 = 0.0;
  for (int i = 0; i < n; ++i) {
    const double rho = density_[i];
    if (params_.contact == PdContact::Levine)
      omega2 = std::max(omega2, double(params_.contactStiffness) * params_.spacing / (rho * volume_[i]));
    if (params_.contact == PdContact::Lammps)
      omega2 = std::max(omega2, 15.0 * micromodulus(material_[i]) * volume_[i] / (params_.horizon * rho));
    for (size_t k = 0; k < projectileRadius_.size(); ++k) {
      const double r = projectileRadius_[k], K = projectileConstant_[k];
      omega2 = std::max(omega2, (projectileModel_[k] == PdProjectileModel::Indenter ? 0.5 * K * r : 4.0 * K * r) / rho);
    }
  }
  double best = omega2 > 0.0 ? 2.0 / std::sqrt(omega2) : std::numeric_limits<double>::max();
  for (int i = 0; i < n; ++i)
    if (sum[i] > 0.0) best = std::min(best, std::sqrt(2.0 * density_[i] / sum[i]));
  stableDt_ = best == std::numeric_limits<double>::max() ? 1e-6 : best;
}

float PeridynamicsSolver::contactReach() const {
  switch (params_.contact) {
    case PdContact::Levine: return 0.5f * params_.spacing;
    case PdContact::Lammps: return 1.35f * params_.spacing;
    case PdContact::Off: break;
  }
  return 0.0f;
}

// Contact candidates: every pair within the contact distance + skin (bonded or not: contact acts between any two
// particles that come too close), sorted by index; rebuilt when a particle moved more than skin / 2.
void PeridynamicsSolver::refreshContactList() {
  if (params_.contact == PdContact::Off) {
    listValid_ = false;
    return;
  }
  const int n = particleCount();
  if (listValid_) {
    float moved2 = 0.0f;
    for (int i = 0; i < n; ++i) moved2 = std::max(moved2, length2(reference_[i] + displacement_[i] - listPosition_[i]));
    if (4.0f * moved2 <= skin_ * skin_) return;
  }
  skin_ = 0.5f * params_.spacing;
  const float reach = contactReach() + skin_;
  listPosition_.resize(n);
  vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
  for (int i = 0; i < n; ++i) {
    listPosition_[i] = reference_[i] + displacement_[i];
    lo = glm::min(lo, listPosition_[i]);
    hi = glm::max(hi, listPosition_[i]);
  }
  neighborStart_.assign(n + 1, 0);
  neighborList_.clear();
  if (n == 0) return;
  const vec3 margin(2.0f * reach);
  grid_.setWindow(lo - margin, hi + margin, reach, std::max<int64_t>(int64_t(8) * n, 1 << 16));
  std::vector<float> zero(n, 0.0f);
  std::vector<uint8_t> none(n, 0);
  grid_.build(listPosition_.data(), zero.data(), none.data(), 1, n);
  const GridView g = grid_.view();
  for (int i = 0; i < n; ++i) {
    neighborStart_[i] = int32_t(neighborList_.size());
    pd::forEachContactCandidate(g, i, listPosition_[i], reach, [&](int j) { neighborList_.push_back(j); });
    std::sort(neighborList_.begin() + neighborStart_[i], neighborList_.end());
  }
  neighborStart_[n] = int32_t(neighborList_.size());
  listValid_ = true;
}

PdViews PeridynamicsSolver::views() {
  PdViews v;
  v.particles = PdParticleView{particleCount(),    reference_.data(), displacement_.data(), velocity_.data(),
                               forceDensity_.data(), volume_.data(),    density_.data(),      material_.data(),
                               thresholdShift_.data()};
  PdBondView& b = v.bonds;
  b.count = int(bonds_.size());
  b.first = bonds_.first.data();
  b.second = bonds_.second.data();
  b.xiLength = bonds_.xiLength.data();
  b.beta = bonds_.beta.data();
  b.thresholdScale = bonds_.thresholdScale.data();
  b.broken = bonds_.broken.data();
  b.stretch = bonds_.stretch.data();
  b.slotOfFirst = bonds_.slotOfFirst.data();
  b.slotOfSecond = bonds_.slotOfSecond.data();
  b.groupStart = bonds_.groupStart.data();
  b.slotCount = int(bonds_.groupStart.empty() ? 0 : bonds_.groupStart.back());
  if (familyPassOnCpu_) {
    v.particles.nextThresholdShift = nextThresholdShift_.data();
    b.familyBond = bonds_.familyBond.data();
    b.endBroken = bonds_.endBroken.data();
  } else {
    b.slot = bonds_.slot.data();
  }
  b.particleStart = bonds_.particleStart.data();
  b.particleEntry = bonds_.particleEntry.data();
  b.particleNeighbor = bonds_.particleNeighbor.data();
  v.projectiles = PdProjectileView{int(projectileCentre_.size()), projectileCentre_.data(), projectileVelocity_.data(),
                                   projectileRadius_.data(),      projectileConstant_.data(), projectileModel_.data(),
                                   projectileActive_.data()};
  v.planes = PdPlaneView{int(planePoint_.size()), planePoint_.data(), planeNormal_.data()};
  v.materials = materials_.data();
  if (model_ == PdModel::State) {
    v.particles.weightedVolume = weightedVolume_.data();
    v.particles.dilatation = dilatation_.data();
    v.particles.damage = particleDamage_.data();
    b.omega = bonds_.omega.data();
    b.plasticExtension = bonds_.plasticExtension.data();
    b.extension = bonds_.extension.data();
  }
  if (!externalForce_.empty()) v.particles.externalForce = externalForce_.data();
  if (!drivenBy_.empty()) {
    v.particles.drivenBy = drivenBy_.data();
    v.particles.driveVelocity = driveVelocity_.data();
  }
  if (listValid_) {
    v.neighborStart = neighborStart_.data();
    v.neighborList = neighborList_.data();
  }
  v.listSkin = skin_;
  return v;
}

// Grip velocities for the step from time_ to time_ + dt (as BDEM's kinematic bodies: active at mid-step).
void PeridynamicsSolver::updateGrips(double dt) {
  for (size_t k = 0; k < grips_.size(); ++k) {
    Grip& g = grips_[k];
    const double mid = time_ + 0.5 * dt;
    driveVelocity_[k] = mid >= g.start && mid < g.stop ? g.velocity : vec3(0.0f);
    g.centre += float(dt) * driveVelocity_[k];
  }
}

void PeridynamicsSolver::setSolverSettings(const SolverDesc& solver) {
  params_.contactStiffness = solver.pdContactStiffness;
  params_.restitution = solver.floorRestitution;
  params_.damping = solver.pdDamping;
  computeStableDt();  // the contact stiffness is part of the stable step
}

std::string PeridynamicsSolver::setBackend(Backend requested) {
  return switchBackend(
      device_, requested,
      [this] {
        ensureHostCurrent();
        if (familyPassOnCpu_) buildFamilyBonds(bonds_.familyBond, bonds_.endBroken);  // from the device's state
        listValid_ = false;  // the host's contact list was not kept up to date while the device stepped
      },
      [this] { uploadToDevice(); });
}

void PeridynamicsSolver::uploadToDevice() {
  ensureHostCurrent();
  PdViews v = views();
  // pd-bond runs the family pass on the device: its constants and end flags from the per-bond state, no slots.
  std::vector<FamilyBond> constants;
  std::vector<uint8_t> endBroken;
  if (model_ == PdModel::Bond) {
    buildFamilyBonds(constants, endBroken);
    v.bonds.familyBond = constants.data();
    v.bonds.endBroken = endBroken.data();
    v.bonds.slot = nullptr;
    v.particles.nextThresholdShift = nextThresholdShift_.data();
  }
  v.grid = deviceGridWindow();
  v.listSkin = 0.5f * params_.spacing;
  device_->upload(v, int(materials_.size()), int(grips_.size()), contactReach(), particleRadius_.data());
  deviceStale_ = false;
}

void PeridynamicsSolver::finishQueuedWork() {
  if (device_) device_->synchronize();
}

void PeridynamicsSolver::ensureHostCurrent() const {
  PeridynamicsSolver* self = const_cast<PeridynamicsSolver*>(this);  // refreshing the host copy changes no simulated state
  if (hostStale_ && device_) {
    device_->download(self->views());
    hostStale_ = bondStateStale_ = false;
  }
  if (bondStateStale_) {
    pd::bondStateStage(exec_, self->views());
    bondStateStale_ = false;
  }
}

std::vector<vec3>& PeridynamicsSolver::displacements() {
  ensureHostCurrent();
  hostChanged();
  return displacement_;
}

const std::vector<vec3>& PeridynamicsSolver::displacements() const {
  ensureHostCurrent();
  return displacement_;
}

const std::vector<vec3>& PeridynamicsSolver::forceDensities() const {
  ensureHostCurrent();
  return forceDensity_;
}

const std::vector<vec3>& PeridynamicsSolver::velocities() const {
  ensureHostCurrent();
  return velocity_;
}

const PdBondSet& PeridynamicsSolver::bonds() const {
  ensureHostCurrent();
  return bonds_;
}

GridView PeridynamicsSolver::deviceGridWindow() const {
  const int n = particleCount();
  vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
  for (int i = 0; i < n; ++i) {
    lo = glm::min(lo, reference_[i] + displacement_[i]);
    hi = glm::max(hi, reference_[i] + displacement_[i]);
  }
  if (n == 0) lo = hi = vec3(0.0f);
  const float cell = contactReach() + 0.5f * params_.spacing;
  const vec3 margin = glm::max(hi - lo, vec3(20.0f * cell));  // room for debris; beyond it cells clamp to the border
  UniformGrid window;
  window.setWindow(lo - margin, hi + margin, cell > 0.0f ? cell : params_.spacing,
                   std::max<int64_t>(int64_t(8) * n, 1 << 16));
  return window.view();
}

void PeridynamicsSolver::computeForces() {
  ensureHostCurrent();
  if (familyPassOnCpu_) buildFamilyBonds(bonds_.familyBond, bonds_.endBroken);  // the device may have stepped
  hostChanged();
  refreshContactList();
  PdStepParams p = params_;
  p.dt = 0.0f;
  runForceStage(p);
}

void PeridynamicsSolver::runForceStage(PdStepParams params) {
  params.familyPass = familyPassOnCpu_;
  pd::forceStage(exec_, views(), params);
  if (!familyPassOnCpu_) return;
  thresholdShift_.swap(nextThresholdShift_);
  bondStateStale_ = true;
}

void PeridynamicsSolver::step(double dt) {
  params_.dt = float(dt);
  for (size_t k = 0; k < projectileCentre_.size(); ++k)
    if (!projectileActive_[k] && time_ >= projectileLaunch_[k]) projectileActive_[k] = 1;
  if (device_) {
    if (deviceStale_) uploadToDevice();
    for (size_t k = 0; k < projectileCentre_.size(); ++k)  // constant velocity, positions at t + dt
      if (projectileActive_[k]) projectileCentre_[k] += float(dt) * projectileVelocity_[k];
    if (!projectileCentre_.empty()) device_->uploadProjectiles(views().projectiles);
    updateGrips(dt);
    if (!grips_.empty()) device_->uploadGrips(driveVelocity_.data(), int(grips_.size()));
    device_->step(params_);
    hostStale_ = true;
    pushBackProjectiles(dt);
    time_ += dt;
    ++steps_;
    return;
  }
  updateGrips(dt);
  pd::driftStage(exec_, views(), params_);
  for (size_t k = 0; k < projectileCentre_.size(); ++k)  // constant velocity, positions at t + dt
    if (projectileActive_[k]) projectileCentre_[k] += float(dt) * projectileVelocity_[k];
  refreshContactList();
  runForceStage(params_);
  pd::kickStage(exec_, views(), params_);
  pushBackProjectiles(dt);
  time_ += dt;
  ++steps_;
}

// Dynamic projectiles: the reaction of the force densities they put on the particles (times the particles'
// volumes), and gravity, change their velocity for the next step.
void PeridynamicsSolver::pushBackProjectiles(double dt) {
  bool any = false;
  for (size_t k = 0; k < projectileMass_.size(); ++k) any |= projectileMass_[k] > 0.0f && projectileActive_[k];
  if (!any) return;
  std::vector<glm::dvec3>& partial = reactionPartials_;
  partial.resize(pd::kReactionChunks);
  for (size_t k = 0; k < projectileMass_.size(); ++k) {
    if (!(projectileMass_[k] > 0.0f) || !projectileActive_[k]) continue;
    // Summed where the particles are (on the device only the partial sums come back), in a fixed order.
    if (device_) device_->projectileReaction(int(k), partial.data());
    else pd::projectileReactionStage(exec_, views(), int(k), partial.data());
    glm::dvec3 onParticles(0.0);
    for (const glm::dvec3& p : partial) onParticles += p;
    projectileVelocity_[k] += float(dt) * (params_.gravity - vec3(onParticles) / projectileMass_[k]);
  }
}

std::vector<float> PeridynamicsSolver::damage() const {
  ensureHostCurrent();
  return brokenBondFraction(particleCount(), bonds_.first.data(), bonds_.second.data(), bonds_.broken.data(),
                            bonds_.size(), kNoBonds);
}

void PeridynamicsSolver::setExternalForceDensity(int particle, const vec3& forceDensity) {
  ensureHostCurrent();
  hostChanged();
  externalForce_.resize(particleCount(), vec3(0.0f));
  externalForce_.at(particle) = forceDensity;
}

const std::vector<float>& PeridynamicsSolver::plasticExtensions() const {
  ensureHostCurrent();
  return bonds_.plasticExtension;
}

double PeridynamicsSolver::bondEnergy() const {
  ensureHostCurrent();
  return hostStats(false).elasticEnergy;
}

StatsTerms PeridynamicsSolver::hostStats(bool withFragments) const {
  PeridynamicsSolver* self = const_cast<PeridynamicsSolver*>(this);  // views() hands out pointers; nothing changes
  std::vector<int32_t> key(withFragments ? particleCount() : 0);
  int32_t changed = 0;
  std::vector<StatsTerms> partial(kStatsChunks);
  pd::InstanceScratch scratch;
  scratch.fragmentKey = key.data();
  scratch.changed = &changed;
  return pd::particleStats(exec_, self->views(), model_, withFragments, scratch, partial.data());
}

SimStats PeridynamicsSolver::stats() const {
  SimStats s;
  s.time = time_;
  s.steps = steps_;
  s.elements = particleCount();
  s.bonds = bonds_.size();
  StatsTerms sums;
  if (device_ && !deviceStale_) {
    sums = device_->stats(model_);  // summed on the device: the state stays there
  } else {
    ensureHostCurrent();
    sums = hostStats(true);
  }
  s.bondsBroken = sums.bondsBroken;
  s.bondsIntact = s.bonds - s.bondsBroken;
  s.kineticEnergy = sums.kineticEnergy;
  s.elasticEnergy = sums.elasticEnergy;
  s.fragments = int(sums.fragments);
  return s;
}

// The load on a grip: the force its particles receive from the material, against its motion.
KinematicLoad PeridynamicsSolver::kinematicLoad(const std::string& name) const {
  ensureHostCurrent();
  for (size_t k = 0; k < grips_.size(); ++k) {
    const Grip& g = grips_[k];
    if (g.name != name) continue;
    const float speed = glm::length(g.velocity);
    const vec3 dir = speed > 0.0f ? g.velocity / speed : vec3(0, -1, 0);
    vec3 total(0.0f);
    for (int i = 0; i < particleCount(); ++i)
      if (drivenBy_[i] == int16_t(k)) total += volume_[i] * forceDensity_[i];
    KinematicLoad load;
    load.initialCentre = g.initialCentre;
    load.direction = dir;
    load.displacement = glm::dot(g.centre - g.initialCentre, dir);
    load.force = -glm::dot(total, dir);
    return load;
  }
  throw std::invalid_argument("no grip named '" + name + "'");
}

std::vector<int> PeridynamicsSolver::bodyElementsNearLine(const vec3& point, const vec3& direction, float radius) const {
  std::vector<int> found;
  for (int i = 0; i < particleCount(); ++i) {
    const vec3 d = reference_[i] - point;
    if (length2(d - glm::dot(d, direction) * direction) <= radius * radius) found.push_back(i);
  }
  return found;
}

double PeridynamicsSolver::bodyExtent(const vec3& direction) const {
  double lo = 1e30, hi = -1e30;
  for (int i = 0; i < particleCount(); ++i) {
    const double x = glm::dot(reference_[i], direction);
    lo = std::min(lo, x - particleRadius_[i]);
    hi = std::max(hi, x + particleRadius_[i]);
  }
  return hi > lo ? hi - lo : 0.0;
}

double PeridynamicsSolver::meanDisplacement(const std::vector<int>& ids, const vec3& direction) const {
  ensureHostCurrent();
  double sum = 0.0;
  for (int i : ids) sum += glm::dot(displacement_[i], direction);
  return ids.empty() ? 0.0 : sum / double(ids.size());
}

void PeridynamicsSolver::setMaterial(int m, const MaterialDesc& desc) {
  ensureHostCurrent();
  hostChanged();
  materialDescs_.at(m) = desc;  // density is not live: masses were fixed when the bodies were built
  refreshMaterials();
}

int PeridynamicsSolver::launchProjectile(const vec3& position, const vec3& velocity, float radius, int material,
                                         float density) {
  if (material < 0 || material >= int(materialDescs_.size())) throw std::invalid_argument("no such material");
  ensureHostCurrent();
  hostChanged();
  projectileCentre_.push_back(position);
  projectileVelocity_.push_back(velocity);
  projectileRadius_.push_back(radius);
  projectileConstant_.push_back(throwConstant_);
  projectileModel_.push_back(throwModel_);
  projectileActive_.push_back(1);
  projectileLaunch_.push_back(time_);
  projectileMaterial_.push_back(uint16_t(material));
  // A thrown ball is dynamic: it slows down, bounces off or gets stuck as the particles push back.
  const float rho = density > 0.0f ? density : materialDescs_[material].density;
  projectileMass_.push_back(4.0f / 3.0f * kPi * radius * radius * radius * rho);
  computeStableDt();  // the new ball's stiffness may call for a shorter step
  return particleCount() + int(projectileCentre_.size()) - 1;  // its index in RenderFrame
}

// A ball of particles on the cubic lattice with its own families (bonds only inside the ball), moving at `velocity`.
int PeridynamicsSolver::launchBreakableProjectile(const vec3& centre, const vec3& velocity, float radius,
                                            float elementRadius, int material, float density) {
  if (material < 0 || material >= int(materialDescs_.size())) throw std::invalid_argument("no such material");
  // The ball uses the scene's lattice spacing whatever `elementRadius` says: the horizon, the partial volumes and the
  // contact reach are the scene's, and a ball on another lattice would get no bonds (coarser) or start in contact
  // with itself (finer).
  elementRadius = 0.5f * params_.spacing;
  const std::vector<vec3> world = packBall(centre, radius, elementRadius, Packing::SimpleCubic);
  ensureHostCurrent();
  hostChanged();
  int32_t body = 0;
  for (int32_t b : body_) body = std::max(body, b + 1);
  const int first = addParticles(world, elementRadius, material,
                                 density > 0.0f ? density : materialDescs_[material].density, body, velocity);
  const std::vector<uint8_t> broken = bonds_.broken;
  buildFamilies(first);
  std::copy(broken.begin(), broken.end(), bonds_.broken.begin());
  listValid_ = false;
  refreshMaterials();
  computeForces();
  return particleCount() - first;
}

uint64_t PeridynamicsSolver::stateDigest() const {
  ensureHostCurrent();
  StateDigest digest;
  digest.add(displacement_);
  digest.add(velocity_);
  digest.add(bonds_.broken);
  digest.add(bonds_.plasticExtension);
  return digest.value();
}

}  // namespace frac
