#include "model/api_scope.h"

namespace trainjob {

std::string_view api_group(std::string_view api_version) {
  size_t slash = api_version.rfind('/');
  return slash == std::string_view::npos ? std::string_view() : api_version.substr(0, slash);
}

bool is_builtin_group(std::string_view group) {
  return group.find('.') == std::string_view::npos;
}

}  // namespace trainjob
