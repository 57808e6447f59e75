#include "recorder/png_file.h"

#include <fcntl.h>
#include <png.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <memory>
#include <system_error>

namespace frac {
namespace {

// Writes all of data to a new file at path; on failure sets error and removes the file.
bool writeWholeFile(const std::filesystem::path& path, const uint8_t* data, size_t size, std::string& error) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    error = systemError(errno);
    return false;
  }
  int err = 0;
  while (size > 0 && err == 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n > 0) {
      data += n;
      size -= static_cast<size_t>(n);
    } else if (n < 0 && errno != EINTR) {
      err = errno;
    }
  }
  // close() can report a delayed write error (e.g. on network file systems).
  if (::close(fd) != 0 && err == 0) err = errno;
  if (err == 0) return true;
  error = systemError(err);
  ::unlink(path.c_str());
  return false;
}

}  // namespace

std::string systemError(int err) { return std::generic_category().message(err); }

bool writePngFile(const std::filesystem::path& path, int width, int height, const uint8_t* rgba, std::string& error) {
  if (width <= 0 || height <= 0 || rgba == nullptr) {
    error = "invalid image (" + std::to_string(width) + "x" + std::to_string(height) + ")";
    return false;
  }
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  image.width = static_cast<png_uint_32>(width);
  image.height = static_cast<png_uint_32>(height);
  image.format = PNG_FORMAT_RGBA;
  image.flags = PNG_IMAGE_FLAG_FAST;  // zlib level 3, no row filters: much faster, somewhat larger files

  // Encode into memory first so that file errors come from write(2) with a plain errno.
  png_alloc_size_t size = PNG_IMAGE_PNG_SIZE_MAX(image);
  std::unique_ptr<uint8_t[]> encoded(new uint8_t[size]);
  if (!png_image_write_to_memory(&image, encoded.get(), &size, 0, rgba, 0, nullptr)) {
    error = std::string("PNG encoding failed: ") + image.message;
    png_image_free(&image);
    return false;
  }
  return writeWholeFile(path, encoded.get(), size, error);
}

bool readPngFile(const std::filesystem::path& path, int& width, int& height, std::vector<uint8_t>& rgba,
                 std::string& error) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&image, path.c_str())) {
    error = image.message;
    png_image_free(&image);
    return false;
  }
  image.format = PNG_FORMAT_RGBA;
  rgba.resize(PNG_IMAGE_SIZE(image));
  if (!png_image_finish_read(&image, nullptr, rgba.data(), 0, nullptr)) {
    error = image.message;
    png_image_free(&image);
    rgba.clear();
    return false;
  }
  width = static_cast<int>(image.width);
  height = static_cast<int>(image.height);
  return true;
}

std::optional<std::filesystem::path> findOnPath(const std::string& program) {
  namespace fs = std::filesystem;
  const auto runnable = [](const fs::path& p) {
    std::error_code ec;
    return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
  };
  if (program.empty()) return std::nullopt;
  if (program.find('/') != std::string::npos) {
    if (runnable(program)) return fs::path(program);
    return std::nullopt;
  }
  const char* env = std::getenv("PATH");
  const std::string path = env ? env : "/usr/bin:/bin";
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find(':', start);
    if (end == std::string::npos) end = path.size();
    const std::string dir = path.substr(start, end - start);
    const fs::path candidate = fs::path(dir.empty() ? "." : dir) / program;  // an empty entry means "."
    if (runnable(candidate)) return candidate;
    start = end + 1;
  }
  return std::nullopt;
}

}  // namespace frac
