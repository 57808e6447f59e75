// Commands, the scene session and replays: registry <-> JSON <-> --set <-> replay round trips, commands taking effect
// at their stamped step, live edits of the bond stiffness, and replays reproducing a run bit for bit.
#include <doctest/doctest.h>
#include "../relative_approx.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "io/scene_error.h"
#include "session/replay_file.h"
#include "session/scene_session.h"
#include "session/sim_thread.h"
#include "session/timeline_player.h"
#include "solvers/bdem/bdem_solver.h"

namespace fs = std::filesystem;
using namespace frac;

namespace {

const std::string kDefault = std::string(FRACTURE_SOURCE_DIR) + "/assets/scenes/default.json";

SessionOptions defaultScene() {
  SessionOptions o;
  o.scenePath = kDefault;
  o.overrides = {"bodies.0.element_radius=0.006", "bodies.1.element_radius=0.006", "bodies.2.element_radius=0.006"};
  return o;
}

void runSteps(SceneSession& session, long long steps) {
  for (long long s = 0; s < steps; ++s) session.simulation().stepCountingFrames();
}

// Waits up to a minute for the simulation thread to get there.
template <class Condition>
void waitFor(Condition condition) {
  const auto start = std::chrono::steady_clock::now();
  while (!condition() && std::chrono::steady_clock::now() - start < std::chrono::seconds(60))
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
}

// Frames 1..n with the timeline on, in lockstep, each frame's digest noted (digests[f]); then paused with all kept.
std::vector<uint64_t> simulateKeptFrames(SimThread& sim, int n) {
  sim.setTimeline(true, size_t(1) << 30);
  sim.setLockstep(true);
  sim.setPaused(false);
  std::vector<uint64_t> digests(size_t(n) + 1, 0);
  for (int f = 1; f <= n; ++f) {
    waitFor([&] { sim.poll(); return sim.snapshot().frameIndex == f; });
    REQUIRE(sim.snapshot().frameIndex == f);
    digests[size_t(f)] = sim.snapshot().stateDigest;
    if (f < n) sim.releaseFrame();
  }
  sim.setPaused(true);
  sim.setLockstep(false);
  sim.releaseFrame();
  waitFor([&] { sim.poll(); return sim.snapshot().timelineLast == n && sim.snapshot().paused; });
  return digests;
}

const BdemSolver& bdemSolverOf(SceneSession& session) { return dynamic_cast<const BdemSolver&>(session.simulation().solver()); }

}  // namespace

TEST_CASE("a Set command edits the document exactly as --set does, and the replay header rebuilds it") {
  SessionOptions withSet = defaultScene();
  withSet.overrides.push_back("materials.stone.young=2e7");
  SceneSession a(withSet);
  SceneSession b(defaultScene());
  b.apply(Command::set("materials.stone.young", 2e7));
  CHECK(a.document() == b.document());
  // The replay header keeps the document of the last reset: after a reset b's edits are part of it.
  b.apply(Command::reset());
  SessionOptions fromHeader = defaultScene();
  fromHeader.overrides = b.resetOverrides();
  SceneSession c(fromHeader);
  CHECK(c.document() == b.document());
  // Command <-> JSON round trip.
  Command t = Command::throwProjectile(vec3(0.1f, 0.2f, 0.3f), vec3(-4, 0, 1), 0.02f, "steel");
  t.step = 77;
  const Command back = Command::fromJson(t.toJson(), "test");
  CHECK(back.toJson() == t.toJson());
  // A bad edit is a SceneError naming the key and what was expected; the document is unchanged.
  const nlohmann::json before = b.document();
  CHECK_THROWS_WITH_AS(b.apply(Command::set("materials.stone.young", -5)), doctest::Contains("young"), SceneError);
  CHECK(b.document() == before);
  // A live dt whose steps per frame the limit refuses: a SceneError, and the document and the step stay as they were.
  const double dt = b.simulation().dt();
  const int steps = b.simulation().stepsPerFrame();
  CHECK_THROWS_WITH_AS(b.apply(Command::set("solver.dt", 1e-12)), doctest::Contains("max_steps_per_frame"),
                       SceneError);
  CHECK(b.document() == before);
  CHECK(b.simulation().dt() == dt);
  CHECK(b.simulation().stepsPerFrame() == steps);
}

