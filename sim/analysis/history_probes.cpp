#include "analysis/history_probes.h"

#include <cstdio>

#include "core/name_list.h"
#include "io/json_validate.h"
#include "solvers/array_groups.h"

namespace frac {

namespace {

const char* const kAxes[] = {"_x", "_y", "_z", "_w"};

std::string componentSuffix(int components, int c) {
  if (components == 1) return "";
  return components <= 4 ? kAxes[c] : "_" + std::to_string(c);
}

void appendNumber(std::string& row, double value) {
  char text[32];
  std::snprintf(text, sizeof text, ",%.9g", value);
  row += text;
}

}  // namespace

HistoryProbes::HistoryProbes(const SceneDesc& scene, const Solver& solver) {
  header_ = "step,time";
  const std::vector<ArrayInfo> arrays = elementArrays(solver);
  for (size_t i = 0; i < scene.probes.size(); ++i) {
    const ProbeDesc& desc = scene.probes[i];
    if (desc.type != ProbeType::PointHistory && desc.type != ProbeType::Reaction) continue;
    Probe probe{desc, -1, {}, 0};
    const std::string where = "/probes/" + std::to_string(i);
    if (desc.type == ProbeType::Reaction) {
      header_ += "," + desc.name + ".displacement," + desc.name + ".force";
      probe.columns = 2;
      for (const KinematicDesc& kin : scene.kinematics)
        probe.turning = probe.turning || (kin.name == desc.kinematic && kin.angularVelocity != vec3(0.0f));
      if (probe.turning) {
        header_ += "," + desc.name + ".angle," + desc.name + ".torque";
        probe.columns = 4;
      }
      probes_.push_back(std::move(probe));
      continue;
    }
    const ReferenceElements& body = solver.referenceElements();
    if (body.index.empty()) throwSceneError(scene.path, where + "/point", "the scene has no body elements to follow");
    size_t nearest = 0;
    for (size_t k = 1; k < body.position.size(); ++k)
      if (glm::length(body.position[k] - desc.point) < glm::length(body.position[nearest] - desc.point)) nearest = k;
    probe.element = body.index[nearest];
    for (const std::string& name : commaSeparated(desc.fields)) {
      Field field{name, 3};
      bool known = name == "displacement";
      std::string names = "displacement";
      for (const ArrayInfo& a : arrays) {
        names += std::string(", ") + a.name;
        if (name == a.name) {
          known = true;
          field.components = a.components;
        }
      }
      if (!known)
        throwSceneError(scene.path, where + "/fields",
                        "unknown field \"" + name + "\" for " + solver.method() + " (known: " + names + ")");
      for (int c = 0; c < field.components; ++c)
        header_ += "," + desc.name + "." + name + componentSuffix(field.components, c);
      probe.columns += field.components;
      probe.fields.push_back(field);
    }
    probes_.push_back(std::move(probe));
  }
  header_ += "\n";
}

void HistoryProbes::sample(long long step, double time, const Solver& solver) {
  bool due = false;
  for (const Probe& p : probes_) due = due || step % p.desc.every == 0;
  if (!due) return;
  std::string row = std::to_string(step);
  appendNumber(row, time);
  std::vector<ArrayInfo> arrays;
  for (const Probe& p : probes_) {
    if (step % p.desc.every != 0) {
      row.append(size_t(p.columns), ',');
      continue;
    }
    if (p.desc.type == ProbeType::Reaction) {
      const KinematicLoad load = solver.kinematicLoad(p.desc.kinematic);
      appendNumber(row, load.displacement);
      appendNumber(row, load.force);
      if (p.turning) {
        appendNumber(row, load.angle);
        appendNumber(row, load.torque);
      }
      continue;
    }
    for (const Field& f : p.fields) {
      if (f.name == "displacement") {
        const vec3 d = solver.displacementsOf({p.element})[0];
        for (int c = 0; c < 3; ++c) appendNumber(row, d[c]);
        continue;
      }
      if (arrays.empty()) arrays = elementArrays(solver);  // host pointers of this state
      for (const ArrayInfo& a : arrays) {
        if (f.name != a.name) continue;
        const auto* entry = static_cast<const uint8_t*>(a.data) + size_t(p.element) * a.entryBytes;
        for (int c = 0; c < a.components; ++c) appendNumber(row, scalarValue(a.scalar, entry + size_t(c) * scalarBytes(a.scalar)));
      }
    }
  }
  rows_ += row + "\n";
}

std::string HistoryProbes::takeRows() {
  std::string rows;
  rows.swap(rows_);
  return rows;
}

}  // namespace frac
