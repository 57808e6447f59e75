// The explicit BDEM step of bdem_step.h instantiated with the CUDA exec policy. The physics is the same code the CPU
// runs, the Verlet contact list follows the same rule (built on the device from a CUB-sorted grid), and contacts are
// summed in the same order, so the two backends compute the same bits.
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>

#include <array>
#include <utility>

#include "backend/cuda/cuda_exec.cuh"
#include "backend/cuda/device_arena.cuh"
#include "backend/cuda/device_verlet_list.cuh"
#include "backend/cuda/grid_cuda.cuh"
#include "backend/cuda/stage_timer.cuh"
#include "solvers/bdem/bdem_cuda.h"
#include "solvers/bdem/bdem_instances.h"
#include "solvers/bdem/bdem_stats.h"
#include "solvers/bdem/bdem_step.h"

namespace frac::bdem {

// The stages of a step that FRACTURE_CUDA_STAGE_TIMES=1 times (backend/cuda/stage_timer.cuh).
using BdemStageTimer = StageTimer<7>;
constexpr std::array<const char*, 7> kStageNames = {"drift",    "kinematic",   "contact list", "bonds",
                                                    "elements", "projectiles", "kick"};

// forceStage's sub-stages 0-2 are the timer's stages 3-5 (a named type: nvcc rejects a local lambda here).
struct ForceStageMark {
  BdemStageTimer* timer;
  void operator()(int k) const { timer->mark(4 + k); }
};

struct BdemCuda::Impl {
  BdemStageTimer timer{"BDEM", kStageNames};
  DeviceArena arena;
  BdemViews device;  // every pointer in device memory
  DeviceGridStorage grid;
  DeviceVerletList list;
  uint8_t* brokenMax = nullptr;
  int bodies = 0;
  // The two contact-spring buffers: `read` holds the springs of the last step, `write` receives the next ones.
  int32_t* partnerRead = nullptr;
  vec3* springRead = nullptr;
  int32_t* partnerWrite = nullptr;
  vec3* springWrite = nullptr;
  InstanceScratch instances;  // writeInstances: fragment members and keys, its flag and summary words
  StatsTerms* statsPartial = nullptr;  // stats: kStatsChunks partial sums
  SphereHit* pickPartial = nullptr;    // castRay: kPickChunks partial hits
};

BdemCuda::BdemCuda() : impl_(std::make_unique<Impl>()) {}
BdemCuda::~BdemCuda() = default;

void BdemCuda::upload(const BdemViews& h, int bodies, int materials, const uint8_t* fragmentMember) {
  Impl& m = *impl_;
  m.arena.release();
  DeviceArena& a = m.arena;
  BdemViews d = h;  // counts, grid window and parameters by value; every pointer replaced below
  const int n = h.elements.count;
  const ElementView& he = h.elements;
  ElementView& de = d.elements;
  de.position = a.copyOf(he.position, n);
  de.velocity = a.copyOf(he.velocity, n);
  de.orientation = a.copyOf(he.orientation, n);
  de.angularVelocity = a.copyOf(he.angularVelocity, n);
  de.force = a.copyOf(he.force, n);
  de.torque = a.copyOf(he.torque, n);
  de.radius = a.copyOf(he.radius, n);
  de.invMass = a.copyOf(he.invMass, n);
  de.invInertia = a.copyOf(he.invInertia, n);
  de.material = a.copyOf(he.material, n);
  de.flags = a.copyOf(he.flags, n);

  const BondView& hb = h.bonds;
  BondView& db = d.bonds;
  const size_t nb = size_t(hb.count);
  db.first = a.copyOf(hb.first, nb);
  db.second = a.copyOf(hb.second, nb);
  db.rest = a.copyOf(hb.rest, nb);
  db.stiffnessScale = a.copyOf(hb.stiffnessScale, nb);
  db.tensileScale = a.copyOf(hb.tensileScale, nb);
  db.shearScale = a.copyOf(hb.shearScale, nb);
  db.material = a.copyOf(hb.material, nb);
  db.broken = a.copyOf(hb.broken, nb);
  db.coefficients = a.copyOf(hb.coefficients, nb);
  db.forceOnJ = a.copyOf(hb.forceOnJ, nb);
  db.torqueShared = a.copyOf(hb.torqueShared, nb);
  db.torqueRelative = a.copyOf(hb.torqueRelative, nb);
  db.stressRatio = a.copyOf(hb.stressRatio, nb);
  db.exactPending = a.copyOf(hb.exactPending, nb);
  db.elementStart = a.copyOf(hb.elementStart, size_t(n) + 1);
  db.elementEntry = a.copyOf(hb.elementEntry, 2 * nb);
  db.elementNeighbor = a.copyOf(hb.elementNeighbor, 2 * nb);

  d.planes.point = a.copyOf(h.planes.point, h.planes.count);
  d.planes.normal = a.copyOf(h.planes.normal, h.planes.count);
  d.planes.material = a.copyOf(h.planes.material, h.planes.count);

  const size_t slots = size_t(n) * h.contacts.slots;
  m.partnerRead = a.copyOf(h.contacts.previousPartner, slots);
  m.springRead = a.copyOf(h.contacts.previousSpring, slots);
  m.partnerWrite = a.copyOf(h.contacts.nextPartner, slots);
  m.springWrite = a.copyOf(h.contacts.nextSpring, slots);
  // step() points the views at the read and write buffers of each step; until then no host pointer stays behind.
  d.contacts.previousPartner = m.partnerRead;
  d.contacts.previousSpring = m.springRead;
  d.contacts.nextPartner = m.partnerWrite;
  d.contacts.nextSpring = m.springWrite;
  d.contacts.energy = a.copyOf(h.contacts.energy, n);

  const KinematicView& hk = h.kinematics;
  KinematicView& dk = d.kinematics;
  dk.element = a.copyOf(hk.element, hk.count);
  dk.body = a.copyOf(hk.body, hk.count);
  dk.offset = a.copyOf(hk.offset, hk.count);
  dk.bodyCentre = a.copyOf(hk.bodyCentre, bodies);
  dk.bodyOrientation = a.copyOf(hk.bodyOrientation, bodies);
  dk.bodyVelocity = a.copyOf(hk.bodyVelocity, bodies);
  dk.bodyAngularVelocity = a.copyOf(hk.bodyAngularVelocity, bodies);
  m.bodies = bodies;

  d.materials = a.copyOf(h.materials, materials);
  d.large = a.copyOf(h.large, h.largeCount);
  d.gridElements = a.copyOf(h.gridElements, h.gridElementCount);
  d.neighborStart = d.neighborList = nullptr;  // the device builds its own list (rebuildList) on the first step
  m.grid = allocateGridStorage(a, h.grid, n);
  d.grid.cellStart = m.grid.cellStart;
  d.grid.sortedIndex = m.grid.sortedIndex;
  d.grid.sortedSphere = m.grid.sortedSphere;
  size_t brokenMaxBytes = 0;  // the rebuild test's max over the broken flags borrows the list's scratch
  cudaCheck(cub::DeviceReduce::Max(nullptr, brokenMaxBytes, d.bonds.broken, m.brokenMax, hb.count), "CUB max (size query)");
  m.list.allocate(a, n, brokenMaxBytes);
  m.brokenMax = a.allocate<uint8_t>(1);
  m.instances.fragmentMember = a.copyOf(fragmentMember, n);
  m.instances.fragmentKey = a.allocate<int32_t>(n);
  m.instances.changed = a.allocate<int32_t>(1);
  m.instances.summaryWords = a.allocate<int32_t>(kInstanceSummaryWords);
  m.statsPartial = a.allocate<StatsTerms>(kStatsChunks);
  m.pickPartial = a.allocate<SphereHit>(kPickChunks);
  m.device = d;
}

InstanceSummary BdemCuda::writeInstances(SphereInstance* out, ElementScalar scalar) {
  const Impl& m = *impl_;
  return writeElementInstances(CudaExec{}, m.device, scalar, m.instances, out);
}

namespace {

// The CPU's rule (BdemSolver::refreshContactCandidates), same numbers: rebuild when a grid element moved more than
// skin / 2 since the last build or a bond broke in the last step.
struct NotLarge {
  const uint8_t* flags;
  FRAC_HD bool operator()(int i) const { return !(flags[i] & kFlagLarge); }
};
struct InGrid {
  const uint8_t* flags;
  FRAC_HD bool operator()(int i) const { return !(flags[i] & (kFlagLarge | kFlagInactive)); }
};
struct ListCandidates {
  BdemViews views;
  template <class F>
  FRAC_HD void operator()(int i, F&& f) const { forEachListCandidate(views, i, f); }
};

bool listNeedsRebuild(DeviceVerletList& list, uint8_t* brokenMax, const BdemViews& v) {
  if (!list.valid) return true;
  if (v.bonds.count > 0) {
    cudaCheck(cub::DeviceReduce::Max(list.temp, list.tempBytes, v.bonds.broken, brokenMax, v.bonds.count), "CUB max");
    uint8_t broken = 0;
    copyToHost(&broken, brokenMax, 1);
    if (broken == kBondBrokeThisStep) return true;
  }
  const float moved2 = list.largestMoveSquared(v.elements.position, v.elements.count, NotLarge{v.elements.flags});
  return 4.0f * moved2 > v.listSkin * v.listSkin;
}

// Grid (it also serves the projectiles until the next rebuild, as on the CPU), then the list.
void rebuildList(DeviceVerletList& list, DeviceGridStorage& grid, const BdemViews& v) {
  const int n = v.elements.count;
  buildGridCuda(grid, v.grid, v.elements.position, v.elements.radius, v.elements.flags, kFlagLarge | kFlagInactive, n);
  list.rebuild(v.elements.position, n, InGrid{v.elements.flags}, ListCandidates{v});
}

}  // namespace

void BdemCuda::uploadBodies(const KinematicView& h, int bodies) {
  const KinematicView& d = impl_->device.kinematics;
  if (bodies != impl_->bodies) throw std::runtime_error("CUDA BDEM: the number of kinematic bodies changed");
  copyToDevice(const_cast<vec3*>(d.bodyCentre), h.bodyCentre, bodies);
  copyToDevice(const_cast<quat*>(d.bodyOrientation), h.bodyOrientation, bodies);
  copyToDevice(const_cast<vec3*>(d.bodyVelocity), h.bodyVelocity, bodies);
  copyToDevice(const_cast<vec3*>(d.bodyAngularVelocity), h.bodyAngularVelocity, bodies);
}

void BdemCuda::step(const BdemStepParams& params) {
  Impl& m = *impl_;
  const CudaExec exec;
  BdemViews v = m.device;
  v.contacts.previousPartner = m.partnerRead;
  v.contacts.previousSpring = m.springRead;
  v.contacts.nextPartner = m.partnerWrite;
  v.contacts.nextSpring = m.springWrite;
  BdemStageTimer& t = m.timer;
  t.mark(0);
  driftStage(exec, v, params);
  t.mark(1);
  kinematicStage(exec, v);
  t.mark(2);
  if (listNeedsRebuild(m.list, m.brokenMax, v)) rebuildList(m.list, m.grid, v);
  v.neighborStart = m.list.start;
  v.neighborList = m.list.entries;
  t.mark(3);
  forceStage(exec, v, params, ForceStageMark{&t});
  kickStage(exec, v, params);
  t.mark(7);
  t.endStep();
  std::swap(m.partnerRead, m.partnerWrite);
  std::swap(m.springRead, m.springWrite);
}

void BdemCuda::download(const BdemViews& h) {
  const Impl& m = *impl_;
  const BdemViews& d = m.device;
  const int n = h.elements.count;
  copyToHost(h.elements.position, d.elements.position, n);
  copyToHost(h.elements.velocity, d.elements.velocity, n);
  copyToHost(h.elements.orientation, d.elements.orientation, n);
  copyToHost(h.elements.angularVelocity, d.elements.angularVelocity, n);
  copyToHost(h.elements.force, d.elements.force, n);
  copyToHost(h.elements.torque, d.elements.torque, n);
  const size_t nb = size_t(h.bonds.count);
  copyToHost(h.bonds.broken, d.bonds.broken, nb);
  copyToHost(h.bonds.forceOnJ, d.bonds.forceOnJ, nb);
  copyToHost(h.bonds.torqueShared, d.bonds.torqueShared, nb);
  copyToHost(h.bonds.torqueRelative, d.bonds.torqueRelative, nb);
  const size_t slots = size_t(n) * h.contacts.slots;
  copyToHost(const_cast<int32_t*>(h.contacts.previousPartner), m.partnerRead, slots);
  copyToHost(const_cast<vec3*>(h.contacts.previousSpring), m.springRead, slots);
  copyToHost(h.contacts.nextPartner, m.partnerWrite, slots);
  copyToHost(h.contacts.nextSpring, m.springWrite, slots);
  copyToHost(h.contacts.energy, d.contacts.energy, n);
}

StatsTerms BdemCuda::stats() {
  Impl& m = *impl_;
  return elementStats(CudaExec{}, m.device, m.instances, m.statsPartial);
}

SphereHit BdemCuda::castRay(const vec3& origin, const vec3& direction) {
  Impl& m = *impl_;
  return nearestSphereHit(CudaExec{}, m.device.elements.count, ElementSphere{m.device.elements}, origin, direction,
                          m.pickPartial);
}

void BdemCuda::synchronize() { cudaCheck(cudaDeviceSynchronize(), "BDEM step"); }

size_t BdemCuda::deviceBytes() const { return impl_->arena.bytes(); }

}  // namespace frac::bdem
