#include "local/run_summary.h"

#include <cstdio>

#include "util/terminal.h"

namespace trainjob {
namespace {

/// Up to this many pods are each named; past it, only those that did not exit 0.
constexpr size_t kNamedPods = 8;

std::string describe_end(const PodEnd& pod) {
  switch (pod.how) {
    case PodEnd::How::kExited:
      return pod.label + " " + std::to_string(pod.code);
    case PodEnd::How::kSignaled:
      return pod.label + " signal " + std::to_string(pod.code);
    case PodEnd::How::kStopped:
      return pod.label + " stopped" + (pod.stopped_by.empty() ? "" : " by " + pod.stopped_by);
    case PodEnd::How::kNotStarted:
      break;
  }
  return pod.label + " not started";
}

bool exited_zero(const PodEnd& pod) {
  return pod.how == PodEnd::How::kExited && pod.code == 0;
}

}  // namespace

std::string format_elapsed(double seconds) {
  char text[32];
  if (seconds < 0) seconds = 0;
  if (seconds < 60) {
    std::snprintf(text, sizeof text, "%.1fs", seconds);
  } else if (seconds < 3600) {
    auto whole = static_cast<long>(seconds);
    std::snprintf(text, sizeof text, "%ldm%02lds", whole / 60, whole % 60);
  } else {
    auto minutes = static_cast<long>(seconds / 60);
    std::snprintf(text, sizeof text, "%ldh%02ldm", minutes / 60, minutes % 60);
  }
  return text;
}

std::string format_run_summary(bool succeeded, const std::vector<PodEnd>& pods, double seconds,
                               bool color) {
  bool all = pods.size() <= kNamedPods;
  std::string list;
  size_t named = 0, unnamed_zero = 0, unnamed_other = 0;
  for (const PodEnd& pod : pods) {
    if (!all && exited_zero(pod)) {
      ++unnamed_zero;
    } else if (named < kNamedPods) {
      list += (list.empty() ? "" : ", ") + describe_end(pod);
      ++named;
    } else {
      ++unnamed_other;
    }
  }
  if (unnamed_other > 0) list += ", " + std::to_string(unnamed_other) + " more not 0";
  if (unnamed_zero > 0)
    list += (list.empty() ? "" : ", ") + std::to_string(unnamed_zero) + " more 0";
  std::string out =
      paint(succeeded ? "succeeded:" : "failed:", succeeded ? Tone::kGood : Tone::kError, color) +
      " ";
  out += std::to_string(pods.size()) + (pods.size() == 1 ? " pod" : " pods");
  if (!list.empty()) out += " (" + list + ")";
  return out + " in " + format_elapsed(seconds);
}

}  // namespace trainjob
