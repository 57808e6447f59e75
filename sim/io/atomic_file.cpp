#include "io/atomic_file.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace frac {

void writeFileAtomically(const std::string& path, const std::function<void(std::ostream&)>& write) {
  const std::string partial = path + ".partial";
  std::error_code ec;
  {
    std::ofstream out(partial, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error(path + ": cannot create the file: " + std::strerror(errno));
    write(out);
    out.flush();
    if (!out) {
      std::filesystem::remove(partial, ec);
      throw std::runtime_error(path + ": writing failed (disk full?)");
    }
  }
  std::filesystem::rename(partial, path, ec);
  if (ec) {
    std::filesystem::remove(partial, ec);
    throw std::runtime_error(path + ": cannot rename " + partial + ": " + ec.message());
  }
}

void writeFileAtomically(const std::string& path, const std::string& text) {
  writeFileAtomically(path, [&](std::ostream& out) { out.write(text.data(), std::streamsize(text.size())); });
}

void failFile(const std::string& path, const std::string& why) { throw std::runtime_error(path + ": " + why); }

}  // namespace frac