TEST_CASE("an aimed throw starts just outside the element its ray enters first, or at its fallback, and logs the start") {
  SceneSession session(defaultScene());
  runSteps(session, 5);
  RenderFrame frame;
  session.simulation().solver().writeFrame(frame, false);
  // A ray straight at the first body element, from 1 m above it.
  size_t target = 0;
  while (frame.kind[target] != ElementKind::Body) ++target;
  const vec3 centre = vec3(frame.spheres[target]);
  const vec3 origin = centre + vec3(0.0f, 1.0f, 0.0f), down(0.0f, -1.0f, 0.0f);
  const std::optional<ElementHit> hit = session.simulation().solver().castRay(origin, down);
  REQUIRE(hit.has_value());
  const int elements = int(frame.elementCount());
  Command aimed = Command::throwProjectile(origin + 5.0f * down, vec3(0, -3, 0), 0.01f, "steel");  // fallback: below
  aimed.aimed = true;
  aimed.aimOrigin = origin;
  aimed.aimDirection = down;
  session.apply(aimed);
  const BdemElementArrays& e = bdemSolverOf(session).elements();
  REQUIRE(e.size() == elements + 1);
  const vec3 expected = Command::startOutside(hit->point, hit->normal, 0.01f);
  CHECK(glm::length(e.position.back() - expected) < 1e-6f);
  CHECK(hit->point.y > centre.y);  // it hit the top of something at or above the target
  REQUIRE(session.log().size() == 1);
  CHECK_FALSE(session.log().back().aimed);  // the log keeps the start, so a replay needs no picking
  CHECK(glm::length(session.log().back().position - expected) < 1e-6f);
  // A ray that meets nothing before its fallback (pointing up, into the sky) starts at the fallback.
  Command sky = aimed;
  sky.aimDirection = vec3(0.0f, 1.0f, 0.0f);
  sky.position = origin + vec3(0.0f, 0.5f, 0.0f);
  session.apply(sky);
  CHECK(glm::length(bdemSolverOf(session).elements().position.back() - sky.position) < 1e-6f);
}

TEST_CASE("editing Young's modulus live changes the bond stiffness at the stamped step (k_n = E S / l0, eq. 3)") {
  SceneSession session(defaultScene());
  const int stone = session.simulation().scene().materialIndex("stone");
  runSteps(session, 25);
  const BdemBondArrays& bonds = bdemSolverOf(session).bonds();
  long long b = 0;
  while (bonds.material[b] != stone) ++b;
  const BondRest rest = bonds.rest[b];
  const double area = M_PI * rest.r0 * rest.r0;
  const double scale = bonds.stiffnessScale[b];
  CHECK(bonds.coefficients[b].stiffness.kn == RelApprox(1e7 * scale * area / rest.l0).epsilon(1e-5));
  session.apply(Command::set("materials.stone.young", 3e7));
  CHECK(session.log().back().step == 25);  // stamped with the step it was applied before
  CHECK(bdemSolverOf(session).bonds().coefficients[b].stiffness.kn ==
        RelApprox(3e7 * scale * area / rest.l0).epsilon(1e-5));
}

