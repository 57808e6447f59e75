// Fracture surfaces extracted on CUDA (surface/fracture_surfaces.h with the CUDA exec policy): the mesh the device
// builds from its own state, collected to the host, equals the CPU's mesh of the same state byte for byte (positions,
// normals, fragment keys, elements, crack flags, indices) and has the same piece count.
#include <doctest/doctest.h>

#if defined(FRACTURE_HAVE_CUDA)
#include <cstring>
#include <string>
#include <vector>

#include "io/scene_loader.h"
#include "solvers/simulation.h"

namespace {

using namespace frac;

template <class T>
int differing(const std::vector<T>& a, const std::vector<T>& b) {
  if (a.size() != b.size()) return -1;
  int count = 0;
  for (size_t i = 0; i < a.size(); ++i) count += std::memcmp(&a[i], &b[i], sizeof(T)) != 0;
  return count;
}

void checkScene(const std::string& scene, std::vector<std::string> overrides, int steps, int minPieces) {
  CAPTURE(scene);
  overrides.push_back("solver.backend=cuda");
  Simulation sim(loadScene(std::string(FRACTURE_SOURCE_DIR) + "/assets/scenes/" + scene, overrides), 0);
  for (int s = 0; s < steps; ++s) sim.step();
  Solver& solver = sim.solver();
  REQUIRE(solver.activeBackend() == Backend::Cuda);
  SurfaceMesh onDevice, onHost;
  solver.writeSurfaces(onDevice, SurfaceSettings{});
  solver.setBackend(Backend::Cpu);  // the same state (the host copy is refreshed) through the CPU's threads
  solver.writeSurfaces(onHost, SurfaceSettings{});
  solver.setBackend(Backend::Cuda);
  INFO(onHost.triangleCount() << " triangles, " << onHost.pieces << " pieces on the CPU");
  REQUIRE(onHost.triangleCount() > 0);
  CHECK(onDevice.pieces == onHost.pieces);
  CHECK(onHost.pieces >= minPieces);
  CHECK(differing(onDevice.indices, onHost.indices) == 0);
  CHECK(differing(onDevice.positions, onHost.positions) == 0);
  CHECK(differing(onDevice.normals, onHost.normals) == 0);
  CHECK(differing(onDevice.fragment, onHost.fragment) == 0);
  CHECK(differing(onDevice.element, onHost.element) == 0);
  CHECK(differing(onDevice.crack, onHost.crack) == 0);
}

}  // namespace

TEST_CASE("BDEM fracture surfaces extracted on CUDA equal the CPU's (wall impact, the cut 103k block)") {
  checkScene("wall_impact.json", {"projectiles.0.position=[0.02,0.1,0.051]", "projectiles.0.velocity=[0,0,-20]"}, 400,
             2);
  checkScene("bench_surface_block.json", {}, 1, 8);
}

TEST_CASE("pd-bond and pd-state fracture surfaces extracted on CUDA equal the CPU's") {
  checkScene("lammps_peri_pmb.json", {}, 280, 1);
  checkScene("pd_sheet_tear.json", {}, 300, 1);
}
#endif
