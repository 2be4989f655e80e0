// One trial of a sweep run as a child: the plugin itself with `--trial K`, its output read
// line by line for TRAINJOB_PROGRESS metrics, kept to a log file when asked, and its last
// lines kept for the message when it fails.
#ifndef TRAINJOB_SWEEP_TRIAL_PROCESS_H_
#define TRAINJOB_SWEEP_TRIAL_PROCESS_H_

#include <cstdio>
#include <deque>
#include <string>
#include <sys/types.h>
#include <vector>

#include "optimize/trial_results.h"

namespace trainjob {

class TrialProcess {
 public:
  /// Starts `argv` (stdin /dev/null, stdout and stderr into one pipe, a process group of its
  /// own), its output appended to `log_path` when that is not empty. False with `*error` set
  /// when it cannot.
  bool start(const std::vector<std::string>& argv, const std::string& log_path, std::string* error);
  TrialProcess() = default;
  TrialProcess(const TrialProcess&) = delete;
  TrialProcess& operator=(const TrialProcess&) = delete;
  ~TrialProcess();

  /// The pipe to poll; -1 once it reached its end.
  int output_fd() const { return output_; }
  /// Reads what is there; each whole line's progress metrics are merged into `trial`'s, its
  /// progress lines that are not JSON counted.
  void read_output(TrialResult* trial);
  /// Reaps the child when it ended; true then, with its wait status in `*status`.
  bool reap(int* status);
  /// Sends `signal_number` to its process group.
  void signal(int signal_number) const;
  /// Its last lines (at most a few), for the message of a failed trial.
  const std::deque<std::string>& last_lines() const { return last_lines_; }

 private:
  void take_line(std::string line, TrialResult* trial);

  pid_t pid_ = -1;
  int output_ = -1;
  std::FILE* log_ = nullptr;
  std::string partial_;
  std::deque<std::string> last_lines_;
};

}  // namespace trainjob

#endif  // TRAINJOB_SWEEP_TRIAL_PROCESS_H_
