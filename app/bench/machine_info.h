#pragma once
#include <string>

namespace frac {

// "CPU model, N cores" from /proc/cpuinfo, for benchmark reports.
std::string machineDescription();

}  // namespace frac
