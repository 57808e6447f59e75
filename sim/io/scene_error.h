#pragma once
#include <stdexcept>
#include <string>

namespace frac {

// Bad input: the message names the file, the JSON path (or key) and what was expected.
struct SceneError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace frac
