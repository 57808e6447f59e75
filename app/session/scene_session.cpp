#include "session/scene_session.h"

#include <cmath>
#include <utility>

#include "core/params.h"
#include "io/checkpoint_file.h"
#include "io/scene_error.h"
#include "io/scene_loader.h"
#include "io/scene_params.h"
#include "session/replay_file.h"

namespace frac {

SceneSession::SceneSession(SessionOptions options) : options_(std::move(options)) {
  document_ = readSceneJson(options_.scenePath);
  for (const std::string& o : options_.overrides) applyOverride(document_, o, options_.scenePath);
  edits_ = options_.overrides;
  rebuild();
}

SceneDesc SceneSession::describe() const {
  SceneDesc scene = parseScene(document_, options_.scenePath);
  if (options_.seed >= 0) scene.seed = (unsigned long long)options_.seed;
  if (options_.fps > 0.0) scene.fps = options_.fps;
  return scene;
}

void SceneSession::rebuild() {
  simulation_ = std::make_unique<Simulation>(describe(), options_.threads);
  log_.clear();
  resetOverrides_ = edits_;
}

namespace {

// The registry entry a dotted key ends at (for its live-editable flag), following the document's groups.
bool isLiveKey(const std::string& key) {
  const size_t first = key.find('.');
  const std::string head = key.substr(0, first);
  if (first == std::string::npos) {
    const ParamSpec* spec = paramGroup("scene").find(head);
    return spec && spec->liveEditable;
  }
  const std::string rest = key.substr(first + 1);
  if (head == "materials") {  // materials.NAME.param
    const size_t dot = rest.find('.');
    if (dot == std::string::npos) return false;
    const ParamSpec* spec = paramGroup("material").find(rest.substr(dot + 1));
    return spec && spec->liveEditable;
  }
  if (head == "solver") {
    const ParamSpec* spec = paramGroup("solver").find(rest);
    return spec && spec->liveEditable;
  }
  return false;
}

}  // namespace

std::string SceneSession::apply(Command command) {
  Simulation& sim = *simulation_;
  command.step = sim.steps();
  switch (command.type) {
    case Command::Type::Set: {
      nlohmann::json edited = document_;
      applyOverride(edited, command.setArgument(), options_.scenePath);  // throws SceneError, document unchanged
      nlohmann::json previous = std::exchange(document_, std::move(edited));
      edits_.push_back(command.setArgument());
      log_.push_back(command);
      if (!isLiveKey(command.key)) return command.key + " changed: applies on reset";
      const SceneDesc fresh = describe();
      SceneDesc& current = sim.editableScene();
      const SceneDesc before = current;
      const bool backendChanged = current.solver.backend != fresh.solver.backend;
      copyLiveSettings(fresh, current);  // masses were fixed when the bodies were built: density is not live
      sim.solver().applyLiveSettings(current);
      if (options_.threads < 0) sim.solver().setThreads(fresh.solver.threads);  // a --threads option wins
      try {
        sim.updateTimeStep();
      } catch (const SceneError&) {  // a step the limit refuses (Simulation::stepsPerFrameFor): the edit is undone
        current = before;
        sim.solver().applyLiveSettings(current);
        sim.updateTimeStep();
        document_ = std::move(previous);
        edits_.pop_back();
        log_.pop_back();
        throw;
      }
      if (backendChanged) return command.key + " = " + command.value.dump() + ": " + sim.applyBackend();
      return command.key + " = " + command.value.dump();
    }
    case Command::Type::Throw: {
      const int material = sim.scene().materialIndex(command.material);
      if (material < 0) throw std::invalid_argument("throw: no material named '" + command.material + "'");
      Command resolved = command;
      if (command.aimed) {  // the element the ray meets first, found where the state is
        const float fallback = glm::dot(command.position - command.aimOrigin, command.aimDirection);
        const std::optional<ElementHit> hit = sim.solver().castRay(command.aimOrigin, command.aimDirection);
        if (hit && hit->distance < fallback)
          resolved.position = Command::startOutside(hit->point, hit->normal, command.radius);
        resolved.aimed = false;
      }
      // A throw's speed is a speed of the look: scaled like the scene's speeds (io/stiffness_scale.h).
      const vec3 velocity = float(std::sqrt(sim.scene().solver.stiffnessScale)) * resolved.velocity;
      if (resolved.breakable)
        sim.solver().launchBreakableProjectile(resolved.position, velocity, resolved.radius, resolved.elementRadius,
                                               material, resolved.density);
      else
        sim.solver().launchProjectile(resolved.position, velocity, resolved.radius, material, resolved.density);
      sim.updateTimeStep();
      log_.push_back(resolved);
      return std::string("threw a ") + (command.breakable ? "breakable " : "") + command.material + " ball";
    }
    case Command::Type::Reset:
      rebuild();
      return "reset";
    case Command::Type::Grab: {
      Command resolved = command;
      if (command.aimed) {  // the element the ray meets first, found where the state is; its point is the target
        const std::optional<ElementHit> hit = sim.solver().castRay(command.aimOrigin, command.aimDirection);
        if (!hit) return "grab: nothing under the cursor";
        resolved.element = hit->element;
        resolved.position = hit->point;
        resolved.aimed = false;
      }
      if (!sim.grab().start(sim.solver(), resolved.element, resolved.radius, resolved.position, resolved.frequency))
        return "grab: element " + std::to_string(resolved.element) + " is not a body element (a support or a ball)";
      log_.push_back(resolved);
      return "grabbed " + std::to_string(sim.grab().elements().size()) + " elements";
    }
    case Command::Type::GrabMove:
      sim.grab().moveTo(command.position);
      log_.push_back(command);
      return "";
    case Command::Type::Release:
      sim.grab().release();
      log_.push_back(command);
      return "released";
  }
  return "";
}

bool SceneSession::applyDue(const std::vector<Command>& due, size_t& next) {
  bool any = false;
  while (next < due.size() && due[next].step <= simulation_->steps()) {
    apply(due[next++]);  // after a reset the steps count from 0 again, and so do the stamps that follow it
    any = true;
  }
  return any;
}

bool SceneSession::stepApplying(const std::vector<Command>& due, size_t& next) {
  applyDue(due, next);
  return simulation_->stepCountingFrames();
}

void SceneSession::saveCheckpoint(const std::string& path) const { checkpoint().write(path); }

CheckpointWriter SceneSession::checkpoint() const {
  ReplayLog state;  // how to rebuild the scene with its edits and throws, before the state replaces what they built
  state.session = options_;
  state.session.overrides = resetOverrides_;
  state.commands = log_;
  state.frames = simulation_->framesDone();
  CheckpointWriter out;
  out.text("session/replay", replayText(state));
  simulation_->saveState(out);
  return out;
}

SceneSession SceneSession::fromCheckpoint(const std::string& path, int threads) {
  return fromCheckpoint(CheckpointReader(path), threads);
}

SceneSession SceneSession::fromCheckpoint(const CheckpointReader& checkpoint, int threads) {
  ReplayLog state = parseReplay(checkpoint.text("session/replay"), checkpoint.path() + " (its session)");
  if (threads >= 0) state.session.threads = threads;
  SceneSession session(state.session);
  for (const Command& c : state.commands) session.apply(c);
  session.simulation().restoreState(checkpoint);
  return session;
}

}  // namespace frac
