#include "headless_run.h"

#include <unistd.h>

#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>

#include <nlohmann/json.hpp>

#include "analysis/divergence_watch.h"
#include "core/diverged_error.h"
#include "exit_code.h"
#include "io/atomic_file.h"
#include "io/checkpoint_file.h"
#include "io/scene_error.h"
#include "io/scene_loader.h"
#include "frame_export.h"
#include "mesh_export.h"
#include "session/replay_file.h"
#include "session/scene_session.h"
#include "solvers/simulation.h"

namespace frac {
namespace {

namespace fs = std::filesystem;

// The kinetic energy of the balls a replay throws (J): the divergence watch counts it as supplied.
double thrownEnergy(const std::vector<Command>& commands, const SceneDesc& scene) {
  double energy = 0.0;
  for (const Command& c : commands) {
    if (c.type != Command::Type::Throw) continue;
    const int m = scene.materialIndex(c.material);
    const float density = c.density > 0.0f ? c.density : (m >= 0 ? scene.materials[size_t(m)].density : 0.0f);
    energy += ballKineticEnergy(density, c.radius, c.velocity);
  }
  return energy;
}

void printProgress(int frame, int frames, double elapsed) {
  const double eta = frame > 0 ? elapsed / frame * (frames - frame) : 0.0;
  std::fprintf(stderr, "\rframe %d/%d  %5.1f%%  elapsed %.1fs  ETA %.1fs   ", frame, frames, 100.0 * frame / frames,
               elapsed, eta);
  std::fflush(stderr);
}

// A probe's curve as CSV, a row of four columns per sample (`columns` maps a sample to them), written atomically.
template <class Sample, class Columns>
void writeCurve(const fs::path& file, const char* header, const std::vector<Sample>& curve, Columns columns) {
  std::string text = std::string(header) + "\n";
  char line[160];
  for (const Sample& p : curve) {
    const std::array<double, 4> c = columns(p);
    std::snprintf(line, sizeof line, "%.9g,%.9g,%.9g,%.9g\n", c[0], c[1], c[2], c[3]);
    text += line;
  }
  writeFileAtomically(file.string(), text);
}

// An output that could not be written (disk full, folder removed): the run stops with exit 1 and says what is kept;
// every file already written is complete (atomic writes), and no partial file is left.
int outputFailed(const std::string& reason, const FrameCapture* capture) {
  std::cerr << "\nerror: " << reason << "\n";
  if (capture) std::cerr << "recording stopped: " << capture->framesWritten() << " complete frames are kept\n";
  std::cerr << "the run stopped because its output could not be written\n";
  return 1;
}

}  // namespace

int runHeadless(const HeadlessOptions& options) {
  // The scene and the commands to replay: from a replay log, a checkpoint, or the scene file with --set edits.
  ReplayLog replay;
  if (!options.replayPath.empty()) {
    try {
      replay = readReplay(options.replayPath);
    } catch (const std::invalid_argument& e) {
      std::cerr << "error: " << e.what() << "\n";
      return 2;
    }
    if (options.threads >= 0) replay.session.threads = options.threads;
  } else {
    replay.session.scenePath = options.scenePath;
    replay.session.overrides = options.overrides;
    replay.session.seed = options.seed;
    replay.session.threads = options.threads;
    replay.session.fps = options.fps;
  }
  const fs::path out(options.outDir);
  std::error_code ec;
  fs::create_directories(out, ec);
  if (ec) {
    std::cerr << "error: cannot create output folder '" << out.string() << "': " << ec.message() << "\n";
    return 2;
  }
  std::unique_ptr<MeshExport> meshes;
  if (!options.exportMeshDir.empty()) {
    try {
      meshes = std::make_unique<MeshExport>(options.exportMeshDir);
    } catch (const std::invalid_argument& e) {
      std::cerr << "error: " << e.what() << "\n";
      return 2;
    }
  }

  std::unique_ptr<FrameExport> data;
  if (!options.exportDir.empty()) {
    try {
      data = std::make_unique<FrameExport>(options.exportDir, exportFormatNamed(options.exportFormat), options.exportBonds);
    } catch (const std::invalid_argument& e) {
      std::cerr << "error: " << e.what() << "\n";
      return 2;
    }
  }

  const auto loadStart = std::chrono::steady_clock::now();
  std::unique_ptr<SceneSession> session;
  const int loaded = exitCodeOf([&] {  // a checkpoint carries its session: scene, edits and throws, then its state
    session = options.resumePath.empty()
                  ? std::make_unique<SceneSession>(replay.session)
                  : std::make_unique<SceneSession>(SceneSession::fromCheckpoint(options.resumePath, options.threads));
    if (options.resumePath.empty()) return 0;
    for (const std::string& o : options.overrides) {  // --set after --resume: live edits of the resumed state
      const size_t eq = o.find('=');
      if (eq == std::string::npos) throw SceneError(options.resumePath + ": --set '" + o + "': expected key=value");
      // The value as text: the session reads it against the parameter's spec exactly as --set does.
      const std::string note = session->apply(Command::set(o.substr(0, eq), o.substr(eq + 1)));
      if (!note.empty()) std::cerr << note << "\n";
    }
    return 0;
  });
  if (loaded != 0) return loaded;
  Simulation* sim = &session->simulation();
  const fs::path checkpoints = out / "checkpoints";
  if (options.checkpointEvery > 0) {
    try {  // a method without checkpoints says so now, not after the run
      CheckpointWriter probe;
      sim->saveState(probe);
    } catch (const std::invalid_argument& e) {
      std::cerr << "error: --checkpoint-every: " << e.what() << "\n";
      return 2;
    }
    fs::create_directories(checkpoints, ec);
    if (ec) {
      std::cerr << "error: cannot create '" << checkpoints.string() << "': " << ec.message() << "\n";
      return 2;
    }
  }
  const SceneDesc scene = sim->scene();
  const int frames = options.frames >= 0 ? options.frames : (replay.frames > 0 ? replay.frames : scene.frames);
  const int recordFrom = options.replayPath.empty() ? 0 : std::min(replay.recordFrom, frames);
  const double loadTime = std::chrono::duration<double>(std::chrono::steady_clock::now() - loadStart).count();
  const SimStats initial = sim->stats();
  std::cerr << scene.name << ": " << initial.elements << " elements, " << initial.bonds << " bonds, dt "
            << sim->dt() << " s (stable estimate " << sim->solver().stableDt() << " s), " << sim->stepsPerFrame()
            << " steps/frame, " << frames << " frames (loaded in " << loadTime << " s)";
  if (!options.replayPath.empty())
    std::cerr << ", replaying " << replay.commands.size() << " commands from " << options.replayPath;
  std::cerr << "\nbackend: " << sim->backendLine() << "\n";
  if (scene.solver.backend == Backend::Cuda && sim->solver().activeBackend() != Backend::Cuda) {
    std::cerr << "error: solver.backend = \"cuda\" was asked for and is not usable (use \"auto\" to fall back)\n";
    return 2;
  }

  std::unique_ptr<FrameCapture> capture;
  if (options.record || !options.capture.video.empty()) {
    CaptureOptions captureOptions = options.capture;
    captureOptions.directory = out;
    captureOptions.fps = int(std::lround(scene.fps));
    try {
      capture = std::make_unique<FrameCapture>(captureOptions, scene);
    } catch (const std::invalid_argument& e) {
      std::cerr << "error: " << e.what() << "\n";
      return 2;
    } catch (const std::exception& e) {
      std::cerr << "error: cannot record: " << e.what() << "\n";
      return 1;
    }
    std::cerr << "recording " << captureOptions.width << "x" << captureOptions.height << " frames with "
              << capture->deviceName() << " into " << (out / "frames").string() << "\n";
  }

  // Fracture surfaces, extracted once per frame for the recording and the mesh export.
  const bool drawSurfaces = capture && options.capture.settings.drawSurfaces();
  const auto surfaces = std::make_shared<SurfaceMesh>();
  SurfaceSettings surfaceSettings;
  surfaceSettings.cellSize = options.capture.settings.surfaceCellSize;
  if (meshes) std::cerr << "exporting fracture surfaces into " << meshes->directory().string() << "\n";
  if (data) std::cerr << "exporting " << options.exportFormat << " data into " << data->directory().string() << "\n";
  RenderFrame dataFrame;

  std::ofstream history;  // the point_history and reaction probes' rows, appended after each frame
  if (HistoryProbes* probes = sim->history()) {
    history.open(out / "history.csv");
    history << probes->header() << probes->takeRows();
  }
  std::ofstream csv(out / "stats.csv");
  csv << "frame,time,kinetic_energy,elastic_energy,bonds_intact,bonds_broken,fragments\n";
  const bool tty = isatty(STDERR_FILENO);
  double stepWall = 0.0;
  const auto runStart = std::chrono::steady_clock::now();
  SimStats s = initial;
  size_t nextCommand = 0;
  if (!options.resumePath.empty() && !options.replayPath.empty()) {  // a replay going on from a checkpoint of its run
    if (fs::absolute(replay.session.scenePath) != fs::absolute(session->options().scenePath)) {
      std::cerr << "error: " << options.resumePath << ": a checkpoint of " << session->options().scenePath
                << ", the replay " << options.replayPath << " runs " << replay.session.scenePath << "\n";
      return 2;
    }
    while (nextCommand < replay.commands.size() && replay.commands[nextCommand].step < s.steps) ++nextCommand;
  }
  // Divergence (analysis/divergence_watch.h): the run stops with exit 3 and says where, its frames so far complete.
  const double thrown = thrownEnergy(replay.commands, scene);
  auto watch = std::make_unique<DivergenceWatch>(*sim, thrown);
  std::string diverged;
  // The last frame that passed the watch, kept in memory while the state is on the host: written as
  // OUT/last_good.ckpt if the run diverges (go on from it with --resume and, say, a smaller dt).
  std::unique_ptr<CheckpointWriter> lastGood;
  auto keepLastGood = [&] {
    if (sim->solver().activeBackend() != Backend::Cpu) return;
    try {
      lastGood = std::make_unique<CheckpointWriter>(session->checkpoint());
    } catch (const std::invalid_argument&) {  // a method without checkpoints
      lastGood.reset();
    }
  };
  keepLastGood();
  if (!options.resumePath.empty()) std::cerr << "resuming " << options.resumePath << " at frame " << sim->framesDone() << ", step " << s.steps << "\n";
  for (int f = sim->framesDone() + 1; f <= frames; ++f) {
    const auto t0 = std::chrono::steady_clock::now();
    std::optional<std::string> stepFailed;  // the state could not be stepped on (core/diverged_error.h)
    try {
      while (!session->stepApplying(replay.commands, nextCommand)) {
      }
    } catch (const DivergedError& e) {
      stepFailed = std::string("step ") + std::to_string(sim->steps()) + ": " + e.what();
    } catch (const std::exception& e) {  // a replayed command that cannot apply (a throw of an unknown material, ...)
      std::cerr << "\nerror: " << options.replayPath << ": " << e.what() << "\n";
      return 2;
    }
    if (&session->simulation() != sim) {  // a replayed reset makes a new one
      sim = &session->simulation();
      watch = std::make_unique<DivergenceWatch>(*sim, thrown);
    }
    stepWall += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    s = sim->stats();
    if (!stepFailed)  // no row for a frame that did not finish
      csv << f << ',' << s.time << ',' << s.kineticEnergy << ',' << s.elasticEnergy << ',' << s.bondsIntact << ','
        << s.bondsBroken << ',' << s.fragments << '\n';
    csv.flush();  // whole lines as the frames finish: a run killed mid-way keeps the frames it completed
    if (HistoryProbes* probes = sim->history(); probes && history.is_open()) history << probes->takeRows() << std::flush;
    if (std::optional<std::string> message = stepFailed ? stepFailed : watch->check(*sim)) {
      diverged = *message;
      if (tty) std::fprintf(stderr, "\n");
      std::cerr << "error: " << scene.path << ": " << diverged << "\n";
      if (lastGood) {
        const std::string path = (out / "last_good.ckpt").string();
        try {
          lastGood->write(path);
          std::cerr << "the last good state (frame " << f - 1 << ") is in " << path << ": go on from it with --resume "
                    << path << " --set solver.dt=<smaller> (the stable step is " << sim->solver().stableDt() << " s)\n";
        } catch (const std::runtime_error& e) {
          std::cerr << "error: " << e.what() << "\n";
        }
      }
      break;
    }
    keepLastGood();
    if (f - 1 >= recordFrom) {
      const int index = f - 1 - recordFrom;
      if (drawSurfaces || meshes) sim->solver().writeSurfaces(*surfaces, surfaceSettings);
      try {  // a write that fails (disk full, folder gone) stops the run; the complete files stay (atomic writes)
        if (capture) capture->capture(sim->solver(), index, s.fragments, drawSurfaces ? surfaces : nullptr);
        if (meshes) meshes->write(index, *surfaces);
        if (data) {
          sim->solver().writeFrame(dataFrame, false);
          data->write(index, sim->solver(), dataFrame);
        }
      } catch (const std::runtime_error& e) {
        return outputFailed(e.what(), capture.get());
      }
    }
    if (options.checkpointEvery > 0 && f % options.checkpointEvery == 0) {
      char name[40];
      std::snprintf(name, sizeof name, "checkpoint_%06d.ckpt", f);
      try {
        session->saveCheckpoint((checkpoints / name).string());
      } catch (const std::runtime_error& e) {
        return outputFailed(e.what(), capture.get());
      }
    }
    if (tty) printProgress(f, frames, std::chrono::duration<double>(std::chrono::steady_clock::now() - runStart).count());
  }
  if (tty) std::fprintf(stderr, "\n");
  csv.close();
  if (capture) {
    try {
      capture->finish();  // the frames still queued are written here
    } catch (const std::runtime_error& e) {
      return outputFailed(e.what(), capture.get());
    }
  }
  if (meshes) std::cerr << "exported " << meshes->written() << " meshes into " << meshes->directory().string() << "\n";
  if (data) std::cerr << "exported " << data->written() << " frames of data into " << data->directory().string() << "\n";
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - runStart).count();

