// PeridynamicsSolver: particles on the bodies' lattices, their families within the horizon, grips, projectiles and
// planes from a scene, thrown balls, and the constants derived from the materials (pd-state's influence and weighted
// volumes, the stable time step).
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/bond_adjacency.h"
#include "core/bounds.h"
#include "core/rng.h"
#include "geometry/packing.h"
#include "geometry/shapes.h"
#include "io/scene_error.h"
#include "kernels/pd_state.h"
#include "solvers/peridynamics/pd_solver.h"
#include "solvers/peridynamics/pd_surface_correction.h"
#include "solvers/solver_common.h"

namespace frac {
namespace {

// Standard normal draw for (seed, bond) by Box-Muller over two counter-based uniforms.
double normalDraw(unsigned long long seed, uint64_t index) {
  const double u1 = uniform01(seed, kStreamCriticalStretch, 2 * index);
  const double u2 = uniform01(seed, kStreamCriticalStretch, 2 * index + 1);
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
}

// Volume a particle stands for: the lattice cell of its packing with spacing 2r (a random packing's particle: an
// HCP cell's).
float latticeVolume(float radius, Packing packing) {
  const double r = radius;
  return float(latticeCell(packing == Packing::SimpleCubic ? packing : Packing::Hcp).volumePerRadius3 * r * r * r);
}

// The stretch sums (pd_surface_correction.h) of a particle inside a body packed with `radius` and `packing` and turned
// by `orientation`: the site of a packed ball nearest its centre, with every site within the horizon of it.
FamilyStretchSums bulkStretchSums(const PdStepParams& sp, float radius, Packing packing, const quat& orientation) {
  ShapeDesc ball;
  ball.type = ShapeType::Sphere;
  ball.radius = sp.horizon + 4.0f * radius;
  const std::vector<vec3> sites = packShape(*makeShape(ball, ""), radius, packing);
  if (sites.empty()) return {};
  size_t centre = 0;
  for (size_t k = 1; k < sites.size(); ++k)
    if (length2(sites[k]) < length2(sites[centre])) centre = k;
  const float reach = sp.horizon * (1.0f + 1e-5f), volume = latticeVolume(radius, packing);
  FamilyStretchSums sums;
  for (size_t k = 0; k < sites.size(); ++k) {
    const vec3 xi = rotate(orientation, sites[k] - sites[centre]);
    if (k == centre || length2(xi) > reach * reach) continue;
    const float length = std::sqrt(length2(xi));
    sums.add(xi, length, pd::bondBeta(sp, length) * volume);
  }
  return sums;
}

// Where each block of slots starts, a block per group of 2^shift particles as long as its largest family, and the end
// (pd_arrays.h).
std::vector<long long> slotGroupStarts(const std::vector<int32_t>& particleStart, int shift) {
  const int n = int(particleStart.size()) - 1, group = 1 << shift;
  const int groups = (n + group - 1) / group;
  std::vector<long long> start(size_t(groups) + 1, 0);
  for (int g = 0; g < groups; ++g) {
    int largest = 0;
    for (int i = g * group; i < std::min(n, (g + 1) * group); ++i)
      largest = std::max(largest, particleStart[i + 1] - particleStart[i]);
    start[size_t(g) + 1] = start[size_t(g)] + (long long)largest * group;
  }
  return start;
}

// groupStart and every bond's two slots in groups of 2^shift particles (the families' CSR is the same in any layout).
void layoutFamilySlots(PdBondArrays& bonds, int shift) {
  const std::vector<long long> start = slotGroupStarts(bonds.particleStart, shift);
  bonds.groupStart.assign(start.begin(), start.end());  // fits: finalizeBonds checked the larger, device layout
  bonds.slotGroupShift = shift;
  PdBondView slots;
  slots.groupStart = bonds.groupStart.data();
  slots.slotGroupShift = shift;
  const long long nb = bonds.size();
  const int n = int(bonds.particleStart.size()) - 1;
  bonds.slotOfFirst.assign(nb, 0);
  bonds.slotOfSecond.assign(nb, 0);
  for (int i = 0; i < n; ++i)
    for (int k = bonds.particleStart[i]; k < bonds.particleStart[i + 1]; ++k) {
      const int32_t entry = bonds.particleEntry[k];
      ((entry & 1) ? bonds.slotOfSecond : bonds.slotOfFirst)[entry >> 1] =
          familySlot(slots, i, k - bonds.particleStart[i]);
    }
}

}  // namespace

void PeridynamicsSolver::load(const SceneDesc& scene, const SolverOptions& options) {
  const bool onDevice = arrays_.onDevice();
  arrays_.dropDevice();
  *this = PeridynamicsSolver(model_);
  if (onDevice) setBackend(Backend::Cuda);  // a reloaded scene stays on the backend it was on
  seed_ = scene.seed;
  exec_.threads = options.threads;
  exec_.minParallel = 64;  // a particle gathers a whole family: worth a thread from a few dozen particles on
  materialDescs_ = scene.materials;
  horizonFactor_ = scene.solver.horizonFactor;
  referenceCell_ = referenceCell(scene);
  params_.partialVolume = scene.solver.partialVolume;
  surfaceCorrection_ = scene.solver.surfaceCorrection;
  const std::string baseDir = sceneDirectory(scene);
  grips_.load(scene, "peridynamics");
  // The lattice spacing lambda is the smallest of the bodies' (Levine: the minimum inter-particle distance).
  float spacing = 0.0f;
  for (const BodyDesc& body : scene.bodies)
    spacing = spacing == 0.0f ? 2.0f * body.elementRadius : std::min(spacing, 2.0f * body.elementRadius);
  params_.spacing = spacing > 0.0f ? spacing : 1e-3f;
  params_.horizon = horizonFactor_ * params_.spacing;
  applySolverSettings(scene.solver);
  PdArrays& a = arrays_.edit();
  PdParticleArrays& p = a.particles;
  for (size_t b = 0; b < scene.bodies.size(); ++b) {
    const BodyDesc& body = scene.bodies[b];
    const int mat = sceneMaterial(scene, body.material, "/bodies/" + std::to_string(b) + "/material");
    const auto shape = makeShape(body.shape, baseDir);
    std::vector<vec3> world;
    for (const vec3& local : packShape(*shape, body.elementRadius, body.packing))
      world.push_back(body.transform.position + rotate(body.transform.orientation, local));
    const int first = addParticles(a, world, body.elementRadius, mat, materialDescs_[mat].density, int32_t(b),
                                   body.velocity);
    bulkStretchSums_.push_back(bulkStretchSums(params_, body.elementRadius, body.packing, body.transform.orientation));
    for (int i = first; i < p.size(); ++i) {
      p.volume[i] = latticeVolume(body.elementRadius, body.packing);
      p.velocity[i] = body.velocity + glm::cross(body.angularVelocity, p.reference[i] - body.transform.position);
      samples_.addElement(*shape, body.transform, p.reference[i], body.elementRadius);
    }
  }
  buildFamilies(0);
  for (long long b = 0; b < a.bonds.size(); ++b) {  // initial cracks of the bodies
    const int i = a.bonds.first[b], j = a.bonds.second[b];
    if (scene.bodies[p.body[i]].cutByCrack(p.reference[i], p.reference[j])) a.bonds.broken[b] = 1;
  }
  p.drivenBy = grips_.assign(scene, p.reference);  // grips take over the particles inside their shape
  p.driveVelocity.assign(size_t(grips_.size()), vec3(0.0f));
  p.driveSlide = grips_.slideMasks();
  grips_.advance(time_, 0.0, p.driveVelocity);
  PdProjectileArrays& pr = a.projectiles;
  for (const ProjectileDesc& d : scene.projectiles) {
    pr.centre.push_back(d.position);
    pr.velocity.push_back(d.velocity);
    pr.radius.push_back(d.radius);
    pr.forceConstant.push_back(d.forceConstant);
    pr.model.push_back(d.forceModel);
    pr.active.push_back(d.launchTime <= 0.0f);
    projectileLaunch_.push_back(d.launchTime);
    projectileMaterial_.push_back(uint16_t(sceneMaterial(scene, d.material, "/projectiles/material")));
    const float volume = 4.0f / 3.0f * kPi * d.radius * d.radius * d.radius;
    projectileMass_.push_back(d.dynamic ? volume * materialDescs_[projectileMaterial_.back()].density : 0.0f);
  }
  if (!scene.projectiles.empty()) {
    throwConstant_ = scene.projectiles.front().forceConstant;
    throwModel_ = scene.projectiles.front().forceModel;
  }
  for (const PlaneDesc& plane : scene.planes) {
    a.planes.point.push_back(plane.point);
    a.planes.normal.push_back(glm::normalize(plane.normal));
    planeMaterial_.push_back(uint16_t(sceneMaterial(scene, plane.material, "/planes/material")));
  }
  storeSamples(a);
  rebuildReference();
  refreshMaterials();
  computeForces();  // F(0) for the first half kick
}

// The outer-surface samples into the arrays (particles without any get empty ranges).
void PeridynamicsSolver::storeSamples(PdArrays& a) {
  while (samples_.elements() < a.particles.size()) samples_.addEmpty();
  a.sampleStart = samples_.start;
  a.samplePoint = samples_.point;
  a.sampleNormal = samples_.normal;
}

// The step parameters a scene's solver settings give (at load and after live edits; spacing and horizon stay).
void PeridynamicsSolver::applySolverSettings(const SolverDesc& solver) {
  params_.gravity = solver.gravity;
  params_.contact = solver.pdContact;
  params_.contactStiffness = solver.pdContactStiffness;
  params_.restitution = solver.floorRestitution;
  params_.lammpsStrengthening = solver.strengthening == PdStrengthening::Lammps;
  params_.forceInBreakingStep = solver.bondRemoval == PdBondRemoval::Lammps;
  params_.damping = solver.pdDamping;
}

int PeridynamicsSolver::addParticles(PdArrays& a, const std::vector<vec3>& positions, float radius, int material,
                                     float density, int32_t body, const vec3& velocity) {
  PdParticleArrays& p = a.particles;
  const int first = p.size();
  for (const vec3& x : positions) {
    p.reference.push_back(x);
    p.displacement.push_back(vec3(0.0f));
    p.velocity.push_back(velocity);
    p.forceDensity.push_back(vec3(0.0f));
    p.volume.push_back(latticeVolume(radius, Packing::SimpleCubic));
    p.density.push_back(density);
    p.material.push_back(uint16_t(material));
    p.radius.push_back(radius);
    p.thresholdShift.push_back(0.0f);
    p.nextThresholdShift.push_back(0.0f);
    p.rotation.push_back(quat(1, 0, 0, 0));
    p.body.push_back(body);
    if (!p.drivenBy.empty()) p.drivenBy.push_back(-1);
    if (!p.externalForce.empty()) p.externalForce.push_back(vec3(0.0f));
  }
  return first;
}

// Families (Levine sec. 4 preprocessing): every pair of particles of the same body within the horizon delta
// (a relative 1e-5 more, so lattice sites exactly at delta are in whatever the rounding), found with a grid of
// cells delta. Bonds are numbered in (first, second) order.
void PeridynamicsSolver::buildFamilies(int firstParticle) {
  PdArrays& a = arrays_.edit();
  const PdParticleArrays& p = a.particles;
  PdBondArrays& bonds = a.bonds;
  const int n = p.size();
  const float delta = params_.horizon, reach = delta * (1.0f + 1e-5f);
  const long long firstBond = bonds.size();
  if (n > firstParticle) {
    const Bounds box = boundsOf(firstParticle, n, [&](int i) { return p.reference[i]; }, [](int) { return true; });
    UniformGrid grid;
    grid.setWindow(box.lo, box.hi, reach, std::max<int64_t>(int64_t(4) * (n - firstParticle), 1 << 16));
    std::vector<uint8_t> exclude(n, 0);
    for (int i = 0; i < firstParticle; ++i) exclude[i] = 1;
    std::vector<float> zero(n, 0.0f);
    grid.build(p.reference.data(), zero.data(), exclude.data(), 1, n);
    const GridView g = grid.view();
    std::vector<int32_t> partners;
    for (int i = firstParticle; i < n; ++i) {
      partners.clear();
      g.forEachCandidate(p.reference[i], [&](int j, const glm::vec4&) {
        if (j <= i || p.body[j] != p.body[i]) return;
        if (length2(p.reference[j] - p.reference[i]) <= reach * reach) partners.push_back(j);
      });
      std::sort(partners.begin(), partners.end());
      for (int j : partners) {
        const uint64_t index = uint64_t(bonds.first.size());
        const float length = std::sqrt(length2(p.reference[j] - p.reference[i]));
        bonds.first.push_back(i);
        bonds.second.push_back(j);
        bonds.xiLength.push_back(length);
        bonds.beta.push_back(pd::bondBeta(params_, length));
        // The breaking stretch's scatter: Weibull with unit scale where the material gives a modulus (the bonded
        // methods' law, so that weibull_m means the same in every method), else Levine's normal scatter.
        const MaterialDesc& m = materialDescs_[p.material[i]];
        bonds.thresholdScale.push_back(
            m.weibullM > 0.0f ? weibullFactor(m.weibullM, seed_, kStreamBreakingStretch,
                                              strengthDrawIndex(m.weibullCell, 0.5f * (p.reference[i] + p.reference[j]),
                                                                index))
            : m.stretchScatter > 0.0f ? float(std::max(0.0, 1.0 + m.stretchScatter * normalDraw(seed_, index)))
                                      : 1.0f);
      }
    }
  }
  if (surfaceCorrection_) {
    SurfaceCorrectionInput input;
    input.state = model_ == PdModel::State;
    input.passes = input.state ? kStateCorrectionPasses : kBondCorrectionPasses;
    input.bulk = bulkStretchSums_;
    if (input.state)
      for (int i = 0; i < n; ++i) {
        input.bulkModulus.push_back(materialDescs_[p.material[i]].bulkModulus);
        input.shearModulus.push_back(materialDescs_[p.material[i]].shearModulus);
      }
    const std::vector<float> factor = surfaceCorrectionFactors(p, bonds, firstBond, input);
    for (long long b = firstBond; b < bonds.size(); ++b) bonds.beta[b] *= factor[size_t(b - firstBond)];
  }
  finalizeBonds();
}

void PeridynamicsSolver::finalizeBonds() {
  PdArrays& a = arrays_.edit();
  PdBondArrays& bonds = a.bonds;
  const long long nb = bonds.size();
  if (2 * nb + 1 > std::numeric_limits<int32_t>::max())
    throw SceneError("solver.horizon_factor: " + std::to_string(nb) + " bonds are more than this build indexes (" +
                     std::to_string(std::numeric_limits<int32_t>::max() / 2) +
                     "): expected a smaller horizon_factor or fewer particles");
  const int n = a.particles.size();
  bonds.broken.resize(nb, 0);
  bonds.stretch.resize(nb, 0.0f);
  BondAdjacency adjacency = buildBondAdjacency(n, bonds.first, bonds.second);
  bonds.particleStart = std::move(adjacency.start);
  bonds.particleEntry = std::move(adjacency.entry);
  bonds.particleNeighbor = std::move(adjacency.neighbor);
  // The device's layout is the larger (its groups' blocks padded to their largest family): checked here, at load.
  const long long slots = slotGroupStarts(bonds.particleStart, kDeviceSlotGroupShift).back();
  if (slots > std::numeric_limits<int32_t>::max())
    throw SceneError("solver.horizon_factor: " + std::to_string(slots) + " family slots are more than this " +
                     "build indexes: expected a smaller horizon_factor or fewer particles");
  bonds.slotGroupShift = -1;  // the families changed: laid out anew by arrangeForcePass
  if (model_ == PdModel::State) computeStateSetup();
  arrangeForcePass(a, forcePass(), slotGroupShift());
}

// Where the passes run now: the device's layout of the slots or the CPU's.
int PeridynamicsSolver::slotGroupShift() const {
  return arrays_.onDevice() ? kDeviceSlotGroupShift : kCpuSlotGroupShift;
}

// The slots in the layout of where the passes run (laid out anew when it changed). Bonds and States: a slot per
// family entry. Families: each entry's bond constants at its slot and both ends' broken flags from the bond's (unused
// slots keep neighbour -1: a family pass never reads them).
void PeridynamicsSolver::arrangeForcePass(PdArrays& a, PdForcePass pass, int shift) const {
  PdBondArrays& bonds = a.bonds;
  if (bonds.slotGroupShift != shift) layoutFamilySlots(bonds, shift);
  const size_t slots = size_t(bonds.slotCount());
  if (pass != PdForcePass::Families) {
    bonds.familyBond = {};
    bonds.familyThresholdScale = {};
    bonds.familyBeta = {};
    bonds.endBroken = {};
    bonds.slot.assign(slots, FamilySlot{vec3(0.0f), 0.0f});
    bonds.dilatationTerm.assign(pass == PdForcePass::States ? slots : 0, 0.0f);
    return;
  }
  bonds.slot = {};
  bonds.dilatationTerm = {};
  bonds.familyBond.assign(slots, FamilyBond{-1, 0.0f});
  bonds.endBroken.assign(slots, 0);
  const bool scaled =
      std::any_of(bonds.thresholdScale.begin(), bonds.thresholdScale.end(), [](float s) { return s != 1.0f; });
  bonds.familyThresholdScale.assign(scaled ? slots : 0, 1.0f);
  bool corrected = false;
  for (long long b = 0; b < bonds.size() && !corrected; ++b)
    corrected = bonds.beta[b] != pd::bondBeta(params_, bonds.xiLength[b]);
  bonds.familyBeta.assign(corrected ? slots : 0, 0.0f);
  for (long long b = 0; b < bonds.size(); ++b) {
    const float xiLength = bonds.xiLength[b];
    bonds.familyBond[bonds.slotOfFirst[b]] = FamilyBond{bonds.second[b], xiLength};
    bonds.familyBond[bonds.slotOfSecond[b]] = FamilyBond{bonds.first[b], xiLength};
    if (corrected) bonds.familyBeta[bonds.slotOfFirst[b]] = bonds.familyBeta[bonds.slotOfSecond[b]] = bonds.beta[b];
    if (scaled) bonds.familyThresholdScale[bonds.slotOfFirst[b]] = bonds.familyThresholdScale[bonds.slotOfSecond[b]] =
        bonds.thresholdScale[b];
    bonds.endBroken[bonds.slotOfFirst[b]] = bonds.endBroken[bonds.slotOfSecond[b]] = bonds.broken[b];
  }
}

// pd-state: the influence of every bond end (eq. 5, or eq. 17 with the material's anisotropy matrix G = diag) and
// each particle's weighted volume m_i = sum_j omega |xi|^2 beta V_j over its full initial family.
void PeridynamicsSolver::computeStateSetup() {
  PdArrays& a = arrays_.edit();
  PdParticleArrays& p = a.particles;
  PdBondArrays& bonds = a.bonds;
  const int n = p.size();
  const long long nb = bonds.size();
  bonds.omega.resize(2 * nb);
  bonds.plasticExtension.resize(2 * nb, 0.0f);
  bonds.extension.resize(nb, 0.0f);
  p.weightedVolume.assign(n, 0.0f);
  p.dilatation.resize(n, 0.0f);
  p.endConstants.resize(n, PsEndConstants{0.0f, 0.0f, 0.0f});
  p.damage.resize(n, 0.0f);
  for (long long b = 0; b < nb; ++b) {
    const int ends[2] = {bonds.first[b], bonds.second[b]};
    const vec3 xi = p.reference[ends[1]] - p.reference[ends[0]];
    for (int end = 0; end < 2; ++end) {
      const int i = ends[end], j = ends[1 - end];
      const vec3 scale = materialDescs_[p.material[i]].anisotropyScale;
      const glm::mat3 g(vec3(scale.x, 0, 0), vec3(0, scale.y, 0), vec3(0, 0, scale.z));
      const float omega = psInfluenceAnisotropic(g, xi, params_.horizon);
      bonds.omega[2 * b + end] = omega;
      p.weightedVolume[i] += psWeightedVolumeTerm(omega, bonds.xiLength[b], p.volume[j] * bonds.beta[b]);
    }
  }
}

// Kernel constants from the materials: c of eq. 4 and s0 (given, or from G0).
void PeridynamicsSolver::refreshMaterials() {
  std::vector<PdMaterial>& materials = arrays_.edit().materials;
  materials.clear();
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
    materials.push_back(k);
  }
  computeStableDt();
}

