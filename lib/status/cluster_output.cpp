#include "status/cluster_output.h"

#include <algorithm>
#include <optional>
#include <string_view>

#include "kube/credentials.h"
#include "kube/objects.h"
#include "output/jsonpath.h"
#include "output/render_output.h"
#include "status/job_phase.h"
#include "util/terminal.h"

namespace trainjob {

std::string format_age(double seconds) {
  long s = std::max(0L, static_cast<long>(seconds));
  if (s < 120) return std::to_string(s) + "s";
  if (s < 600) return std::to_string(s / 60) + "m" + std::to_string(s % 60) + "s";
  if (s < 3L * 3600) return std::to_string(s / 60) + "m";
  if (s < 48L * 3600) return std::to_string(s / 3600) + "h";
  return std::to_string(s / 86400) + "d";
}

double oldest_creation(const std::vector<Json>& objects) {
  double oldest = 0;
  for (const Json& object : objects) {
    std::optional<double> created =
        parse_rfc3339(string_member(member_or_empty(object, "metadata"), "creationTimestamp"));
    if (created && (oldest == 0 || *created < oldest)) oldest = *created;
  }
  return oldest;
}

namespace {

constexpr std::string_view kJsonPathPrefix = "jsonpath=";

}  // namespace

bool is_jsonpath_format(const std::string& format) {
  return format.compare(0, kJsonPathPrefix.size(), kJsonPathPrefix) == 0;
}

std::string check_output_format(const std::string& value, const std::vector<std::string>& allowed) {
  if (std::find(allowed.begin(), allowed.end(), value) != allowed.end()) return "";
  if (is_jsonpath_format(value)) {
    // The template is read now, so that a mistake in it is a usage error before any request.
    std::string error;
    if (evaluate_jsonpath(Json::object(), value.substr(kJsonPathPrefix.size()), &error)) return "";
    return error;
  }
  std::string names;
  for (const std::string& name : allowed)
    names += name + ", ";
  return "expected one of " + names + "or jsonpath=TEMPLATE, found \"" + value + "\"";
}

std::string output_formats_text(const std::vector<std::string>& allowed) {
  std::string text = "{";
  for (const std::string& name : allowed)
    text += (text.size() > 1 ? "," : "") + name;
  return text + ",jsonpath=TEMPLATE}";
}

std::string format_one(const Json& object, const std::string& format) {
  if (is_jsonpath_format(format)) {
    std::string error;  // the template was checked with the flags
    return evaluate_jsonpath(object, format.substr(kJsonPathPrefix.size()), &error).value_or("");
  }
  if (format == "json") return object.dump(4) + "\n";
  return format_objects({&object}, OutputFormat::kYaml);
}

std::string painted_phase(std::string_view phase, std::FILE* stream) {
  std::string_view word = phase.substr(0, phase.find(' '));  // `Running (restarting ...)`
  std::optional<JobPhase> parsed = parse_job_phase(word);
  Tone tone = Tone::kWaiting;
  if (parsed == JobPhase::kComplete || parsed == JobPhase::kSucceeded) tone = Tone::kGood;
  if (parsed == JobPhase::kFailed) tone = Tone::kError;
  if (parsed == JobPhase::kRunning) tone = Tone::kBusy;
  return paint(phase, tone, color_enabled(stream));
}

std::string painted_phase(JobPhase phase, std::FILE* stream) {
  return painted_phase(job_phase_name(phase), stream);
}

}  // namespace trainjob
