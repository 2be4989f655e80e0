// Pure pieces of log handling: splitting a byte stream into whole lines, the kubelet's
// timestamps, and skipping what a reconnected stream sends again.
#ifndef TRAINJOB_KUBE_LOG_LINES_H_
#define TRAINJOB_KUBE_LOG_LINES_H_

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace trainjob {

/// Bytes in, whole lines out; a line cut by the end of a piece waits for the rest.
class LineSplitter {
 public:
  /// Appends `data`; returns the lines it completed, without their '\n'.
  std::vector<std::string> feed(std::string_view data);
  const std::string& partial() const { return partial_; }
  void clear_partial() { partial_.clear(); }

 private:
  std::string partial_;
};

/// A kubelet timestamp, RFC 3339 with up to 9 fractional digits, as (seconds, nanoseconds)
/// so that it orders exactly.
using LogTime = std::pair<long long, long>;
std::optional<LogTime> parse_log_time(std::string_view text);
/// "2026-01-02T03:04:05Z" for `sinceTime` (whole seconds, as the API takes it).
std::string format_since_time(const LogTime& time);

/// A line requested with timestamps=true: its time and the text after it.
struct StampedLine {
  std::optional<LogTime> time;
  std::string_view stamp;  ///< the timestamp as sent, for --timestamps
  std::string_view text;
};
StampedLine split_stamp(std::string_view line);

/// Remembers where a stream got to, so that after a reconnect with sinceTime (which the
/// API rounds down to the second) the lines already printed are skipped, even when several
/// share one timestamp.
class ResumePoint {
 public:
  /// Whether a line with this time is new; records it if so.
  bool accept(const std::optional<LogTime>& time);
  /// Call when a new stream starts: lines at the last time are counted again from zero.
  void restart() { replayed_at_last_ = 0; }
  bool empty() const { return !last_; }
  const LogTime& last() const { return *last_; }

 private:
  std::optional<LogTime> last_;
  int seen_at_last_ = 0;      ///< lines printed with time == last_
  int replayed_at_last_ = 0;  ///< of those, how many the current stream has sent again
};

}  // namespace trainjob

#endif  // TRAINJOB_KUBE_LOG_LINES_H_
