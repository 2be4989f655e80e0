#include "local/local_torchrun.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include "local/launch_cache.h"
#include "local/run_local.h"
#include "local/signal_catcher.h"
#include "util/process.h"

namespace trainjob {
namespace {

std::string base_name(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool is_python(const std::string& program) {
  std::string name = base_name(program);
  return name == "python" || name.rfind("python3", 0) == 0;
}

/// The PATH a container's command is looked up on (its image's directory first).
std::string container_path(const LocalContainer& container) {
  const char* path = std::getenv("PATH");
  std::string host = path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
  return container.path_prefix.empty() ? host : container.path_prefix + ":" + host;
}

/// The Python the host's torchrun runs its workers with (its own, sys.executable).
std::string host_python(const LocalContainer& container, size_t prefix) {
  if (prefix == 3) return container.argv[0];  // python3 -m torch.distributed.run
  std::string torchrun = find_on_path(container.argv[0], container_path(container));
  std::string interpreter = torchrun.empty() ? "" : script_interpreter(torchrun);
  return is_python(interpreter) ? interpreter : "python3";
}

/// The last non-empty line of `text`: what a failed program last said.
std::string last_line(const std::string& text) {
  size_t end = text.find_last_not_of("\n\r ");
  if (end == std::string::npos) return "";
  size_t start = text.rfind('\n', end);
  start = start == std::string::npos ? 0 : start + 1;
  return text.substr(start, end - start + 1);
}

/// Reads `fd` until it closes or `deadline`; false when the deadline came first.
bool read_until(int fd, std::chrono::steady_clock::time_point deadline, std::string* out) {
  char buffer[4096];
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd waiting{fd, POLLIN, 0};
    int ready = ::poll(&waiting, 1, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) return false;
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) return true;
    out->append(buffer, static_cast<size_t>(n));
    if (out->size() > (1 << 20)) out->erase(0, out->size() - 4096);  // keep the tail
  }
}

/// Launches the host's torchrun with one worker running `python -m site` and says why it
/// failed ("" when it exited 0). `torchrun --help` proves nothing: Debian's 1.13 prints
/// its help and then crashes on Python 3.11 as soon as it prepares a worker. `*ended` tells
/// a launch that ran and failed (worth remembering) from one that could not start or hung.
std::string trial_problem(const LocalContainer& container, size_t prefix,
                          const TorchrunSettings& settings, std::string* shown, bool* ended) {
  *ended = false;
  LocalContainer trial;
  trial.name = "torchrun-trial";
  trial.path_prefix = container.path_prefix;
  trial.argv.assign(container.argv.begin(), container.argv.begin() + static_cast<long>(prefix));
  for (const char* word :
       {"--nproc_per_node", "1", "--nnodes", "1", "--node_rank", "0", "--rdzv_backend", "static",
        "--master_addr", "127.0.0.1", "--master_port"})
    trial.argv.emplace_back(word);
  trial.argv.push_back(free_local_port());
  trial.argv.insert(trial.argv.end(), {"--max_restarts", "0", "-m", "site"});
  *shown = "";
  for (const std::string& word : trial.argv)
    *shown += (shown->empty() ? "" : " ") + word;
  int output = -1;
  std::string error;
  pid_t pid = start_container(trial, settings.marker, &output, &error);
  if (pid < 0) return error;
  std::string text;
  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::milliseconds(static_cast<int64_t>(settings.trial_timeout_s * 1000));
  bool finished = read_until(output, deadline, &text);
  ::close(output);
  if (!finished) signal_process(pid, true, SIGKILL);
  int status = wait_for_exit(pid);
  signal_process(pid, true, SIGKILL);  // what it left in its group
  if (!finished) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%g", settings.trial_timeout_s);
    return "no answer in " + std::string(seconds) + " s";
  }
  if (status == 0) return "";
  *ended = true;
  std::string said = last_line(text);
  return describe_status(status) + (said.empty() ? "" : ": " + said);
}

}  // namespace

size_t torchrun_prefix_length(const std::vector<std::string>& argv) {
  if (argv.empty()) return 0;
  if (base_name(argv[0]) == "torchrun") return 1;
  if (argv.size() >= 3 && is_python(argv[0]) && argv[1] == "-m" &&
      argv[2] == "torch.distributed.run") {
    return 3;
  }
  return 0;
}

std::string script_interpreter(const std::string& script) {
  std::ifstream in(script);
  std::string line;
  if (!std::getline(in, line) || line.rfind("#!", 0) != 0) return "";
  size_t start = line.find_first_not_of(' ', 2);
  if (start == std::string::npos) return "";
  size_t end = line.find(' ', start);
  std::string program = line.substr(start, end == std::string::npos ? end : end - start);
  if (base_name(program) == "env" && end != std::string::npos) {
    size_t word = line.find_first_not_of(' ', end);
    if (word == std::string::npos) return "";
    return line.substr(word, line.find(' ', word) - word);
  }
  return program;
}

std::string find_on_path(const std::string& program, const std::string& path) {
  if (program.find('/') != std::string::npos) {
    return ::access(program.c_str(), X_OK) == 0 ? program : "";
  }
  size_t start = 0;
  while (start <= path.size()) {
    size_t colon = std::min(path.find(':', start), path.size());
    std::string dir = path.substr(start, colon - start);
    std::string candidate = (dir.empty() ? "." : dir) + "/" + program;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    start = colon + 1;
  }
  return "";
}