TEST_CASE("a replay reproduces the original run bit for bit") {
  const fs::path dir = fs::temp_directory_path() / "frac_session_replay";
  fs::remove_all(dir);
  fs::create_directories(dir);
  // The "interactive" run: commands arrive between steps, as the simulation thread applies them.
  SceneSession original(defaultScene());
  runSteps(original, 40);
  original.apply(Command::throwProjectile(vec3(0.25f, 0.1f, 0.0f), vec3(-12, 0, 0), 0.015f, "steel"));
  runSteps(original, 120);
  original.apply(Command::set("materials.stone.tensile_strength", 5e4));
  runSteps(original, 200);
  original.apply(Command::set("solver.gravity", nlohmann::json::array({0, -20, 0})));
  runSteps(original, 30);
  // A breakable ball: bonded elements added mid-run; the bonds broken so far stay broken.
  const SimStats beforeBall = original.simulation().stats();
  Command ball = Command::throwProjectile(vec3(-0.25f, 0.12f, 0.0f), vec3(15, 0, 0), 0.03f, "stone");
  ball.breakable = true;
  ball.elementRadius = 0.006f;
  original.apply(ball);
  const SimStats afterBall = original.simulation().stats();
  CHECK(afterBall.elements > beforeBall.elements + 20);
  CHECK(afterBall.bonds > beforeBall.bonds + 40);
  CHECK(afterBall.bondsBroken == beforeBall.bondsBroken);
  while (original.simulation().framesDone() < 3) original.simulation().stepCountingFrames();
  const uint64_t digest = original.simulation().solver().stateDigest();
  const long long steps = original.simulation().steps();
  CHECK(original.log().size() == 4);
  CHECK(original.log()[0].step == 40);
  CHECK(original.log()[1].step == 160);

  ReplayLog log;
  log.session = original.options();
  log.session.overrides = original.resetOverrides();
  log.commands = original.log();
  log.frames = original.simulation().framesDone();
  writeReplay((dir / "replay.jsonl").string(), log);

  const ReplayLog read = readReplay((dir / "replay.jsonl").string());
  CHECK(read.commands.size() == 4);
  CHECK(read.commands[3].breakable);
  CHECK(read.frames == 3);
  SceneSession replayed(read.session);
  size_t next = 0;
  while (replayed.simulation().framesDone() < read.frames) replayed.stepApplying(read.commands, next);
  CHECK(next == 4);
  CHECK(replayed.simulation().steps() == steps);
  CHECK(replayed.simulation().solver().stateDigest() == digest);
  // The throw took effect at its step: one more element than the scene has.
  CHECK(replayed.simulation().stats().elements == original.simulation().stats().elements);
  CHECK(replayed.simulation().stats().bondsBroken == original.simulation().stats().bondsBroken);

  // The command line replays the same way (2 threads: results do not depend on the thread count).
  const std::string command = std::string(FRACTURE_SANDBOX_EXE) + " --replay " + (dir / "replay.jsonl").string() +
                              " --headless --threads 2 --out " + (dir / "out").string() + " 2>/dev/null";
  REQUIRE(std::system(command.c_str()) == 0);
  std::ifstream summary(dir / "out/summary.json");
  const nlohmann::json s = nlohmann::json::parse(summary);
  CHECK(s["state_digest"].get<std::string>() == std::to_string(digest));
}

TEST_CASE("the simulation thread stamps commands with the step they were applied before and holds in lockstep") {
  SimThread sim(defaultScene(), /*startPaused=*/true);
  for (int k = 0; k < 30; ++k) sim.stepOnce();
  waitFor([&] { sim.poll(); return sim.snapshot().step == 30; });
  REQUIRE(sim.snapshot().step == 30);
  sim.submit(Command::throwProjectile(vec3(0.25f, 0.1f, 0.0f), vec3(-12, 0, 0), 0.015f, "steel"));
  waitFor([&] { return !sim.commandLog().empty(); });
  REQUIRE(sim.commandLog().size() == 1);
  CHECK(sim.commandLog()[0].step == 30);
  // Lockstep: after each frame the thread waits until the frame is released.
  sim.setLockstep(true);
  sim.setPaused(false);
  waitFor([&] { sim.poll(); return sim.snapshot().frameIndex == 1; });
  CHECK(sim.snapshot().frameIndex == 1);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  sim.poll();
  CHECK(sim.snapshot().frameIndex == 1);  // held
  sim.releaseFrame();
  waitFor([&] { sim.poll(); return sim.snapshot().frameIndex == 2; });
  CHECK(sim.snapshot().frameIndex == 2);
  sim.setLockstep(false);
}

