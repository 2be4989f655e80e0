#include "settings/options.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <utility>

#include <CLI/CLI.hpp>

#include "settings/option_table.h"

namespace trainjob::trainer {
namespace {

/// "--nproc-per-node,--nproc_per_node": torchrun's spelling beside ours.
std::string cli_names(const Setting& setting) {
  std::string dashed = std::string("--") + setting.flag;
  std::string names = setting.short_flag != nullptr ? std::string(setting.short_flag) + "," : "";
  names += dashed;
  std::string underscored = dashed;
  std::replace(underscored.begin() + 2, underscored.end(), '-', '_');
  if (underscored != dashed) names += "," + underscored;
  return names;
}

bool is_switch_value(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return text == "0" || text == "1" || text == "true" || text == "false";
}

/// A training setting's variable as an OptimizationJob's trial sets it: --batch-size reads
/// KUBEFLOW_TRAINER_OPT_BATCH_SIZE. Empty for the launcher's PET_* settings, which describe the
/// pod (its node rank, its master) rather than a hyperparameter a trial may vary.
std::string trial_variable(const Setting& setting) {
  if (std::string(setting.env).rfind("TRAINER_", 0) != 0) return "";
  std::string name = std::string(kTrialVariablePrefix) + setting.flag;
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) {
    return c == '-' ? '_' : static_cast<char>(std::toupper(c));
  });
  return name;
}

/// Applies one variable's value, if it is set and not empty; false with `*error` naming it.
bool apply_variable(const Setting& setting, const std::string& name, const EnvLookup& env,
                    Options* options, std::string* error) {
  std::optional<std::string> value = env(name);
  if (!value || value->empty()) return true;
  std::string problem = setting.set(*options, *value);
  if (problem.empty()) return true;
  *error = name + ": " + problem;
  return false;
}

/// The variables are applied before the flags, which then override them: the trial's
/// KUBEFLOW_TRAINER_OPT_* over the TrainJob's own TRAINER_*. Each is checked whether or not
/// something overrides it, and a bad one is reported as the variable (exit 1), since a pod's
/// env is fixed.
bool apply_environment(const EnvLookup& env, Options* options, std::string* error) {
  for (const Setting& setting : settings()) {
    if (!apply_variable(setting, setting.env, env, options, error)) return false;
    std::string trial = trial_variable(setting);
    if (!trial.empty() && !apply_variable(setting, trial, env, options, error)) return false;
  }
  for (const Switch& flag : switches()) {
    std::optional<std::string> value =
        flag.env != nullptr ? env(flag.env) : std::optional<std::string>();
    if (!value || value->empty() || is_switch_value(*value)) continue;
    *error = std::string(flag.env) + ": expected 1, 0, true or false, found \"" + *value + "\"";
    return false;
  }
  return true;
}

constexpr const char* kDescription =
    "Data-parallel training with libtorch, or a drop-in torchrun for a Python script.\n"
    "\n"
    "Started with the PET_* variables of a Kubeflow TrainJob pod, it launches "
    "--nproc-per-node workers with the environment torchrun gives them (RANK, LOCAL_RANK, "
    "WORLD_SIZE, LOCAL_WORLD_SIZE, GROUP_RANK, GROUP_WORLD_SIZE, ROLE_RANK, ROLE_NAME, "
    "ROLE_WORLD_SIZE, MASTER_ADDR, MASTER_PORT, TORCHELASTIC_RESTART_COUNT, "
    "TORCHELASTIC_MAX_RESTARTS, TORCHELASTIC_RUN_ID, TORCHELASTIC_USE_AGENT_STORE=False: "
    "global rank 0 hosts the store at MASTER_ADDR:MASTER_PORT), restarts them up to "
    "--max-restarts times when one fails, and exits non-zero naming the failed rank. The "
    "workers are trainjob-trainer-worker, or with SCRIPT `python3 -u SCRIPT ARGS...` "
    "(`python3 -u -m MODULE` with -m, SCRIPT itself with --no-python): torchrun's static "
    "rendezvous command line, every word after SCRIPT being the script's. Started by torchrun "
    "(LOCAL_RANK set) without SCRIPT, it is the worker itself.\n"
    "\n"
    "Every flag may be given as its variable instead (Env); the flag wins. A setting with a "
    "TRAINER_* variable may also be given as KUBEFLOW_TRAINER_OPT_<FLAG> (--batch-size: "
    "KUBEFLOW_TRAINER_OPT_BATCH_SIZE), as an OptimizationJob's trial sets it, which wins over "
    "the TRAINER_* variable: flag, then KUBEFLOW_TRAINER_OPT_*, then TRAINER_*, then the "
    "default.";

constexpr const char* kFooter =
    "Also read: GLOO_SOCKET_IFNAME (network interface for gloo), OMP_NUM_THREADS (set to 1 "
    "for the workers when unset and several share the node, as torchrun does), "
    "CUDA_VISIBLE_DEVICES, NCCL_ASYNC_ERROR_HANDLING (1 unless set); a worker reads RANK, "
    "WORLD_SIZE, LOCAL_RANK, MASTER_ADDR, MASTER_PORT, TORCHELASTIC_RESTART_COUNT and "
    "TORCHELASTIC_USE_AGENT_STORE.\n"
    "\n"
    "Exit status: 0 trained; 1 a failed worker, rendezvous or input (a bad variable); 2 a "
    "usage error (a bad flag).";

