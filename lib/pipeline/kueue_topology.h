// Kueue's topology-aware scheduling annotations (kueue.x-k8s.io/podset-required-topology and
// the rest) in an input document: Kueue reads them on pod templates only, where they pass
// through to the Jobs' (or the JobSet's) pod templates; anywhere else they are silently
// ignored (kueue#15816), so they are warned about with the pod template to move them to. On a
// pod template their values are checked as Kueue's Job webhook checks them
// (jobframework.ValidateTASPodSetRequest, v0.17.0), which would refuse the Jobs at submit.
#ifndef TRAINJOB_PIPELINE_KUEUE_TOPOLOGY_H_
#define TRAINJOB_PIPELINE_KUEUE_TOPOLOGY_H_

#include <string>
#include <string_view>

#include "diag/diagnostic.h"
#include "load/document.h"

namespace trainjob {

/// Whether the annotations at `path` (a field path ending in `annotations`) are a pod
/// template's: `...template.spec.template.metadata.annotations` (a runtime's replicated job,
/// a runtime patch), `...ReplicaSpecs.<Type>.template.metadata.annotations` (the legacy
/// kinds), `spec.podTemplateOverrides[i].metadata.annotations` (TrainJob v2.0/v2.1).
bool kueue_reads_topology_at(const std::string& path);

/// Where to move topology annotations found at `path` of a document of `kind`.
std::string kueue_topology_fix(const std::string& kind, const std::string& path);

/// A Kubernetes label key (an optional DNS-subdomain prefix and `/`, then a name of at most
/// 63 characters): what a topology level is.
bool is_label_key(std::string_view key);

/// Warns about topology annotations Kueue does not read in `document`, and reports the
/// values Kueue's webhook would refuse on the pod templates where it does.
void check_kueue_topology(const Document& document, Diagnostics* diagnostics);

}  // namespace trainjob

#endif  // TRAINJOB_PIPELINE_KUEUE_TOPOLOGY_H_
