#include "session/edit_history.h"

namespace frac {

void EditHistory::record(const std::string& key, nlohmann::json before, nlohmann::json after, double now) {
  if (before == after) return;
  undone_.clear();
  if (!done_.empty() && done_.back().key == key && now - lastTime_ < kMergeSeconds) {
    done_.back().after = std::move(after);  // the drag goes on: one step from where it started
    if (done_.back().after == done_.back().before) done_.pop_back();  // dragged back to the start: no edit
  } else {
    done_.push_back({key, std::move(before), std::move(after)});
    if (done_.size() > kLimit) done_.erase(done_.begin());
  }
  lastTime_ = now;
}

// Moves the newest edit of `from` to `to` and returns the Set that takes it back (undo) or makes it again (redo).
std::optional<Command> EditHistory::move(std::vector<Edit>& from, std::vector<Edit>& to, bool undoing) {
  if (from.empty()) return std::nullopt;
  Edit edit = std::move(from.back());
  from.pop_back();
  Command c = Command::set(edit.key, undoing ? edit.before : edit.after);
  c.edit = undoing ? "undo" : "redo";
  to.push_back(std::move(edit));
  lastTime_ = -1e300;  // the next edit starts a step of its own
  return c;
}

std::optional<Command> EditHistory::undo() { return move(done_, undone_, true); }

std::optional<Command> EditHistory::redo() { return move(undone_, done_, false); }

void EditHistory::clear() {
  done_.clear();
  undone_.clear();
  lastTime_ = -1e300;
}

}  // namespace frac
