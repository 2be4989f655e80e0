#include "complete/completion.h"

#include <cctype>
#include <set>

#include "complete/value_kinds.h"
#include "util/text.h"

namespace trainjob {
namespace {

/// Where the words before the cursor leave the command line.
struct LineState {
  const CliCommand* command = nullptr;
  const CliFlag* pending = nullptr;  ///< a flag still waiting for its value
  size_t positionals = 0;            ///< positional words given to `command`
  std::string first_positional;      ///< the first of them (a TYPE, in `TYPE NAME`)
  bool options_ended = false;        ///< after `--`, every word is positional
  std::set<const CliFlag*> used;
  GivenFlags given;
};

/// The key a flag's value is remembered under: its long name, else its short one.
std::string flag_key(const CliFlag& flag) {
  return flag.long_name.empty() ? flag.short_name : flag.long_name;
}

/// `--name`, `--name=value`, `-n`, `-nvalue`, `-n=value` (kubectl users write -v=6).
void read_flag_word(const std::string& word, LineState* state) {
  const CliFlag* flag = nullptr;
  std::string value;
  bool has_value = false;
  if (starts_with(word, "--")) {
    size_t equals = word.find('=');
    flag = state->command->find_long(
        word.substr(2, equals == std::string::npos ? equals : equals - 2));
    has_value = equals != std::string::npos;
    if (has_value) value = word.substr(equals + 1);
  } else {
    flag = state->command->find_short(word.substr(1, 1));
    has_value = word.size() > 2;
    if (has_value) value = word.substr(word[2] == '=' ? 3 : 2);
  }
  if (flag == nullptr) return;  // unknown: the command will say so when it runs
  state->used.insert(flag);
  if (!flag->takes_value) return;
  if (has_value) {
    state->given[flag_key(*flag)] = value;
  } else {
    state->pending = flag;
  }
}

LineState read_words(const CliCommand& root, const std::vector<std::string>& words) {
  LineState state;
  state.command = &root;
  for (const std::string& word : words) {
    if (state.pending != nullptr) {
      state.given[flag_key(*state.pending)] = word;
      state.pending = nullptr;
    } else if (!state.options_ended && word == "--") {
      state.options_ended = true;
    } else if (!state.options_ended && word.size() > 1 && word[0] == '-') {
      read_flag_word(word, &state);
    } else if (const CliCommand* sub =
                   state.positionals == 0 ? state.command->find_subcommand(word) : nullptr) {
      // Flags of the parent stay given (none reach a cluster today), uses start afresh.
      state.command = sub;
      state.used.clear();
    } else {
      if (state.positionals++ == 0) state.first_positional = word;
    }
  }
  return state;
}

Completion complete_flags(const LineState& state, const std::string& word) {
  Completion completion;
  for (const CliFlag& flag : state.command->flags) {
    if (state.used.count(&flag) != 0 && !flag.repeatable) continue;
    if (!flag.long_name.empty() && starts_with("--" + flag.long_name, word))
      completion.candidates.push_back({"--" + flag.long_name, flag.description});
    // Short forms only before a second dash, as cobra offers them.
    if (!flag.short_name.empty() && !starts_with(word, "--") &&
        starts_with("-" + flag.short_name, word))
      completion.candidates.push_back({"-" + flag.short_name, flag.description});
  }
  return completion;
}

Completion complete_flag_value(const CliFlag& flag, const std::string& word, const LineState& state,
                               const ClusterLookup& cluster) {
  return complete_value(flag.value_type, flag.choices, word, state.given, cluster);
}

/// A TYPE word as its kind's lower-case singular ("PyTorchJobs.kubeflow.org" -> "pytorchjob");
/// empty when it names no kind the commands take (all of them, TrainJob to OptimizationJob,
/// end in "job"): then a first word was a NAME, and nothing follows it.
std::string kind_of_type_word(const std::string& word) {
  std::string kind = word.substr(0, word.find('.'));
  for (char& c : kind)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (!kind.empty() && kind.back() == 's') kind.pop_back();
  return ends_with(kind, "job") ? kind : "";
}

/// A TrainJob in kubectl's forms: NAME, TYPE/NAME or TYPE NAME. Of the OptimizationJob TYPE,
/// the OptimizationJobs; without a TYPE, they follow the TrainJobs (status and delete take
/// them by name alone).
Completion complete_target(const LineState& state, const std::string& word,
                           const ClusterLookup& cluster) {
  std::string type;
  std::string typed = word;  // the form's TYPE/ part is kept before each name
  size_t slash = word.find('/');
  std::string prefix;
  if (state.positionals == 1) {
    type = state.first_positional;
  } else if (slash != std::string::npos) {
    type = word.substr(0, slash);
    typed = word.substr(slash + 1);
    prefix = type + "/";
  }
  std::string kind = kind_of_type_word(type);
  Completion completion;
  if (!cluster || (!type.empty() && kind.empty())) return completion;
  std::vector<std::string> names;
  if (kind != "optimizationjob") names = cluster("TRAINJOB", state.given);
  if (kind.empty() || kind == "optimizationjob") {
    for (std::string& name : cluster("OPTIMIZATIONJOB", state.given))
      names.push_back(std::move(name));
  }
  for (const std::string& name : names)
    if (starts_with(name, typed)) completion.candidates.push_back({prefix + name, ""});
  return completion;
}

Completion complete_positional(const LineState& state, const std::string& word,
                               const ClusterLookup& cluster) {
  const CliCommand& command = *state.command;
  bool target = !command.positionals.empty() && command.positionals[0].value_type == "TRAINJOB";
  // TYPE NAME: the second word; a first word with '/' was TYPE/NAME, complete already.
  if (target && (state.positionals == 0 ||
                 (state.positionals == 1 && state.first_positional.find('/') == std::string::npos)))
    return complete_target(state, word, cluster);
  if (state.positionals == 0 && !command.subcommands.empty()) {
    Completion completion;
    for (const CliCommand& sub : command.subcommands)
      if (!sub.hidden && starts_with(sub.name, word))
        completion.candidates.push_back({sub.name, sub.description});
    return completion;
  }
  if (state.positionals < command.positionals.size()) {
    const CliPositional& positional = command.positionals[state.positionals];
    return complete_value(positional.value_type, positional.choices, word, state.given, cluster);
  }
  return Completion{};  // nothing more to give: no file names either
}

}  // namespace

Completion complete_words(const CliCommand& root, const std::vector<std::string>& args,
                          const ClusterLookup& cluster) {
  std::string word = args.empty() ? "" : args.back();
  std::vector<std::string> before(args.begin(), args.empty() ? args.end() : args.end() - 1);
  LineState state = read_words(root, before);
  if (state.pending != nullptr) return complete_flag_value(*state.pending, word, state, cluster);
  if (!state.options_ended && starts_with(word, "-")) {
    size_t equals = word.find('=');
    if (starts_with(word, "--") && equals != std::string::npos) {
      // `--output=y`: the value, as cobra does; the shell script keeps the `--output=` part.
      const CliFlag* flag = state.command->find_long(word.substr(2, equals - 2));
      if (flag == nullptr || !flag->takes_value) return Completion{};
      return complete_flag_value(*flag, word.substr(equals + 1), state, cluster);
    }
    return complete_flags(state, word);
  }
  return complete_positional(state, word, cluster);
}

std::string format_cobra(const Completion& completion) {
  std::string text;
  for (const Candidate& candidate : completion.candidates) {
    text += candidate.value;
    if (!candidate.description.empty()) {
      // One line per candidate: a description is cut at its first line break.
      text += '\t';
      text += candidate.description.substr(0, candidate.description.find('\n'));
    }
    text += '\n';
  }
  text += ':' + std::to_string(completion.directive) + '\n';
  return text;
}

}  // namespace trainjob
