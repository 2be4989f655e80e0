#include "kube/environment.h"

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <spawn.h>
#include <sstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace trainjob {

std::optional<std::string> RealEnvironment::variable(const std::string& name) const {
  const char* value = std::getenv(name.c_str());
  if (value == nullptr) return std::nullopt;
  return std::string(value);
}

std::optional<std::string> RealEnvironment::read_file(const std::string& path) const {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return text.str();
}

ProcessResult RealEnvironment::run(const ProcessRequest& request) const {
  ProcessResult result;
  std::vector<std::string> env_strings;
  for (char** entry = environ; *entry != nullptr; ++entry)
    env_strings.emplace_back(*entry);
  for (const auto& [name, value] : request.extra_env) {
    std::string entry = name;
    entry.append("=").append(value);
    env_strings.push_back(std::move(entry));
  }
  std::vector<char*> envp;
  envp.reserve(env_strings.size() + 1);
  for (std::string& entry : env_strings)
    envp.push_back(entry.data());
  envp.push_back(nullptr);
  std::vector<std::string> arg_strings{request.command};
  arg_strings.insert(arg_strings.end(), request.args.begin(), request.args.end());
  std::vector<char*> argv;
  argv.reserve(arg_strings.size() + 1);
  for (std::string& arg : arg_strings)
    argv.push_back(arg.data());
  argv.push_back(nullptr);

  int out_pipe[2];
  if (pipe(out_pipe) != 0) return result;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, out_pipe[0]);
  if (!request.pass_stdin)
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", 0, 0);
  pid_t pid = 0;
  int failed =
      posix_spawnp(&pid, request.command.c_str(), &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(out_pipe[1]);
  if (failed != 0) {
    close(out_pipe[0]);
    return result;
  }
  char buffer[4096];
  ssize_t n = 0;
  while ((n = read(out_pipe[0], buffer, sizeof buffer)) > 0)
    result.out.append(buffer, n);
  close(out_pipe[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  // posix_spawnp reports a missing command as exit 127 of the child.
  result.started = !(WIFEXITED(status) && WEXITSTATUS(status) == 127 && result.out.empty());
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

bool RealEnvironment::stdin_is_terminal() const {
  return isatty(STDIN_FILENO) != 0;
}

double RealClock::now() const {
  using namespace std::chrono;
  return duration<double>(system_clock::now().time_since_epoch()).count();
}

void RealClock::sleep(double seconds) const {
  if (seconds > 0) std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
}

std::string directory_of(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash == 0 ? 1 : slash);
}

std::string resolve_path(const std::string& base_dir, const std::string& path) {
  if (path.empty() || path[0] == '/' || base_dir.empty()) return path;
  return base_dir + "/" + path;
}

}  // namespace trainjob
