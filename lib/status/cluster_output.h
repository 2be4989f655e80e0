// Printing for the cluster commands: kubectl's ages and YAML/JSON of computed objects.
#ifndef TRAINJOB_STATUS_CLUSTER_OUTPUT_H_
#define TRAINJOB_STATUS_CLUSTER_OUTPUT_H_

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "load/json.h"
#include "status/job_phase.h"
#include "util/columns.h"

namespace trainjob {

/// kubectl's age column: 45s, 3m12s, 5h, 2d.
std::string format_age(double seconds);
/// The oldest creationTimestamp among the objects, in epoch seconds (0 if none).
double oldest_creation(const std::vector<Json>& objects);
/// One object as -o yaml, -o json or -o jsonpath=TEMPLATE (kubectl's) prints it.
std::string format_one(const Json& object, const std::string& format);
/// For a CLI check of -o: "" when `value` is one of `allowed` or a readable
/// jsonpath=TEMPLATE, else what is wrong with it.
std::string check_output_format(const std::string& value, const std::vector<std::string>& allowed);
/// "{table,yaml,json,jsonpath=TEMPLATE}": the formats as CLI11 describes a set, which help
/// shows and completion offers.
std::string output_formats_text(const std::vector<std::string>& allowed);
/// Whether `format` is -o jsonpath=TEMPLATE.
bool is_jsonpath_format(const std::string& format);
/// A phase (`Complete`, `Failed`, `Running (restarting ...)`) coloured for `stream` when it is
/// a terminal (util/terminal.h), by its first word: green done, red failed, cyan running, else
/// yellow.
std::string painted_phase(std::string_view phase, std::FILE* stream);
/// The same of a phase alone, by its name.
std::string painted_phase(JobPhase phase, std::FILE* stream);

}  // namespace trainjob

#endif  // TRAINJOB_STATUS_CLUSTER_OUTPUT_H_
