// How a flag's or positional's value is completed, by its declared type name: the type
// names the commands already show in `--help` (PATH, DIR, VERSION, ...) decide it, so a new
// flag of a known type completes without any change here.
#ifndef TRAINJOB_COMPLETE_VALUE_KINDS_H_
#define TRAINJOB_COMPLETE_VALUE_KINDS_H_

#include <string>
#include <vector>

#include "complete/completion.h"

namespace trainjob {

/// Candidates for a value starting with `prefix`: `choices` when the option checks its
/// values against a set, else by `value_type`:
///   PATH      manifest files (.yaml, .yml, .json) and directories
///   FILE      any file; DIR: directories
///   VERSION   the Trainer releases understood (2.0 ... 2.3)
///   RELEASE   those, or `trainjob` (convert --to)
///   RUNTIME   the runtimes embedded in the binary
///   TRAINJOB  the TrainJobs submitted to the namespace (asks `cluster`)
///   NAMESPACE the cluster's namespaces (asks `cluster`)
///   CONTEXT   the kubeconfig's contexts (asks `cluster`, which reads the kubeconfig only)
/// Any other type completes nothing (and no file names).
Completion complete_value(const std::string& value_type, const std::vector<std::string>& choices,
                          const std::string& prefix, const GivenFlags& given,
                          const ClusterLookup& cluster);

/// The names of the runtimes compiled into the binary, sorted, each with its ML policy.
std::vector<Candidate> embedded_runtime_candidates();

}  // namespace trainjob

#endif  // TRAINJOB_COMPLETE_VALUE_KINDS_H_
