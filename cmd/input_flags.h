// The input flags of every command that reads TrainJobs (render, validate, run, submit),
// declared once.
#ifndef TRAINJOB_CMD_INPUT_FLAGS_H_
#define TRAINJOB_CMD_INPUT_FLAGS_H_

#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "load/input_files.h"
#include "pipeline/render_pipeline.h"

namespace trainjob {

struct InputFlags {
  InputOptions inputs;
  std::string runtimes_dir;
  std::string trainer_version;
  std::string name_space;
  bool gang = false;  ///< --gang
  int64_t trial = 0;  ///< `--trial K` of an OptimizationJob; 0: every trial
  int64_t seed = 0;
  const CLI::Option* seed_option = nullptr;  ///< whether --seed was given; null: not declared
};

/// Declares -f and -R into `inputs`; `what` ends the help of -f ("TrainJob files ...").
void add_file_flags(CLI::App* app, InputOptions* inputs, const std::string& what);
/// Declares -f, -R, --runtimes, --trainer-version and, with `declare_namespace`, -n on
/// `app` (the cluster commands take -n from their connection flags).
void add_input_flags(CLI::App* app, InputFlags* flags, bool declare_namespace = true);
/// Declares --trial and --seed (of render, run and submit: the trials of an OptimizationJob);
/// `seed_help` ends the help of --seed (what happens without one).
void add_sweep_flags(CLI::App* app, InputFlags* flags, const std::string& trial_help,
                     const std::string& seed_help);
/// add_input_flags, then --gang: the inputs of render, validate and submit, whose Jobs meet
/// a scheduler (`run --local` starts every pod at once).
void add_input_and_gang_flags(CLI::App* app, InputFlags* flags, bool declare_namespace = true);
/// Declares --from-file (of run and submit; see render/config_map_files.h).
void add_from_file_flag(CLI::App* app, std::vector<std::string>* paths);
/// The request the flags describe; nullopt (after printing a usage error) when a value is
/// not understood.
std::optional<RenderRequest> make_request(const InputFlags& flags);
/// Standard input, read whole.
std::string read_all_stdin();
/// Hands `result` over to the end of the process instead of freeing it: the system takes
/// the memory back at once, while freeing thousands of documents node by node takes a
/// good part of the time it took to check them. It stays reachable, so leak checkers do
/// not count it.
void keep_until_exit(RenderResult result);

}  // namespace trainjob

#endif  // TRAINJOB_CMD_INPUT_FLAGS_H_
