#include "cluster/cluster_output.h"

#include <algorithm>

#include "kube/credentials.h"
#include "kube/objects.h"
#include "output/render_output.h"
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

std::string format_one(const Json& object, const std::string& format) {
  if (format == "json") return object.dump(4) + "\n";
  return format_objects({&object}, OutputFormat::kYaml);
}

std::string painted_phase(std::string_view phase, std::FILE* stream) {
  Tone tone = Tone::kWaiting;
  if (phase == "Complete" || phase == "Succeeded") tone = Tone::kGood;
  if (phase == "Failed") tone = Tone::kError;
  if (phase == "Running") tone = Tone::kBusy;
  return paint(phase, tone, color_enabled(stream));
}

std::string format_columns(const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> widths;
  for (const auto& row : rows) {
    widths.resize(std::max(widths.size(), row.size()), 0);
    for (size_t i = 0; i < row.size(); ++i)
      widths[i] = std::max(widths[i], row[i].size());
  }
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) line += std::string(widths[i] - row[i].size() + 3, ' ');
    }
    out += line + "\n";
  }
  return out;
}

}  // namespace trainjob
