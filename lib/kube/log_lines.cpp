#include "kube/log_lines.h"

#include <cstdio>
#include <ctime>

namespace trainjob {

std::vector<std::string> LineSplitter::feed(std::string_view data) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (true) {
    size_t newline = data.find('\n', start);
    if (newline == std::string_view::npos) break;
    if (partial_.empty()) {
      lines.emplace_back(data.substr(start, newline - start));
    } else {
      partial_.append(data.substr(start, newline - start));
      lines.push_back(std::move(partial_));
      partial_.clear();
    }
    start = newline + 1;
  }
  partial_.append(data.substr(start));
  return lines;
}

std::optional<LogTime> parse_log_time(std::string_view text) {
  if (text.size() < 20 || text[4] != '-' || text[10] != 'T') return std::nullopt;
  std::tm tm{};
  int year, month, day, hour, minute, second;
  std::string head(text.substr(0, 19));
  if (std::sscanf(head.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d", &year, &month, &day, &hour, &minute,
                  &second) != 6)
    return std::nullopt;
  tm.tm_year = year - 1900;
  tm.tm_mon = month - 1;
  tm.tm_mday = day;
  tm.tm_hour = hour;
  tm.tm_min = minute;
  tm.tm_sec = second;
  long nanos = 0;
  size_t i = 19;
  if (i < text.size() && text[i] == '.') {
    long scale = 100000000;
    for (++i; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
      nanos += (text[i] - '0') * scale;
      scale /= 10;
    }
  }
  if (i >= text.size() || (text[i] != 'Z' && text[i] != 'z')) return std::nullopt;
  return LogTime{static_cast<long long>(timegm(&tm)), nanos};
}

std::string format_since_time(const LogTime& time) {
  std::time_t seconds = static_cast<std::time_t>(time.first);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

StampedLine split_stamp(std::string_view line) {
  size_t space = line.find(' ');
  if (space == std::string_view::npos) return {parse_log_time(line), line, ""};
  std::string_view stamp = line.substr(0, space);
  std::optional<LogTime> time = parse_log_time(stamp);
  if (!time) return {std::nullopt, "", line};
  return {time, stamp, line.substr(space + 1)};
}

bool ResumePoint::accept(const std::optional<LogTime>& time) {
  if (!time) return true;  // nothing to compare: never dropped
  if (last_ && *time < *last_) return false;
  if (last_ && *time == *last_) {
    if (replayed_at_last_ < seen_at_last_) {
      ++replayed_at_last_;
      return false;
    }
    ++seen_at_last_;
    ++replayed_at_last_;
    return true;
  }
  last_ = time;
  seen_at_last_ = 1;
  replayed_at_last_ = 1;
  return true;
}

}  // namespace trainjob
