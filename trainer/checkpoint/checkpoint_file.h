// Checkpoint files: checkpoint-<epoch>.pt in one directory, each written whole or not at all
// (temporary file, fsync, rename, fsync of the directory), so a reader never sees half a file.
#ifndef TRAINJOB_TRAINER_CHECKPOINT_CHECKPOINT_FILE_H_
#define TRAINJOB_TRAINER_CHECKPOINT_CHECKPOINT_FILE_H_

#include <string>
#include <vector>

namespace trainjob::trainer {

/// `checkpoint-<epoch>.pt`.
std::string checkpoint_file_name(int epoch);

/// Writes `bytes` to dir/name atomically, creating dir if needed.
bool write_file_atomically(const std::string& dir, const std::string& name,
                           const std::string& bytes, std::string* error);

/// A checkpoint file and the epochs done when it was written.
struct CheckpointEntry {
  int epoch = 0;
  std::string path;
};

/// Checkpoint files in `dir`, newest epoch first; temporary files are ignored.
std::vector<CheckpointEntry> list_checkpoints(const std::string& dir);

/// False with `*error` naming the path when it cannot be opened.
bool read_whole_file(const std::string& path, std::string* bytes, std::string* error);

}  // namespace trainjob::trainer

#endif  // TRAINJOB_TRAINER_CHECKPOINT_CHECKPOINT_FILE_H_
