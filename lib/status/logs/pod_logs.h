// `logs`: the logs of every pod of a TrainJob in one stream, each line whole and prefixed
// with its node; with follow, pods are waited for, restarts followed and dropped streams
// resumed without repeating or losing lines.
#ifndef TRAINJOB_STATUS_LOGS_POD_LOGS_H_
#define TRAINJOB_STATUS_LOGS_POD_LOGS_H_

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
#include "status/logs/log_selection.h"

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
  bool all_containers = false;  ///< every container of each pod, init containers first
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
  PodLogs(KubeClient* client, std::string name_space, std::string trainjob, LogOptions options,
          std::FILE* out, std::FILE* err);
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
  struct StreamState;

  /// Resolves --step and checks -c against the Jobs; the exit code when one names nothing.
  std::optional<int> check_selection(const std::vector<Json>& jobs);
  int print_once(const std::vector<Json>& jobs, const std::vector<Json>& pods);
  /// One container's whole log as lines to print into *block, or why it could not be read.
  void fetch_log(const Source& source, const Json& pod, std::string* block,
                 std::string* error) const;
  /// After the logs: a pod in CrashLoopBackOff is pointed to `logs -p`.
  void suggest_previous(const Source& source, const Json& pod) const;
  int follow();
  /// Cancels the streams and waits for their threads.
  void stop_streams();
  /// Says the TrainJob has no Jobs (in the step asked for); the exit code.
  int report_no_jobs() const;
  /// The Jobs --step selects.
  std::vector<const Json*> selected_jobs(const std::vector<Json>& jobs) const;
  /// Whether lines name their node: when asked, or when more than one pod may print.
  bool prefix_for(const std::vector<const Json*>& jobs) const;
  /// Starts the stream of the pod's current container instance, or says what the pod waits
  /// for; whether nothing more will come from it.
  bool follow_pod(const std::string& label, const Json& pod);
  /// follow_pod for one of its containers.
  bool follow_source(Source source, const Json& pod);
  /// Says, when it changed, why a pod does not run; whether it ended without running.
  bool report_waiting(const Source& source, const Json& pod, const Json* status);
  /// Starts the stream of this instance unless one began; whether that stream has ended.
  bool start_stream(Source source);
  std::vector<std::pair<std::string, const Json*>> selected_pods(
      const std::vector<Json>& pods) const;
  /// The containers to read of a pod whose node is `label`: -c, the step's own, or all; each
  /// labelled `node-0`, or `node-0/CONTAINER` with --all-containers.
  std::vector<Source> sources_of(const std::string& label, const Json& pod) const;
  bool selected_job(const Json& job) const;
  std::string query(bool follow, bool first, const std::string& since_time) const;
  /// A stream's thread: prints the instance's lines until it ends, then tells the watcher.
  void stream_source(Source source);
  /// Reads the live log until the instance ended and every line of it is printed, resuming
  /// broken streams (kMaxReconnects times at most).
  void read_until_done(const Source& source, StreamState* state);
  /// One live read, from after the last line printed.
  HttpResponse read_live(const Source& source, bool first, StreamState* state);
  /// After a live read ended: whether to read again; if not, the last lines are printed.
  bool read_again(const Source& source, StreamState* state, const HttpResponse& response,
                  int attempt);
  /// The instance before ended unseen: its whole log.
  void print_previous_instance(const Source& source, StreamState* state);
  /// The instance restarted while the stream was cut off: the end of its log.
  void print_rest_of_previous(const Source& source, StreamState* state);
  /// Prints the new lines of `data`, those a resumed stream sent before skipped.
  void print_lines(const Source& source, StreamState* state, std::string_view data);
  /// Prints what came after the last '\n': the stream ended without one.
  void print_partial_line(const Source& source, StreamState* state);
  bool still_running(const Source& source, int* restart_count);
  std::string line_out(const Source& source, std::string_view line) const;

  KubeClient* client_;
  std::string name_space_;
  std::string trainjob_;
  LogOptions options_;
  LinePrinter printer_;
  std::FILE* err_;
  bool prefix_ = false;
  std::atomic<bool> cancel_{false};
  std::mutex mutex_;
  std::set<std::string> started_;                    ///< "pod/container/instance" streams begun
  std::set<std::string> finished_;                   ///< ... and ended
  std::map<std::string, int> first_instance_;        ///< pod/container -> restart count first seen
  std::map<std::string, std::string> waiting_said_;  ///< node -> why it waits, as last printed
  std::vector<std::thread> threads_;
  class TrainJobWatcher* watcher_ = nullptr;  ///< while following: told when a stream ends
};

}  // namespace trainjob

#endif  // TRAINJOB_STATUS_LOGS_POD_LOGS_H_
