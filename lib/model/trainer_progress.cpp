#include "model/trainer_progress.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace trainjob {
namespace {

/// Trainer v2.2 caps a metric's name and value at 64 characters and the list at 256.
constexpr size_t kMaxMetricText = 64;
constexpr size_t kMaxMetrics = 256;

std::optional<int64_t> whole_number(const Json& value) {
  if (value.is_number_integer()) return value.get<int64_t>();
  if (value.is_number_float()) {
    double number = value.get<double>();
    if (std::isfinite(number) && std::fabs(number) < 9e15) return std::llround(number);
  }
  return std::nullopt;
}

std::string metric_text(const Json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_number_float()) {
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", value.get<double>());
    return text;
  }
  return value.dump();
}

/// 1410.4 -> "1,410".
std::string with_thousands(double value) {
  std::string digits = std::to_string(std::llround(value));
  std::string out;
  size_t lead = digits[0] == '-' ? 1 : 0;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > lead && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string format_duration(int64_t seconds) {
  if (seconds < 60) return std::to_string(seconds) + "s";
  if (seconds < 3600) return std::to_string((seconds + 30) / 60) + "m";
  int64_t hours = seconds / 3600;
  int64_t minutes = (seconds % 3600 + 30) / 60;
  return std::to_string(hours) + "h" + (minutes > 0 ? std::to_string(minutes) + "m" : "");
}

const std::string* metric(const TrainerProgress& progress, const char* name) {
  for (const auto& [key, value] : progress.metrics)
    if (key == name) return &value;
  return nullptr;
}

/// Upstream's `metrics: [{"name": ..., "value": ...}]`, values as text.
void add_named_metrics(const Json& metrics, TrainerProgress* out) {
  for (const Json& metric : metrics) {
    if (out->metrics.size() >= kMaxMetrics) return;
    if (!metric.is_object() || !metric.contains("name") || !metric["name"].is_string()) continue;
    const Json& value = metric.contains("value") ? metric["value"] : Json();
    if (value.is_structured() || value.is_null()) continue;
    out->metrics.emplace_back(metric["name"].get<std::string>().substr(0, kMaxMetricText),
                              metric_text(value).substr(0, kMaxMetricText));
  }
}

/// The fields of a progress line's object.
TrainerProgress progress_of(Json object) {
  // Upstream's body, whole or its trainerStatus alone, reads as well.
  if (object.contains("trainerStatus") && object["trainerStatus"].is_object())
    object = Json(object["trainerStatus"]);
  TrainerProgress out;
  for (const auto& entry : object.items()) {
    const std::string& key = entry.key();
    if (key == "epoch")
      out.epoch = whole_number(entry.value());
    else if (key == "epochs")
      out.epochs = whole_number(entry.value());
    else if (key == "step")
      out.step = whole_number(entry.value());
    else if (key == "totalSteps")
      out.total_steps = whole_number(entry.value());
    else if (key == "remainingSeconds" || key == "estimatedRemainingSeconds")
      out.remaining_seconds = whole_number(entry.value());
    else if (key == "progressPercentage")
      out.percentage = whole_number(entry.value());
    else if (key == "lastUpdatedTime" && entry.value().is_string())
      out.time = entry.value().get<std::string>();
    else if (key == "metrics" && entry.value().is_array())
      add_named_metrics(entry.value(), &out);
    else if (out.metrics.size() < kMaxMetrics && !entry.value().is_structured())
      out.metrics.emplace_back(key.substr(0, kMaxMetricText),
                               metric_text(entry.value()).substr(0, kMaxMetricText));
  }
  return out;
}

}  // namespace

ProgressLine classify_progress_line(std::string_view line) {
  ProgressLine out;
  size_t at = line.rfind(kProgressMarker);
  if (at == std::string_view::npos) return out;
  std::string_view rest = line.substr(at + kProgressMarker.size());
  while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t'))
    rest.remove_prefix(1);
  while (!rest.empty() && (rest.back() == '\r' || rest.back() == ' ' || rest.back() == '\n'))
    rest.remove_suffix(1);
  if (rest.empty() || (rest.front() != '{' && rest.front() != '[')) return out;
  out.kind = ProgressLine::Kind::kNotJson;
  out.body = rest;
  if (line.size() > kMaxProgressLine) return out;
  Json object = Json::parse(rest.begin(), rest.end(), nullptr, false);
  if (!object.is_object()) return out;
  out.kind = ProgressLine::Kind::kProgress;
  out.body = {};
  out.progress = progress_of(std::move(object));
  return out;
}

