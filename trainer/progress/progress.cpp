#include "progress/progress.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>

namespace trainjob::trainer {
namespace {

std::string format_progress_number(double value, const char* format) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

bool known_remaining(const ProgressReport& report) {
  return report.remaining_seconds >= 0 && std::isfinite(report.remaining_seconds);
}

}  // namespace

std::vector<ProgressMetric> progress_metrics(const ProgressReport& report) {
  std::vector<ProgressMetric> metrics;
  auto add = [&metrics](const char* name, double value, const char* format) {
    if (std::isfinite(value)) metrics.push_back({name, format_progress_number(value, format)});
  };
  add("loss", report.loss, "%.6g");
  add("accuracy", report.accuracy, "%.6g");
  add("samplesPerSecond", report.samples_per_second, "%.1f");
  return metrics;
}

std::string progress_line(const ProgressReport& report) {
  std::string out = std::string(kProgressMarker) + " {\"epoch\":" + std::to_string(report.epoch) +
                    ",\"epochs\":" + std::to_string(report.epochs) +
                    ",\"step\":" + std::to_string(report.step) +
                    ",\"totalSteps\":" + std::to_string(report.total_steps);
  // printf's %g of a finite number is a JSON number as it is.
  for (const ProgressMetric& metric : progress_metrics(report))
    out += ",\"" + metric.name + "\":" + metric.value;
  if (known_remaining(report))
    out += ",\"remainingSeconds\":" +
           format_progress_number(std::round(report.remaining_seconds), "%.0f");
  return out + "}";
}

double remaining_seconds(double elapsed, int64_t steps_done, int64_t steps_left) {
  if (steps_done <= 0 || elapsed <= 0 || steps_left < 0) return -1;
  return elapsed / static_cast<double>(steps_done) * static_cast<double>(steps_left);
}

int progress_percentage(const ProgressReport& report) {
  double done = 0;
  if (report.total_steps > 0) {
    done = static_cast<double>(report.step) / static_cast<double>(report.total_steps);
  } else if (report.epochs > 0) {
    done = static_cast<double>(report.epoch) / static_cast<double>(report.epochs);
  }
  return static_cast<int>(std::clamp(std::floor(100 * done), 0.0, 100.0));
}

std::string utc_timestamp(std::time_t seconds) {
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

std::string trainer_status_body(const ProgressReport& report, const std::string& updated) {
  std::string status = "{\"progressPercentage\":" + std::to_string(progress_percentage(report));
  if (known_remaining(report))
    status += ",\"estimatedRemainingSeconds\":" +
              format_progress_number(std::round(report.remaining_seconds), "%.0f");
  // The server's metrics are text; names and values here are ours, with nothing to escape.
  std::string metrics;
  for (const ProgressMetric& metric : progress_metrics(report)) {
    metrics += std::string(metrics.empty() ? "" : ",") + "{\"name\":\"" + metric.name +
               "\",\"value\":\"" + metric.value + "\"}";
  }
  if (!metrics.empty()) status += ",\"metrics\":[" + metrics + "]";
  status += ",\"lastUpdatedTime\":\"" + updated + "\"}";
  return "{\"trainerStatus\":" + status + "}";
}

}  // namespace trainjob::trainer
