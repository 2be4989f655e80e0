#include <algorithm>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "complete/cli_model.h"
#include "complete/completion.h"
#include "complete/shell_scripts.h"
#include "complete/value_kinds.h"

using trainjob::Candidate;
using trainjob::CliCommand;
using trainjob::CliFlag;
using trainjob::ClusterLookup;
using trainjob::Completion;
using trainjob::GivenFlags;

namespace {

// A command line shaped like the plugin's, built by hand: the tests must not depend on
// which flags the real commands have today.
CliCommand test_root() {
  CliCommand render{"render", "Compile", false, {}, {}, {}};
  render.flags = {
      {"filename", "f", "Files", true, true, "PATH", {}},
      {"output", "o", "Output format", true, false, "TEXT", {"yaml", "json"}},
      {"trainer-version", "", "Release", true, false, "VERSION", {}},
      {"runtimes", "", "Runtimes", true, false, "DIR", {}},
      {"recursive", "R", "Walk", false, false, "", {}},
  };
  CliCommand status{"status", "Show", false, {}, {{"NAME", "TRAINJOB", {}}}, {}};
  status.flags = {{"namespace", "n", "Namespace", true, false, "NAMESPACE", {}},
                  {"kubeconfig", "", "Config", true, false, "PATH", {}},
                  {"context", "", "Context", true, false, "CONTEXT", {}}};
  CliCommand init{"init", "Start", false, {}, {{"NAME", "TEXT", {}}}, {}};
  init.flags = {{"runtime", "", "Runtime", true, false, "RUNTIME", {}},
                {"script", "", "Script", true, false, "FILE", {}}};
  CliCommand hidden{"__complete", "", true, {}, {}, {}};
  CliCommand root{"kubectl trainjob", "", false, {}, {}, {render, status, init, hidden}};
  root.flags = {{"help", "h", "Help", false, false, "", {}}};
  return root;
}

std::vector<std::string> values(const Completion& completion) {
  std::vector<std::string> out;
  for (const Candidate& candidate : completion.candidates)
    out.push_back(candidate.value);
  return out;
}

Completion complete(const std::vector<std::string>& args, const ClusterLookup& cluster = {}) {
  return trainjob::complete_words(test_root(), args, cluster);
}

using Names = std::vector<std::string>;

}  // namespace

TEST_CASE("completion: subcommands by prefix, hidden ones never") {
  CHECK(values(complete({""})) == Names{"render", "status", "init"});
  CHECK(values(complete({"re"})) == Names{"render"});
  CHECK(values(complete({"__"})).empty());
  CHECK(complete({""}).directive == trainjob::kDirectiveNoFileComp);
  CHECK(complete({""}).candidates[0].description == "Compile");
}

TEST_CASE("completion: flags of the command named, short forms before a second dash") {
  CHECK(values(complete({"render", "--o"})) == Names{"--output"});
  CHECK(values(complete({"render", "-"})) == Names{"--filename", "-f", "--output", "-o",
                                                   "--trainer-version", "--runtimes", "--recursive",
                                                   "-R"});
  CHECK(values(complete({"render", "--"})).size() == 5);
  // A flag already given is not offered again, unless it may repeat.
  Names after = values(complete({"render", "-o", "json", "-f", "a.yaml", "--"}));
  CHECK(std::find(after.begin(), after.end(), "--output") == after.end());
  CHECK(std::find(after.begin(), after.end(), "--filename") != after.end());
}

TEST_CASE("completion: flag values from the flag's set or its type") {
  CHECK(values(complete({"render", "-o", ""})) == Names{"yaml", "json"});
  CHECK(values(complete({"render", "--output", "j"})) == Names{"json"});
  CHECK(values(complete({"render", "--output=y"})) == Names{"yaml"});
  CHECK(values(complete({"render", "--trainer-version", "2."})) ==
        Names{"2.0", "2.1", "2.2", "2.3", "2.4"});
  Completion files = complete({"render", "-f", ""});
  CHECK(files.directive == trainjob::kDirectiveFilterFileExt);
  CHECK(values(files) == Names{"yaml", "yml", "json"});
  CHECK(complete({"render", "--runtimes", ""}).directive == trainjob::kDirectiveFilterDirs);
  CHECK(complete({"init", "x", "--script", ""}).directive == trainjob::kDirectiveDefault);
  // A boolean flag takes no value: the next word is a positional again.
  CHECK(complete({"render", "-R", ""}).directive == trainjob::kDirectiveNoFileComp);
}

TEST_CASE("completion: runtimes come from the embedded ones") {
  Names runtimes = values(complete({"init", "job", "--runtime", ""}));
  CHECK(std::find(runtimes.begin(), runtimes.end(), "torch-distributed") != runtimes.end());
  CHECK(std::is_sorted(runtimes.begin(), runtimes.end()));
  Names torch = values(complete({"init", "job", "--runtime", "torch-d"}));
  CHECK(torch == Names{"torch-distributed", "torch-distributed-with-cache"});
}

