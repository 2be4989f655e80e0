// Completion of a partly typed command line, answered in cobra's `__complete` protocol (the
// one kubectl uses for plugins): one candidate per line, `value\tdescription`, then
// `:<directive>`.
#ifndef TRAINJOB_COMPLETE_COMPLETION_H_
#define TRAINJOB_COMPLETE_COMPLETION_H_

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "complete/cli_model.h"

namespace trainjob {

/// cobra's ShellCompDirective bits: what the shell does besides offering the candidates.
enum CompletionDirective : unsigned {
  kDirectiveDefault = 0,        ///< the shell may offer file names too
  kDirectiveError = 1,          ///< nothing can be completed here
  kDirectiveNoSpace = 2,        ///< no space after the completed word
  kDirectiveNoFileComp = 4,     ///< no file names
  kDirectiveFilterFileExt = 8,  ///< the candidates are file extensions to offer files by
  kDirectiveFilterDirs = 16,    ///< offer directories only
  kDirectiveKeepOrder = 32,     ///< keep the candidates' order
};

struct Candidate {
  std::string value;
  std::string description;
};

struct Completion {
  std::vector<Candidate> candidates;
  unsigned directive = kDirectiveNoFileComp;
};

/// The flags given on the line so far, by long name ("namespace" -> "team-a"): a cluster
/// lookup connects as the command being typed would.
using GivenFlags = std::map<std::string, std::string>;

/// Values only a cluster or the kubeconfig knows (value types "TRAINJOB", "NAMESPACE",
/// "CONTEXT"); called only when such a value is being completed. Returns no names on any
/// failure.
using ClusterLookup =
    std::function<std::vector<std::string>(const std::string& value_type, const GivenFlags& given)>;

/// Completes the last of `args` (the word under the cursor, possibly empty) after the
/// others, the words typed after the program's name: subcommands, flags of the command
/// they name, a flag's value, or a positional argument.
Completion complete_words(const CliCommand& root, const std::vector<std::string>& args,
                          const ClusterLookup& cluster);

/// The `__complete` answer: candidates, then `:directive`, each on its own line.
std::string format_cobra(const Completion& completion);

}  // namespace trainjob

#endif  // TRAINJOB_COMPLETE_COMPLETION_H_
