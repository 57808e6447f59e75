#include "bench/backend_compare.h"

#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>

#include "io/scene_error.h"
#include "io/scene_loader.h"
#include "solvers/simulation.h"

namespace frac {
namespace {

struct ArrayCopy {
  std::string name;
  std::vector<unsigned char> bytes;
  size_t elementBytes = 1;
};

std::vector<ArrayCopy> stateArrays(const Solver& solver) {
  std::vector<ArrayCopy> arrays;
  solver.visitArrays([&](const ArrayInfo& info) {  // those a step changes
    if (info.travel != Travel::State) return;
    const auto* begin = static_cast<const unsigned char*>(info.data);
    arrays.push_back({info.name, std::vector<unsigned char>(begin, begin + info.count * info.entryBytes), info.entryBytes});
  });
  return arrays;
}

// One entry as its 4-byte words (float and hex) when it is made of them, else as bytes.
std::string entryText(const ArrayCopy& a, size_t index) {
  const unsigned char* p = a.bytes.data() + index * a.elementBytes;
  std::string text;
  char part[64];
  if (a.elementBytes % 4 == 0) {
    for (size_t w = 0; w < a.elementBytes / 4; ++w) {
      float f;
      uint32_t u;
      std::memcpy(&f, p + 4 * w, 4);
      std::memcpy(&u, p + 4 * w, 4);
      std::snprintf(part, sizeof part, "%s%.9g(%08x)", w ? " " : "", double(f), u);
      text += part;
    }
  } else {
    for (size_t b = 0; b < a.elementBytes; ++b) {
      std::snprintf(part, sizeof part, "%s%u", b ? " " : "", unsigned(p[b]));
      text += part;
    }
  }
  return text;
}

// Prints every array that differs; true when any does.
bool reportDifferences(const std::vector<ArrayCopy>& cpu, const std::vector<ArrayCopy>& cuda, long long step) {
  bool differ = false;
  for (size_t k = 0; k < cpu.size() && k < cuda.size(); ++k) {
    const ArrayCopy &a = cpu[k], &b = cuda[k];
    if (a.bytes == b.bytes) continue;
    differ = true;
    const size_t n = std::min(a.bytes.size(), b.bytes.size()) / a.elementBytes;
    std::vector<size_t> differing;
    for (size_t i = 0; i < n; ++i)
      if (std::memcmp(a.bytes.data() + i * a.elementBytes, b.bytes.data() + i * a.elementBytes, a.elementBytes))
        differing.push_back(i);
    std::printf("step %lld: %s differs in %zu of %zu entries (sizes %zu / %zu bytes)\n", step, a.name.c_str(),
                differing.size(), n, a.bytes.size(), b.bytes.size());
    for (size_t d = 0; d < differing.size() && d < 6; ++d) {
      const size_t i = differing[d];
      std::printf("  [%zu] cpu  %s\n  [%zu] cuda %s\n", i, entryText(a, i).c_str(), i, entryText(b, i).c_str());
    }
  }
  return differ;
}

}  // namespace

int compareBackends(const std::string& scenePath, const std::vector<std::string>& overrides, int steps) {
  std::unique_ptr<Simulation> runs[2];
  const char* backends[2] = {"cpu", "cuda"};
  try {
    for (int r = 0; r < 2; ++r) {
      std::vector<std::string> settings = overrides;
      settings.push_back(std::string("solver.backend=") + backends[r]);
      runs[r] = std::make_unique<Simulation>(loadScene(scenePath, settings));
    }
  } catch (const SceneError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  }
  if (runs[1]->solver().activeBackend() != Backend::Cuda) {
    std::cerr << "error: --compare-backends needs a usable CUDA device (" << runs[1]->backendLine() << ")\n";
    return 2;
  }
  for (int s = 1; s <= steps; ++s) {
    runs[0]->step();
    runs[1]->step();
    if (!reportDifferences(stateArrays(runs[0]->solver()), stateArrays(runs[1]->solver()), s)) continue;
    std::printf("%s: CPU and CUDA part at step %d (t = %.9g s)\n", runs[0]->scene().name.c_str(), s, runs[0]->time());
    return 1;
  }
  std::printf("%s: CPU and CUDA agree bit for bit for %d steps\n", runs[0]->scene().name.c_str(), steps);
  return 0;
}

}  // namespace frac