// Silling & Askari 2005, eq. 22: dt < sqrt(2 rho_i / sum_j c beta V_j / |xi|), smallest over the particles; the
// contacts' and projectiles' stiffness below.
void PeridynamicsSolver::computeStableDt() {
  const PdArrays& a = arrays_.layout();
  const PdParticleArrays& p = a.particles;
  const PdBondArrays& bonds = a.bonds;
  const int n = p.size();
  std::vector<double> sum(n, 0.0);
  // pd-state: the micromodulus of a PMB solid with the same P-wave modulus M = K + 4/3 G (PMB has nu = 1/4, where
  // M = 1.8 K): c = 10 M / (pi delta^4).
  auto micromodulus = [&](int material) {
    const PdMaterial& m = a.materials[material];
    if (model_ == PdModel::Bond) return double(m.micromodulus);
    const double d2 = double(params_.horizon) * params_.horizon;
    return 10.0 * (m.bulkModulus + 4.0 / 3.0 * m.shearModulus) / (M_PI * d2 * d2);
  };
  // pd-state's force on a bond end goes with 1 / m of its particle (eq. 8-10 in the LPS form): a particle whose
  // family is truncated, or scaled by the surface correction, is stiffer by the continuum's m over its own.
  const double mContinuum = double(psWeightedVolumeContinuum(params_.horizon));
  auto endScale = [&](int i) {
    return model_ == PdModel::State && p.weightedVolume.size() == size_t(n) && p.weightedVolume[i] > 0.0f
               ? mContinuum / double(p.weightedVolume[i])
               : 1.0;
  };
  for (long long b = 0; b < bonds.size(); ++b) {
    const int i = bonds.first[b], j = bonds.second[b];
    const double k = micromodulus(p.material[i]) * bonds.beta[b] / bonds.xiLength[b];
    sum[i] += k * endScale(i) * p.volume[j];
    sum[j] += k * endScale(j) * p.volume[i];
  }
  // Contacts and projectiles are springs too: their stiffness per unit mass, k / m = omega^2, limits the step to
  // 2 / omega. Levine eq. 6: dF/dd = 2 K_c (lambda / 2) on a particle of mass rho V; LAMMPS: 15 c V_j / delta per
  // unit density; indenter: 2 K (R - d) at a quarter radius deep; eq. 7: about 4 K_S r (its peak K_S r^2 is reached
  // within r / 2) on force densities.
  const PdProjectileArrays& pr = a.projectiles;
  double omega2 = 0.0;
  for (int i = 0; i < n; ++i) {
    const double rho = p.density[i];
    if (params_.contact == PdContact::Levine)
      omega2 = std::max(omega2, double(params_.contactStiffness) * params_.spacing / (rho * p.volume[i]));
    if (params_.contact == PdContact::Lammps)
      omega2 = std::max(omega2, 15.0 * micromodulus(p.material[i]) * p.volume[i] / (params_.horizon * rho));
    for (int k = 0; k < pr.size(); ++k) {
      const double r = pr.radius[k], K = pr.forceConstant[k];
      omega2 = std::max(omega2, (pr.model[k] == PdProjectileModel::Indenter ? 0.5 * K * r : 4.0 * K * r) / rho);
    }
  }
  double best = omega2 > 0.0 ? 2.0 / std::sqrt(omega2) : std::numeric_limits<double>::max();
  for (int i = 0; i < n; ++i)
    if (sum[i] > 0.0) best = std::min(best, std::sqrt(2.0 * p.density[i] / sum[i]));
  stableDt_ = best == std::numeric_limits<double>::max() ? 1e-6 : best;
}

