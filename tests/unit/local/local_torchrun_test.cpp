// `run --local` for torchrun containers: which words start torchrun, the Python its `#!`
// names, and the choice of launcher, with trial launches of real (stand-in) programs.
#include "local/local_torchrun.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <doctest/doctest.h>

namespace trainjob {
namespace {

namespace fs = std::filesystem;

/// A temporary directory holding an executable `torchrun` with `body` as its script.
class FakeTorchrun {
 public:
  explicit FakeTorchrun(const std::string& body) {
    char pattern[] = "/tmp/trainjob-torchrun-test-XXXXXX";
    dir_ = ::mkdtemp(pattern);
    std::ofstream(dir_ + "/torchrun") << body;
    fs::permissions(dir_ + "/torchrun", fs::perms::owner_all);
  }
  ~FakeTorchrun() { fs::remove_all(dir_); }
  FakeTorchrun(const FakeTorchrun&) = delete;
  FakeTorchrun& operator=(const FakeTorchrun&) = delete;
  const std::string& dir() const { return dir_; }

 private:
  std::string dir_;
};

LocalPlan plan_with(const std::vector<std::string>& argv, const std::string& path_prefix) {
  LocalContainer container;
  container.name = "node";
  container.argv = argv;
  container.path_prefix = path_prefix;
  LocalPod pod;
  pod.containers.push_back(container);
  pod.containers.push_back(container);
  LocalPlan plan;
  plan.stages.push_back({pod});
  return plan;
}

/// What choose_torchrun_launcher said, and the first container's command after it.
struct Choice {
  bool ok = false;
  std::string said;
  std::string error;
  std::vector<std::string> argv;
};

Choice choose(LocalPlan plan, TorchrunLauncher launcher, const std::string& trainer) {
  Choice choice;
  char* text = nullptr;
  size_t size = 0;
  std::FILE* log = ::open_memstream(&text, &size);
  TorchrunSettings settings;
  settings.launcher = launcher;
  settings.trainer = trainer;
  settings.trial_timeout_s = 20;
  settings.log = log;
  choice.ok = choose_torchrun_launcher(&plan, settings, &choice.error);
  std::fclose(log);
  choice.said.assign(text, size);
  std::free(text);
  choice.argv = plan.stages[0][0].containers[0].argv;
  CHECK(plan.stages[0][0].containers[1].argv == choice.argv);
  return choice;
}

}  // namespace

TEST_CASE("local torchrun: torchrun and python3 -m torch.distributed.run are recognised") {
  CHECK(torchrun_prefix_length({"torchrun", "--nnodes=2", "a.py"}) == 1);
  CHECK(torchrun_prefix_length({"/opt/conda/bin/torchrun", "a.py"}) == 1);
  CHECK(torchrun_prefix_length({"python3", "-m", "torch.distributed.run", "a.py"}) == 3);
  CHECK(torchrun_prefix_length({"/usr/bin/python3.11", "-m", "torch.distributed.run"}) == 3);
  CHECK(torchrun_prefix_length({"python", "-m", "torch.distributed.run"}) == 3);
  CHECK(torchrun_prefix_length({"python3", "train.py"}) == 0);
  CHECK(torchrun_prefix_length({"python3", "-m", "torch.distributed.launch"}) == 0);
  CHECK(torchrun_prefix_length({"torchrunner"}) == 0);
  CHECK(torchrun_prefix_length({}) == 0);
}

TEST_CASE("local torchrun: the interpreter of a script's #! line, and PATH lookup") {
  FakeTorchrun direct("#!/usr/bin/python3.11\nimport sys\n");
  CHECK(script_interpreter(direct.dir() + "/torchrun") == "/usr/bin/python3.11");
  CHECK(find_on_path("torchrun", "/nonexistent:" + direct.dir()) == direct.dir() + "/torchrun");
  CHECK(find_on_path("torchrun", "/nonexistent") == "");
  FakeTorchrun via_env("#!/usr/bin/env python3 -u\n");
  CHECK(script_interpreter(via_env.dir() + "/torchrun") == "python3");
  FakeTorchrun binary(
      "\x7f"
      "ELF");
  CHECK(script_interpreter(binary.dir() + "/torchrun") == "");
  CHECK(script_interpreter("/nonexistent/torchrun") == "");
}

TEST_CASE("local torchrun: --launcher builtin rewrites the command, host leaves it") {
  FakeTorchrun host("#!/usr/bin/python3.11\n");
  std::vector<std::string> argv = {"torchrun", "--nproc_per_node=2", "/w/a.py", "--lr", "1"};
  Choice builtin =
      choose(plan_with(argv, host.dir()), TorchrunLauncher::kBuiltin, "/b/trainjob-trainer");
  REQUIRE(builtin.ok);
  CHECK(builtin.argv == std::vector<std::string>{"/b/trainjob-trainer", "--python",
                                                 "/usr/bin/python3.11", "--nproc_per_node=2",
                                                 "/w/a.py", "--lr", "1"});
  CHECK(builtin.said ==
        "torchrun: the builtin launcher /b/trainjob-trainer, as --launcher builtin asks\n");
  Choice module = choose(plan_with({"python3", "-m", "torch.distributed.run", "a.py"}, ""),
                         TorchrunLauncher::kBuiltin, "/b/trainjob-trainer");
  CHECK(module.argv ==
        std::vector<std::string>{"/b/trainjob-trainer", "--python", "python3", "a.py"});
  Choice as_written = choose(plan_with(argv, host.dir()), TorchrunLauncher::kHost, "/b/t");
  CHECK(as_written.argv == argv);
  Choice none = choose(plan_with(argv, host.dir()), TorchrunLauncher::kBuiltin, "");
  CHECK_FALSE(none.ok);
  CHECK(none.error.find("--launcher builtin: no trainjob-trainer is built") == 0);
}

TEST_CASE("local torchrun: auto keeps a host torchrun whose trial launch succeeds") {
  FakeTorchrun works(
      "#!/bin/sh\n[ \"$1\" = --nproc_per_node ] && [ \"$2\" = 1 ] && exit 0\nexit 9\n");
  std::vector<std::string> argv = {"torchrun", "a.py"};
  Choice choice = choose(plan_with(argv, works.dir()), TorchrunLauncher::kAuto, "/b/t");
  REQUIRE(choice.ok);
  CHECK(choice.argv == argv);
  CHECK(choice.said.find("torchrun: the host's torchrun, which passed a trial launch "
                         "(torchrun --nproc_per_node 1 --nnodes 1") == 0);
  // Said once for both containers: one trial per torchrun.
  CHECK(choice.said.find('\n') == choice.said.size() - 1);
}

TEST_CASE("local torchrun: auto runs the builtin when the host's trial launch fails") {
  FakeTorchrun broken(
      "#!/bin/sh\necho usage fine\necho \"AttributeError: 'NoneType' object has no attribute "
      "'get'\" >&2\nexit 1\n");
  Choice choice = choose(plan_with({"torchrun", "a.py"}, broken.dir()), TorchrunLauncher::kAuto,
                         "/b/trainjob-trainer");
  REQUIRE(choice.ok);
  CHECK(choice.argv ==
        std::vector<std::string>{"/b/trainjob-trainer", "--python", "python3", "a.py"});
  CHECK(choice.said.find("torchrun: the builtin launcher /b/trainjob-trainer, as the host's "
                         "failed a trial launch (torchrun --nproc_per_node 1") == 0);
  CHECK(choice.said.find("): exit status 1: AttributeError: 'NoneType' object has no "
                         "attribute 'get'\n") != std::string::npos);
  // No torchrun at all on PATH: the trial cannot start it either.
  Choice missing = choose(plan_with({"/nonexistent/torchrun", "a.py"}, ""), TorchrunLauncher::kAuto,
                          "/b/trainjob-trainer");
  CHECK(missing.argv.front() == "/b/trainjob-trainer");
  CHECK(missing.said.find("exit status 127: kubectl-trainjob: cannot run /nonexistent/torchrun") !=
        std::string::npos);
}

TEST_CASE("local torchrun: a trial that hangs is stopped at its time-out") {
  FakeTorchrun hangs("#!/bin/sh\nsleep 600\n");
  LocalPlan plan = plan_with({"torchrun", "a.py"}, hangs.dir());
  TorchrunSettings settings;
  settings.trainer = "/b/t";
  settings.trial_timeout_s = 0.5;
  std::FILE* log = std::tmpfile();
  settings.log = log;
  std::string error;
  REQUIRE(choose_torchrun_launcher(&plan, settings, &error));
  std::rewind(log);
  char line[512] = {};
  CHECK(std::fgets(line, sizeof line, log) != nullptr);
  std::fclose(log);
  CHECK(std::string(line).find(": no answer in 0.5 s\n") != std::string::npos);
  CHECK(plan.stages[0][0].containers[0].argv.front() == "/b/t");
}

}  // namespace trainjob