std::optional<TrainerProgress> parse_progress_line(std::string_view line) {
  return classify_progress_line(line).progress;
}

std::optional<TrainerProgress> latest_progress(std::string_view log, bool timestamps,
                                               BadProgressLines* bad) {
  std::optional<TrainerProgress> latest;
  while (!log.empty()) {
    size_t end = std::min(log.find('\n'), log.size());
    std::string_view line = log.substr(0, end);
    log.remove_prefix(std::min(end + 1, log.size()));
    std::string time;
    if (timestamps) {
      size_t space = line.find(' ');
      if (space != std::string_view::npos && space < 64) {
        time = std::string(line.substr(0, space));
        line.remove_prefix(space + 1);
      }
    }
    ProgressLine read = classify_progress_line(line);
    if (read.kind == ProgressLine::Kind::kNotJson && bad != nullptr) bad->add(read.body);
    if (read.kind != ProgressLine::Kind::kProgress) continue;
    latest = std::move(read.progress);
    if (!time.empty()) latest->time = time;  // the kubelet's clock over the program's
  }
  return latest;
}

void BadProgressLines::add(std::string_view body) {
  if (count++ == 0) first = std::string(body.substr(0, kShownBadProgress));
}

void BadProgressLines::merge(const BadProgressLines& other) {
  if (count == 0) first = other.first;
  count += other.count;
}

std::string BadProgressLines::describe() const {
  if (count == 0) return "";
  std::string shown = first.size() == kShownBadProgress ? first + "..." : first;
  return std::to_string(count) +
         (count == 1 ? " TRAINJOB_PROGRESS line was" : " TRAINJOB_PROGRESS lines were") +
         " not JSON: " + shown + " (a program prints json.dumps of its dict, docs/progress.md)";
}

std::optional<int> progress_percentage(const TrainerProgress& progress) {
  auto percent = [](int64_t done, int64_t total) {
    double value = 100.0 * static_cast<double>(done) / static_cast<double>(total);
    return static_cast<int>(std::clamp(std::floor(value), 0.0, 100.0));
  };
  if (progress.step && progress.total_steps && *progress.total_steps > 0)
    return percent(*progress.step, *progress.total_steps);
  if (progress.epoch && progress.epochs && *progress.epochs > 0)
    return percent(*progress.epoch, *progress.epochs);
  if (progress.percentage)
    return static_cast<int>(std::clamp<int64_t>(*progress.percentage, 0, 100));
  return std::nullopt;
}

std::string format_progress(const TrainerProgress& progress) {
  std::vector<std::string> parts;
  std::string head;
  if (progress.epoch) {
    head = "epoch " + std::to_string(*progress.epoch) +
           (progress.epochs ? "/" + std::to_string(*progress.epochs) : "");
  } else if (progress.step) {
    head = "step " + std::to_string(*progress.step) +
           (progress.total_steps ? "/" + std::to_string(*progress.total_steps) : "");
  }
  if (std::optional<int> percent = progress_percentage(progress))
    head += (head.empty() ? "" : " ") + std::string("(") + std::to_string(*percent) + "%)";
  if (!head.empty()) parts.push_back(head);
  if (const std::string* loss = metric(progress, "loss")) parts.push_back("loss " + *loss);
  if (const std::string* rate = metric(progress, "samplesPerSecond")) {
    char* end = nullptr;
    double value = std::strtod(rate->c_str(), &end);
    if (end != rate->c_str()) parts.push_back(with_thousands(value) + " samples/s");
  }
  if (progress.remaining_seconds && *progress.remaining_seconds >= 0)
    parts.push_back("~" + format_duration(*progress.remaining_seconds) + " left");
  std::string out;
  for (const std::string& part : parts)
    out += (out.empty() ? "" : ", ") + part;
  return out;
}

Json trainer_status_json(const TrainerProgress& progress) {
  Json out = Json::object();
  if (std::optional<int> percent = progress_percentage(progress))
    out["progressPercentage"] = *percent;
  if (progress.remaining_seconds && *progress.remaining_seconds >= 0)
    out["estimatedRemainingSeconds"] = *progress.remaining_seconds;
  Json metrics = Json::array();
  for (const auto& [name, value] : progress.metrics) {
    if (!name.empty() && !value.empty()) metrics.push_back({{"name", name}, {"value", value}});
  }
  if (!metrics.empty()) out["metrics"] = metrics;
  if (!progress.time.empty()) out["lastUpdatedTime"] = progress.time;
  return out;
}

}  // namespace trainjob
