// Printing for the cluster commands: kubectl's ages and YAML/JSON of computed objects.
#ifndef TRAINJOB_CLUSTER_CLUSTER_OUTPUT_H_
#define TRAINJOB_CLUSTER_CLUSTER_OUTPUT_H_

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "load/json.h"

namespace trainjob {

/// kubectl's age column: 45s, 3m12s, 5h, 2d.
std::string format_age(double seconds);
/// The oldest creationTimestamp among the objects, in epoch seconds (0 if none).
double oldest_creation(const std::vector<Json>& objects);
/// One object as -o yaml or -o json prints it.
std::string format_one(const Json& object, const std::string& format);
/// A phase word (`Complete`, `Failed`, `Running`, ...) coloured for `stream` when it is a
/// terminal (util/terminal.h): green for done, red for failed, cyan running, else yellow.
std::string painted_phase(std::string_view phase, std::FILE* stream);
/// Space-aligned columns, as kubectl get prints them.
std::string format_columns(const std::vector<std::vector<std::string>>& rows);

}  // namespace trainjob

#endif  // TRAINJOB_CLUSTER_CLUSTER_OUTPUT_H_