TEST_CASE("a session saved to a checkpoint and loaded back, also by the simulation thread, goes on bit-identically") {
  const fs::path dir = fs::temp_directory_path() / "frac_session_checkpoint";
  fs::remove_all(dir);
  fs::create_directories(dir);
  SceneSession straight(defaultScene());
  runSteps(straight, 40);
  straight.apply(Command::throwProjectile(vec3(0.25f, 0.1f, 0.0f), vec3(-12, 0, 0), 0.015f, "steel"));
  runSteps(straight, 20);
  const std::string path = (dir / "state.ckpt").string();
  straight.saveCheckpoint(path);
  runSteps(straight, 60);

  SceneSession resumed = SceneSession::fromCheckpoint(path);
  CHECK(resumed.simulation().steps() == 60);
  CHECK(resumed.log().size() == 1);  // its throw
  runSteps(resumed, 60);
  CHECK(resumed.simulation().solver().stateDigest() == straight.simulation().solver().stateDigest());

  // The window's Load state: the simulation thread takes the checkpoint's session in place of its own.
  SimThread sim(defaultScene(), /*startPaused=*/true);
  sim.loadState(path);
  waitFor([&] { sim.poll(); return sim.snapshot().step == 60; });
  REQUIRE(sim.snapshot().step == 60);
  CHECK(sim.lastMessage().find("loaded") != std::string::npos);
  for (int k = 0; k < 60; ++k) sim.stepOnce();
  waitFor([&] { sim.poll(); return sim.snapshot().step == 120; });
  REQUIRE(sim.snapshot().step == 120);
  CHECK(sim.snapshot().stateDigest == straight.simulation().solver().stateDigest());
  // Save state writes a checkpoint too; a missing file is an error message, not a crash.
  sim.saveState((dir / "saved.ckpt").string());
  waitFor([&] { return sim.lastMessage().find("saved") != std::string::npos; });
  CHECK(fs::exists(dir / "saved.ckpt"));
  sim.loadState((dir / "missing.ckpt").string());
  waitFor([&] { return sim.lastMessage().find("error") != std::string::npos; });
  CHECK(sim.lastMessage().find("missing.ckpt") != std::string::npos);
}

TEST_CASE("the timeline keeps each frame's state: scrubbing back gives that frame, running on gives the same future") {
  SimThread sim(defaultScene(), /*startPaused=*/true);
  const std::vector<uint64_t> digest = simulateKeptFrames(sim, 3);  // three frames, each frame's digest noted
  CHECK(sim.snapshot().timelineFirst == 0);  // the start is kept too (the state the divergence watch starts from)
  CHECK(sim.snapshot().timelineLast == 3);
  CHECK(sim.snapshot().timelineBytes > 0);
  // Back to frame 1: its state exactly, paused.
  sim.scrubTo(1);
  waitFor([&] { sim.poll(); return sim.snapshot().frameIndex == 1; });
  REQUIRE(sim.snapshot().frameIndex == 1);
  CHECK(sim.snapshot().stateDigest == digest[1]);
  CHECK(sim.snapshot().paused);
  // Running on from it: the same frames 2 and 3 again (and the later ones it had were dropped on the way).
  sim.setLockstep(true);
  sim.setPaused(false);
  waitFor([&] { sim.poll(); return sim.snapshot().frameIndex == 2; });
  CHECK(sim.snapshot().stateDigest == digest[2]);
  CHECK(sim.snapshot().timelineLast == 2);
  sim.releaseFrame();
  waitFor([&] { sim.poll(); return sim.snapshot().frameIndex == 3; });
  CHECK(sim.snapshot().stateDigest == digest[3]);
  sim.setLockstep(false);
  sim.releaseFrame();
}

TEST_CASE("resuming from a scrubbed frame with the same throw gives the state the original run had") {
  SimThread sim(defaultScene(), /*startPaused=*/true);
  const Command ball = Command::throwProjectile(vec3(0.0f, 0.3f, 0.0f), vec3(0.0f, -5.0f, 0.0f), 0.02f, "steel");
  auto throwAndRun = [&] {  // paused at frame 1: the throw, then frames 2 and 3
    sim.submit(ball);
    sim.setLockstep(true);
    sim.setPaused(false);
    std::vector<uint64_t> digests;
    for (int f = 2; f <= 3; ++f) {
      waitFor([&] { sim.poll(); return sim.snapshot().frameIndex == f; });
      REQUIRE(sim.snapshot().frameIndex == f);
      digests.push_back(sim.snapshot().stateDigest);
      if (f < 3) sim.releaseFrame();
    }
    digests.push_back(uint64_t(sim.snapshot().stats.elements));  // the ball is one more element
    sim.setPaused(true);
    sim.setLockstep(false);
    sim.releaseFrame();
    waitFor([&] { sim.poll(); return sim.snapshot().paused; });
    return digests;
  };
  const std::vector<uint64_t> kept = simulateKeptFrames(sim, 1);  // the timeline on, paused at frame 1
  const long long elements = sim.snapshot().stats.elements;
  const std::vector<uint64_t> original = throwAndRun();
  CHECK(original[2] == uint64_t(elements + 1));
  sim.scrubTo(1);  // back, and "resume from here" with the same throw: the later frames are dropped
  waitFor([&] { sim.poll(); return sim.snapshot().frameIndex == 1 && sim.snapshot().paused; });
  REQUIRE(sim.snapshot().stateDigest == kept[1]);
  const std::vector<uint64_t> resumed = throwAndRun();
  CHECK(resumed == original);
}

