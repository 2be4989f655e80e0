#include "util/shared_library.h"

#include <dlfcn.h>
#include <utility>

namespace trainjob {

SharedLibrary::SharedLibrary(const char* soname, std::string install_hint)
    : SharedLibrary(std::vector<std::string>{soname}, std::move(install_hint)) {}

SharedLibrary::SharedLibrary(std::vector<std::string> sonames, std::string install_hint)
    : install_hint_(std::move(install_hint)) {
  std::string why;
  for (const std::string& soname : sonames) {
    handle_ = dlopen(soname.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle_ != nullptr) {
      soname_ = soname;
      return;
    }
    const char* error = dlerror();
    if (why.empty()) why = error != nullptr ? error : "dlopen failed";
  }
  soname_ = sonames.empty() ? std::string() : sonames.front();
  std::string names;
  for (const std::string& soname : sonames)
    names += (names.empty() ? "" : " or ") + soname;
  error_ = names + " not found: " + install_hint_ + " (" + why + ")";
}

void* SharedLibrary::find(const char* name) {
  if (!error_.empty()) return nullptr;
  void* symbol = dlsym(handle_, name);
  if (symbol == nullptr) error_ = soname_ + " has no " + name + ": " + install_hint_;
  return symbol;
}

}  // namespace trainjob
