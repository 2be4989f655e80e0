// A system library opened on first use with dlopen, so that commands that never need it
// neither map nor relocate it (libcurl for the cluster commands, libcrypto for digests).
#ifndef TRAINJOB_UTIL_SHARED_LIBRARY_H_
#define TRAINJOB_UTIL_SHARED_LIBRARY_H_

#include <stdexcept>
#include <string>
#include <vector>

namespace trainjob {

/// A library the plugin loads on first use is missing or too old, deep inside whatever
/// needed it (a digest in render, a Secret's keys): nothing a caller can do but stop. The
/// message says what to install; cmd/main.cpp prints it and exits 1.
struct MissingLibraryError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class SharedLibrary {
 public:
  /// Opens `soname` (RTLD_NOW | RTLD_LOCAL: its own dependencies stay out of the global
  /// symbol scope). `install_hint` ends every error, e.g. "apt-get install libcurl4". The
  /// library stays loaded until exit: what it registers (exit handlers, thread-local
  /// handles) outlives this object.
  SharedLibrary(const char* soname, std::string install_hint);

  /// Opens the first of `sonames` that loads (e.g. a library's newer ABI, then an older one
  /// whose functions in use are the same).
  SharedLibrary(std::vector<std::string> sonames, std::string install_hint);

  /// Resolves function `name` into `*slot`; false, with error() set, when the library is
  /// missing or lacks it. Resolving stops at the first failure.
  template <typename Function>
  bool resolve(const char* name, Function* slot) {
    void* symbol = find(name);
    *slot = reinterpret_cast<Function>(symbol);
    return symbol != nullptr;
  }

  /// Why the library or one of its functions could not be had; empty when all went well.
  const std::string& error() const { return error_; }

  /// The soname opened (the first tried when none could be).
  const std::string& soname() const { return soname_; }

 private:
  void* find(const char* name);

  std::string soname_;
  std::string install_hint_;
  void* handle_ = nullptr;
  std::string error_;
};

}  // namespace trainjob

#endif  // TRAINJOB_UTIL_SHARED_LIBRARY_H_
