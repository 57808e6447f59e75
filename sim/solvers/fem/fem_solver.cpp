// FemSolver: stepping on the CPU, statistics, throws and live edits.
#include "solvers/fem/fem_solver.h"

#include <algorithm>
#include <stdexcept>

#include "analysis/fragments.h"
#include "solvers/fem/fem_step.h"

namespace frac {

// stepStages' CPU side: the host arrays.
class FemSolver::CpuStep {
 public:
  CpuStep(FemArrays& arrays, HostElementGrid* grids) : arrays_(arrays), grids_(grids) {}
  FemViews views() const { return hostViews(arrays_); }
  HostElementGrid& contactGrid(int k) { return grids_[k]; }

 private:
  FemArrays& arrays_;
  HostElementGrid* grids_;
};

// Whether a node has become debris (the state's word; from the device every 16 steps while none has).
bool FemSolver::anyDebris() {
  if (arrays_.deviceCurrent()) return arrays_.device().anyDebris();
  return arrays_.query().anyDebris[0] != 0;
}

void FemSolver::step(double dt) {
  FemArrays& inputs = arrays_.inputs();  // the projectiles move on the host (Input arrays)
  for (int k = 0; k < inputs.projectiles.size(); ++k) {  // rigid balls: launched on time, then at constant velocity
    if (!inputs.projectiles.active[k] && time_ + dt > projectileLaunch_[k]) inputs.projectiles.active[k] = 1;
    if (inputs.projectiles.active[k]) inputs.projectiles.centre[k] += float(dt) * inputs.projectiles.velocity[k];
  }
  grips_.advance(time_, dt, inputs.driveVelocity, inputs.driveSpin, inputs.driveCentre);
  params_.dt = float(dt);
  // The debris contacts cost a grid of the nodes each step: on from the first multiple of 16 steps after a node
  // became debris (the same step on every backend: it is read from the state).
  if (!params_.meshContact && steps_ % 16 == 0) params_.meshContact = anyDebris();
  params_.bodyContact = params_.bodyContact || params_.meshContact;  // debris: a body has come apart
  params_.labelCheck = steps_ % 16 == 0;
  if (arrays_.onDevice()) {  // the same stages on the device mirror (fem_device.cu)
    if (arrays_.deviceNeedsUpload()) uploadToDevice();
    arrays_.device().uploadInputs(inputs);
    arrays_.device().step(params_);
    arrays_.deviceStepped();
  } else {
    CpuStep cpu(arrays_.edit(), contactGrids_);
    fem::stepStages(exec_, cpu, params_);
  }
  advanceClock(dt);
}

void FemSolver::uploadToDevice() {
  arrays_.device().upload(arrays_.query());
  arrays_.uploaded();
}

void FemSolver::computeStress(float dt) {
  FemArrays& a = arrays_.edit();
  FemStepParams p = params_;
  p.dt = dt;
  fem::stressStage(exec_, hostViews(a), p);
}

double FemSolver::kineticEnergy() const {
  const FemNodeArrays& n = arrays_.read().nodes;
  double sum = 0.0;
  for (int i = 0; i < n.size(); ++i) sum += 0.5 * double(n.mass[i]) * double(glm::dot(n.velocity[i], n.velocity[i]));
  return sum;
}

double FemSolver::elasticEnergy() const {
  const FemArrays& a = arrays_.read();
  double sum = 0.0;
  for (int e = 0; e < a.tets.size(); ++e) {
    const FemMaterial& m = a.materials[a.tets.material[e]];
    sum += fem::elasticEnergy(a.tets.deviatoric[e], a.tets.pressure[e], a.tets.volume[e], m.bulkModulus,
                              m.shearModulus);
  }
  return sum;
}

SimStats FemSolver::stats() const {
  const FemArrays& a = arrays_.read();
  StatsTerms sums;
  sums.kineticEnergy = kineticEnergy();
  sums.elasticEnergy = elasticEnergy();
  sums.fragments = meshPieces().count;
  for (uint8_t f : a.tets.failed) sums.bondsBroken += f;  // failed tetrahedra
  SimStats s = simStats(time_, steps_, a.nodes.size(), a.tets.size(), sums);
  for (uint8_t d : a.nodes.debris) s.debrisParticles += d;
  return s;
}

// Nodes joined by intact tetrahedra; a node whose tetrahedra all failed is a piece of its own (a debris particle).
FragmentLabels FemSolver::meshPieces() const {
  const FemArrays& a = arrays_.read();
  std::vector<int32_t> first, second;
  for (int e = 0; e < a.tets.size(); ++e)
    for (int k = 1; k < 4 && !a.tets.failed[e]; ++k) {
      const TetCorners& c = a.tets.corners[e];
      first.push_back(c.node[0]);
      second.push_back(c.node[k]);
    }
  const std::vector<uint8_t> include(size_t(a.nodes.size()), 1), intact(first.size(), 0);
  return labelFragments(a.nodes.size(), include, first.data(), second.data(), intact.data(), (long long)first.size());
}

// The load on a kinematic: the force its nodes receive (a grip's: from their tetrahedra, gravity and contact; a rigid
// kinematic's: from the contact, less its own weight), against its motion.
KinematicLoad FemSolver::kinematicLoad(const std::string& name) const {
  const int k = grips_.find(name);
  if (k < 0) throw std::invalid_argument("fem-debris: no kinematic named '" + name + "'");
  const FemNodeArrays& n = arrays_.read().nodes;
  const vec3 centre = grips_.centre(k);
  vec3 total(0.0f), moment(0.0f);
  for (int i = 0; i < n.size(); ++i)
    if (n.drivenBy[i] == int16_t(k)) {
      const vec3 f = kinematicBody_[n.body[i]] ? n.force[i] - n.mass[i] * params_.gravity : n.force[i];
      total += f;
      moment += glm::cross(n.reference[i] + n.displacement[i] - centre, f);
    }
  return grips_.loadOn(k, total, moment, time_);
}

std::vector<vec3> FemSolver::displacementsOf(const std::vector<int>& elements) const {
  const FemNodeArrays& n = arrays_.read().nodes;
  std::vector<vec3> out;
  out.reserve(elements.size());
  for (int i : elements) out.push_back(n.displacement.at(i));
  return out;
}

void FemSolver::applyLiveSettings(const SceneDesc& scene) {
  applyEditedMaterials(scene);
  params_.gravity = scene.solver.gravity;
  params_.viscosityQuadratic = scene.solver.viscosityQuadratic;
  params_.viscosityLinear = scene.solver.viscosityLinear;
}

// A rigid ball moving at constant velocity through the nodes' penalty contact (the paper's projectile, sec. 5).
int FemSolver::launchProjectile(const vec3& position, const vec3& velocity, float radius, int material, float density) {
  throwDensity(materialDescs_, material, density);  // checks the material
  FemArrays& a = arrays_.edit();
  a.projectiles.centre.push_back(position);
  a.projectiles.velocity.push_back(velocity);
  a.projectiles.radius.push_back(radius);
  a.projectiles.active.push_back(1);
  projectileLaunch_.push_back(time_);
  projectileMaterial_.push_back(uint16_t(material));
  return a.nodes.size() + a.projectiles.size() - 1;
}

// A breakable ball: a sphere of `radius` meshed into tetrahedra of edge 2 elementRadius (the bodies' TetGen route), a
// body of its own at `velocity` in the material's law (masses at `density` when it is given), which meets the other
// bodies through their node-to-surface contact and breaks by its damage. Everything already there keeps its state: the
// new nodes and tetrahedra come after the old ones, whose lists and slots do not change.
int FemSolver::launchBreakableProjectile(const vec3& centre, const vec3& velocity, float radius, float elementRadius,
                                         int material, float density) {
  const float rho = throwDensity(materialDescs_, material, density);  // checks the material
  BodyDesc ball;
  ball.shape.type = ShapeType::Sphere;
  ball.shape.radius = radius;
  ball.transform.position = centre;
  ball.velocity = velocity;
  ball.elementRadius = std::min(elementRadius, 0.5f * radius);  // at least two edges across
  FemArrays& a = arrays_.edit();
  const int firstNode = a.nodes.size();
  const int body = int(kinematicBody_.size());
  kinematicBody_.push_back(0);
  const FemArrays kept = a;  // the state buildCornerLists starts afresh
  addBody(ball, body, material, rho, "", "thrown ball");
  buildCornerLists();
  auto keep = [](auto& now, const auto& before) { std::copy(before.begin(), before.end(), now.begin()); };
  keep(a.tets.cornerForce, kept.tets.cornerForce);
  keep(a.nodes.neighborRest, kept.nodes.neighborRest);  // the old nodes' neighbour slots come first, unchanged
  keep(a.nodes.debris, kept.nodes.debris);
  keep(a.nodes.debrisPressure, kept.nodes.debrisPressure);
  a.anyDebris = kept.anyDebris;
  labelPieces();  // the old pieces as they are, the ball one more
  if (!a.nodes.drivenBy.empty()) a.nodes.drivenBy.resize(size_t(a.nodes.size()), int16_t(-1));
  for (int i = firstNode; i < a.nodes.size(); ++i) reference_.add(i, a.nodes.reference[i], nodeRadius_[i]);
  params_.bodyContact = true;
  computeStableDt();  // the ball's tetrahedra may call for a shorter step
  setLargestRadius();
  return a.nodes.size() - firstNode;
}

// Per node: the largest damage phi of its tetrahedra (1 for a debris particle).
double FemSolver::freeMass() const {
  const FemNodeArrays& nodes = arrays_.layout().nodes;  // constant: the host copy holds it
  double mass = 0.0;
  for (int i = 0; i < nodes.size(); ++i) mass += nodes.mass[i];
  return mass;
}

std::vector<float> FemSolver::damage() const {
  const FemArrays& a = arrays_.read();
  std::vector<float> out(size_t(a.nodes.size()), 0.0f);
  for (int e = 0; e < a.tets.size(); ++e)
    for (int k = 0; k < 4; ++k) {
      float& d = out[a.tets.corners[e].node[k]];
      d = std::max(d, a.tets.failed[e] ? 1.0f : a.tets.damage[e]);
    }
  return out;
}

}  // namespace frac
