// fracture-sandbox: load a scene, simulate it, write statistics (and later frames and a window).
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include <CLI/CLI.hpp>

#include "color_map.h"
#include "core/params.h"
#include "headless_run.h"
#include "render_bench.h"
#include "session/replay_file.h"
#include "thumbnails.h"
#include "window/window_app.h"

namespace {

std::string defaultScene() {
  for (const std::string& dir : {std::string("assets"), std::string(FRACTURE_ASSET_DIR)}) {
    const std::string path = dir + "/scenes/default.json";
    if (std::filesystem::exists(path)) return path;
  }
  return std::string(FRACTURE_ASSET_DIR) + "/scenes/default.json";
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "Fracture Sandbox: break things in real time. Methods (the scene's solver.method, or --set solver.method=M): "
      "bdem (Lu et al. 2021), rbdem (Zhang et al.), pd-bond (Levine et al. 2014), pd-state (Chen et al. 2018), "
      "fem-debris (Zhang et al.)"};
  frac::HeadlessOptions options;
  bool headless = false;
  app.add_option("scene", options.scenePath, "scene JSON file (default: assets/scenes/default.json)");
  app.add_flag("--headless", headless, "run without a window: simulate and write results to --out");
  app.add_option("--frames", options.frames, "number of frames to simulate (default: the scene's frames)")
      ->check(CLI::Range(0, 100000000));
  app.add_option("--out", options.outDir, "output folder for stats.csv, summary.json and probe curves");
  app.add_option("--threads", options.threads, "CPU threads (0 = all cores; default: the scene's solver.threads)")
      ->check(CLI::Range(0, 1024));
  std::string backend;
  app.add_option("--backend", backend, "where the solver runs: auto (CUDA when usable), cpu or cuda (= --set solver.backend=...)")
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}));
  app.add_option("--seed", options.seed, "random seed (overrides the scene's seed)")->check(CLI::NonNegativeNumber);
  app.add_option("--set", options.overrides, "override a scene parameter, e.g. --set materials.glass.young=2e7")
      ->take_all();
  app.add_option("--fps", options.fps, "output frames per simulated second (default: the scene's fps)")
      ->check(CLI::Range(0.001, 1e7));
  app.add_flag("--record", options.record, "render every frame offscreen into OUT/frames/frame_NNNNNN.png");
  app.add_option("--width", options.capture.width, "recorded frame width in pixels (default 1280)")
      ->check(CLI::Range(16, 16384));
  app.add_option("--height", options.capture.height, "recorded frame height in pixels (default 720)")
      ->check(CLI::Range(16, 16384));
  app.add_option("--camera", options.capture.camera, "camera 'ex,ey,ez,tx,ty,tz[,fov]' (default: the scene's)");
  std::string color = "material";
  app.add_option("--color", color, "colour mode: material, stress, damage, fragment, speed")
      ->check(CLI::IsMember({"material", "stress", "damage", "fragment", "speed"}));
  const frac::ParamGroup& renderGroup = frac::paramGroup("render");
  std::string draw = renderGroup.find("draw")->defaultValue.get<std::string>();
  app.add_option("--render", draw, "what shows the bodies: spheres (elements), surfaces (fracture surfaces) or both")
      ->check(CLI::IsMember(renderGroup.find("draw")->choices));
  const frac::ParamSpec& cellSpec = *renderGroup.find("surface_cell_size");
  options.capture.settings.surfaceCellSize = cellSpec.defaultValue.get<float>();
  app.add_option("--surface-cell", options.capture.settings.surfaceCellSize,
                 "fracture surfaces: grid cell edge in element radii (default 1; finer is slower)")
      ->check(CLI::Range(cellSpec.min, cellSpec.max));
  app.add_option("--export-mesh", options.exportMeshDir,
                 "write each frame's fracture surfaces as DIR/mesh_NNNNNN.ply (window: while recording)");
  app.add_option("--export", options.exportDir,
                 "write each frame's data (elements, tetrahedra, bonds) as DIR/elements_NNNNNN.vtu with elements.pvd "
                 "for ParaView (window: while recording)");
  app.add_option("--export-format", options.exportFormat, "vtu (ParaView, default) or ply (point clouds for Blender)")
      ->check(CLI::IsMember({"vtu", "ply"}));
  app.add_flag("--export-bonds", options.exportBonds, "with --export (vtu): the bonds as line cells, DIR/bonds_NNNNNN.vtu");
  app.add_option("--checkpoint-every", options.checkpointEvery,
                 "write the whole state every N frames into OUT/checkpoints/checkpoint_NNNNNN.ckpt (headless)")
      ->check(CLI::Range(1, 1000000000));
  app.add_option("--resume", options.resumePath,
                 "continue a headless run from a checkpoint (its scene, edits and throws); --frames counts from the "
                 "run's start; with --replay, the replay's commands after the checkpoint follow");
  std::string clip;
  CLI::Option* clipOption =
      app.add_option("--clip", clip, "cross-section: cut away what lies beyond a plane; 'nx,ny,nz,d' cuts the half "
                                     "dot(n, p) > d, no value the half z > 0")
          ->expected(0, 1);
  app.add_flag("--no-shadows", [&](std::int64_t) { options.capture.settings.shadows = false; }, "render without shadows");
  app.add_flag("--bonds", options.capture.settings.bonds, "draw bond lines (intact blue, broken red)");
  app.add_flag("--no-legend", [&](std::int64_t) { options.capture.settings.legend = false; }, "record without the legend");
  app.add_option("--video", options.capture.video, "also write an MP4 through ffmpeg (when installed)");
  app.add_flag("--vulkan-validation", options.capture.validation, "enable the Vulkan validation layer");
  int benchRender = 0;
  app.add_option("--bench-render", benchRender, "benchmark the renderer with N spheres (JSON line), then exit")
      ->check(CLI::Range(1, 100000000));
  app.add_option("--replay", options.replayPath, "re-simulate a replay.jsonl written with a recording");
  frac::WindowOptions window;
  bool noUiInRecording = false;
  app.add_flag("--record-without-ui", noUiInRecording, "window: --record writes the scene without the panels");
  app.add_option("--exit-after", window.exitAfterFrames, "window: quit after this many simulated frames")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--screenshot", window.screenshotPath, "window: with --exit-after, save a screenshot (with the UI)");
  app.add_option("--stats", window.statsPath, "window: with --exit-after, write the final stats as JSON");
  app.add_option("--scrub-to", window.scrubToFrame,
                 "window: with --exit-after N, then scrub the timeline back to this frame (< N) and take the "
                 "screenshot and stats there")
      ->check(CLI::NonNegativeNumber);
  app.add_flag("--paused", window.paused, "window: start paused (the default unless --run, --exit-after, --record or --replay)");
  bool startRunning = false;
  app.add_flag("--run", startRunning, "window: start running");
  app.add_flag("--no-help", window.hideHelp, "window: no hint line at the start");
  app.add_option("--soak", window.soak.seconds,
                 "window: a seeded random user throws, edits, switches methods, records and loads scenes for this many "
                 "seconds, logging memory, frame times and validation messages (scripts/soak)")
      ->check(CLI::PositiveNumber);
  app.add_option("--soak-log", window.soak.logPath, "window: with --soak, the JSON-lines log (default out/soak/soak.jsonl)");
  app.add_option("--soak-seed", window.soak.seed, "window: with --soak, the random user's seed");
  app.add_option("--soak-actions", window.soak.actions,
                 "window: with --soak, only these kinds of action: throw, edit, method, draw, timeline, record, pause, "
                 "settings (default: all)")
      ->delimiter(',')
      ->check(CLI::IsMember(std::vector<std::string>(std::begin(frac::kSoakActions), std::end(frac::kSoakActions))));
  app.add_option("--soak-scene-seconds", window.soak.sceneSeconds,
                 "window: with --soak, wall seconds on each scene between loads (default 40)")
      ->check(CLI::PositiveNumber);
  std::string onDiverge = "pause";
  app.add_option("--on-diverge", onDiverge,
                 "window: when the run diverges, 'pause' and offer the roll back (default), or 'rollback': take it at "
                 "once (back to the last good frame with dt halved) and run on")
      ->check(CLI::IsMember({"pause", "rollback"}));
  std::string thumbnail;
  app.add_flag("--browse", window.openBrowser, "window: open the scene browser (thumbnails of the shipped scenes)");
  app.add_option("--thumbnail", thumbnail,
                 "with --headless: write the scene at t = 0 (no legend) as a PNG of --width x --height to this file; "
                 "'cache': the scene browser's 192 x 108 thumbnail into its cache");
  std::string benchCase = "render";
  app.add_option("--bench-case", benchCase, "case name in the --bench-render JSON line");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  if (!backend.empty()) options.overrides.push_back("solver.backend=" + backend);
  if (benchRender > 0) {
    const int frames = options.frames > 0 ? options.frames : 20;
    return frac::runRenderBench(benchRender, options.capture.width, options.capture.height, frames,
                                options.capture.settings.shadows, benchCase);
  }
  if (options.scenePath.empty()) options.scenePath = defaultScene();
  options.capture.settings.colorMode = *frac::render::parseColorMode(color);
  options.capture.settings.draw = *frac::render::parseDrawMode(draw);
  if (clipOption->count() > 0) {
    try {
      frac::parseClipPlane(clip, options.capture.settings);
    } catch (const std::invalid_argument& e) {
      std::cerr << "fracture-sandbox: " << e.what() << "\n";
      return 2;
    }
  }
  if (window.scrubToFrame >= 0 && !(window.exitAfterFrames > window.scrubToFrame)) {
    std::cerr << "fracture-sandbox: --scrub-to " << window.scrubToFrame
              << ": expected --exit-after with more frames than that (the frame must be simulated first)\n";
    return 2;
  }
  if (!headless) {
    std::string why;
    if (!frac::displayAvailable(why)) {
      std::cerr << "fracture-sandbox: " << why << ", so no window can open.\n"
                << "Run headless instead, e.g.: fracture-sandbox " << options.scenePath
                << " --headless --record --out out/run   (frames in out/run/frames)\n";
      return 1;
    }
    window.session.scenePath = options.scenePath;
    window.session.overrides = options.overrides;
    window.session.seed = options.seed;
    window.session.threads = options.threads;
    window.session.fps = options.fps;
    window.replayPath = options.replayPath;
    window.validation = options.capture.validation;
    window.render = options.capture.settings;
    window.recordAtStart = options.record;
    // Opened by hand, the scene waits at t = 0 for the user (Space runs it); scripted runs start running.
    if (!window.paused)
      window.paused = !startRunning && window.exitAfterFrames < 0 && !options.record && options.replayPath.empty() &&
                      window.soak.seconds <= 0.0;
    // The soak's recordings go next to its log and are deleted as they stop.
    window.soak.scratchFolder = (std::filesystem::path(window.soak.logPath).parent_path() / "scratch").string();
    window.rollBackOnDivergence = onDiverge == "rollback";
    window.recordFolder = options.outDir;
    window.recordWithUi = !noUiInRecording;
    window.exportMeshDir = options.exportMeshDir;
    window.exportDir = options.exportDir;
    window.exportBonds = options.exportBonds;
    if (!options.exportDir.empty() && options.exportFormat != "vtu") {
      std::cerr << "error: --export-format " << options.exportFormat << ": the window exports VTU (use --headless)\n";
      return 2;
    }
    if (!options.replayPath.empty()) {  // the replay's scene and edits, its commands at their steps
      try {
        const frac::ReplayLog log = frac::readReplay(options.replayPath);
        window.session = log.session;
      } catch (const std::exception& e) {
        std::cerr << "error: " << e.what() << "\n";
        return 2;
      }
    }
    return frac::runWindow(window);
  }
  if (!thumbnail.empty()) {
    frac::SessionOptions session{options.scenePath, options.overrides, options.seed, options.threads, options.fps};
    if (thumbnail == "cache")
      return frac::writeThumbnail(session, frac::thumbnailPath(options.scenePath), frac::kThumbnailWidth,
                                  frac::kThumbnailHeight);
    return frac::writeThumbnail(session, thumbnail, options.capture.width, options.capture.height);
  }
  try {
    return frac::runHeadless(options);
  } catch (const std::exception& e) {  // the last word: an output that fails at the end (disk full) is said, never a crash
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}
