// `logs`: the logs of every pod of a TrainJob in one stream, each line whole and prefixed
// with its node; with follow, pods are waited for, restarts followed and dropped streams
// resumed without repeating or losing lines.
#ifndef TRAINJOB_CLUSTER_POD_LOGS_H_
#define TRAINJOB_CLUSTER_POD_LOGS_H_

#include <atomic>
#include <cstdio>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "kube/client.h"
#include "kube/environment.h"
#include "load/json.h"

namespace trainjob {

struct LogOptions {
  bool follow = false;
  bool prefix = false;  ///< even for a single pod
  bool timestamps = false;
  bool previous = false;
  std::string step;
  int node = -1;
  std::optional<long> since_seconds;
  std::optional<long> tail_lines;
  std::string container;
};

/// Writes blocks of whole lines under one lock, so output of pods never mixes mid-line.
class LinePrinter {
 public:
  explicit LinePrinter(std::FILE* out) : out_(out) {}
  void write(const std::string& block);

 private:
  std::mutex mutex_;
  std::FILE* out_;
};

/// The container a pod's logs come from: -c, else the one named after its step, else a legacy
/// kind's default container (`pytorch`), else the first.
std::string log_container(const Json& pod, const std::string& requested);

class PodLogs {
 public:
  PodLogs(KubeClient* client, const Clock* clock, std::string name_space, std::string trainjob,
          LogOptions options, std::FILE* out, std::FILE* err);
  ~PodLogs();
  int run();

 private:
  struct Source {
    std::string label;
    std::string pod;
    std::string container;
    int instance = 0;
    bool previous_first = false;  ///< the instance before ended unseen: print it first
  };
  int print_once(const std::vector<Json>& jobs, const std::vector<Json>& pods);
  int follow();
  std::vector<std::pair<std::string, const Json*>> selected_pods(
      const std::vector<Json>& pods) const;
  bool selected_job(const Json& job) const;
  std::string query(bool follow, bool first, const std::string& since_time) const;
  void stream_source(Source source);
  bool still_running(const Source& source, int* restart_count);
  std::string line_out(const Source& source, std::string_view line) const;

  KubeClient* client_;
  const Clock* clock_;
  std::string name_space_;
  std::string trainjob_;
  LogOptions options_;
  LinePrinter printer_;
  std::FILE* err_;
  bool prefix_ = false;
  std::atomic<bool> cancel_{false};
  std::mutex mutex_;
  std::set<std::string> started_;              ///< "pod/container/instance" streams begun
  std::set<std::string> finished_;             ///< ... and ended
  std::map<std::string, int> first_instance_;  ///< pod/container -> restart count first seen
  std::vector<std::thread> threads_;
  class TrainJobWatcher* watcher_ = nullptr;  ///< while following: told when a stream ends
};

}  // namespace trainjob

#endif  // TRAINJOB_CLUSTER_POD_LOGS_H_
