#include "data/idx_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

namespace trainjob::trainer {
namespace {

uint32_t big_endian_u32(const std::string& bytes, size_t at) {
  uint32_t value = 0;
  for (size_t i = 0; i < 4; ++i) {
    value = (value << 8) | static_cast<uint8_t>(bytes[at + i]);
  }
  return value;
}

}  // namespace

bool parse_idx(const std::string& name, const std::string& bytes, size_t expected_dims,
               IdxArray* out, std::string* error) {
  const size_t header_bytes = 4 + 4 * expected_dims;
  if (bytes.size() < header_bytes) {
    *error = name + ": truncated IDX header: expected " + std::to_string(header_bytes) +
             " bytes, found " + std::to_string(bytes.size());
    return false;
  }
  const uint32_t magic = big_endian_u32(bytes, 0);
  const uint32_t expected_magic = 0x0800u | static_cast<uint32_t>(expected_dims);
  if (magic != expected_magic) {
    char found[16];
    std::snprintf(found, sizeof found, "0x%08x", magic);
    char wanted[16];
    std::snprintf(wanted, sizeof wanted, "0x%08x", expected_magic);
    *error = name + ": not an unsigned-byte IDX file with " + std::to_string(expected_dims) +
             " dimensions: magic number " + found + ", expected " + wanted;
    return false;
  }
  out->dims.clear();
  uint64_t count = 1;
  for (size_t d = 0; d < expected_dims; ++d) {
    uint32_t dim = big_endian_u32(bytes, 4 + 4 * d);
    out->dims.push_back(dim);
    count *= dim;
  }
  const uint64_t available = bytes.size() - header_bytes;
  if (available != count) {
    *error = name + ": " + (available < count ? "truncated" : "trailing bytes") + ": expected " +
             std::to_string(count) + " data bytes after the header, found " +
             std::to_string(available);
    return false;
  }
  out->data.assign(bytes.begin() + static_cast<std::ptrdiff_t>(header_bytes), bytes.end());
  return true;
}

bool read_idx_file(const std::string& path, size_t expected_dims, IdxArray* out,
                   std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = path + ": cannot open: " + std::strerror(errno);
    return false;
  }
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return parse_idx(path, bytes.str(), expected_dims, out, error);
}

}  // namespace trainjob::trainer
