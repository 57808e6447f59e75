#include "render_bench.h"

#include <chrono>
#include <cmath>
#include <iostream>

#include <nlohmann/json.hpp>

#include "bench/machine_info.h"
#include "offscreen_renderer.h"

namespace frac {

namespace {

// N spheres in a cubic lattice block resting on a ground plane, coloured by a stress-like scalar field.
RenderFrame latticeFrame(int instances) {
  RenderFrame f;
  const int side = int(std::ceil(std::cbrt(double(instances))));
  const float spacing = 1.0f / float(side), radius = 0.5f * spacing;
  f.resizeElements(size_t(instances));
  for (int i = 0; i < instances; ++i) {
    const int x = i % side, y = (i / side) % side, z = i / (side * side);
    const vec3 p(spacing * (x + 0.5f) - 0.5f, spacing * (y + 0.5f), spacing * (z + 0.5f) - 0.5f);
    f.spheres[i] = glm::vec4(p, radius);
    f.orientations[i] = quat(1, 0, 0, 0);
    f.stressRatio[i] = 0.5f + 0.5f * std::sin(7.0f * p.x) * std::cos(5.0f * p.z);
    f.damage[i] = f.speed[i] = 0.0f;
    f.fragment[i] = uint32_t(i);
    f.material[i] = 0;
    f.kind[i] = ElementKind::Body;
  }
  f.materialColors = {vec3(0.6f, 0.45f, 0.3f)};
  f.materialNames = {"stone"};
  f.meshes.push_back(planeMesh(vec3(0.0f), vec3(0, 1, 0), vec3(0.0f), 4.0f, vec3(0.55f)));
  return f;
}

}  // namespace

int runRenderBench(int instances, int width, int height, int frames, bool shadows, const std::string& caseName) {
  try {
    render::OffscreenRenderer renderer{uint32_t(width), uint32_t(height)};
    const RenderFrame frame = latticeFrame(instances);
    render::Camera camera;
    camera.eye = {1.3f, 1.1f, 1.6f};
    camera.target = {0.0f, 0.35f, 0.0f};
    render::RenderSettings settings;
    settings.colorMode = render::ColorMode::StressRatio;
    settings.shadows = shadows;
    std::vector<uint8_t> pixels;
    renderer.render(frame, camera, settings, pixels);  // warm-up: pipelines, buffer allocation
    using Clock = std::chrono::steady_clock;
    const auto since = [](Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); };
    // Where a frame's time goes: submit() is the host's work (culling, instance and uniform upload, recording the
    // command buffer), collect() waits for the device and copies the pixels out.
    double submitSeconds = 0.0, collectSeconds = 0.0;
    const auto start = Clock::now();
    for (int k = 0; k < frames; ++k) {  // two frames in flight, as a recording runs
      auto t = Clock::now();
      if (renderer.pending() == render::OffscreenRenderer::kFramesInFlight) renderer.collect(pixels);
      collectSeconds += since(t);
      t = Clock::now();
      renderer.submit(frame, camera, settings);
      submitSeconds += since(t);
    }
    const auto drain = Clock::now();
    while (renderer.collect(pixels)) {
    }
    collectSeconds += since(drain);
    const double seconds = since(start);
    const nlohmann::json line = {{"case", caseName},
                                 {"instances", instances},
                                 {"width", width},
                                 {"height", height},
                                 {"shadows", shadows},
                                 {"drawn_after_culling", renderer.drawnSpheres()},
                                 {"frames", frames},
                                 {"frames_per_s", frames / seconds},
                                 {"submit_ms_per_frame", 1e3 * submitSeconds / frames},
                                 {"collect_ms_per_frame", 1e3 * collectSeconds / frames},
                                 {"device", renderer.context().deviceName()},
                                 {"machine", machineDescription()}};
    std::cout << line.dump() << std::endl;
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "error: render benchmark: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace frac
