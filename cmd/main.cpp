// kubectl-trainjob: compiles Kubeflow TrainJobs into plain Kubernetes objects.
// As a kubectl plugin it is started as `kubectl trainjob ...` with the words after
// `trainjob` as arguments, so usage is written in that form.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "command.h"
#include "complete/kubectl_verbs.h"
#include "complete/pflag_words.h"
#include "output/diagnostic_report.h"
#include "util/shared_library.h"
#include "util/suggest.h"
#include "util/terminal.h"

namespace trainjob {

const std::vector<CommandSpec>& command_table() {
  static const std::vector<CommandSpec> table = {
      {"init", "Write a starting TrainJob (ConfigMap, host path or image mode)", declare_init},
      {"render", "Compile TrainJobs into Jobs and a headless Service (offline)", declare_render},
      {"validate", "Check TrainJobs and runtimes and report every problem (offline)",
       declare_validate},
      {"convert",
       "Turn Training Operator v1 kinds into TrainJobs, or move TrainJobs between Trainer "
       "releases (offline)",
       declare_convert},
      {"krm",
       "Render as a KRM function (kpt fn eval) or a kustomize exec transformer plugin "
       "(offline)",
       declare_krm},
      {"run", "Run a TrainJob's pods as processes on this machine (--local)", declare_run},
      {"runtimes", "List the runtimes compiled into this binary", declare_runtimes},
      {"submit", "Render a TrainJob and apply it to the cluster (server-side apply)",
       declare_submit},
      {"status", "Show a submitted TrainJob's phase and, per node, what its pod is doing",
       declare_status},
      {"logs", "Print or follow the logs of every pod of a TrainJob", declare_logs},
      {"delete", "Delete every object of a submitted TrainJob", declare_delete},
      {"suspend", "Suspend a submitted TrainJob's Jobs (their pods are deleted)", declare_suspend},
      {"resume", "Resume a suspended TrainJob's Jobs", declare_resume},
      {"list", "List the TrainJobs submitted to a namespace", declare_list},
      {"wait", "Wait for a TrainJob's condition (Complete, Failed), as kubectl wait", declare_wait},
      {"events", "Show the events of a TrainJob's Jobs and pods, oldest first", declare_events},
      {"version", "Print the version and the Trainer API versions understood", declare_version},
      {"completion", "Print a shell completion script (bash, zsh, fish)", declare_completion},
      // Hidden: answers completion scripts and kubectl's plugin completion.
      {"__complete", "Complete a command line (cobra's protocol)", declare_complete},
  };
  return table;
}

int report_diagnostics(Diagnostics* diagnostics) {
  return print_diagnostics(diagnostics, stderr) ? kExitOk : kExitFailure;
}

std::string& usage_command() {
  static std::string name;
  return name;
}

std::string help_hint() {
  std::string command = usage_command().empty() ? "" : usage_command() + " ";
  return "See 'kubectl trainjob " + command + "--help'.";
}

std::vector<std::string>& command_line() {
  static std::vector<std::string> words;
  return words;
}

int usage_error(const std::string& message) {
  std::fprintf(stderr, "%s %s\n%s\n", paint("error:", Tone::kError, color_enabled(stderr)).c_str(),
               message.c_str(), help_hint().c_str());
  return kExitUsage;
}

}  // namespace trainjob

namespace {

const trainjob::CommandSpec* find_command(const std::string& name) {
  for (const trainjob::CommandSpec& spec : trainjob::command_table())
    if (name == spec.name) return &spec;
  return nullptr;
}

/// CLI11's help, with a positional of a few words (NAME, TYPE/NAME or TYPE NAME) written
/// `NAME...` where CLI11 writes `NAME(1x)`.
class UsageFormatter : public CLI::Formatter {
 public:
  std::string make_option_usage(const CLI::Option* option) const override {
    int most = option->get_expected_max();
    if (most <= 1 || most >= CLI::detail::expected_max_vector_size)
      return CLI::Formatter::make_option_usage(option);
    std::string usage = make_option_name(option, true) + "...";
    return option->get_required() ? usage : "[" + usage + "]";
  }
};

/// cobra's answer to a misspelt command, as kubectl gives it.
int unknown_command(const std::string& word) {
  std::vector<std::string_view> names;
  for (const trainjob::CommandSpec& spec : trainjob::command_table())
    if (spec.name[0] != '_') names.emplace_back(spec.name);
  std::string suggestion = trainjob::closest_match(word, names);
  std::string message = "unknown command \"" + word + "\" for \"kubectl trainjob\"";
  std::string pointer = trainjob::kubectl_verb_pointer(word);  // kubectl's get, apply, ...
  if (!pointer.empty())
    message += "\n\nFor kubectl's " + word + ", " + pointer + "\n";
  else if (!suggestion.empty())
    message += "\n\nDid you mean this?\n\t" + suggestion + "\n";
  return trainjob::usage_error(message);
}

/// CLI11's parse errors in the style of every other usage error: `error: ...`, then where
/// the command's own help is.
int parse_error(const CLI::App& app, const CLI::ParseError& e) {
  // --help, --help-all and --version arrive as "errors" that print and exit 0.
  if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success))
    return app.exit(e) == 0 ? trainjob::kExitOk : trainjob::kExitUsage;
  std::string message = e.what();
  // CLI11 starts its sentences with a capital ("The following argument..."); kubectl's
  // errors do not. A flag or an argument's NAME keeps its spelling.
  if (message.size() > 1 && std::isupper(static_cast<unsigned char>(message[0])) &&
      std::islower(static_cast<unsigned char>(message[1])))
    message[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(message[0])));
  return trainjob::usage_error(message);
}

