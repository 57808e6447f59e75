#pragma once
// Headless batch run: simulate a scene for N frames and write stats.csv, summary.json and probe curves (and, when
// asked, PNG frames, fracture-surface meshes and data files).
#include <string>

#include "frame_capture.h"
#include <vector>

namespace frac {

struct HeadlessOptions {
  std::string scenePath;
  std::vector<std::string> overrides;  // --set key=value
  int frames = -1;                     // < 0: the scene's frames
  std::string outDir = "out";
  int threads = -1;                    // < 0: the scene's solver.threads
  long long seed = -1;                 // < 0: the scene's seed
  double fps = -1.0;                   // > 0: output frames per simulated second (overrides the scene's fps)
  bool record = false;                 // render every frame offscreen into outDir/frames
  CaptureOptions capture;              // size, camera, colour mode, video (directory is set from outDir)
  std::string replayPath;              // re-simulate a replay.jsonl (scene, edits and commands from the file)
  std::string exportMeshDir;           // non-empty: each frame's fracture surfaces as DIR/mesh_NNNNNN.ply
  std::string exportDir;               // non-empty: each frame's data (frame_export.h) in DIR
  std::string exportFormat = "vtu";    // vtu or ply
  bool exportBonds = false;            // VTU: the bonds as line cells too
  int checkpointEvery = 0;             // > 0: the whole state every N frames into outDir/checkpoints/
  std::string resumePath;              // continue from this checkpoint (its scene, edits and throws)
};

// Returns the process exit code: 0 on success, 2 for bad input (message already printed).
int runHeadless(const HeadlessOptions& options);

}  // namespace frac
