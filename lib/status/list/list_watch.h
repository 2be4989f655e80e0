// `list --watch`: the table, then a row for each TrainJob that changed, as `kubectl get -w`.
#ifndef TRAINJOB_STATUS_LIST_LIST_WATCH_H_
#define TRAINJOB_STATUS_LIST_LIST_WATCH_H_

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "kube/client.h"
#include "kube/environment.h"
#include "status/list/trainjob_list.h"

namespace trainjob {

struct ListWatchRequest {
  std::string name_space;  ///< empty: every namespace (-A)
  std::string selector;    ///< -l, kubectl's syntax
  bool names = false;      ///< -o name: `trainjob/NAME` lines instead of rows
};

/// The rows to print when a listing's rows (by namespace/name) go from `before` to `after`:
/// those new or changed (the AGE column aside, which changes by itself), then the last row
/// of those gone, as kubectl prints a deleted object once more.
std::vector<std::string> changed_list_rows(const std::map<std::string, std::string>& before,
                                           const std::map<std::string, std::string>& after);

/// After `shown_first` was printed: prints (through `print`) the changed rows whenever a Job
/// or pod the plugin made changes (the watch API, as `status -w`), until the process is
/// interrupted; throws the KubeError that stops it.
void watch_trainjob_list(KubeClient* client, const Clock& clock, const ListWatchRequest& request,
                         const std::vector<ListedTrainJob>& shown_first,
                         const std::function<void(const std::string&)>& print);

}  // namespace trainjob

#endif  // TRAINJOB_STATUS_LIST_LIST_WATCH_H_
