// `list`: the TrainJobs of a namespace, found by the labels render puts on their objects.
#ifndef TRAINJOB_STATUS_LIST_TRAINJOB_LIST_H_
#define TRAINJOB_STATUS_LIST_TRAINJOB_LIST_H_

#include <string>
#include <vector>

#include "kube/client.h"
#include "load/json.h"

namespace trainjob {

/// One TrainJob (or legacy kind) the plugin made, as its objects say.
struct ListedTrainJob {
  std::string name_space;
  std::string name;
  std::vector<Json> jobs;
  std::vector<Json> pods;
  std::vector<Json> others;  ///< its Services, which outlive the Jobs of a finished run
};

/// The TrainJobs in `name_space` (empty: in every namespace, as kubectl's -A) with a Job or
/// a Service labelled as made by the plugin, sorted by namespace and name. With a
/// `selector` (kubectl's -l syntax, not escaped), only those it
/// matches (by their Jobs; by their Service once no Job is left), each with all its objects.
std::vector<ListedTrainJob> list_trainjobs(KubeClient* client, const std::string& name_space,
                                           const std::string& selector = "");

/// `-o name`: `trainjob/NAME` (or `pytorchjob/NAME`, ...) a line each.
std::string format_trainjob_names(const std::vector<ListedTrainJob>& trainjobs);
/// `-o json|yaml`: a v1 List of their statuses.
Json trainjob_status_list(const std::vector<ListedTrainJob>& trainjobs,
                          const std::string& name_space);
/// The table: NAME, KIND, PHASE, STEPS, NODES and AGE (from the oldest object) at `now`;
/// with `all_namespaces`, a NAMESPACE column first, as kubectl's -A.
std::string format_trainjob_table(const std::vector<ListedTrainJob>& trainjobs, double now,
                                  bool all_namespaces = false);
/// The table's lines without its header, one per TrainJob in order: the rows --no-headers
/// and --watch print.
std::vector<std::string> trainjob_table_rows(const std::vector<ListedTrainJob>& trainjobs,
                                             double now, bool all_namespaces = false);

}  // namespace trainjob

#endif  // TRAINJOB_STATUS_LIST_TRAINJOB_LIST_H_
