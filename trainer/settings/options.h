// Settings of the trainer and its launcher, from flags and environment variables.
//
// Every setting has a flag and an environment variable; the flag wins. The launcher's
// settings read the PET_* variables the Kubeflow Trainer torch policy injects (the same
// names torchrun reads), the training settings read TRAINER_*. A script (or -m module)
// after the flags makes the launcher a drop-in torchrun: it starts Python workers instead
// of the C++ trainer, and every word after the script is the script's.
#ifndef TRAINJOB_TRAINER_SETTINGS_OPTIONS_H_
#define TRAINJOB_TRAINER_SETTINGS_OPTIONS_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace trainjob::trainer {

/// A trial of an OptimizationJob hands its values to the trainer as
/// KUBEFLOW_TRAINER_OPT_<FLAG, upper-cased, '-' as '_'>: KUBEFLOW_TRAINER_OPT_LR for --lr.
inline constexpr const char* kTrialVariablePrefix = "KUBEFLOW_TRAINER_OPT_";

/// How gradients are averaged (--ddp): in buckets during backward, in one all-reduce after
/// it, or not at all.
enum class DdpMode { kBucketed, kFlat, kNone };

/// Every setting with its default, as parse_options fills it in.
struct Options {
  // Launcher.
  int nnodes = 1;
  std::string nproc_per_node = "1";  ///< an integer, or auto / cpu / gpu (resolve_nproc)
  int node_rank = 0;
  std::string master_addr = "127.0.0.1";
  int master_port = 29500;
  int max_restarts = 0;
  double rdzv_timeout_s = 300;
  // torchrun's rendezvous words. Only a static rendezvous is run: c10d is taken as static
  // with --rdzv-endpoint as the master's address (it needs a fixed node count and rank).
  std::string rdzv_backend = "static";
  std::string rdzv_endpoint;  ///< HOST[:PORT]; empty: --master-addr and --master-port
  std::string rdzv_id = "none";
  bool standalone = false;  ///< one node on loopback, a free port
  std::string role = "default";
  // Accepted for torchrun's command line; workers write to the launcher's own streams.
  std::string redirects = "0";
  std::string tee = "0";
  // A Python script (or module) run by every worker instead of trainjob-trainer-worker.
  std::string script;  ///< empty: the C++ trainer
  std::vector<std::string> script_args;
  bool module = false;     ///< -m: script is a module name, run as python3 -m
  bool no_python = false;  ///< --no-python: script is an executable, run as it is
  std::string python = "python3";
  // Training.
  std::string backend = "auto";  ///< auto, gloo, nccl
  std::string device = "auto";   ///< auto, cpu, cuda (choose_placement)
  /// How gloo workers that all share one node sum: shm (shared memory) or gloo (loopback TCP).
  std::string local_allreduce = "shm";
  std::string model = "linear";  ///< linear, mnist-cnn
  int epochs = 5;
  int batch_size = 0;  ///< per rank; 0: the model's default
  double lr = 0;       ///< 0: the model's default
  uint64_t seed = 0;
  std::string data_dir;  ///< MNIST IDX files; empty: synthetic data
  int samples = 0;       ///< synthetic training samples; 0: the model's default
  int test_samples = 0;  ///< synthetic test samples (mnist-cnn); 0: the model's default
  std::string checkpoint_dir;
  DdpMode ddp = DdpMode::kBucketed;
  double bucket_cap_mb = 25;
  int threads = 0;        ///< intra-op threads per worker; 0: OMP_NUM_THREADS or 1
  int fail_at_step = -1;  ///< fault injection for tests: exit 3 at this global step, attempt 0
  int fail_rank = 0;
  int progress_steps = 100;  ///< rank 0 reports progress every N steps too (0: at epoch ends only)
};

/// Outcome of parsing: options, a request for --help, or an error with its exit code
/// (2 for a bad flag, 1 for a bad environment variable).
struct ParsedOptions {
  Options options;
  bool help = false;
  std::string error;
  int exit_code = 0;
};

/// A variable's value, or nullopt when it is unset; the unit tests pass their own.
using EnvLookup = std::function<std::optional<std::string>(const std::string&)>;

/// The process environment as an EnvLookup.
EnvLookup process_env();

/// `args` excludes argv[0]. Flags may be written --name value or --name=value, with '-' or
/// '_' between words (torchrun spells them --nproc_per_node). Variables are read from the
/// process environment before the flags, which override them; a training setting's
/// KUBEFLOW_TRAINER_OPT_* overrides its TRAINER_*. A bad variable is an error naming it even
/// where something overrides it.
ParsedOptions parse_options(const std::vector<std::string>& args);

/// The --help text: every flag with its variable and default.
std::string help_text();

/// A count of local workers, or the error that kept it from being resolved.
struct ResolvedCount {
  int count = 0;
  std::string error;
};

/// Number of local workers for a --nproc-per-node value: an integer as given; `cpu` the CPUs
/// this process may use; `gpu` the visible GPUs; `auto` GPUs when there are any, else CPUs.
/// Returns an error message instead when the value cannot be resolved.
ResolvedCount resolve_nproc(const std::string& value, int visible_gpus, int usable_cpus);

/// The --ddp spelling of `mode`.
const char* ddp_mode_name(DdpMode mode);

}  // namespace trainjob::trainer

#endif  // TRAINJOB_TRAINER_SETTINGS_OPTIONS_H_
