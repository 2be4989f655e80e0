// The process's surroundings the cluster code reads: environment variables, files, the
// clock and credential plugins; behind interfaces so tests replace them.
#ifndef TRAINJOB_KUBE_ENVIRONMENT_H_
#define TRAINJOB_KUBE_ENVIRONMENT_H_

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace trainjob {

struct ProcessRequest {
  std::string command;
  std::vector<std::string> args;
  std::vector<std::pair<std::string, std::string>> extra_env;  ///< on top of the caller's
  /// The process shares our terminal (stdin and process group); otherwise its stdin is
  /// /dev/null and it leads a process group of its own, killed whole when it overruns.
  bool pass_stdin = false;
  double timeout_seconds = 0;  ///< 0: none
  size_t output_limit = 0;     ///< bytes, for stdout and for stderr each; 0: none
};

/// How a process run ended: by itself, or killed (with its process group) for overrunning.
enum class ProcessEnd { kExited, kTimedOut, kStdoutTooLarge, kStderrTooLarge };

struct ProcessResult {
  bool started = false;  ///< false: the command was not found or could not run
  int exit_code = 0;
  std::string out;  ///< its stdout; its stderr is copied to ours
  ProcessEnd end = ProcessEnd::kExited;
};

/// Appends `size` bytes to `into` when the total stays within `limit` (0: no limit);
/// false, appending nothing, when it would not.
bool append_within(std::string* into, const char* data, size_t size, size_t limit);

class Environment {
 public:
  virtual ~Environment() = default;
  virtual std::optional<std::string> variable(const std::string& name) const = 0;
  virtual std::optional<std::string> read_file(const std::string& path) const = 0;
  virtual ProcessResult run(const ProcessRequest& request) const = 0;
  virtual bool stdin_is_terminal() const = 0;
};

class Clock {
 public:
  virtual ~Clock() = default;
  /// Seconds since the Unix epoch.
  virtual double now() const = 0;
  virtual void sleep(double seconds) const = 0;
};

class RealEnvironment : public Environment {
 public:
  std::optional<std::string> variable(const std::string& name) const override;
  std::optional<std::string> read_file(const std::string& path) const override;
  ProcessResult run(const ProcessRequest& request) const override;
  bool stdin_is_terminal() const override;
};

class RealClock : public Clock {
 public:
  double now() const override;
  void sleep(double seconds) const override;
};

/// Directory part of a path ("" for a bare name).
std::string directory_of(const std::string& path);
/// `path` resolved against `base_dir` unless it is absolute or empty.
std::string resolve_path(const std::string& base_dir, const std::string& path);

}  // namespace trainjob

#endif  // TRAINJOB_KUBE_ENVIRONMENT_H_
