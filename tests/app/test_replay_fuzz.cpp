// Replay files under mutation (issue "Reliability", item 2): a real replay (a scene with --set edits, a throw, a live
// edit, a grab, a reset), its lines mutated by the seeded JSON mutator and its bytes cut and flipped, is either
// refused with std::invalid_argument or SceneError naming the file, or replayed: a command that cannot apply says
// why (invalid_argument, SceneError: the headless run exits 2) or the run diverges (DivergedError); never another
// exception, never a crash.
#include <doctest/doctest.h>

#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "../json_mutator.h"
#include "core/diverged_error.h"
#include "io/scene_error.h"
#include "session/replay_file.h"
#include "session/scene_session.h"

using namespace frac;

namespace {

std::string recordedReplay() {
  SessionOptions o;
  o.scenePath = std::string(FRACTURE_SOURCE_DIR) + "/assets/scenes/default.json";
  o.overrides = {"bodies.0.element_radius=0.008", "bodies.1.element_radius=0.008", "bodies.2.element_radius=0.008"};
  SceneSession session(o);
  session.apply(Command::throwProjectile(vec3(0.0f, 0.2f, 0.3f), vec3(0.0f, 0.0f, -5.0f), 0.02f, "steel"));
  session.simulation().stepCountingFrames();
  session.apply(Command::set("materials.stone.young", 2e7));
  session.apply(Command::grab(0, 0.01f, vec3(0.0f, 0.3f, 0.0f), 20.0f));
  session.apply(Command::grabMove(vec3(0.01f, 0.3f, 0.0f)));
  session.apply(Command::release());
  ReplayLog log;
  log.session = session.options();
  log.session.overrides = session.resetOverrides();
  log.commands = session.log();
  log.frames = 1;
  return replayText(log);
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

}  // namespace

TEST_CASE("replay files under seeded mutation: refused naming the file, or replayed with clear refusals") {
  const std::string original = recordedReplay();
  const std::vector<std::string> originalLines = lines(original);
  REQUIRE(originalLines.size() >= 5);
  std::mt19937 rng(314);
  const std::string path = "fuzz_replay.jsonl";
  int refused = 0, replayed = 0;
  for (int k = 0; k < 400; ++k) {
    std::string text;
    if (k % 4 == 3) {  // bytes: cut, flipped or inserted
      text = original;
      const size_t at = rng() % text.size();
      switch (rng() % 3) {
        case 0: text.resize(at); break;
        case 1: text[at] = char(text[at] ^ (1 << (rng() % 8))); break;
        default: text.insert(at, std::string(1 + rng() % 4, char(rng() % 256))); break;
      }
    } else {  // one line's JSON mutated
      std::vector<std::string> l = originalLines;
      std::string& line = l[rng() % l.size()];
      nlohmann::json doc = nlohmann::json::parse(line);
      test::mutate(doc, rng);
      line = doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      for (const std::string& s : l) text += s + "\n";
    }
    INFO("case " << k << ": " << text.substr(0, 600));
    ReplayLog log;
    try {
      log = parseReplay(text, path);
    } catch (const std::invalid_argument& e) {
      ++refused;
      CHECK(std::string(e.what()).find(path) != std::string::npos);
      continue;
    } catch (const SceneError& e) {
      ++refused;
      CHECK(std::string(e.what()).find(path) != std::string::npos);
      continue;
    } catch (const std::exception& e) {
      FAIL("parse: " << std::string(e.what()) << " (not invalid_argument or SceneError)");
      continue;
    }
    ++replayed;
    try {  // as --replay does: the session, then its commands at their steps
      SceneSession session(log.session);
      size_t next = 0;
      for (int f = 0; f < std::min(log.frames, 2); ++f)
        while (!session.stepApplying(log.commands, next)) {
        }
    } catch (const std::invalid_argument&) {
    } catch (const SceneError&) {
    } catch (const DivergedError&) {
    } catch (const std::exception& e) {
      FAIL("replay: " << std::string(e.what()) << " (a command that cannot apply must say so)");
    }
  }
  MESSAGE(refused << " refused, " << replayed << " parsed and replayed");
  CHECK(refused > 100);
  CHECK(replayed > 20);
}
