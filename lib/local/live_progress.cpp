#include "local/live_progress.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include "local/run_summary.h"

namespace trainjob {
namespace {

/// Erases the line the cursor is on and returns to its start.
constexpr const char* kEraseLine = "\r\033[K";

std::string count_of(const char* what, const std::optional<int64_t>& done,
                     const std::optional<int64_t>& total) {
  return std::string(what) + " " + std::to_string(*done) +
         (total ? "/" + std::to_string(*total) : "");
}

std::optional<double> fraction_done(const TrainerProgress& progress) {
  if (progress.step && progress.total_steps && *progress.total_steps > 0)
    return static_cast<double>(*progress.step) / static_cast<double>(*progress.total_steps);
  if (progress.epoch && progress.epochs && *progress.epochs > 0)
    return static_cast<double>(*progress.epoch) / static_cast<double>(*progress.epochs);
  return std::nullopt;
}

size_t terminal_columns(std::FILE* out) {
  winsize size{};
  if (::ioctl(::fileno(out), TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  return 80;
}

}  // namespace

std::string format_live_progress(const TrainerProgress& progress, std::string_view label,
                                 std::optional<double> eta_seconds, size_t width) {
  std::string out = label.empty() ? "" : "[" + std::string(label) + "] ";
  std::string parts;
  auto add = [&](const std::string& part) { parts += (parts.empty() ? "" : ", ") + part; };
  if (progress.epoch) add(count_of("epoch", progress.epoch, progress.epochs));
  if (progress.step) add(count_of("step", progress.step, progress.total_steps));
  if (std::optional<int> percent = progress_percentage(progress))
    parts += " (" + std::to_string(*percent) + "%)";
  for (const auto& [name, value] : progress.metrics) {
    if (name == "loss") add("loss " + value);
  }
  if (progress.remaining_seconds && *progress.remaining_seconds >= 0)
    eta_seconds = static_cast<double>(*progress.remaining_seconds);
  if (eta_seconds) add("ETA " + format_elapsed(*eta_seconds));
  out += parts.empty() ? "progress" : parts;
  if (width > 0 && out.size() > width) out.resize(width);
  return out;
}

std::optional<double> estimate_remaining(double first, double first_seconds, double now,
                                         double now_seconds) {
  if (now <= first || now_seconds <= first_seconds || now > 1) return std::nullopt;
  return (now_seconds - first_seconds) * (1 - now) / (now - first);
}

LiveProgress::LiveProgress(std::FILE* out) : out_(out) {}

bool LiveProgress::take(const std::string& label, std::string_view line) {
  std::optional<TrainerProgress> progress = parse_progress_line(line);
  if (!progress) return false;
  if (owner_.empty()) owner_ = label;
  if (label != owner_) return true;
  double seconds = std::chrono::duration<double>(Clock::now() - start_).count();
  std::optional<double> fraction = fraction_done(*progress);
  std::optional<double> eta;
  if (fraction && !first_fraction_) {
    first_fraction_ = fraction;
    first_seconds_ = seconds;
  } else if (fraction) {
    eta = estimate_remaining(*first_fraction_, first_seconds_, *fraction, seconds);
  }
  // One column short: a line that fills the last column wraps on some terminals.
  shown_ = format_live_progress(*progress, label, eta, terminal_columns(out_) - 1);
  redraw();
  return true;
}

void LiveProgress::clear() {
  if (!drawn_) return;
  std::fputs(kEraseLine, out_);
  std::fflush(out_);
  drawn_ = false;
}

void LiveProgress::redraw() {
  if (shown_.empty()) return;
  std::fprintf(out_, "%s%s", kEraseLine, shown_.c_str());
  std::fflush(out_);
  drawn_ = true;
}

void LiveProgress::finish() {
  if (!drawn_) return;
  std::fputs("\n", out_);
  std::fflush(out_);
  drawn_ = false;
  shown_.clear();
}

}  // namespace trainjob
