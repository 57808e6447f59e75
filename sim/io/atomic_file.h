#pragma once
// Files written kill-safe: into PATH.partial, flushed, then renamed to PATH, so a killed run never leaves a
// half-written PATH (PNG frames, meshes, data exports, checkpoints).
#include <functional>
#include <ostream>
#include <string>

namespace frac {

// `write` fills the stream; a failure (cannot create, disk full, cannot rename) removes the partial file and throws
// std::runtime_error naming PATH and the reason.
void writeFileAtomically(const std::string& path, const std::function<void(std::ostream&)>& write);
void writeFileAtomically(const std::string& path, const std::string& text);

// The data files' one error: std::runtime_error worded "PATH: why".
[[noreturn]] void failFile(const std::string& path, const std::string& why);

}  // namespace frac
