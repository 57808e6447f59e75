// core/large_allocations.cpp: the program's operator new advises an allocation of 2 MiB or more onto transparent huge
// pages. Read back from the kernel: /proc/self/smaps lists each mapping's flags, and
// "hg" is the one madvise(MADV_HUGEPAGE) sets (proc(5)).
#include <doctest/doctest.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

// The VmFlags line of the mapping that holds `address`, or "" when none does.
std::string mappingFlags(const void* address) {
  std::ifstream smaps("/proc/self/smaps");
  const auto at = reinterpret_cast<uintptr_t>(address);
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    uintptr_t begin = 0, end = 0;
    char dash = 0;
    std::istringstream range(line);
    if (range >> std::hex >> begin >> dash >> end && dash == '-' && line.find(':') > line.find(' ')) {
      inside = at >= begin && at < end;
      continue;
    }
    if (inside && line.rfind("VmFlags:", 0) == 0) return line;
  }
  return "";
}

bool hasFlag(const std::string& flags, const std::string& flag) {
  std::istringstream words(flags);
  std::string word;
  while (words >> word)
    if (word == flag) return true;
  return false;
}

}  // namespace

TEST_CASE("large allocations: a vector of 64 MiB is advised onto huge pages") {
#if !defined(__linux__) || defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  MESSAGE("not Linux, or a sanitizer build (its own operator new): nothing to check");
#else
  if (!std::ifstream("/sys/kernel/mm/transparent_hugepage/enabled")) {
    MESSAGE("this kernel has no transparent huge pages: nothing to check");
    return;
  }
  std::vector<float> large(size_t(16) << 20, 1.0f);  // 64 MiB
  // The middle of the large block lies on one of its whole huge pages.
  const std::string largeFlags = mappingFlags(large.data() + large.size() / 2);
  CAPTURE(largeFlags);
  REQUIRE(!largeFlags.empty());
  CHECK(hasFlag(largeFlags, "hg"));
#endif
}
