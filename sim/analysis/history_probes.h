#pragma once
// The scene's point_history and reaction probes (scene key "probes"): every `every` steps a row of history.csv with the
// step, the time and each due probe's columns. point_history follows the body element nearest its start position
// (Solver::referenceElements) and reads its displacement and any per-element array of the method by its list name
// (Solver::visitArrays: velocity, angularVelocity, debrisPressure, ...), a column per component (NAME.FIELD_x ...);
// reaction reads Solver::kinematicLoad of a kinematic or grip: NAME.displacement and NAME.force along its motion, and
// for a turning one NAME.angle and NAME.torque about its spin axis.
// Rows are kept until taken (the headless run appends them to DIR/history.csv after each frame).
#include <string>
#include <vector>

#include "io/scene_desc.h"
#include "solvers/solver.h"

namespace frac {

class HistoryProbes {
 public:
  // Throws SceneError naming the probe's key for a field the method does not have.
  HistoryProbes(const SceneDesc& scene, const Solver& solver);
  bool empty() const { return probes_.empty(); }
  const std::string& header() const { return header_; }  // "step,time,NAME.COLUMN,..."
  // After step `step` (the state at `time`): a row when a probe is due (step 0: every probe).
  void sample(long long step, double time, const Solver& solver);
  // The CSV lines sampled since the last call.
  std::string takeRows();

 private:
  struct Field {
    std::string name;  // "displacement" or a per-element array's name
    int components = 3;
  };
  struct Probe {
    ProbeDesc desc;
    int element = -1;          // point_history: the element followed
    std::vector<Field> fields;
    int columns = 0;
    bool turning = false;      // reaction of a kinematic with an angular velocity: .angle and .torque columns too
  };
  std::vector<Probe> probes_;
  std::string header_, rows_;
};

}  // namespace frac
