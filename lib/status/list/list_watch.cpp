#include "status/list/list_watch.h"

#include <sstream>

#include "kube/resources.h"
#include "kube/watcher.h"
#include "model/vocabulary.h"

namespace trainjob {
namespace {

/// A row's words without its last (AGE), so that only a change of state reprints it.
std::string without_age(const std::string& row) {
  std::istringstream words(row);
  std::vector<std::string> kept;
  for (std::string word; words >> word;)
    kept.push_back(word);
  if (!kept.empty()) kept.pop_back();
  std::string text;
  for (const std::string& word : kept)
    text += word + " ";
  return text;
}

/// The rows of `trainjobs` by namespace/name: table rows, or `-o name` lines.
std::map<std::string, std::string> rows_by_key(const std::vector<ListedTrainJob>& trainjobs,
                                               double now, const ListWatchRequest& request) {
  std::vector<std::string> rows =
      request.names ? std::vector<std::string>()
                    : trainjob_table_rows(trainjobs, now, request.name_space.empty());
  std::map<std::string, std::string> by_key;
  for (size_t i = 0; i < trainjobs.size(); ++i) {
    std::string key = trainjobs[i].name_space + "/" + trainjobs[i].name;
    by_key[key] = request.names ? format_trainjob_names({trainjobs[i]}) : rows[i];
  }
  return by_key;
}

}  // namespace

std::vector<std::string> changed_list_rows(const std::map<std::string, std::string>& before,
                                           const std::map<std::string, std::string>& after) {
  std::vector<std::string> changed;
  for (const auto& [key, row] : after) {
    auto old = before.find(key);
    if (old == before.end() || without_age(old->second) != without_age(row)) changed.push_back(row);
  }
  for (const auto& [key, row] : before)
    if (after.count(key) == 0) changed.push_back(row);
  return changed;
}

void watch_trainjob_list(KubeClient* client, const Clock& clock, const ListWatchRequest& request,
                         const std::vector<ListedTrainJob>& shown_first,
                         const std::function<void(const std::string&)>& print) {
  std::map<std::string, std::string> shown = rows_by_key(shown_first, clock.now(), request);
  // Every change of the plugin's Jobs and pods wakes the loop; a new listing says what changed.
  TrainJobWatcher watcher(client, request.name_space,
                          url_escape(std::string(kManagedByLabel) + "=" + kManagedByValue));
  watcher.start();
  int seen = 0;
  while (true) {
    WatchSnapshot snapshot = watcher.wait_newer(seen, 30);
    if (snapshot.version == seen) continue;
    seen = snapshot.version;
    std::map<std::string, std::string> now = rows_by_key(
        list_trainjobs(client, request.name_space, request.selector), clock.now(), request);
    for (const std::string& row : changed_list_rows(shown, now))
      print(row);
    shown = std::move(now);
  }
}

}  // namespace trainjob
