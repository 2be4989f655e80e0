#include "progress.h"

#include <cmath>
#include <cstdio>

namespace trainjob::trainer {
namespace {

void add_number(std::string* out, const char* name, double value, const char* format) {
  if (!std::isfinite(value)) return;
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  *out += std::string(",\"") + name + "\":" + text;
}

}  // namespace

std::string progress_line(const ProgressReport& report) {
  std::string out = std::string(kProgressMarker) + " {\"epoch\":" + std::to_string(report.epoch) +
                    ",\"epochs\":" + std::to_string(report.epochs) +
                    ",\"step\":" + std::to_string(report.step) +
                    ",\"totalSteps\":" + std::to_string(report.total_steps);
  add_number(&out, "loss", report.loss, "%.6g");
  add_number(&out, "samplesPerSecond", report.samples_per_second, "%.1f");
  if (report.remaining_seconds >= 0)
    add_number(&out, "remainingSeconds", std::round(report.remaining_seconds), "%.0f");
  return out + "}";
}

double remaining_seconds(double elapsed, int64_t steps_done, int64_t steps_left) {
  if (steps_done <= 0 || elapsed <= 0 || steps_left < 0) return -1;
  return elapsed / static_cast<double>(steps_done) * static_cast<double>(steps_left);
}

}  // namespace trainjob::trainer
