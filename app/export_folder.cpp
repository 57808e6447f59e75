#include "export_folder.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace frac {

namespace fs = std::filesystem;

void prepareExportFolder(const fs::path& directory, const std::string& what) {
  const std::string folder = "cannot export " + what + " into '" + directory.string() + "': ";
  std::error_code ec;
  fs::create_directories(directory, ec);
  if (ec) throw std::invalid_argument(folder + ec.message());
  if (!fs::is_directory(directory, ec)) throw std::invalid_argument(folder + "not a folder");
  const fs::path probe = directory / (".write_test_" + std::to_string(getpid()));
  {
    std::ofstream out(probe, std::ios::binary | std::ios::trunc);
    if (!out) throw std::invalid_argument(folder + std::strerror(errno));
  }
  fs::remove(probe, ec);
  for (const auto& entry : fs::directory_iterator(directory, ec))
    if (entry.path().extension() == ".partial") fs::remove(entry.path(), ec);
}

}  // namespace frac
