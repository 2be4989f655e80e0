// The completion scripts `kubectl trainjob completion SHELL` prints: each asks the program
// itself (`PROGRAM __complete WORDS...`) and turns the answer's directive into the shell's
// own file and directory completion.
#ifndef TRAINJOB_COMPLETE_SHELL_SCRIPTS_H_
#define TRAINJOB_COMPLETE_SHELL_SCRIPTS_H_

#include <optional>
#include <string>
#include <vector>

namespace trainjob {

/// The shells a script exists for: bash, zsh, fish.
const std::vector<std::string>& completion_shells();

/// The script for `shell` completing the command `program` (kubectl-trainjob); nullopt for
/// a shell not in completion_shells().
std::optional<std::string> completion_script(const std::string& shell, const std::string& program);

}  // namespace trainjob

#endif  // TRAINJOB_COMPLETE_SHELL_SCRIPTS_H_
