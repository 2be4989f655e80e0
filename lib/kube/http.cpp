#include "kube/http.h"

#include <cctype>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

namespace trainjob {
namespace {

bool equal_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  }
  return true;
}

}  // namespace

std::string HttpResponse::header(std::string_view name) const {
  for (const auto& [key, value] : headers) {
    if (equal_ignoring_case(key, name)) return value;
  }
  return "";
}

std::vector<std::string> HttpResponse::headers_named(std::string_view name) const {
  std::vector<std::string> out;
  for (const auto& [key, value] : headers) {
    if (equal_ignoring_case(key, name)) out.push_back(value);
  }
  return out;
}

bool split_url_authority(const std::string& url, std::string* scheme, std::string* host,
                         int* port) {
  size_t scheme_end = url.find("://");
  if (scheme_end == std::string::npos) return false;
  *scheme = url.substr(0, scheme_end);
  size_t start = scheme_end + 3;
  size_t end = url.find_first_of("/?", start);
  std::string authority = url.substr(start, end == std::string::npos ? end : end - start);
  size_t at = authority.rfind('@');
  if (at != std::string::npos) authority = authority.substr(at + 1);
  size_t colon = authority.rfind(':');
  bool has_port = colon != std::string::npos && authority.find(']', colon) == std::string::npos;
  *host = has_port ? authority.substr(0, colon) : authority;
  *port = *scheme == "https" ? 443 : 80;
  if (has_port) {
    try {
      *port = std::stoi(authority.substr(colon + 1));
    } catch (const std::exception&) {
      return false;
    }
  }
  return !host->empty();
}

}  // namespace trainjob
