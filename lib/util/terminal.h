// Whether output goes to a person at a terminal, and colour for it: one place decides, so
// that every command agrees, and piped output (goldens, scripts, CI logs) stays plain text.
#ifndef TRAINJOB_UTIL_TERMINAL_H_
#define TRAINJOB_UTIL_TERMINAL_H_

#include <cstdio>
#include <string>
#include <string_view>

namespace trainjob {

/// Whether `stream` is a terminal that can redraw a line: a tty whose TERM is not `dumb`.
bool is_terminal(std::FILE* stream);

/// Whether to colour what goes to `stream`. NO_COLOR set to anything non-empty turns colour
/// off (https://no-color.org); else CLICOLOR_FORCE set and not "0" turns it on even when
/// piped (for tests and pagers such as `less -R`); else colour goes to terminals only.
bool color_enabled(std::FILE* stream);

/// What a word says, which decides its colour.
enum class Tone { kError, kWarning, kGood, kBusy, kWaiting };

/// `text` in the tone's colour (bold red, bold yellow, green, cyan, yellow), reset after it;
/// `text` as it is when `enabled` is false.
std::string paint(std::string_view text, Tone tone, bool enabled);

}  // namespace trainjob

#endif  // TRAINJOB_UTIL_TERMINAL_H_