// Every particle at its reference position, for the probes.
void PeridynamicsSolver::rebuildReference() {
  const PdParticleArrays& p = arrays_.layout().particles;
  reference_ = ReferenceElements{};
  reference_.cell = referenceCell_;
  for (int i = 0; i < p.size(); ++i) reference_.add(i, p.reference[i], p.radius[i]);
}

void PeridynamicsSolver::setFamilyPass(bool onCpu) {
  familyPassOnCpu_ = onCpu && model_ == PdModel::Bond;
  if (!arrays_.onDevice()) arrangeForcePass(arrays_.edit(), cpuForcePass(), kCpuSlotGroupShift);
}

void PeridynamicsSolver::setSlotLayout(int shift) {
  if (!arrays_.onDevice()) arrangeForcePass(arrays_.edit(), cpuForcePass(), shift);
}

void PeridynamicsSolver::setExternalForceDensity(int particle, const vec3& forceDensity) {
  PdParticleArrays& p = arrays_.edit().particles;
  p.externalForce.resize(p.size(), vec3(0.0f));
  p.externalForce.at(particle) = forceDensity;
}

void PeridynamicsSolver::setMaterial(int m, const MaterialDesc& desc) {
  arrays_.edit();
  materialDescs_.at(m) = desc;  // density is not live: masses were fixed when the bodies were built
  refreshMaterials();
}

