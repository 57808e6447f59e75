#pragma once
// The program's exit codes from what a run threw: bad input (a SceneError, std::invalid_argument) is said on one line
// and exits 2; anything else that went wrong exits 1, said the same way.
#include <iostream>
#include <stdexcept>

#include "io/scene_error.h"

namespace frac {

template <class Body>
int exitCodeOf(Body&& body) {
  try {
    return body();
  } catch (const SceneError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  } catch (const std::invalid_argument& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace frac