namespace {

/// Every container of the plan that starts torchrun, with the length of its torchrun prefix.
std::vector<std::pair<LocalContainer*, size_t>> torchrun_containers(LocalPlan* plan) {
  std::vector<std::pair<LocalContainer*, size_t>> found;
  for (auto& stage : plan->stages) {
    for (LocalPod& pod : stage) {
      for (auto* list : {&pod.init_containers, &pod.containers}) {
        for (LocalContainer& container : *list) {
          size_t prefix = torchrun_prefix_length(container.argv);
          if (prefix > 0) found.emplace_back(&container, prefix);
        }
      }
    }
  }
  return found;
}

/// A `torchrun` command's file and identity, for the cache of failed trial launches; "" for
/// `python3 -m torch.distributed.run`, whose torch may change while python3 does not.
std::string torchrun_identity(const LocalContainer& container, size_t prefix) {
  if (prefix != 1) return "";
  return file_identity(find_on_path(container.argv[0], container_path(container)));
}

/// A failure a run before remembered: said in one line that names the cache, not repeated.
std::optional<std::string> remembered_problem(const std::string& identity,
                                              const TorchrunSettings& settings) {
  std::optional<std::string> problem = remembered_failure(settings.cache_file, identity);
  if (!problem) return problem;
  std::string torchrun = identity.substr(0, identity.find('\t'));
  std::string remembered = "the host's " + torchrun +
                           " failed its trial launch before (remembered in " + settings.cache_file +
                           " until it changes)";
  if (!settings.trainer.empty())
    std::fprintf(settings.log, "torchrun: the builtin launcher %s, as %s\n",
                 settings.trainer.c_str(), remembered.c_str());
  else
    std::fprintf(settings.log, "warning: %s; no trainjob-trainer is built to stand in for it\n",
                 remembered.c_str());
  return problem;
}

/// --launcher auto: a trial launch of the container's torchrun on the host (unless a run
/// before saw this torchrun fail it), and a line that says which launcher runs it. Why the
/// host's cannot run it, or "" when it can.
std::string try_host_torchrun(const LocalContainer& container, size_t prefix,
                              const TorchrunSettings& settings) {
  std::string identity = torchrun_identity(container, prefix);
  if (std::optional<std::string> known = remembered_problem(identity, settings)) return *known;
  std::string shown;
  bool ended = false;
  std::string problem = trial_problem(container, prefix, settings, &shown, &ended);
  if (ended) remember_failure(settings.cache_file, identity, problem);
  std::string said;
  if (problem.empty()) {
    said = "torchrun: the host's " + container.argv[0] + ", which passed a trial launch (" + shown +
           ")";
  } else if (!settings.trainer.empty()) {
    said = "torchrun: the builtin launcher " + settings.trainer +
           ", as the host's failed a trial launch (" + shown + "): " + problem;
  } else {
    said = "warning: the host's torchrun failed a trial launch (" + shown + "): " + problem +
           "; no trainjob-trainer is built to stand in for it";
  }
  std::fprintf(settings.log, "%s\n", said.c_str());
  return problem;
}

/// The container's torchrun replaced by the builtin launcher `trainer`, its arguments kept.
void use_builtin_launcher(LocalContainer* container, size_t prefix, const std::string& trainer) {
  std::vector<std::string> argv = {trainer, "--python", host_python(*container, prefix)};
  argv.insert(argv.end(), container->argv.begin() + static_cast<long>(prefix),
              container->argv.end());
  container->argv = std::move(argv);
}

}  // namespace

bool choose_torchrun_launcher(LocalPlan* plan, const TorchrunSettings& settings,
                              std::string* error) {
  std::vector<std::pair<LocalContainer*, size_t>> found = torchrun_containers(plan);
  if (found.empty() || settings.launcher == TorchrunLauncher::kHost) {
    if (!found.empty())
      std::fprintf(settings.log, "torchrun: the host's, as --launcher host asks\n");
    return true;
  }
  if (settings.trainer.empty() && settings.launcher == TorchrunLauncher::kBuiltin) {
    *error =
        "--launcher builtin: no trainjob-trainer is built beside kubectl-trainjob "
        "(build the trainer, cmake -DTRAINJOB_TRAINER=ON)";
    return false;
  }
  // One trial per distinct torchrun (command and image directory), said once.
  std::map<std::string, std::string> problems;  // torchrun -> why it cannot run ("" if it can)
  bool builtin_said = false;
  for (auto& [container, prefix] : found) {
    std::string key = container->path_prefix + "\n" + container->argv[0];
    if (settings.launcher == TorchrunLauncher::kAuto && problems.count(key) == 0)
      problems[key] = try_host_torchrun(*container, prefix, settings);
    bool builtin = settings.launcher == TorchrunLauncher::kBuiltin ||
                   (!problems[key].empty() && !settings.trainer.empty());
    if (!builtin) continue;
    if (settings.launcher == TorchrunLauncher::kBuiltin && !builtin_said) {
      builtin_said = true;
      std::fprintf(settings.log, "torchrun: the builtin launcher %s, as --launcher builtin asks\n",
                   settings.trainer.c_str());
    }
    use_builtin_launcher(container, prefix, settings.trainer);
  }
  return true;
}

}  // namespace trainjob