int PeridynamicsSolver::launchProjectile(const vec3& position, const vec3& velocity, float radius, int material,
                                         float density) {
  // A thrown ball is dynamic: it slows down, bounces off or gets stuck as the particles push back.
  const float rho = throwDensity(materialDescs_, material, density);
  PdProjectileArrays& pr = arrays_.edit().projectiles;
  pr.centre.push_back(position);
  pr.velocity.push_back(velocity);
  pr.radius.push_back(radius);
  pr.forceConstant.push_back(throwConstant_);
  pr.model.push_back(throwModel_);
  pr.active.push_back(1);
  projectileLaunch_.push_back(time_);
  projectileMaterial_.push_back(uint16_t(material));
  projectileMass_.push_back(4.0f / 3.0f * kPi * radius * radius * radius * rho);
  computeStableDt();  // the new ball's stiffness may call for a shorter step
  return particleCount() + pr.size() - 1;  // its index in RenderFrame
}

// A ball of particles on the cubic lattice with its own families (bonds only inside the ball), moving at `velocity`.
int PeridynamicsSolver::launchBreakableProjectile(const vec3& centre, const vec3& velocity, float radius,
                                                  float elementRadius, int material, float density) {
  const float rho = throwDensity(materialDescs_, material, density);
  // The ball uses the scene's lattice spacing whatever `elementRadius` says: the horizon, the partial volumes and the
  // contact reach are the scene's, and a ball on another lattice would get no bonds (coarser) or start in contact
  // with itself (finer).
  (void)elementRadius;
  const float latticeRadius = 0.5f * params_.spacing;
  const std::vector<vec3> world = packBall(centre, radius, latticeRadius, Packing::SimpleCubic);
  PdArrays& a = arrays_.edit();
  int32_t body = 0;
  for (int32_t b : a.particles.body) body = std::max(body, b + 1);
  const int first = addParticles(a, world, latticeRadius, material, rho, body, velocity);
  bulkStretchSums_.resize(size_t(body) + 1);
  bulkStretchSums_[size_t(body)] = bulkStretchSums(params_, latticeRadius, Packing::SimpleCubic, quat(1, 0, 0, 0));
  ShapeDesc sphere;
  sphere.type = ShapeType::Sphere;
  sphere.radius = radius;
  const auto shape = makeShape(sphere, "");
  while (samples_.elements() < first) samples_.addEmpty();
  for (int i = first; i < a.particles.size(); ++i)
    samples_.addElement(*shape, Transform{centre, quat(1, 0, 0, 0)}, a.particles.reference[i], latticeRadius);
  storeSamples(a);
  const std::vector<uint8_t> broken = a.bonds.broken;
  buildFamilies(first);
  std::copy(broken.begin(), broken.end(), a.bonds.broken.begin());
  arrangeForcePass(a, forcePass(), slotGroupShift());  // the family pass's end flags from the bonds kept broken
  listValid_ = false;
  rebuildReference();
  refreshMaterials();
  computeForces();
  return particleCount() - first;
}

}  // namespace frac
