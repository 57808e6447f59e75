#pragma once
// Thrown from inside a step when the state can no longer be stepped (positions no longer finite, so no contact grid
// can be laid over them): the run has diverged. Headless runs report it as the divergence watch does (exit 3, the
// last good state written); anything else that throws from a step is a bug or a bad command.
#include <stdexcept>

namespace frac {

struct DivergedError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace frac