/// Declares every setting on `app`, storing into `options` as CLI11 runs the callbacks.
/// The variables are named for --help only: apply_environment reads them before the flags,
/// since CLI11 knows one variable per option and the trial's must win over the TrainJob's.
void declare(CLI::App* app, Options* options, bool name_variables) {
  app->description(kDescription);
  app->footer(kFooter);
  app->get_formatter()->column_width(36);
  for (const Setting& setting : settings()) {
    std::string name = std::string("--") + setting.flag;
    Setter set = setting.set;
    CLI::Option* option = app->add_option_function<std::string>(
        cli_names(setting),
        [options, name, set](const std::string& value) {
          std::string problem = set(*options, value);
          if (!problem.empty()) throw CLI::ValidationError(name, problem);
        },
        setting.help);
    option
        ->type_name(setting.metavar)
        // The last of a repeated flag wins, as in torchrun's argparse.
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    if (name_variables) option->envname(setting.env);
  }
  for (const Switch& flag : switches()) {
    CLI::Option* option = app->add_flag(flag.names, options->*flag.field, flag.help);
    if (flag.env != nullptr) option->envname(flag.env);
  }
  // SCRIPT and its words: CLI11 stops at the first word that is not one of ours
  // (prefix_command) and hands the rest back.
  app->prefix_command();
}

/// "--epochs: 1 required TEXT missing" -> "--epochs: expected a value".
std::string missing_value(const std::string& message) {
  return message.substr(0, message.find(':')) + ": expected a value";
}

/// Reads our flags from `flags` into `parsed->options`, leaving in `*rest` the words from the
/// first one that is not ours (SCRIPT and its words). False with `parsed->error` and
/// `exit_code` set on a usage error, and with `parsed->help` on --help.
bool parse_flags(const std::vector<std::string>& flags, ParsedOptions* parsed,
                 std::vector<std::string>* rest) {
  CLI::App app("trainjob-trainer", "trainjob-trainer");
  declare(&app, &parsed->options, false);
  // CLI11 takes the words last first.
  std::vector<std::string> reversed(flags.rbegin(), flags.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    parsed->help = true;
    return false;
  } catch (const CLI::ArgumentMismatch& e) {
    parsed->error = missing_value(e.what());
    parsed->exit_code = 2;
    return false;
  } catch (const CLI::ParseError& e) {
    parsed->error = e.what();
    parsed->exit_code = 2;
    return false;
  }
  *rest = app.remaining();
  if (!rest->empty() && rest->front().size() > 1 && rest->front()[0] == '-') {
    std::string name = rest->front().substr(0, rest->front().find('='));
    parsed->error = "unknown flag " + name + "; see --help";
    parsed->exit_code = 2;
    return false;
  }
  return true;
}

/// The words after our flags: SCRIPT and its own words. -m and --no-python need a SCRIPT
/// and exclude each other.
void take_script(const std::vector<std::string>& words, ParsedOptions* parsed) {
  Options& options = parsed->options;
  if (!words.empty()) {
    options.script = words.front();
    options.script_args.assign(words.begin() + 1, words.end());
  } else if (options.module || options.no_python) {
    parsed->error = std::string(options.module ? "-m" : "--no-python") +
                    ": expected a SCRIPT (or module) after the flags";
    parsed->exit_code = 2;
  }
  if (options.module && options.no_python) {
    parsed->error = "-m and --no-python exclude each other (as in torchrun)";
    parsed->exit_code = 2;
  }
}

}  // namespace

EnvLookup process_env() {
  return [](const std::string& name) -> std::optional<std::string> {
    const char* value = std::getenv(name.c_str());
    if (value == nullptr) return std::nullopt;
    return std::string(value);
  };
}

ParsedOptions parse_options(const std::vector<std::string>& args) {
  ParsedOptions parsed;
  if (!apply_environment(process_env(), &parsed.options, &parsed.error)) {
    parsed.exit_code = 1;
    return parsed;
  }
  // `--` ends our flags, as for torchrun's argparse: SCRIPT follows it, or, after SCRIPT,
  // it is one of the script's words.
  auto dashes = std::find(args.begin(), args.end(), "--");
  const std::vector<std::string> flags(args.begin(), dashes);
  std::vector<std::string> rest;
  if (!parse_flags(flags, &parsed, &rest)) return parsed;
  if (!rest.empty() && dashes != args.end()) rest.emplace_back("--");
  if (dashes != args.end()) rest.insert(rest.end(), dashes + 1, args.end());
  take_script(rest, &parsed);
  return parsed;
}

std::string help_text() {
  Options options;
  CLI::App app("", "trainjob-trainer");
  declare(&app, &options, true);
  app.description("");
  // CLI11 puts the description before the usage line; ours goes after it.
  std::string text = app.help();
  text = text.substr(text.find('\n', text.find("Usage:")) + 1);
  return "Usage: trainjob-trainer [OPTIONS] [-m|--no-python] [SCRIPT [SCRIPT-ARGS...]]\n\n" +
         std::string(kDescription) + "\n" + text;
}

ResolvedCount resolve_nproc(const std::string& value, int visible_gpus, int usable_cpus) {
  if (value == "cpu") return {std::max(1, usable_cpus), ""};
  if (value == "gpu") {
    if (visible_gpus < 1) return {0, "gpu: no GPU is visible on this node"};
    return {visible_gpus, ""};
  }
  if (value == "auto") return {visible_gpus > 0 ? visible_gpus : std::max(1, usable_cpus), ""};
  auto count = parse_integer(value);
  if (!count || *count < 1 || *count > 4096) {
    return {0, "expected an integer ≥ 1 or one of auto, cpu, gpu, found \"" + value + "\""};
  }
  return {static_cast<int>(*count), ""};
}

const char* ddp_mode_name(DdpMode mode) {
  switch (mode) {
    case DdpMode::kBucketed:
      return "bucketed";
    case DdpMode::kFlat:
      return "flat";
    case DdpMode::kNone:
      return "none";
  }
  return "?";
}

}  // namespace trainjob::trainer