TEST_CASE("the timeline stays within its memory budget, keeping at least the latest frame") {
  SimThread sim(defaultScene(), /*startPaused=*/true);
  sim.setTimeline(true, 1);  // one byte: only the newest frame fits (it is always kept)
  sim.setLockstep(true);
  sim.setPaused(false);
  for (int f = 1; f <= 3; ++f) {
    waitFor([&] { sim.poll(); return sim.snapshot().frameIndex == f; });
    if (f < 3) sim.releaseFrame();
  }
  sim.setPaused(true);
  sim.setLockstep(false);
  sim.releaseFrame();
  waitFor([&] { sim.poll(); return sim.snapshot().timelineLast == 3; });
  CHECK(sim.snapshot().timelineFirst == 3);
  CHECK(sim.snapshot().timelineLast == 3);
}

TEST_CASE("the grab tool pulls the grabbed end of a resting bar towards the target and tears it off a weak one") {
  // A bar 0.2 m long on the ground (no gravity needed: it rests), grabbed at its right end and pulled 5 cm up and out.
  // Strong material: the end follows the target; weak: the bonds around the grabbed group break and it comes off.
  auto run = [](const std::string& strength, long long& broken, float& reached, int& fragments) {
    const fs::path dir = fs::temp_directory_path() / "frac_grab";
    fs::create_directories(dir);
    const fs::path scene = dir / ("bar_" + strength + ".json");
    std::ofstream(scene) << R"({"name": "bar", "fps": 100, "solver": {"method": "bdem", "gravity": [0, 0, 0]},
        "materials": {"m": {"density": 2000, "young": 5e6, "tensile_strength": )" << strength << R"(,
                            "shear_strength": )" << strength << R"(}},
        "bodies": [{"shape": {"type": "box", "size": [0.2, 0.02, 0.02]}, "position": [0, 0.02, 0],
                    "element_radius": 0.004, "material": "m"}]})";
    SessionOptions o;
    o.scenePath = scene.string();
    SceneSession session(o);
    const ReferenceElements& body = session.simulation().solver().referenceElements();
    size_t end = 0;  // the rightmost element
    for (size_t k = 1; k < body.position.size(); ++k)
      if (body.position[k].x > body.position[end].x) end = k;
    const vec3 target = body.position[end] + vec3(0.05f, 0.05f, 0.0f);
    session.apply(Command::grab(body.index[end], 0.012f, target, 10.0f));
    const int grabbed = int(session.simulation().grab().elements().size());
    CHECK(grabbed > 3);  // the picked element and its neighbours
    const long long steps = (long long)(0.3 / session.simulation().dt());  // 0.3 s: three periods of the spring
    runSteps(session, steps);
    const vec3 now = body.position[end] + session.simulation().solver().displacementsOf({body.index[end]})[0];
    reached = glm::length(now - body.position[end]) / glm::length(target - body.position[end]);
    broken = session.simulation().stats().bondsBroken;
    fragments = session.simulation().stats().fragments;
    session.apply(Command::release());
    CHECK_FALSE(session.simulation().grab().active());
    CHECK(session.log().size() == 2);  // grab and release, stamped in the log
  };
  long long broken = 0;
  float reached = 0.0f;
  int fragments = 0;
  run("1e7", broken, reached, fragments);
  MESSAGE("strong bar: the end went " << reached << " of the way, " << broken << " bonds broken");
  CHECK(reached > 0.3f);  // the whole bar comes along towards the target
  CHECK(broken == 0);
  run("2e4", broken, reached, fragments);
  MESSAGE("weak bar: the end went " << reached << " of the way, " << broken << " bonds broken, " << fragments
                                    << " fragments");
  CHECK(reached > 0.8f);  // torn off, it reaches the target
  CHECK(broken > 0);
  CHECK(fragments >= 2);
}

