// The `-f` inputs read a piece at a time, as often as needed, so that a large stream costs
// the memory of one piece of it rather than of all its documents.
#ifndef TRAINJOB_LOAD_INPUT_STREAM_H_
#define TRAINJOB_LOAD_INPUT_STREAM_H_

#include <cstdio>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "diag/diagnostic.h"
#include "load/document.h"
#include "load/file_system.h"
#include "load/input_files.h"

namespace trainjob {

/// Pieces are cut at the first document boundary after this many bytes. A piece's
/// compiled objects are held together (as JSON trees, ten times the size of their text),
/// so the piece sets the peak memory: at 256 KiB a stream of 1,000 TrainJobs is already
/// several pieces, and the peak is the same for 100,000 (with 1 MiB pieces it was 40% more).
inline constexpr size_t kStreamPieceBytes = 1 << 18;

/// Takes the documents of one piece of `file`, in stream order.
using PieceHandler = std::function<void(const std::string& file, std::vector<Document> documents)>;

/// The inputs of load_inputs, in the same order and with the same findings, handed over a
/// piece at a time. read() may run several times: the first run expands the paths and
/// copies standard input into a temporary file, later runs read the same files again.
class InputStream {
 public:
  InputStream(InputOptions options, const FileSystem& fs, std::FILE* stdin_file = stdin);
  ~InputStream();
  InputStream(const InputStream&) = delete;
  InputStream& operator=(const InputStream&) = delete;

  /// Hands every piece to `on_piece`. A file with a load error stops at that piece and is
  /// skipped by later runs; findings are added on the first run only.
  void read(const PieceHandler& on_piece, Diagnostics* diagnostics);

  /// Files that failed to load (their documents do not count, as with load_inputs).
  const std::set<std::string>& failed_files() const { return failed_; }
  /// The inputs that were read (named as diagnostics name them), failed ones included.
  const std::vector<std::string>& files_read() const { return read_; }

 private:
  struct Input {
    std::string name;  ///< as diagnostics name it; `STDIN` for `-`
    std::string path;  ///< empty for standard input
  };
  void read_input(size_t index, bool first_run, const PieceHandler& on_piece,
                  Diagnostics* diagnostics);
  bool read_pieces(const std::string& name, std::FILE* in, std::FILE* keep,
                   const PieceHandler& on_piece, Diagnostics* diagnostics);

  InputOptions options_;
  const FileSystem& fs_;
  std::FILE* stdin_;
  std::map<size_t, std::FILE*> copies_;  ///< inputs that cannot be read twice, as first read
  bool expanded_ = false;
  std::vector<Input> inputs_;
  std::set<std::string> failed_;
  std::vector<std::string> read_;
};

}  // namespace trainjob

#endif  // TRAINJOB_LOAD_INPUT_STREAM_H_
