#pragma once
// The scene being explored: its JSON document with every edit applied (the registry validates each edit exactly as
// `--set` does), the Simulation built from it, and the command log since the last reset. The simulation thread,
// the headless replay and the tests all apply commands through here, so a replay does exactly what the UI did.
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/checkpoint_file.h"
#include "session/command.h"
#include "solvers/simulation.h"

namespace frac {

struct SessionOptions {
  std::string scenePath;
  std::vector<std::string> overrides;  // --set arguments given at start
  long long seed = -1;                 // < 0: the scene's
  int threads = -1;                    // < 0: the scene's
  double fps = -1.0;                   // > 0: overrides the scene's fps
};

class SceneSession {
 public:
  // Loads and validates the scene; throws SceneError with the usual one-line message.
  explicit SceneSession(SessionOptions options);

  Simulation& simulation() { return *simulation_; }
  const Simulation& simulation() const { return *simulation_; }
  const SessionOptions& options() const { return options_; }
  const nlohmann::json& document() const { return document_; }
  // Commands applied since the last reset, stamped (the replay log's body), and the `--set` list that rebuilds the
  // document the last reset started from (the replay log's header).
  const std::vector<Command>& log() const { return log_; }
  const std::vector<std::string>& resetOverrides() const { return resetOverrides_; }
  // Advances one step, first applying the commands of `due` stamped for this step (replays); true at a frame end.
  bool stepApplying(const std::vector<Command>& due, size_t& next);
  // Applies the commands of `due` from `next` on whose step has come; true when it applied any.
  bool applyDue(const std::vector<Command>& due, size_t& next);

  // Applies a command before the next step and stamps it. Set: validated edit, applied live when the parameter is
  // live-editable (materials, time step, gravity, fps), otherwise at the next reset; returns a note for the user.
  // Throw: adds a projectile now. Reset: rebuilds the simulation from the edited document.
  // Throws SceneError for an invalid Set (the simulation is unchanged) or std::invalid_argument for a bad Throw.
  std::string apply(Command command);
  // Makes a fresh simulation from the edited document (step 0). Used by reset and by the constructor.
  void rebuild();

  // Checkpoints (io/checkpoint_file.h): the session as a replay log (scene, --set list, the edits and throws since the
  // last reset) and the simulation's whole state, written kill-safe; std::invalid_argument for a method without
  // checkpoints, std::runtime_error naming the file when it cannot be written.
  void saveCheckpoint(const std::string& path) const;
  // The same checkpoint in memory (headless runs keep the last good frame's, to write it if the run diverges).
  CheckpointWriter checkpoint() const;
  // The session a checkpoint holds: its scene and edits rebuilt, its commands applied, then its state restored; the
  // run goes on bit-identically. `threads` >= 0 replaces the recorded thread count. std::invalid_argument (and
  // SceneError) naming the file for a checkpoint that is not intact or does not fit.
  static SceneSession fromCheckpoint(const std::string& path, int threads = -1);
  static SceneSession fromCheckpoint(const CheckpointReader& checkpoint, int threads = -1);

 private:
  SceneDesc describe() const;  // the edited document as a SceneDesc

  SessionOptions options_;
  nlohmann::json document_;
  std::unique_ptr<Simulation> simulation_;
  std::vector<Command> log_;
  std::vector<std::string> edits_;           // every --set and Set command, in order
  std::vector<std::string> resetOverrides_;  // edits_ at the last rebuild
};

}  // namespace frac
