// Undo and redo of parameter edits (session/edit_history.h): the previous value and the stable step come back, a
// slider drag is one step, a new edit drops what could be redone, and the replay log marks undo and redo.
#include <doctest/doctest.h>
#include "../relative_approx.h"

#include <cmath>

#include "session/edit_history.h"
#include "session/scene_session.h"

using namespace frac;

namespace {

const std::string kDefault = std::string(FRACTURE_SOURCE_DIR) + "/assets/scenes/default.json";
const std::string kYoung = "materials.stone.young";

// The panels' path: the edit recorded with the value it replaces, its Set applied.
void edit(EditHistory& history, SceneSession& session, const nlohmann::json& value, double now) {
  history.record(kYoung, session.document()["materials"]["stone"]["young"], value, now);
  session.apply(Command::set(kYoung, value));
}

double young(const SceneSession& session) { return session.document()["materials"]["stone"]["young"].get<double>(); }

}  // namespace

TEST_CASE("undo restores the previous Young's modulus and the stable dt, redo makes the edit again") {
  SessionOptions options;
  options.scenePath = kDefault;
  options.overrides = {"bodies.0.element_radius=0.006", "bodies.1.element_radius=0.006", "bodies.2.element_radius=0.006"};
  SceneSession session(options);
  EditHistory history;
  const double young0 = young(session), dt0 = session.simulation().solver().stableDt();
  // A stiffer stone: every bond 4x as stiff, the critical step sqrt(m / k) (Lu 2021 sec. 4.1) half as long.
  edit(history, session, 4.0 * young0, 0.0);
  const double dt4 = session.simulation().solver().stableDt();
  MESSAGE("stable dt " << dt0 << " s -> " << dt4 << " s with E x 4");
  CHECK(dt4 == RelApprox(0.5 * dt0).epsilon(0.02));

  auto undo = history.undo();
  REQUIRE(undo);
  CHECK(undo->key == kYoung);
  CHECK(undo->edit == "undo");
  session.apply(*undo);
  CHECK(young(session) == young0);
  CHECK(session.simulation().solver().stableDt() == dt0);  // exactly the step shown before the edit
  CHECK_FALSE(history.undo());  // nothing more to take back

  auto redo = history.redo();
  REQUIRE(redo);
  CHECK(redo->edit == "redo");
  session.apply(*redo);
  CHECK(young(session) == 4.0 * young0);
  CHECK(session.simulation().solver().stableDt() == dt4);
  CHECK_FALSE(history.redo());

  // The replay log keeps the history: the edit, its undo and its redo, marked, and read back the same.
  const std::vector<Command>& log = session.log();
  REQUIRE(log.size() == 3);
  CHECK(log[0].edit.empty());
  CHECK(log[1].toJson()["edit"] == "undo");
  CHECK(log[2].toJson()["edit"] == "redo");
  CHECK(Command::fromJson(log[1].toJson(), "replay.jsonl line 2").edit == "undo");
  CHECK_THROWS_WITH_AS(Command::fromJson({{"type", "set"}, {"key", kYoung}, {"value", 1e7}, {"edit", "again"}},
                                         "replay.jsonl line 9"),
                       "replay.jsonl line 9: 'edit' must be \"undo\" or \"redo\"", std::invalid_argument);
}

TEST_CASE("a slider drag is one undo step, and a new edit drops what could be redone") {
  EditHistory history;
  // Dragged from 1e7 through three values within a second, then another key.
  history.record(kYoung, 1e7, 1.5e7, 10.0);
  history.record(kYoung, 1.5e7, 2e7, 10.3);
  history.record(kYoung, 2e7, 3e7, 10.6);
  history.record("solver.safety", 0.8, 0.5, 10.7);
  REQUIRE(history.nextUndo());
  CHECK(history.nextUndo()->key == "solver.safety");
  CHECK(history.undo()->value == 0.8);
  auto drag = history.undo();
  REQUIRE(drag);
  CHECK(drag->value == 1e7);  // back to where the drag started
  CHECK_FALSE(history.undo());
  // The same key again more than a second later is a step of its own.
  history.record(kYoung, 1e7, 2e7, 20.0);
  history.record(kYoung, 2e7, 4e7, 21.5);
  CHECK_FALSE(history.nextRedo());  // the new edits dropped the two undone ones
  CHECK(history.undo()->value == 2e7);
  CHECK(history.undo()->value == 1e7);
  // Dragged away and back to the start: no step at all.
  history.record(kYoung, 1e7, 2e7, 30.0);
  history.record(kYoung, 2e7, 1e7, 30.2);
  CHECK_FALSE(history.nextUndo());
}
