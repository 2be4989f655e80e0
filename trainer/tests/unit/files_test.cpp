// IDX parsing and checkpoint files.
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include <doctest/doctest.h>

#include "checkpoint/checkpoint_file.h"
#include "data/idx_file.h"

using namespace trainjob::trainer;
namespace fs = std::filesystem;

namespace {

std::string idx_bytes(uint32_t magic, const std::vector<uint32_t>& dims, size_t data) {
  std::string bytes;
  auto put = [&bytes](uint32_t value) {
    for (int shift = 24; shift >= 0; shift -= 8)
      bytes.push_back(static_cast<char>(value >> shift));
  };
  put(magic);
  for (auto dim : dims)
    put(dim);
  bytes.append(data, '\x07');
  return bytes;
}

fs::path scratch_dir() {
  fs::path dir = fs::temp_directory_path() / ("trainer-files-test-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

}  // namespace

TEST_CASE("idx: images and labels parse with their dimensions") {
  IdxArray array;
  std::string error;
  REQUIRE(
      parse_idx("images", idx_bytes(0x803, {2, 28, 28}, size_t{2} * 28 * 28), 3, &array, &error));
  CHECK(array.dims == std::vector<int64_t>{2, 28, 28});
  CHECK(array.data.size() == 2 * 28 * 28);
  REQUIRE(parse_idx("labels", idx_bytes(0x801, {3}, 3), 1, &array, &error));
  CHECK(array.data == std::vector<uint8_t>{7, 7, 7});
}

TEST_CASE("idx: truncated, oversized and foreign files are refused with a reason") {
  IdxArray array;
  std::string error;
  CHECK_FALSE(parse_idx("x", idx_bytes(0x803, {2, 28, 28}, 1000), 3, &array, &error));
  CHECK(error == "x: truncated: expected 1568 data bytes after the header, found 1000");
  CHECK_FALSE(parse_idx("x", idx_bytes(0x801, {2}, 3), 1, &array, &error));
  CHECK(error == "x: trailing bytes: expected 2 data bytes after the header, found 3");
  CHECK_FALSE(parse_idx("x", idx_bytes(0x801, {2}, 2), 3, &array, &error));
  CHECK(error == "x: truncated IDX header: expected 16 bytes, found 10");
  CHECK_FALSE(parse_idx("x", idx_bytes(0x0d03, {1, 1, 1}, 1), 3, &array, &error));
  CHECK(error ==
        "x: not an unsigned-byte IDX file with 3 dimensions: magic number 0x00000d03, "
        "expected 0x00000803");
  CHECK_FALSE(read_idx_file("/nonexistent/t10k-images-idx3-ubyte", 3, &array, &error));
  CHECK(error == "/nonexistent/t10k-images-idx3-ubyte: cannot open: No such file or directory");
}

TEST_CASE("checkpoint files: written whole, listed newest first, temporaries ignored") {
  fs::path dir = scratch_dir() / "ckpt";
  std::string error;
  REQUIRE(write_file_atomically(dir.string(), checkpoint_file_name(1), "one", &error));
  REQUIRE(write_file_atomically(dir.string(), checkpoint_file_name(12), "twelve", &error));
  std::ofstream(dir / "checkpoint-000013.pt.tmp.99") << "half";
  std::ofstream(dir / "notes.txt") << "x";
  auto entries = list_checkpoints(dir.string());
  REQUIRE(entries.size() == 2);
  CHECK(entries[0].epoch == 12);
  CHECK(fs::path(entries[0].path).filename() == "checkpoint-000012.pt");
  std::string bytes;
  REQUIRE(read_whole_file(entries[1].path, &bytes, &error));
  CHECK(bytes == "one");
  CHECK(list_checkpoints((dir / "absent").string()).empty());
  fs::remove_all(dir.parent_path());
}
