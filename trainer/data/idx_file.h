// The IDX format of the MNIST files: a big-endian magic number (0x0000 0803 for images,
// 0x0000 0801 for labels, the last byte the number of dimensions), the dimensions as
// big-endian 32-bit integers, then unsigned bytes.
#ifndef TRAINJOB_TRAINER_DATA_IDX_FILE_H_
#define TRAINJOB_TRAINER_DATA_IDX_FILE_H_

#include <cstdint>
#include <string>
#include <vector>

namespace trainjob::trainer {

/// An IDX file's dimensions and its bytes, the last dimension varying fastest.
struct IdxArray {
  std::vector<int64_t> dims;
  std::vector<uint8_t> data;
};

/// Reads an unsigned-byte IDX file with `expected_dims` dimensions. On a missing, truncated or
/// malformed file, returns false and says in `*error` what was wrong, naming the path.
bool read_idx_file(const std::string& path, size_t expected_dims, IdxArray* out,
                   std::string* error);

/// Parses IDX bytes already in memory; `name` is used in error messages.
bool parse_idx(const std::string& name, const std::string& bytes, size_t expected_dims,
               IdxArray* out, std::string* error);

}  // namespace trainjob::trainer

#endif  // TRAINJOB_TRAINER_DATA_IDX_FILE_H_
