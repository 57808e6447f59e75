// Solver::writeInstances on CUDA (the interop path's device half, without Vulkan): the instances a solver writes into
// device memory, copied back, equal the CPU's instances of the same state byte for byte, and so do the summaries.
#include <doctest/doctest.h>

#if defined(FRACTURE_HAVE_CUDA)
#include <cuda_runtime.h>

#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "io/scene_loader.h"
#include "solvers/simulation.h"

namespace {

using namespace frac;

void checkScene(const std::string& scene, std::vector<std::string> overrides, int steps) {
  overrides.push_back("solver.backend=cuda");
  Simulation sim(loadScene(std::string(FRACTURE_SOURCE_DIR) + "/assets/scenes/" + scene, overrides), 0);
  for (int s = 0; s < steps; ++s) sim.step();
  Solver& solver = sim.solver();
  REQUIRE(solver.activeBackend() == Backend::Cuda);
  REQUIRE(sim.stats().bondsBroken > 0);
  const int capacity = sim.stats().elements + 16;  // elements, and peridynamics' projectiles after its particles
  SphereInstance* device = nullptr;
  REQUIRE(cudaMalloc(&device, sizeof(SphereInstance) * size_t(capacity)) == cudaSuccess);
  for (ElementScalar scalar :
       {ElementScalar::None, ElementScalar::StressRatio, ElementScalar::Damage, ElementScalar::Speed}) {
    CAPTURE(int(scalar));
    const InstanceSummary onDevice = solver.writeInstances(device, capacity, scalar);
    REQUIRE(onDevice.count >= sim.stats().elements);
    REQUIRE(onDevice.count <= capacity);
    std::vector<SphereInstance> got(size_t(onDevice.count)), expected(size_t(onDevice.count));
    REQUIRE(cudaMemcpy(got.data(), device, sizeof(SphereInstance) * got.size(), cudaMemcpyDeviceToHost) == cudaSuccess);
    solver.setBackend(Backend::Cpu);  // the same state (the host copy is refreshed) through the CPU pass
    const InstanceSummary onHost = solver.writeInstances(expected.data(), onDevice.count, scalar);
    solver.setBackend(Backend::Cuda);
    REQUIRE(onHost.count == onDevice.count);
    int differing = 0;
    for (size_t i = 0; i < got.size(); ++i) differing += std::memcmp(&got[i], &expected[i], sizeof(SphereInstance)) != 0;
    INFO(differing << " of " << got.size() << " instances differ");
    CHECK(differing == 0);
    CHECK(std::memcmp(&onDevice, &onHost, sizeof(InstanceSummary)) == 0);
  }
  cudaFree(device);
  // Picking (Solver::castRay) on the device's state: the same element and distance as on the CPU.
  RenderFrame frame;
  solver.writeFrame(frame, false);
  for (size_t k = 0; k < 8; ++k) {
    const vec3 target(frame.spheres[k * frame.elementCount() / 8]);
    const vec3 eye = target + vec3(0.3f, 0.4f + 0.05f * float(k), 0.2f);
    const vec3 direction = glm::normalize(target - eye);
    const std::optional<ElementHit> onDevice = solver.castRay(eye, direction);
    solver.setBackend(Backend::Cpu);
    const std::optional<ElementHit> onHost = solver.castRay(eye, direction);
    solver.setBackend(Backend::Cuda);
    CAPTURE(k);
    REQUIRE(onDevice.has_value() == onHost.has_value());
    if (!onDevice) continue;
    CHECK(onDevice->element == onHost->element);
    CHECK(onDevice->distance == onHost->distance);
  }
}

}  // namespace

TEST_CASE("BDEM instances written on CUDA equal the CPU's (fragment keys, stress ratios, summary)") {
  checkScene("wall_impact.json", {"projectiles.0.position=[0.02,0.1,0.051]", "projectiles.0.velocity=[0,0,-20]"}, 150);
}

TEST_CASE("pd-bond and pd-state instances written on CUDA equal the CPU's") {
  checkScene("lammps_peri_pmb.json", {}, 280);
  checkScene("pd_sheet_tear.json", {}, 300);
}
#endif
