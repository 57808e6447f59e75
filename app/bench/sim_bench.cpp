// fracture-bench: simulation throughput of one scene on one backend, as one JSON line (scripts/bench). Needs only
// frac_sim (no Vulkan, no CLI11), so it builds on a GPU machine without the desktop packages.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "bench/backend_compare.h"
#include "bench/machine_info.h"
#include "io/checkpoint_file.h"
#include "io/checkpoint_ring.h"
#include "io/frame_data.h"
#include "io/scene_error.h"
#include "io/scene_loader.h"
#include "solvers/simulation.h"

namespace {

const char* kUsage =
    "usage: fracture-bench SCENE [--steps N] [--warmup N] [--threads T] [--backend auto|cpu|cuda]\n"
    "                      [--set key=value]... [--case NAME] [--surfaces N] [--export N] [--compare-backends]\n"
    "                      [--sim-time S] [--timeline MB]\n"
    "Loads SCENE, runs N timed steps (default 200) after the warm-up steps (default 10) and prints one JSON line:\n"
    "elements, bonds, element-steps/s, bond-updates/s, backend and machine. --surfaces N then extracts the fracture\n"
    "surfaces N times and adds the fastest extraction's time (ms), triangles and pieces. --export N writes the final\n"
    "frame's data (--export's VTU files) N times and adds the fastest write (ms), its size and its share of a frame's\n"
    "simulation time at the scene's fps.\n"
    "--compare-backends runs N steps on the CPU and on CUDA side by side and reports the first step where any state\n"
    "array differs (exit 1), which entries and their values on both sides.\n"
    "--sim-time S times as many steps of the scene's dt as simulate S seconds (instead of --steps): methods with\n"
    "different steps compared over the same simulated time.\n"
    "--timeline MB keeps every frame's whole state in a ring of MB megabytes during the timed steps, as the window's\n"
    "timeline does (its cost: compare with the same case without it).\n";

struct BenchArgs {
  std::string scene, caseName, backend = "auto";
  std::vector<std::string> overrides;
  int steps = 200, warmup = 10, threads = -1, surfaces = 0, exports = 0, timelineMb = 0;
  double simTime = 0.0;  // > 0: steps = ceil(simTime / dt)
  bool compareBackends = false;
};

bool parseCount(const std::string& flag, const char* text, int min, int& out) {
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  if (!*text || *end || value < min || value > 100000000) {
    std::cerr << "fracture-bench: " << flag << " expects an integer >= " << min << ", got '" << text << "'\n";
    return false;
  }
  out = int(value);
  return true;
}

bool parseArgs(int argc, char** argv, BenchArgs& a) {
  for (int k = 1; k < argc; ++k) {
    const std::string arg = argv[k];
    const bool hasValue = k + 1 < argc;
    if (arg == "-h" || arg == "--help") {
      std::cout << kUsage;
      std::exit(0);
    } else if (arg == "--steps" && hasValue) {
      if (!parseCount(arg, argv[++k], 1, a.steps)) return false;
    } else if (arg == "--warmup" && hasValue) {
      if (!parseCount(arg, argv[++k], 0, a.warmup)) return false;
    } else if (arg == "--threads" && hasValue) {
      if (!parseCount(arg, argv[++k], 0, a.threads)) return false;
    } else if (arg == "--backend" && hasValue) {
      a.backend = argv[++k];
      if (!frac::parseBackend(a.backend)) {
        std::cerr << "fracture-bench: --backend expects auto, cpu or cuda, got '" << a.backend << "'\n";
        return false;
      }
    } else if (arg == "--surfaces" && hasValue) {
      if (!parseCount(arg, argv[++k], 0, a.surfaces)) return false;
    } else if (arg == "--timeline" && hasValue) {
      if (!parseCount(arg, argv[++k], 1, a.timelineMb)) return false;
    } else if (arg == "--export" && hasValue) {
      if (!parseCount(arg, argv[++k], 0, a.exports)) return false;
    } else if (arg == "--sim-time" && hasValue) {
      char* end = nullptr;
      a.simTime = std::strtod(argv[++k], &end);
      if (!*argv[k] || *end || !(a.simTime > 0.0) || a.simTime > 1e6) {
        std::cerr << "fracture-bench: --sim-time expects seconds > 0, got '" << argv[k] << "'\n";
        return false;
      }
    } else if (arg == "--compare-backends") {
      a.compareBackends = true;
    } else if (arg == "--set" && hasValue) {
      a.overrides.push_back(argv[++k]);
    } else if (arg == "--case" && hasValue) {
      a.caseName = argv[++k];
    } else if (arg.rfind("-", 0) != 0 && a.scene.empty()) {
      a.scene = arg;
    } else {
      std::cerr << "fracture-bench: unexpected argument '" << arg << "'\n" << kUsage;
      return false;
    }
  }
  if (a.scene.empty()) std::cerr << "fracture-bench: no scene file given\n" << kUsage;
  return !a.scene.empty();
}

}  // namespace

std::string stateDigestHex(uint64_t digest) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", (unsigned long long)digest);
  return text;
}