TEST_CASE("completion: TrainJob names are asked of the cluster with the flags given") {
  GivenFlags seen;
  int calls = 0;
  ClusterLookup cluster = [&](const std::string& type, const GivenFlags& given) {
    ++calls;
    seen = given;
    if (type == "OPTIMIZATIONJOB") return Names{"sweep"};
    CHECK(type == "TRAINJOB");
    return Names{"alpha", "beta", "other"};
  };
  // The OptimizationJobs follow the TrainJobs: status and delete take them by name alone.
  CHECK(values(complete({"status", "-n", "team", "--kubeconfig=/k", ""}, cluster)) ==
        Names{"alpha", "beta", "other", "sweep"});
  CHECK(seen == GivenFlags{{"namespace", "team"}, {"kubeconfig", "/k"}});
  CHECK(values(complete({"status", "-nteam", "b"}, cluster)) == Names{"beta"});
  CHECK(seen.at("namespace") == "team");
  // After a NAME (no TYPE word) nothing is left to complete, and the cluster is not asked.
  calls = 0;
  CHECK(values(complete({"status", "alpha", ""}, cluster)).empty());
  CHECK(values(complete({"status", "trainjob/alpha", ""}, cluster)).empty());
  CHECK(calls == 0);
  // kubectl's TYPE/NAME and TYPE NAME: the names of that kind's form.
  CHECK(values(complete({"status", "pytorchjob/"}, cluster)) ==
        Names{"pytorchjob/alpha", "pytorchjob/beta", "pytorchjob/other"});
  CHECK(values(complete({"status", "trainjobs/b"}, cluster)) == Names{"trainjobs/beta"});
  CHECK(values(complete({"status", "TrainJob", "o"}, cluster)) == Names{"other"});
  CHECK(values(complete({"status", "optimizationjob/"}, cluster)) ==
        Names{"optimizationjob/sweep"});
  CHECK(values(complete({"status", "optimizationjobs.trainer.kubeflow.org", ""}, cluster)) ==
        Names{"sweep"});
  // init's NAME is a new name: no lookup.
  calls = 0;
  CHECK(values(complete({"init", ""}, cluster)).empty());
  CHECK(calls == 0);
}

TEST_CASE("completion: -n asks for namespaces, --context for the kubeconfig's contexts") {
  std::vector<std::string> asked;
  ClusterLookup cluster = [&](const std::string& type, const GivenFlags&) {
    asked.push_back(type);
    return type == "NAMESPACE" ? Names{"default", "kube-system", "team-a"}
                               : Names{"prod", "staging"};
  };
  Completion namespaces = complete({"status", "-n", "t"}, cluster);
  CHECK(values(namespaces) == Names{"team-a"});
  CHECK(namespaces.directive == trainjob::kDirectiveNoFileComp);
  CHECK(values(complete({"status", "--namespace=k"}, cluster)) == Names{"kube-system"});
  CHECK(values(complete({"status", "--context", ""}, cluster)) == Names{"prod", "staging"});
  CHECK(asked == std::vector<std::string>{"NAMESPACE", "NAMESPACE", "CONTEXT"});
}

TEST_CASE("completion: the cobra answer format") {
  Completion completion;
  completion.candidates = {{"yaml", ""}, {"json", "JSON\nsecond line"}};
  completion.directive = trainjob::kDirectiveNoFileComp;
  CHECK(trainjob::format_cobra(completion) == "yaml\njson\tJSON\n:4\n");
  CHECK(trainjob::format_cobra(Completion{}) == ":4\n");
}

TEST_CASE("completion: CLI11 type names split into type and accepted values") {
  std::string type;
  Names choices;
  trainjob::split_type_name("TEXT:{yaml,json}", &type, &choices);
  CHECK(type == "TEXT");
  CHECK(choices == Names{"yaml", "json"});
  trainjob::split_type_name("PATH", &type, &choices);
  CHECK(type == "PATH");
  CHECK(choices.empty());
  trainjob::split_type_name("INT:INT in [1 - 9]", &type, &choices);
  CHECK(type == "INT");
  CHECK(choices.empty());
}

TEST_CASE("completion: a script per shell that calls the program's __complete") {
  for (const std::string& shell : trainjob::completion_shells()) {
    auto script = trainjob::completion_script(shell, "kubectl-trainjob");
    REQUIRE(script);
    CHECK(script->find("__complete") != std::string::npos);
    CHECK(script->find("kubectl_trainjob") != std::string::npos);
    CHECK(script->find("FUNC") == std::string::npos);
    CHECK(script->find("PROGRAM") == std::string::npos);
  }
  CHECK_FALSE(trainjob::completion_script("tcsh", "kubectl-trainjob"));
}
