// The command table: one entry per subcommand drives dispatch, help and completion.
#ifndef TRAINJOB_CMD_COMMAND_H_
#define TRAINJOB_CMD_COMMAND_H_

#include <functional>
#include <vector>

#include <CLI/CLI.hpp>

#include "complete/cli_model.h"
#include "diag/diagnostic.h"

namespace trainjob {

/// Exit codes, as kubectl uses them.
enum ExitCode { kExitOk = 0, kExitFailure = 1, kExitUsage = 2 };

/// Runs a parsed command and returns its exit code.
using CommandRunner = std::function<int()>;

struct CommandSpec {
  const char* name;
  const char* summary;
  /// Declares the command's options on `app` and returns what runs it once they are parsed.
  CommandRunner (*declare)(CLI::App* app);
};

const std::vector<CommandSpec>& command_table();

CommandRunner declare_convert(CLI::App* app);
CommandRunner declare_init(CLI::App* app);
CommandRunner declare_krm(CLI::App* app);
CommandRunner declare_render(CLI::App* app);
CommandRunner declare_run(CLI::App* app);
CommandRunner declare_runtimes(CLI::App* app);
CommandRunner declare_validate(CLI::App* app);
CommandRunner declare_version(CLI::App* app);
CommandRunner declare_submit(CLI::App* app);
CommandRunner declare_status(CLI::App* app);
CommandRunner declare_logs(CLI::App* app);
CommandRunner declare_delete(CLI::App* app);
CommandRunner declare_resume(CLI::App* app);
CommandRunner declare_suspend(CLI::App* app);
CommandRunner declare_list(CLI::App* app);
CommandRunner declare_wait(CLI::App* app);
CommandRunner declare_events(CLI::App* app);
CommandRunner declare_completion(CLI::App* app);
CommandRunner declare_complete(CLI::App* app);

/// The model of `app` and its subcommands, in declaration order: what completion offers and
/// how kubectl's flag spellings are read (complete/pflag_words.h).
CliCommand command_model(const CLI::App& app);

/// The plugin itself and the arguments it was started with, as a sweep's trials run it
/// again (`--trial K` added): set once by main.
std::vector<std::string>& command_line();

/// Prints the diagnostics to stderr, sorted; returns kExitFailure if any is an error.
int report_diagnostics(Diagnostics* diagnostics);
/// A usage error: message on stderr, exit code 2.
int usage_error(const std::string& message);

}  // namespace trainjob

#endif  // TRAINJOB_CMD_COMMAND_H_