int main(int argc, char** argv) {
  BenchArgs args;
  if (!parseArgs(argc, argv, args)) return 2;
  if (args.compareBackends) return frac::compareBackends(args.scene, args.overrides, args.steps);
  args.overrides.push_back("solver.backend=" + args.backend);
  std::unique_ptr<frac::Simulation> sim;
  try {
    sim = std::make_unique<frac::Simulation>(frac::loadScene(args.scene, args.overrides), args.threads);
  } catch (const frac::SceneError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  }
  frac::Solver& solver = sim->solver();
  if (args.simTime > 0.0) args.steps = std::max(1, int(std::ceil(args.simTime / sim->dt() - 1e-9)));
  std::cerr << sim->scene().name << ": backend " << sim->backendLine() << "\n";
  if (sim->scene().solver.backend == frac::Backend::Cuda && solver.activeBackend() != frac::Backend::Cuda) {
    std::cerr << "error: --backend cuda is not usable here\n";
    return 2;
  }
  try {
    for (int s = 0; s < args.warmup; ++s) sim->step();
    solver.finishQueuedWork();
    frac::CheckpointRing timeline;  // --timeline: what the window keeps after every frame (app/session/sim_thread.h)
    timeline.setBudget(size_t(args.timelineMb) << 20);
    const auto start = std::chrono::steady_clock::now();
    for (int s = 0, frame = 0; s < args.steps; ++s) {
      solver.step(sim->dt());
      if (args.timelineMb > 0 && (s + 1) % sim->stepsPerFrame() == 0) {
        frac::CheckpointWriter state;
        sim->saveState(state);
        timeline.keep(++frame, state.bytes());
      }
    }
    solver.finishQueuedWork();
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const frac::SimStats stats = sim->stats();
    const bool cuda = solver.activeBackend() == frac::Backend::Cuda;
    nlohmann::json line = {
        {"case", args.caseName.empty() ? sim->scene().name : args.caseName},
        {"method", solver.method()},
        {"backend", frac::backendName(solver.activeBackend())},
        {"elements", stats.elements},
        {"bonds", stats.bonds},
        {"bonds_broken", stats.bondsBroken},
        {"steps", args.steps},
        {"wall_s", wall},
        {"element_steps_per_s", double(stats.elements) * args.steps / wall},
        {"bond_updates_per_s", double(stats.bonds) * args.steps / wall},
        {"dt", sim->dt()},
        {"step_us", 1e6 * wall / args.steps},
        {"realtime_factor", sim->dt() * args.steps / wall},  // simulated seconds per wall second, as the Stats panel
        {"cg_iterations_per_step", stats.iterationsPerStep},  // implicit methods (rbdem); 0 for explicit ones
        {"threads", cuda ? 0 : (args.threads >= 0 ? args.threads : sim->scene().solver.threads)},
        {"state_digest", stateDigestHex(solver.stateDigest())},  // the same run on any build or backend: the same bits
        {"machine", cuda ? frac::cudaDeviceName() + " (CUDA), host " + frac::machineDescription()
                         : frac::machineDescription()},
    };
    if (args.timelineMb > 0) {
      line["timeline_mb"] = args.timelineMb;
      line["timeline_frames_kept"] = timeline.size();
      line["steps_per_frame"] = sim->stepsPerFrame();
    }
    if (args.surfaces > 0) {  // the fracture surfaces of the final state, timed alone
      frac::SurfaceMesh mesh, fastest;
      double best = 1e30;
      for (int k = 0; k < args.surfaces; ++k) {
        const auto begin = std::chrono::steady_clock::now();
        solver.writeSurfaces(mesh, frac::SurfaceSettings{});
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
        if (seconds < best) {
          best = seconds;
          fastest.layOutMs = mesh.layOutMs, fastest.growMs = mesh.growMs;
          fastest.polygoniseMs = mesh.polygoniseMs, fastest.collectMs = mesh.collectMs;
        }
      }
      line["surface_ms"] = 1e3 * best;
      // Its phases (the rest of surface_ms: fragment keys and the cell field, built before the extraction).
      line["surface_phase_ms"] = {{"lay_out", fastest.layOutMs},
                                  {"grow", fastest.growMs},
                                  {"polygonise", fastest.polygoniseMs},
                                  {"copy_to_host", fastest.collectMs}};
      line["surface_triangles"] = mesh.triangleCount();
      line["surface_pieces"] = mesh.pieces;
    }
    if (args.exports > 0) {  // the final frame's data files, timed alone (the frame read from the solver included)
      const std::filesystem::path dir =
          std::filesystem::temp_directory_path() / ("fracture_bench_export_" + std::to_string(getpid()));
      std::filesystem::create_directories(dir);
      double best = 1e30;
      uintmax_t bytes = 0;
      for (int k = 0; k < args.exports; ++k) {
        const auto begin = std::chrono::steady_clock::now();
        frac::RenderFrame frame;
        solver.writeFrame(frame, false);
        const frac::FrameData data = frac::frameData(solver, frame, false);
        frac::writeVtu(data.elements, (dir / "elements.vtu").string());
        for (const auto& [group, grid] : data.cellGroups) frac::writeVtu(grid, (dir / (group + ".vtu")).string());
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count());
        bytes = 0;
        for (const auto& entry : std::filesystem::directory_iterator(dir)) bytes += entry.file_size();
      }
      std::filesystem::remove_all(dir);
      const double frameSeconds = wall / args.steps * sim->stepsPerFrame();  // simulating one frame at the scene's fps
      line["export_ms"] = 1e3 * best;
      line["export_mb"] = double(bytes) / 1e6;
      line["frame_sim_ms"] = 1e3 * frameSeconds;
      line["export_share"] = best / frameSeconds;
    }
    std::cout << line.dump() << std::endl;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