  const long long steps = s.steps;
  if (nextCommand < replay.commands.size())
    std::cerr << "note: " << replay.commands.size() - nextCommand << " replayed commands lie after the last frame\n";
  nlohmann::json summary = {
      {"scene", scene.name},
      {"method", sim->solver().method()},
      {"seed", scene.seed},
      {"elements", s.elements},
      {"bonds", s.bonds},
      {"bonds_broken", s.bondsBroken},
      {"fragments", s.fragments},
      {"debris_particles", s.debrisParticles},
      {"frames", frames},
      {"steps", steps},
      {"dt", sim->dt()},
      {"stable_dt", sim->solver().stableDt()},
      {"sim_time", s.time},
      {"wall_time", wall},
      {"step_wall_time", stepWall},
      {"element_steps_per_s", stepWall > 0 ? double(s.elements) * steps / stepWall : 0.0},
      {"bond_updates_per_s", stepWall > 0 ? double(s.bonds) * steps / stepWall : 0.0},
      {"kinetic_energy", s.kineticEnergy},
      {"elastic_energy", s.elasticEnergy},
      {"cg_iterations_per_step", s.iterationsPerStep},
      {"threads", options.threads >= 0 ? options.threads : scene.solver.threads},
      {"backend", backendName(sim->solver().activeBackend())},
      {"measurements", sim->measurements()},
      {"state_digest", std::to_string(sim->solver().stateDigest())},
  };
  // Damage per element = broken fraction of its initial bonds: the mean over the elements that had bonds and a
  // histogram of their count in 10 bins over [0, 1] (the last bin includes 1).
  {
    std::vector<double> histogram(10, 0.0);
    double sum = 0.0;
    long long counted = 0;
    const std::vector<float> damage = sim->solver().damage();
    for (const float d : damage) {
      if (d == kNoBonds) continue;
      sum += d;
      ++counted;
      histogram[std::min(9, int(d * 10.0f))] += 1.0;
    }
    summary["damage_mean"] = counted ? sum / double(counted) : 0.0;
    summary["damage_histogram"] = histogram;
  }
  if (const ThreePointBendingProbe* probe = sim->bendingProbe())
    writeCurve(out / "load_displacement.csv", "time,displacement,force,quarter_displacement", probe->curve(),
               [](const LoadSample& p) { return std::array<double, 4>{p.time, p.displacement, p.force, p.quarter}; });
  if (const UniaxialProbe* probe = sim->uniaxialProbe())
    writeCurve(out / "stress_strain.csv", "time,axial_strain,lateral_strain,stress", probe->curve(),
               [](const UniaxialSample& p) { return std::array<double, 4>{p.time, p.axial, p.lateral, p.stress}; });
  if (!diverged.empty()) summary["diverged"] = diverged;
  writeFileAtomically((out / "summary.json").string(), summary.dump(2) + "\n");
  if (!diverged.empty()) return 3;
  std::cerr << "wrote " << (out / "summary.json").string() << ": " << s.bondsBroken << " of " << s.bonds
            << " bonds broken, " << s.fragments << " fragments, "
            << summary["element_steps_per_s"].get<double>() / 1e6 << "M element-steps/s\n";
  return 0;
}

}  // namespace frac
