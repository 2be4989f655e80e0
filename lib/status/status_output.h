// How `status` prints a TrainJobStatus: the table, the phase line, and the TrainJob-shaped
// object that -o yaml|json|jsonpath print.
#ifndef TRAINJOB_STATUS_STATUS_OUTPUT_H_
#define TRAINJOB_STATUS_STATUS_OUTPUT_H_

#include <string>

#include "load/json.h"
#include "status/trainjob_status.h"

namespace trainjob {

/// The phase as `status` and `submit --wait` print it: `Running (restarting pod X: reason)`
/// while a node is retried, else the phase's name.
std::string phase_text(const TrainJobStatus& status);

std::string format_status_table(const TrainJobStatus& status);
Json status_json(const TrainJobStatus& status, const std::string& name_space);

}  // namespace trainjob

#endif  // TRAINJOB_STATUS_STATUS_OUTPUT_H_
