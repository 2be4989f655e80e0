#include "util/terminal.h"

#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace trainjob {
namespace {

bool env_set(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && value[0] != '\0';
}

const char* tone_code(Tone tone) {
  switch (tone) {
    case Tone::kError:
      return "\033[1;31m";
    case Tone::kWarning:
      return "\033[1;33m";
    case Tone::kGood:
      return "\033[32m";
    case Tone::kBusy:
      return "\033[36m";
    case Tone::kWaiting:
      return "\033[33m";
  }
  return "";
}

}  // namespace

bool is_terminal(std::FILE* stream) {
  if (stream == nullptr || ::isatty(::fileno(stream)) != 1) return false;
  const char* term = std::getenv("TERM");
  return term == nullptr || std::strcmp(term, "dumb") != 0;
}

bool color_enabled(std::FILE* stream) {
  if (env_set("NO_COLOR")) return false;
  const char* force = std::getenv("CLICOLOR_FORCE");
  if (force != nullptr && force[0] != '\0' && std::strcmp(force, "0") != 0) return true;
  return is_terminal(stream);
}

std::string paint(std::string_view text, Tone tone, bool enabled) {
  if (!enabled) return std::string(text);
  return tone_code(tone) + std::string(text) + "\033[0m";
}

}  // namespace trainjob
