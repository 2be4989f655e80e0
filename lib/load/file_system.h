// The filesystem behind one small interface, so loading is tested without a disk.
#ifndef TRAINJOB_LOAD_FILE_SYSTEM_H_
#define TRAINJOB_LOAD_FILE_SYSTEM_H_

#include <string>
#include <vector>

namespace trainjob {

class FileSystem {
 public:
  virtual ~FileSystem() = default;
  enum class Kind { kMissing, kFile, kDirectory };
  virtual Kind stat(const std::string& path) const = 0;
  /// Reads a whole file; false (and *error set) when it cannot be read.
  virtual bool read_file(const std::string& path, std::string* contents,
                         std::string* error) const = 0;
  /// Entry names of a directory (not paths), sorted bytewise.
  virtual bool list_directory(const std::string& path, std::vector<std::string>* names,
                              std::string* error) const = 0;
};

class RealFileSystem : public FileSystem {
 public:
  Kind stat(const std::string& path) const override;
  bool read_file(const std::string& path, std::string* contents, std::string* error) const override;
  bool list_directory(const std::string& path, std::vector<std::string>* names,
                      std::string* error) const override;
};

}  // namespace trainjob

#endif  // TRAINJOB_LOAD_FILE_SYSTEM_H_
