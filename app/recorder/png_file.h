// PNG files for the frame recorder (libpng's simplified API), and finding a program on PATH.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace frac {

// Writes an RGBA8 image (rows top to bottom, width*height*4 bytes) as a PNG, favouring speed over size.
// On failure returns false, sets error to the reason (without the path) and leaves no file at path.
bool writePngFile(const std::filesystem::path& path, int width, int height, const uint8_t* rgba, std::string& error);

// Reads any PNG as RGBA8 (rows top to bottom). On failure returns false and sets error to the reason.
bool readPngFile(const std::filesystem::path& path, int& width, int& height, std::vector<uint8_t>& rgba,
                 std::string& error);

// The executable that a shell would run for program (e.g. "ffmpeg"), searching PATH; a name with a '/' is taken as is.
std::optional<std::filesystem::path> findOnPath(const std::string& program);

// errno's words ("No space left on device"), for the recorder's messages.
std::string systemError(int err);

}  // namespace frac
