#pragma once
// Checkpoint files (--checkpoint-every, --resume): named sections of bytes in a versioned file with an FNV-1a
// checksum over everything before it. The writer collects sections and writes them kill-safe (io/atomic_file.h);
// the reader refuses a truncated, corrupt, foreign or other-version file with a message naming it.
//
// Layout: "FRACCKPT", uint32 version, uint32 section count; per section uint32 name length, the name, uint64 byte
// count, the bytes; then uint64 checksum. Little endian (the machines this runs on).
#include <cstdint>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace frac {

// 2: bdem and rbdem elements carry positionLow; 3: rbdem's step correction (stepX, stepQ) and coarse space; 4: bdem's
// bonds carry their softening history (peakRatio, ductility) and its materials a fracture energy; 5: fem-debris'
// meshes and random packings listed along a Morton curve (geometry/morton_order.h), so an older checkpoint's nodes or
// elements are not in the order the scene now builds them; 6: bdem's and rbdem's lattice bodies listed in slabs across
// their longest axis (geometry/packing.h longAxisOrder), the same
constexpr uint32_t kCheckpointVersion = 6;

class CheckpointWriter {
 public:
  void add(const std::string& name, const void* data, size_t bytes);
  template <class T>
  void value(const std::string& name, const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    add(name, &v, sizeof v);
  }
  template <class T>
  void vector(const std::string& name, const std::vector<T>& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    add(name, v.data(), v.size() * sizeof(T));
  }
  void text(const std::string& name, const std::string& s) { add(name, s.data(), s.size()); }
  // Throws std::runtime_error naming the file when it cannot be written.
  void write(const std::string& path) const;
  // The file's bytes (a snapshot kept in memory: the window's timeline).
  std::vector<uint8_t> bytes() const;

 private:
  std::vector<std::pair<std::string, std::vector<uint8_t>>> sections_;
};

class CheckpointReader {
 public:
  // Reads and checks the whole file; std::invalid_argument naming it for anything but an intact checkpoint of this
  // version.
  explicit CheckpointReader(const std::string& path);
  // The same from bytes in memory; `name` stands for the file in messages.
  CheckpointReader(const std::vector<uint8_t>& data, const std::string& name);
  bool has(const std::string& name) const { return sections_.count(name) > 0; }
  // The section's bytes; std::invalid_argument naming the file and the section when it is missing.
  const std::vector<uint8_t>& bytes(const std::string& name) const;
  template <class T>
  T value(const std::string& name) const {
    const std::vector<uint8_t>& b = bytes(name);
    if (b.size() != sizeof(T)) wrongSize(name);
    T v;
    std::memcpy(&v, b.data(), sizeof v);
    return v;
  }
  template <class T>
  std::vector<T> vector(const std::string& name) const {
    const std::vector<uint8_t>& b = bytes(name);
    if (b.size() % sizeof(T) != 0) wrongSize(name);
    std::vector<T> v(b.size() / sizeof(T));
    if (!v.empty()) std::memcpy(v.data(), b.data(), b.size());
    return v;
  }
  std::string text(const std::string& name) const {
    const std::vector<uint8_t>& b = bytes(name);
    return std::string(b.begin(), b.end());
  }
  const std::string& path() const { return path_; }
  [[noreturn]] void wrongSize(const std::string& name) const;

 private:
  void parse(const std::vector<uint8_t>& data);
  std::string path_;
  std::map<std::string, std::vector<uint8_t>> sections_;
};

}  // namespace frac

namespace frac {

// One list of fields serves both directions: a method writes `template <class Io> void fields(Io& io)` calling
// io.field("name", member) for each, and runs it with CheckpointSave (writes) or CheckpointLoad (reads back).
struct CheckpointSave {
  CheckpointWriter& out;
  template <class T>
  void field(const std::string& name, const T& v) {
    out.value(name, v);
  }
  template <class T>
  void field(const std::string& name, const std::vector<T>& v) {
    out.vector(name, v);
  }
  void field(const std::string& name, const std::string& v) { out.text(name, v); }
  void field(const std::string& name, const bool& v) { out.value(name, uint8_t(v)); }
  [[noreturn]] void mismatch(const std::string& what) const { throw std::invalid_argument(what); }
};

struct CheckpointLoad {
  const CheckpointReader& in;
  template <class T>
  void field(const std::string& name, T& v) {
    v = in.value<T>(name);
  }
  template <class T>
  void field(const std::string& name, std::vector<T>& v) {
    v = in.vector<T>(name);
  }
  void field(const std::string& name, std::string& v) { v = in.text(name); }
  void field(const std::string& name, bool& v) { v = in.value<uint8_t>(name) != 0; }
  // A checkpoint that does not fit the scene it is restored into.
  [[noreturn]] void mismatch(const std::string& what) const {
    throw std::invalid_argument(in.path() + ": " + what + " (a checkpoint of another scene)");
  }
};

}  // namespace frac
