#pragma once
// Undo and redo of the panels' parameter edits (issue "Live demos", item 4; Ctrl+Z, Ctrl+Shift+Z). Each edit is a
// Set command and the value it replaced. Undo submits the replaced value and redo the edited one again, as Set
// commands marked "undo" / "redo", so the replay log holds the edit history and a replay repeats it. Edits of one key
// in quick succession (a slider being dragged) are one step, as in any editor.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "session/command.h"

namespace frac {

class EditHistory {
 public:
  struct Edit {
    std::string key;  // dotted, as --set (materials.stone.young)
    nlohmann::json before, after;
  };
  static constexpr double kMergeSeconds = 1.0;  // same key within this: one step
  static constexpr size_t kLimit = 500;         // the oldest edits are forgotten beyond this

  // An edit of `key` from `before` to `after` at wall time `now` (s). Clears what could be redone.
  void record(const std::string& key, nlohmann::json before, nlohmann::json after, double now);
  // The command that takes the last edit back (none when there is nothing to undo); it moves to the redo list.
  std::optional<Command> undo();
  // The command that makes the last undone edit again.
  std::optional<Command> redo();
  const Edit* nextUndo() const { return done_.empty() ? nullptr : &done_.back(); }
  const Edit* nextRedo() const { return undone_.empty() ? nullptr : &undone_.back(); }
  void clear();  // another scene was opened

 private:
  std::optional<Command> move(std::vector<Edit>& from, std::vector<Edit>& to, bool undoing);

  std::vector<Edit> done_, undone_;
  double lastTime_ = -1e300;
};

}  // namespace frac
