// FemSolver: the scene's bodies meshed into tetrahedra, lumped masses, materials, the stable step.
#include <algorithm>
#include <array>
#include <cmath>
#include <map>

#include "geometry/tet_mesh.h"
#include "io/scene_error.h"
#include "kernels/fem_contact.h"
#include "solvers/fem/fem_pieces.h"
#include "solvers/fem/fem_solver.h"

namespace frac {

namespace {

FemMaterial femMaterial(const MaterialDesc& d) {
  FemMaterial m;
  m.bulkModulus = d.bulkModulus;
  m.shearModulus = d.shearModulus;
  m.restDensity = d.density;
  m.soundSpeed = std::sqrt((d.bulkModulus + 4.0f / 3.0f * d.shearModulus) / d.density);
  m.jc = fem::JohnsonCook{d.jcA, d.jcB, d.jcN, d.jcC, d.jcM, d.jcD1, d.jcD2, d.jcD3, d.jcD4, d.jcD5,
                          d.damageStrain, d.roomTemperature, d.meltTemperature, d.heatCapacity};
  m.eos = fem::MieGruneisen{d.bulkModulus, d.hugoniotB, d.hugoniotC, d.gruneisenGamma};
  m.friction = d.friction;
  m.contactDamping = fem::restitutionDamping(d.restitution);
  m.spallStrength = d.spallStrength;
  return m;
}

}  // namespace

void FemSolver::load(const SceneDesc& scene, const SolverOptions& options) {
  const bool onDevice = arrays_.onDevice();
  arrays_.dropDevice();
  *this = FemSolver();
  if (onDevice) setBackend(Backend::Cuda);  // a reloaded scene stays on the backend it was on
  seed_ = scene.seed;
  exec_.threads = options.threads;
  exec_.minParallel = 1024;
  materialDescs_ = scene.materials;
  grips_.load(scene, "fem-debris", true, true);  // kinematics without "grip": rigid bodies of their own (below)
  FemArrays& a = arrays_.edit();
  for (const MaterialDesc& m : materialDescs_) a.materials.push_back(femMaterial(m));
  const std::string baseDir = sceneDirectory(scene);
  for (size_t b = 0; b < scene.bodies.size(); ++b) {
    const std::string where = "/bodies/" + std::to_string(b);
    const int material = sceneMaterial(scene, scene.bodies[b].material, where + "/material");
    addBody(scene.bodies[b], int(b), material, materialDescs_[material].density, baseDir, scene.path + ": " + where);
  }
  // The bodies' nodes and tetrahedra: the rigid kinematics' come after them, and the probes measure the bodies only.
  const int bodyNodes = a.nodes.size(), bodyTets = a.tets.size();
  kinematicBody_.assign(scene.bodies.size(), 0);
  // Kinematics without "grip": meshed like bodies, after them, every node moved at the kinematic's velocity (a rigid
  // body of infinite mass on its path, as BDEM's); the other bodies meet them through the contact between bodies.
  std::vector<std::array<int, 3>> kinematicNodes;  // kinematic, first node, end
  for (size_t k = 0; k < scene.kinematics.size(); ++k) {
    const KinematicDesc& kin = scene.kinematics[k];
    if (kin.grip) continue;
    const std::string where = "/kinematics/" + std::to_string(k);
    const int material = sceneMaterial(scene, kin.material, where + "/material");
    BodyDesc body;
    static_cast<PlacedShapeDesc&>(body) = kin;
    body.velocity = body.angularVelocity = vec3(0.0f);  // the drive sets it from the start time on
    const int first = a.nodes.size();
    addBody(body, int(kinematicBody_.size()), material, materialDescs_[material].density, baseDir,
            scene.path + ": " + where);
    kinematicBody_.push_back(1);
    kinematicNodes.push_back({int(k), first, a.nodes.size()});
  }
  buildCornerLists();
  a.nodes.drivenBy = grips_.assign(scene, a.nodes.reference);  // grips take over the nodes inside their shape
  for (const auto& [k, first, end] : kinematicNodes)
    for (int i = first; i < end; ++i) a.nodes.drivenBy[size_t(i)] = int16_t(k);
  grips_.advance(0.0, 0.0, a.driveVelocity, a.driveSpin, a.driveCentre);
  a.driveSlide = grips_.slideMasks();
  for (const ProjectileDesc& d : scene.projectiles) {
    a.projectiles.centre.push_back(d.position);
    a.projectiles.velocity.push_back(d.velocity);
    a.projectiles.radius.push_back(d.radius);
    a.projectiles.active.push_back(d.launchTime <= 0.0f);
    projectileLaunch_.push_back(d.launchTime);
    projectileMaterial_.push_back(uint16_t(sceneMaterial(scene, d.material, "/projectiles/material")));
  }
  for (const PlaneDesc& plane : scene.planes) {
    a.planes.point.push_back(plane.point);
    a.planes.normal.push_back(glm::normalize(plane.normal));
    a.planes.material.push_back(uint16_t(sceneMaterial(scene, plane.material, "/planes/material")));
  }
  checkStartsAbovePlanes(scene);
  params_.gravity = scene.solver.gravity;
  params_.viscosityQuadratic = scene.solver.viscosityQuadratic;
  params_.viscosityLinear = scene.solver.viscosityLinear;
  // Node-to-surface contact between pieces (fem_contact_stages.h bodyContactForce): for two bodies or more, or one body
  // of several pieces (a mesh of separate parts); later also once debris appears (FemSolver::step).
  const int pieces = labelPieces();
  params_.bodyContact = kinematicBody_.size() > 1 || pieces > int(kinematicBody_.size());
  computeStableDt();
  setLargestRadius();
  reference_ = ReferenceElements{};
  reference_.meshNodes = true;
  for (int i = 0; i < bodyNodes; ++i) reference_.add(i, a.nodes.reference[i], nodeRadius_[i]);
  for (int t = 0; t < bodyTets; ++t) {  // node i is reference element i
    const TetCorners& c = a.tets.corners[t];
    reference_.tets.push_back({c.node[0], c.node[1], c.node[2], c.node[3]});
  }
}

// The body's shape as TetGen tetrahedra of edge 2 element_radius, placed in the world; masses a quarter of each
// incident tetrahedron's (eq. 1, lumped) at `density`. `where` names the body in errors.
void FemSolver::addBody(const BodyDesc& body, int b, int material, float density, const std::string& baseDir,
                        const std::string& where) {
  const MaterialDesc& m = materialDescs_[material];
  if (!(m.bulkModulus > 0.0f) || !(m.shearModulus > 0.0f))
    throw SceneError(where + "/material: fem-debris needs the material's bulk_modulus and shear_modulus (> 0), got " +
                     std::to_string(m.bulkModulus) + " and " + std::to_string(m.shearModulus));
  const float edge = 2.0f * body.elementRadius;
  const TetMesh mesh = tetrahedralizeShape(body.shape, baseDir, edge, where + "/shape");
  FemArrays& a = arrays_.edit();
  FemNodeArrays& n = a.nodes;
  const int first = n.size();
  for (const vec3& local : mesh.nodes) {
    const vec3 x = body.transform.position + rotate(body.transform.orientation, local);
    n.reference.push_back(x);
    n.displacement.push_back(vec3(0.0f));
    n.velocity.push_back(body.velocity + glm::cross(body.angularVelocity, x - body.transform.position));
    n.force.push_back(vec3(0.0f));
    n.mass.push_back(0.0f);
    n.material.push_back(uint16_t(material));
    n.body.push_back(uint16_t(b));
    nodeRadius_.push_back(0.25f * edge);
  }
  FemTetArrays& t = a.tets;
  for (const auto& tet : mesh.tets) {
    TetCorners c{{first + tet[0], first + tet[1], first + tet[2], first + tet[3]}};
    const float volume = fem::tetGeometry(n.reference[c.node[0]], n.reference[c.node[1]], n.reference[c.node[2]],
                                          n.reference[c.node[3]]).volume;
    if (!(volume > 0.0f)) throw SceneError(where + "/shape: the tetrahedral mesh has a flat or inverted element");
    t.corners.push_back(c);
    t.restVolume.push_back(volume);
    t.length.push_back(fem::tetSmallestAltitude(n.reference[c.node[0]], n.reference[c.node[1]],
                                                n.reference[c.node[2]], n.reference[c.node[3]]));
    t.plasticStrain.push_back(0.0f);
    t.damage.push_back(0.0f);
    t.temperature.push_back(m.roomTemperature);
    t.energy.push_back(0.0f);
    t.failed.push_back(0);
    t.material.push_back(uint16_t(material));
    t.deviatoric.push_back(fem::Sym3{});
    t.pressure.push_back(0.0f);
    t.volumetricStrain.push_back(0.0f);
    t.volume.push_back(volume);
    for (int k = 0; k < 4; ++k) n.mass[c.node[k]] += 0.25f * density * volume;
  }
}

// A body whose mesh starts deep inside a ground plane would be pushed out node by node, faster than its elements can
// follow (they invert and the step fails): that is a scene error, with the height that would fix it.
void FemSolver::checkStartsAbovePlanes(const SceneDesc& scene) const {
  const FemArrays& a = arrays_.layout();
  for (int k = 0; k < a.planes.size(); ++k) {
    std::vector<float> deepest(scene.bodies.size(), 0.0f);
    for (int i = 0; i < a.nodes.size(); ++i) {
      if (a.nodes.body[i] >= scene.bodies.size()) continue;  // a kinematic may stand in the ground
      const float depth = -glm::dot(a.nodes.reference[i] - a.planes.point[k], a.planes.normal[k]);
      deepest[a.nodes.body[i]] = std::max(deepest[a.nodes.body[i]], depth);
    }
    for (size_t b = 0; b < deepest.size(); ++b) {
      const float edge = 2.0f * scene.bodies[b].elementRadius;
      if (deepest[b] > 0.1f * edge)
        throw SceneError(scene.path + ": /bodies/" + std::to_string(b) + "/position: fem-debris: the body reaches " +
                         std::to_string(deepest[b]) + " m into plane " + std::to_string(k) +
                         "; expected it to start above it (move it out by at least that much)");
    }
  }
}

// Each node's incident corners (CSR, in tetrahedron order: the gather's fixed order), volume, particle radius and mesh
// neighbours (its debris pairs), and each tetrahedron's neighbours across its faces (the surface is the faces without
// an intact neighbour).
void FemSolver::buildCornerLists() {
  FemArrays& a = arrays_.edit();
  const int nodes = a.nodes.size(), tets = a.tets.size();
  std::vector<int32_t>& start = a.nodes.cornerStart;
  start.assign(size_t(nodes) + 1, 0);
  for (const TetCorners& c : a.tets.corners)
    for (int k = 0; k < 4; ++k) ++start[c.node[k] + 1];
  for (int i = 0; i < nodes; ++i) start[i + 1] += start[i];
  a.nodes.corner.assign(size_t(start[nodes]), 0);
  std::vector<int32_t> fill(start.begin(), start.end() - 1);
  for (int e = 0; e < tets; ++e)
    for (int k = 0; k < 4; ++k) a.nodes.corner[fill[a.tets.corners[e].node[k]]++] = 4 * e + k;
  a.tets.cornerForce.assign(size_t(4) * tets, vec3(0.0f));
  // Each node's mesh neighbours (the nodes it shares an edge with), ascending: the debris pairs.
  std::vector<std::vector<int32_t>> around(static_cast<size_t>(nodes));
  for (const TetCorners& c : a.tets.corners)
    for (int k = 0; k < 4; ++k)
      for (int l = 0; l < 4; ++l)
        if (k != l) around[c.node[k]].push_back(c.node[l]);
  a.nodes.neighborStart.assign(size_t(nodes) + 1, 0);
  a.nodes.neighbor.clear();
  for (int i = 0; i < nodes; ++i) {
    std::vector<int32_t>& list = around[i];
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
    a.nodes.neighbor.insert(a.nodes.neighbor.end(), list.begin(), list.end());
    a.nodes.neighborStart[i + 1] = int32_t(a.nodes.neighbor.size());
  }
  a.nodes.neighborRest.assign(a.nodes.neighbor.size(), 0.0f);
  // Volumes and particle radii (in double: the same constants for every backend), and the debris state. Departure:
  // the radius of the ball of the node's volume (~0.54 edge) would make every converted pair overlap its mesh
  // neighbours and the contact spring throw them apart; the radius is capped at half the node's shortest mesh edge,
  // so neighbours just touch at rest.
  a.nodes.volume.assign(size_t(nodes), 0.0f);
  a.nodes.particleRadius.assign(size_t(nodes), 0.0f);
  for (int i = 0; i < nodes; ++i) {
    double volume = 0.0, shortest = 1e30;
    for (int c = start[i]; c < start[i + 1]; ++c) volume += 0.25 * a.tets.restVolume[a.nodes.corner[c] / 4];
    for (int k = a.nodes.neighborStart[i]; k < a.nodes.neighborStart[i + 1]; ++k)
      shortest = std::min(shortest, double(glm::length(a.nodes.reference[a.nodes.neighbor[k]] - a.nodes.reference[i])));
    a.nodes.volume[i] = float(volume);
    a.nodes.particleRadius[i] = float(std::min(std::cbrt(3.0 * volume / (4.0 * 3.14159265358979)), 0.5 * shortest));
  }
  a.nodes.debris.assign(size_t(nodes), 0);
  a.nodes.debrisPressure.assign(size_t(nodes), 0.0f);
  a.nodes.pairForce.assign(size_t(nodes), vec3(0.0f));
  // Each tetrahedron's neighbour across each face (the face opposite corner k), or -1 on the body's boundary.
  std::map<std::array<int32_t, 3>, int32_t> faces;  // sorted nodes -> 4 tet + k of the first side seen
  std::vector<int32_t>& faceNeighbor = a.tets.faceNeighbor;
  faceNeighbor.assign(size_t(4) * tets, -1);
  for (int e = 0; e < tets; ++e)
    for (int k = 0; k < 4; ++k) {
      const TetCorners& c = a.tets.corners[e];
      std::array<int32_t, 3> key{c.node[fem::tetFaceCorner(k, 0)], c.node[fem::tetFaceCorner(k, 1)],
                                 c.node[fem::tetFaceCorner(k, 2)]};
      std::sort(key.begin(), key.end());
      auto [it, added] = faces.try_emplace(key, 4 * e + k);
      if (added) continue;
      faceNeighbor[size_t(4) * e + k] = it->second / 4;
      faceNeighbor[size_t(it->second)] = e;
    }
  a.nodes.position.assign(size_t(nodes), vec3(0.0f));
  a.nodes.contactGrid.assign(size_t(nodes), 0);
  a.nodes.faceCount.assign(size_t(nodes), 0);
  a.nodes.faceReach.assign(size_t(nodes), 0.0f);
  a.nodes.boundaryFace.assign(size_t(3) * a.nodes.corner.size(), 0);
  a.tets.exposedFaces.assign(a.tets.corners.size(), 0);
  a.nodes.meshContact.assign(size_t(nodes), vec3(0.0f));
  a.nodes.bodyFace.assign(size_t(nodes), -1);
  a.nodes.bodyFaceWeight.assign(size_t(nodes), vec3(0.0f));
  a.nodes.bodyFaceForce.assign(size_t(nodes), vec3(0.0f));
  a.anyDebris.assign(1, 0);
  a.contactBounds.assign(7, 0);
  a.nodes.piece.assign(size_t(nodes), 0);
  a.nodes.pieceNext.assign(size_t(nodes), 0);
  a.pieceWords.assign(2, 0);
}

// Labels the pieces on the host (fem_pieces.h) and counts them.
int FemSolver::labelPieces() {
  FemArrays& a = arrays_.edit();
  fem::labelPieces(exec_, hostViews(a));
  int count = 0;
  for (int i = 0; i < a.nodes.size(); ++i) count += a.nodes.piece[i] == i;
  return count;
}

// The largest particle radius (the particles' contact grid, fem_contact_stages.h meshContactStage).
void FemSolver::setLargestRadius() {
  const FemNodeArrays& n = arrays_.layout().nodes;
  float radius = 0.0f;
  for (int i = 0; i < n.size(); ++i) radius = std::max(radius, n.particleRadius[i]);
  params_.largestRadius = radius;
}

// Lu-style estimate for the explicit scheme: the smallest over the tetrahedra of (smallest altitude) / (dilatational
// wave speed sqrt((K + 4 G / 3) / rho)); the scene's safety factor multiplies it.
void FemSolver::computeStableDt() {
  const FemArrays& a = arrays_.layout();
  double dt = 1e30;
  for (int e = 0; e < a.tets.size(); ++e) {
    const TetCorners& c = a.tets.corners[e];
    if (kinematicBody_[a.nodes.body[c.node[0]]]) continue;  // moved rigidly: no waves to resolve
    const MaterialDesc& m = materialDescs_[a.tets.material[e]];
    const double speed = std::sqrt((double(m.bulkModulus) + 4.0 / 3.0 * m.shearModulus) / m.density);
    const float altitude = fem::tetSmallestAltitude(a.nodes.reference[c.node[0]], a.nodes.reference[c.node[1]],
                                                    a.nodes.reference[c.node[2]], a.nodes.reference[c.node[3]]);
    dt = std::min(dt, double(altitude) / speed);
  }
  stableDt_ = dt < 1e30 ? dt : 1e-4;
}

void FemSolver::setMaterial(int m, const MaterialDesc& desc) {
  materialDescs_.at(m) = desc;
  arrays_.edit().materials.at(m) = femMaterial(desc);
  computeStableDt();
}

}  // namespace frac
