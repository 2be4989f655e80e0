#include "util/shared_library.h"

#include <dlfcn.h>
#include <utility>

namespace trainjob {

SharedLibrary::SharedLibrary(const char* soname, std::string install_hint)
    : soname_(soname), install_hint_(std::move(install_hint)) {
  handle_ = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
  if (handle_ == nullptr) {
    const char* why = dlerror();
    error_ = soname_ + " not found: " + install_hint_ + " (" +
             (why != nullptr ? why : "dlopen failed") + ")";
  }
}

void* SharedLibrary::find(const char* name) {
  if (!error_.empty()) return nullptr;
  void* symbol = dlsym(handle_, name);
  if (symbol == nullptr) error_ = soname_ + " has no " + name + ": " + install_hint_;
  return symbol;
}

}  // namespace trainjob