/// KUBECTL_TRAINJOB_PARSE_ONLY=1: the command line is read and the flags printed as read,
/// and nothing runs. tests/e2e/cli/flag_spellings_test.sh compares kubectl's spellings this way.
bool parse_only() {
  const char* value = std::getenv("KUBECTL_TRAINJOB_PARSE_ONLY");
  return value != nullptr && std::string(value) == "1";
}

int print_parsed(const CLI::App& command) {
  std::string text = command.config_to_str(false, false);
  std::fwrite(text.data(), 1, text.size(), stdout);
  return trainjob::kExitOk;
}

/// cobra's `help [COMMAND]`, which kubectl users type, as the --help it means.
std::vector<char*> help_words(int argc, char** argv) {
  std::vector<char*> words = {argv[0]};
  if (argc > 2) words.push_back(argv[2]);
  static char help_flag[] = "--help";
  words.push_back(help_flag);
  return words;
}

int run(int argc, char** argv) {
  using namespace trainjob;
  command_line().assign(argv, argv + argc);
  CLI::App app{"Compile and run Kubeflow TrainJobs on any Kubernetes cluster, no operator needed",
               "kubectl trainjob"};
  app.formatter(std::make_shared<UsageFormatter>());  // before the commands, which copy it
  app.require_subcommand(1);
  app.set_version_flag("--version", "kubectl-trainjob " TRAINJOB_VERSION);
  // Declaring every command's flags costs a third of `version`'s start-up, so when the
  // first word names a command only that one is declared; the others stay listed for help.
  // Completion walks the whole tree, and anything else (--help, a typo) gets all of it.
  std::vector<char*> help_argv;
  if (argc > 1 && std::string(argv[1]) == "help") {
    help_argv = help_words(argc, argv);
    argc = static_cast<int>(help_argv.size());
    argv = help_argv.data();
  }
  std::string named = argc > 1 ? argv[1] : "";
  if (argc > 1 && named[0] != '-' && find_command(named) == nullptr) return unknown_command(named);
  if (find_command(named) != nullptr) usage_command() = named;
  bool declare_all = named == "__complete" || named == "completion" ||
                     std::none_of(command_table().begin(), command_table().end(),
                                  [&](const CommandSpec& spec) { return spec.name == named; });
  std::vector<std::pair<CLI::App*, CommandRunner>> commands;
  for (const CommandSpec& spec : command_table()) {
    CLI::App* sub = app.add_subcommand(spec.name, spec.summary);
    if (declare_all || spec.name == named) commands.emplace_back(sub, spec.declare(sub));
  }
  // kubectl with no arguments prints its help and exits 0; so does kubectl trainjob.
  if (argc <= 1) {
    std::fputs(app.help().c_str(), stdout);
    return kExitOk;
  }
  // kubectl's spellings of flags (`-o=json`), read as pflag reads them; CLI11 takes the
  // words last first.
  std::vector<std::string> words = pflag_words(command_model(app), {argv + 1, argv + argc});
  std::reverse(words.begin(), words.end());
  try {
    app.parse(words);
  } catch (const CLI::ParseError& e) {
    return parse_error(app, e);
  }
  for (auto& [sub, command] : commands) {
    if (sub->parsed()) return parse_only() ? print_parsed(*sub) : command();
  }
  return kExitUsage;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const trainjob::MissingLibraryError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return trainjob::kExitFailure;
  } catch (const std::exception& e) {
    // Every expected failure is a diagnostic; this is a bug, but still no crash.
    std::fprintf(stderr, "error: internal error: %s\n", e.what());
    return trainjob::kExitFailure;
  }
}
