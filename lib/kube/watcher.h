// A live copy of the Jobs and pods of one TrainJob, kept by the watch API: list, then watch
// from the list's resourceVersion; a dropped or timed-out stream resumes from the last
// version seen; 410 Gone (history compacted) lists again.
#ifndef TRAINJOB_KUBE_WATCHER_H_
#define TRAINJOB_KUBE_WATCHER_H_

#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "kube/client.h"
#include "kube/resources.h"
#include "load/json.h"
#include "util/steady_condition.h"

namespace trainjob {

/// Applies one watch event line to `objects` (by name); returns false for 410 Gone, when
/// only a new list can help. BOOKMARKs only move `resource_version`.
bool apply_watch_event(const std::string& line, std::map<std::string, Json>* objects,
                       std::string* resource_version, std::string* error);

struct WatchSnapshot {
  std::vector<Json> jobs;
  std::vector<Json> pods;
  int version = 0;  ///< grows with every change
};

class TrainJobWatcher {
 public:
  TrainJobWatcher(KubeClient* client, std::string name_space, std::string selector);
  ~TrainJobWatcher();
  void start();
  /// Waits until the state is newer than `seen` or `timeout_seconds` pass; throws the
  /// KubeError a watch thread ran into.
  WatchSnapshot wait_newer(int seen, double timeout_seconds);
  /// Wakes wait_newer as if something changed (a log stream ended, say).
  void poke();
  /// Times the watch lists again after a 410 (for tests and -v).
  int relists() const { return relists_.load(); }

 private:
  struct WatchEnd;

  /// A watch thread: lists, then watches from the list's version, resuming a watch that ended
  /// or broke and listing again after 410 Gone, until cancelled or an error it cannot get over.
  void watch_loop(const ResourceType& type, std::map<std::string, Json>* objects);
  /// Replaces `objects` by a fresh list and publishes it; the list's resourceVersion.
  std::string list_into(const ResourceType& type, std::map<std::string, Json>* objects);
  /// One watch request from `*version`, applying its events to `objects` (and moving
  /// `*version`) as they come, until the server ends it, it breaks or it is cancelled.
  WatchEnd watch_from(const ResourceType& type, std::map<std::string, Json>* objects,
                      std::string* version);
  void publish();

  KubeClient* client_;
  std::string name_space_;
  std::string selector_;
  std::atomic<bool> cancel_{false};
  std::atomic<int> relists_{0};
  std::mutex mutex_;
  SteadyCondition changed_;
  std::map<std::string, Json> jobs_;
  std::map<std::string, Json> pods_;
  int version_ = 0;
  int listed_ = 0;  ///< types listed at least once; nothing is published before both
  std::string error_;
  std::vector<std::thread> threads_;
};

}  // namespace trainjob

#endif  // TRAINJOB_KUBE_WATCHER_H_