TEST_CASE("after a divergence the run rolls back to the last frame the watch passed, with dt halved, and goes on") {
  // wall_impact with a coarser wall (r 8 mm, 800 elements: light enough for the TSan run) at dt 2e-4 s, 10x its
  // stable step: it diverges within a few frames and pauses with the offer. Each roll back returns to a kept frame
  // that passed the watch with half the step; after at most five (dt 6e-6 at the latest: under the stable step) the
  // run goes 10 frames further without diverging.
  SessionOptions o;
  o.scenePath = std::string(FRACTURE_SOURCE_DIR) + "/assets/scenes/wall_impact.json";
  o.overrides = {"bodies.0.element_radius=0.008", "solver.dt=2e-4"};
  SimThread sim(o, /*startPaused=*/true);
  sim.setTimeline(true, size_t(1) << 30);
  const double firstDt = 2e-4;
  sim.setPaused(false);
  int rollbacks = 0;
  bool wentOn = false;
  while (rollbacks <= 5 && !wentOn) {
    int start = 0;
    waitFor([&] { sim.poll(); return sim.rollbackFrame() >= 0 || sim.snapshot().frameIndex >= start + 1000; });
    const int frame = sim.rollbackFrame();
    if (frame < 0) break;  // no divergence within the wait: cannot happen at 12x the stable step
    INFO(sim.lastMessage());
    CHECK(sim.lastMessage().find("B rolls back to frame " + std::to_string(frame)) != std::string::npos);
    const double before = sim.snapshot().dt;
    REQUIRE(sim.rollBack());
    ++rollbacks;
    waitFor([&] {
      sim.poll();
      return sim.snapshot().frameIndex == frame && sim.snapshot().paused && sim.snapshot().dt < 0.75 * before;
    });
    REQUIRE(sim.snapshot().frameIndex == frame);
    CHECK(sim.snapshot().dt <= 0.5 * before * (1.0 + 1e-9));
    CHECK(sim.rollbackFrame() == -1);  // the offer is used up
    // Run on: either 10 frames without diverging, or another divergence (another roll back).
    start = frame;
    sim.setPaused(false);
    waitFor([&] { sim.poll(); return sim.rollbackFrame() >= 0 || sim.snapshot().frameIndex >= start + 10; });
    wentOn = sim.rollbackFrame() < 0 && sim.snapshot().frameIndex >= start + 10;
  }
  MESSAGE(rollbacks << " roll backs, dt " << sim.snapshot().dt << " s (started at " << firstDt << ")");
  CHECK(rollbacks >= 1);
  CHECK(wentOn);
  sim.setPaused(true);
}

TEST_CASE("played back through the simulation thread, each frame is the state simulated at that frame") {
  SimThread sim(defaultScene(), /*startPaused=*/true);
  const std::vector<uint64_t> simulated = simulateKeptFrames(sim, 4);
  // From frame 1 at 0.25x of 500 fps: every loop of 8 ms owes one frame.
  TimelinePlayer player;
  sim.scrubTo(1);
  player.play(0.25, 1);
  std::vector<int> shown;
  for (int loop = 0; loop < 20000 && player.playing(); ++loop) {
    sim.poll();
    const SimSnapshot s = sim.snapshot();
    if (shown.empty() || shown.back() != s.frameIndex) {
      shown.push_back(s.frameIndex);
      CHECK(s.stateDigest == simulated[size_t(s.frameIndex)]);
    }
    const int next = player.advance(0.008, s, 500.0);
    if (next >= 0) sim.scrubTo(next);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  CHECK(shown == std::vector<int>{4, 1, 2, 3, 4});  // the end, then the playback from frame 1, in order
  CHECK(sim.snapshot().paused);
}
