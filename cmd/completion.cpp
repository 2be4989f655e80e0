// `kubectl trainjob completion SHELL` prints a completion script; the hidden
// `kubectl trainjob __complete WORDS...` answers it, and kubectl's plugin completion
// (through kubectl_complete-trainjob), in cobra's protocol.
#include "complete/completion.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "command.h"
#include "complete/cli_model.h"
#include "complete/shell_scripts.h"
#include "status/trainjob_names.h"

namespace trainjob {
namespace {

/// Completion runs at every TAB: a cluster that has not answered by then is left out.
constexpr double kClusterDeadlineSeconds = 5;
constexpr const char* kProgram = "kubectl-trainjob";

CliFlag flag_model(const CLI::Option& option) {
  CliFlag flag;
  if (!option.get_lnames().empty()) flag.long_name = option.get_lnames().front();
  if (!option.get_snames().empty()) flag.short_name = option.get_snames().front();
  flag.description = option.get_description();
  flag.takes_value = option.get_type_size() > 0;
  flag.value_optional = flag.takes_value && option.get_expected_min() == 0;
  flag.repeatable = option.get_expected_max() > 1 ||
                    option.get_multi_option_policy() != CLI::MultiOptionPolicy::Throw;
  split_type_name(option.get_type_name(), &flag.value_type, &flag.choices);
  return flag;
}

}  // namespace

CliCommand command_model(const CLI::App& app) {
  CliCommand command;
  command.name = app.get_name();
  command.description = app.get_description();
  command.hidden = app.get_group().empty();
  command.raw_words = app.get_prefix_command();
  for (const CLI::Option* option : app.get_options()) {
    if (option->nonpositional()) {
      command.flags.push_back(flag_model(*option));
    } else {
      CliPositional positional;
      positional.name = option->get_name();
      split_type_name(option->get_type_name(), &positional.value_type, &positional.choices);
      command.positionals.push_back(positional);
    }
  }
  std::function<bool(const CLI::App*)> named = [](const CLI::App* sub) {
    return !sub->get_name().empty();  // option groups are unnamed subcommands
  };
  for (const CLI::App* sub : app.get_subcommands(named))
    command.subcommands.push_back(command_model(*sub));
  return command;
}

namespace {

/// The connection the command being typed would make, from the cluster flags given.
ConnectionFlags connection_from(const GivenFlags& given) {
  auto value = [&](const char* name) {
    auto it = given.find(name);
    return it == given.end() ? std::string() : it->second;
  };
  ConnectionFlags flags;
  flags.kubeconfig = value("kubeconfig");
  flags.context = value("context");
  flags.cluster = value("cluster");
  flags.user = value("user");
  flags.name_space = value("namespace");
  return flags;
}

int run_complete(const CLI::App& root, const std::vector<std::string>& words) {
  bool looked_up = false;
  // One deadline for every lookup of this TAB (TrainJobs, then OptimizationJobs).
  auto start = std::chrono::steady_clock::now();
  ClusterLookup cluster = [&](const std::string& value_type,
                              const GivenFlags& given) -> std::vector<std::string> {
    ConnectionFlags flags = connection_from(given);
    if (value_type == "CONTEXT") return kubeconfig_context_names(flags);
    std::chrono::duration<double> spent = std::chrono::steady_clock::now() - start;
    double left = kClusterDeadlineSeconds - spent.count();
    if (left <= 0) return {};
    NameLookup lookup = value_type == "NAMESPACE" ? lookup_namespace_names(flags, left)
                        : value_type == "OPTIMIZATIONJOB"
                            ? lookup_optimization_job_names(flags, left)
                            : lookup_trainjob_names(flags, left);
    looked_up = true;
    return lookup.names;
  };
  std::string text = format_cobra(complete_words(command_model(root), words, cluster));
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
  // The request's thread may still be running (abandoned at the deadline) or tearing down its
  // connection: end without waiting for it, or racing it through the exit handlers.
  if (looked_up) std::_Exit(kExitOk);
  return kExitOk;
}

}  // namespace

CommandRunner declare_complete(CLI::App* app) {
  app->group("");  // hidden from help and from completion itself
  app->set_help_flag();
  // Every word after `__complete` is the line being completed, flags included.
  app->prefix_command();
  app->allow_extras();
  return [app] { return run_complete(*app->get_parent(), app->remaining()); };
}

CommandRunner declare_completion(CLI::App* app) {
  auto shell = std::make_shared<std::string>();
  app->footer(
      "Bash: source <(kubectl-trainjob completion bash). "
      "For `kubectl trainjob <TAB>`, install kubectl_complete-trainjob beside the "
      "plugin (cmake --install does). See docs/install.md.");
  app->add_option("SHELL", *shell, "The shell to write the script for")
      ->required()
      ->check(CLI::IsMember(completion_shells()));
  return [shell] {
    std::string script = completion_script(*shell, kProgram).value_or("");
    std::fwrite(script.data(), 1, script.size(), stdout);
    return static_cast<int>(kExitOk);
  };
}

}  // namespace trainjob
