// Durations as kubectl takes them on the command line (--timeout, --since,
// --request-timeout).
#ifndef TRAINJOB_UTIL_DURATION_H_
#define TRAINJOB_UTIL_DURATION_H_

#include <optional>
#include <string>

namespace trainjob {

/// "0" (none), a bare number of seconds, or a Go duration such as 1s, 500ms, 2m, 1h30m, in
/// seconds. nullopt when not understood.
std::optional<double> parse_duration(const std::string& text);

/// "60s", "1.5s": a duration in seconds as the user would have written it.
std::string seconds_text(double seconds);

}  // namespace trainjob

#endif  // TRAINJOB_UTIL_DURATION_H_
