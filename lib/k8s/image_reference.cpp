#include "k8s/image_reference.h"

#include <algorithm>

namespace trainjob {
namespace {

constexpr size_t kMaxImageNameLength = 255;  // distribution/reference's NameTotalLengthMax
constexpr size_t kMaxTagLength = 128;
constexpr size_t kMinDigestHex = 32;

bool ref_lower_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}
bool ref_upper(char c) {
  return c >= 'A' && c <= 'Z';
}
bool ref_alnum(char c) {
  return ref_lower_alnum(c) || ref_upper(c);
}
bool ref_hex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
bool ref_word(char c) {
  return ref_alnum(c) || c == '_';
}

bool ref_has_upper(std::string_view text) {
  return std::any_of(text.begin(), text.end(), ref_upper);
}

std::string ref_lowered(std::string_view text) {
  std::string out(text);
  for (char& c : out)
    if (ref_upper(c)) c = static_cast<char>(c - 'A' + 'a');
  return out;
}

/// [a-z0-9]+ joined by '.', '_', '__' or a run of '-'.
bool ref_path_component(std::string_view part) {
  if (part.empty() || !ref_lower_alnum(part.front()) || !ref_lower_alnum(part.back())) return false;
  for (size_t i = 0; i < part.size();) {
    size_t start = i;
    while (i < part.size() && !ref_lower_alnum(part[i]))
      ++i;
    std::string_view separator = part.substr(start, i - start);
    bool dashes = separator.find_first_not_of('-') == std::string_view::npos;
    if (!(dashes || separator == "." || separator == "_" || separator == "__")) return false;
    while (i < part.size() && ref_lower_alnum(part[i]))
      ++i;
  }
  return true;
}

/// [a-zA-Z0-9] or [a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9].
bool ref_host_component(std::string_view part) {
  if (part.empty() || !ref_alnum(part.front()) || !ref_alnum(part.back())) return false;
  return std::all_of(part.begin(), part.end(), [](char c) { return ref_alnum(c) || c == '-'; });
}

bool ref_host(std::string_view host) {
  if (!host.empty() && host.front() == '[') {  // an IPv6 address
    return host.size() > 2 && host.back() == ']' &&
           std::all_of(host.begin() + 1, host.end() - 1,
                       [](char c) { return ref_hex(c) || c == ':'; });
  }
  for (size_t start = 0;;) {
    size_t dot = host.find('.', start);
    if (!ref_host_component(host.substr(start, dot - start))) return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

std::string ref_registry_problem(std::string_view registry) {
  size_t bracket = registry.rfind(']');
  size_t colon = registry.rfind(':');
  if (colon != std::string_view::npos && (bracket == std::string_view::npos || colon > bracket)) {
    std::string_view port = registry.substr(colon + 1);
    bool digits = !port.empty() && std::all_of(port.begin(), port.end(),
                                               [](char c) { return c >= '0' && c <= '9'; });
    if (!digits) return "the registry's port \"" + std::string(port) + "\" is not a number";
    registry = registry.substr(0, colon);
  }
  if (ref_host(registry)) return "";
  return "the registry \"" + std::string(registry) +
         "\" is not a host name, which has letters, digits and '-' between dots";
}

std::string ref_path_problem(std::string_view path) {
  for (size_t start = 0;;) {
    size_t slash = path.find('/', start);
    std::string_view part = path.substr(start, slash - start);
    if (part.empty()) return "the repository path has an empty component, a '/' too many";
    if (!ref_path_component(part)) {
      if (ref_path_component(ref_lowered(part))) {
        return "the repository \"" + std::string(path) +
               "\" has upper-case letters, where only lower case is allowed";
      }
      auto bad = std::find_if(part.begin(), part.end(), [](char c) {
        return !ref_lower_alnum(c) && c != '.' && c != '_' && c != '-' && !ref_upper(c);
      });
      if (bad != part.end())
        return std::string("'") + *bad + "' cannot appear in a repository name";
      return "the repository component \"" + std::string(part) +
             "\" must start and end with a letter or digit, with one '.', '_', '__' or dashes "
             "between";
    }
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return "";
}

std::string ref_tag_problem(std::string_view tag) {
  if (tag.empty()) return "the tag after ':' is empty";
  if (tag.size() > kMaxTagLength) return "the tag is longer than 128 characters";
  bool ok = ref_word(tag.front()) && std::all_of(tag.begin(), tag.end(), [](char c) {
              return ref_word(c) || c == '.' || c == '-';
            });
  if (ok) return "";
  return "the tag \"" + std::string(tag) +
         "\" may have only letters, digits, '_', '.' and '-', and not start with '.' or '-'";
}

/// algorithm ':' hex, the algorithm [A-Za-z][A-Za-z0-9]* joined by '-', '_', '+' or '.'.
std::string ref_digest_problem(std::string_view digest) {
  std::string problem =
      "the digest after '@' is not algorithm:hex, such as sha256: and 64 hex digits";
  size_t colon = digest.find(':');
  if (colon == std::string_view::npos) return problem;
  std::string_view algorithm = digest.substr(0, colon);
  std::string_view hex = digest.substr(colon + 1);
  bool after_separator = true;
  for (char c : algorithm) {
    bool letter = ref_alnum(c) && !(c >= '0' && c <= '9');
    if (after_separator && !letter) return problem;
    after_separator = c == '-' || c == '_' || c == '+' || c == '.';
    if (!after_separator && !ref_alnum(c)) return problem;
  }
  if (algorithm.empty() || after_separator || hex.size() < kMinDigestHex ||
      !std::all_of(hex.begin(), hex.end(), ref_hex)) {
    return problem;
  }
  return "";
}

/// What a person typing a manifest leaves in that the grammar refuses for a plainer reason.
std::string ref_typing_problem(std::string_view image) {
  auto space = std::find_if(image.begin(), image.end(), [](char c) {
    return static_cast<unsigned char>(c) <= ' ' || c == '\x7f';
  });
  if (space != image.end()) return "it contains whitespace or a control character";
  size_t mark = image.find_first_of("<>{}$");
  if (mark != std::string_view::npos)
    return std::string("'") + image[mark] +
           "' cannot appear in a reference: a placeholder left in?";
  bool hex_id = image.size() == 64 && std::all_of(image.begin(), image.end(), [](char c) {
                  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
                });
  if (hex_id) return "a 64-digit hexadecimal string is an image ID, not a repository";
  return "";
}

}  // namespace

std::string image_reference_problem(std::string_view image) {
  if (image.empty()) return "it is empty";
  if (std::string problem = ref_typing_problem(image); !problem.empty()) return problem;
  size_t at = image.find('@');
  std::string_view name = image.substr(0, at);
  if (at != std::string_view::npos) {
    if (std::string problem = ref_digest_problem(image.substr(at + 1)); !problem.empty())
      return problem;
  }
  size_t slash = name.rfind('/');
  size_t colon = name.rfind(':');
  if (colon != std::string_view::npos && (slash == std::string_view::npos || colon > slash)) {
    if (std::string problem = ref_tag_problem(name.substr(colon + 1)); !problem.empty())
      return problem;
    name = name.substr(0, colon);
  }
  if (name.empty()) return "the repository name is empty";
  if (name.size() > kMaxImageNameLength) return "the name is longer than 255 characters";
  size_t first_slash = name.find('/');
  std::string_view first = name.substr(0, first_slash);
  bool has_registry = first_slash != std::string_view::npos &&
                      (first.find_first_of(".:") != std::string_view::npos || first == "localhost");
  if (first_slash != std::string_view::npos && !has_registry && ref_has_upper(first)) {
    // The kubelet would take it for a registry host, where an organisation was meant.
    return "the repository \"" + std::string(name) + "\" has upper-case letters, and \"" +
           std::string(first) + "\" would be taken for a registry host: write it in lower case";
  }
  if (has_registry) {
    if (std::string problem = ref_registry_problem(first); !problem.empty()) return problem;
    name = name.substr(first_slash + 1);
  }
  return ref_path_problem(name);
}

std::string image_reference_error(std::string_view image) {
  std::string problem = image_reference_problem(image);
  if (problem.empty()) return "";
  return "\"" + std::string(image) + "\" is not an image reference (" + problem +
         "): the kubelet cannot pull it, so no pod starts; expected "
         "[registry/]repository[:tag][@digest]";
}

}  // namespace trainjob
