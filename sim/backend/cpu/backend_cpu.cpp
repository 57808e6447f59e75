#include "backend/backend.h"

namespace frac {

#if !defined(FRACTURE_HAVE_CUDA)
bool cudaBackendAvailable(std::string* why) {
  if (why) *why = "this build has no CUDA backend (configured with FRACTURE_CUDA=OFF or without nvcc)";
  return false;
}
#endif

}  // namespace frac
