#include "io/checkpoint_file.h"

#include <cerrno>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "core/state_digest.h"
#include "io/atomic_file.h"

namespace frac {

namespace {

constexpr char kMagic[8] = {'F', 'R', 'A', 'C', 'C', 'K', 'P', 'T'};

template <class T>
void put(std::vector<uint8_t>& out, const T& v) {
  const auto* p = reinterpret_cast<const uint8_t*>(&v);
  out.insert(out.end(), p, p + sizeof v);
}

}  // namespace

void CheckpointWriter::add(const std::string& name, const void* data, size_t bytes) {
  const auto* p = static_cast<const uint8_t*>(data);
  sections_.emplace_back(name, std::vector<uint8_t>(p, p + bytes));
}

void CheckpointWriter::write(const std::string& path) const {
  const std::vector<uint8_t> out = bytes();
  writeFileAtomically(path, [&](std::ostream& file) {
    file.write(reinterpret_cast<const char*>(out.data()), std::streamsize(out.size()));
  });
}

std::vector<uint8_t> CheckpointWriter::bytes() const {
  // Sized exactly first: appended to, the vector kept up to twice its bytes (the window's timeline, which counts
  // sizes against its budget, held 470 MB under a 256 MB budget).
  size_t total = sizeof kMagic + sizeof kCheckpointVersion + sizeof(uint32_t) + sizeof(uint64_t);
  for (const auto& [name, bytes] : sections_) total += sizeof(uint32_t) + name.size() + sizeof(uint64_t) + bytes.size();
  std::vector<uint8_t> out;
  out.reserve(total);
  out.assign(kMagic, kMagic + sizeof kMagic);
  put(out, kCheckpointVersion);
  put(out, uint32_t(sections_.size()));
  for (const auto& [name, bytes] : sections_) {
    put(out, uint32_t(name.size()));
    out.insert(out.end(), name.begin(), name.end());
    put(out, uint64_t(bytes.size()));
    out.insert(out.end(), bytes.begin(), bytes.end());
  }
  StateDigest checksum;
  checksum.addBytes(out.data(), out.size());
  put(out, checksum.value());
  return out;
}

CheckpointReader::CheckpointReader(const std::string& path) : path_(path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument(path + ": cannot open the checkpoint: " + std::strerror(errno));
  parse(std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()));
}

CheckpointReader::CheckpointReader(const std::vector<uint8_t>& data, const std::string& name) : path_(name) {
  parse(data);
}

void CheckpointReader::parse(const std::vector<uint8_t>& data) {
  auto fail = [&](const std::string& why) { throw std::invalid_argument(path_ + ": " + why); };
  if (data.size() < sizeof kMagic + 16 || std::memcmp(data.data(), kMagic, sizeof kMagic) != 0)
    fail("not a checkpoint of this program (no FRACCKPT header)");
  size_t at = sizeof kMagic;
  auto take = [&](auto& v) {
    if (at + sizeof v > data.size()) fail("truncated: it ends inside a section");
    std::memcpy(&v, data.data() + at, sizeof v);
    at += sizeof v;
  };
  uint32_t version = 0, count = 0;
  take(version);
  if (version != kCheckpointVersion)
    fail("written by another version of the checkpoint format (" + std::to_string(version) + ", this program reads " +
         std::to_string(kCheckpointVersion) + ")");
  take(count);
  for (uint32_t s = 0; s < count; ++s) {
    uint32_t nameLength = 0;
    uint64_t bytes = 0;
    take(nameLength);
    if (at + nameLength > data.size()) fail("truncated: it ends inside a section");
    std::string name(data.begin() + std::ptrdiff_t(at), data.begin() + std::ptrdiff_t(at + nameLength));
    at += nameLength;
    take(bytes);
    if (bytes > data.size() - at) fail("truncated: it ends inside section '" + name + "'");
    sections_[name].assign(data.begin() + std::ptrdiff_t(at), data.begin() + std::ptrdiff_t(at + bytes));
    at += size_t(bytes);
  }
  uint64_t stored = 0;
  const size_t body = at;
  take(stored);
  if (at != data.size()) fail("corrupt: bytes after the checksum");
  StateDigest checksum;
  checksum.addBytes(data.data(), body);
  if (checksum.value() != stored) fail("corrupt: the checksum does not match its contents");
}

const std::vector<uint8_t>& CheckpointReader::bytes(const std::string& name) const {
  const auto it = sections_.find(name);
  if (it == sections_.end())
    throw std::invalid_argument(path_ + ": section '" + name + "' is missing (a checkpoint of another method or version)");
  return it->second;
}

void CheckpointReader::wrongSize(const std::string& name) const {
  throw std::invalid_argument(path_ + ": section '" + name + "' has the wrong size (another method or version)");
}

}  // namespace frac
