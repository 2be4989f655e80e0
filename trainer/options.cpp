#include "options.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace trainjob::trainer {
namespace {

// Each setter stores a value or returns what was expected.
using Setter = std::function<std::string(Options&, const std::string&)>;

struct Setting {
  const char* flag;  // without the leading dashes
  const char* env;
  const char* metavar;
  const char* help;
  Setter set;
};

std::optional<long long> parse_integer(const std::string& text) {
  if (text.empty()) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  long long value = std::strtoll(text.c_str(), &end, 10);
  if (errno != 0 || *end != '\0') return std::nullopt;
  return value;
}

std::optional<double> parse_number(const std::string& text) {
  if (text.empty()) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (errno != 0 || *end != '\0' || !(value == value)) return std::nullopt;
  return value;
}

Setter integer_at_least(int Options::*field, long long minimum) {
  return [field, minimum](Options& options, const std::string& text) -> std::string {
    auto value = parse_integer(text);
    if (!value || *value < minimum || *value > 1'000'000'000) {
      return "expected an integer ≥ " + std::to_string(minimum) + ", found \"" + text + "\"";
    }
    options.*field = static_cast<int>(*value);
    return "";
  };
}

Setter positive_number(double Options::*field) {
  return [field](Options& options, const std::string& text) -> std::string {
    auto value = parse_number(text);
    if (!value || *value <= 0) return "expected a number > 0, found \"" + text + "\"";
    options.*field = *value;
    return "";
  };
}

Setter one_of(std::string Options::*field, std::vector<std::string> choices) {
  return [field, choices = std::move(choices)](Options& options,
                                               const std::string& text) -> std::string {
    std::string list;
    for (const auto& choice : choices) {
      if (choice == text) {
        options.*field = text;
        return "";
      }
      list += (list.empty() ? "" : ", ") + choice;
    }
    return "expected one of " + list + ", found \"" + text + "\"";
  };
}

Setter any_text(std::string Options::*field) {
  return [field](Options& options, const std::string& text) -> std::string {
    options.*field = text;
    return "";
  };
}

// torchrun accepts "N" or "MIN:MAX"; a static job has MIN == MAX.
std::string set_nnodes(Options& options, const std::string& text) {
  auto colon = text.find(':');
  auto first = parse_integer(text.substr(0, colon));
  auto last = colon == std::string::npos ? first : parse_integer(text.substr(colon + 1));
  if (!first || !last || *first < 1 || *first > 100'000) {
    return "expected an integer ≥ 1 (or N:N), found \"" + text + "\"";
  }
  if (*first != *last) {
    return "elastic ranges are not supported; expected a fixed count such as 2 or 2:2, found \"" +
           text + "\"";
  }
  options.nnodes = static_cast<int>(*first);
  return "";
}

std::string set_nproc(Options& options, const std::string& text) {
  auto resolved = resolve_nproc(text, 1, 1);
  if (!resolved.error.empty()) return resolved.error;
  options.nproc_per_node = text;
  return "";
}

std::string set_port(Options& options, const std::string& text) {
  auto value = parse_integer(text);
  if (!value || *value < 1 || *value > 65535) {
    return "expected a port number 1–65535, found \"" + text + "\"";
  }
  options.master_port = static_cast<int>(*value);
  return "";
}

std::string set_seed(Options& options, const std::string& text) {
  auto value = parse_integer(text);
  if (!value || *value < 0) return "expected an integer ≥ 0, found \"" + text + "\"";
  options.seed = static_cast<std::uint64_t>(*value);
  return "";
}

std::string set_ddp(Options& options, const std::string& text) {
  for (DdpMode mode : {DdpMode::bucketed, DdpMode::flat, DdpMode::none}) {
    if (text == ddp_mode_name(mode)) {
      options.ddp = mode;
      return "";
    }
  }
  return "expected one of bucketed, flat, none, found \"" + text + "\"";
}

std::string set_fail_at_step(Options& options, const std::string& text) {
  auto value = parse_integer(text);
  if (!value || *value < 0) return "expected an integer ≥ 0, found \"" + text + "\"";
  options.fail_at_step = static_cast<int>(*value);
  return "";
}

const std::vector<Setting>& settings() {
  static const std::vector<Setting> table = {
      {"nnodes", "PET_NNODES", "N", "number of nodes (pods); N or N:N [1]", set_nnodes},
      {"nproc-per-node", "PET_NPROC_PER_NODE", "N|auto|cpu|gpu",
       "workers on this node; auto: one per visible GPU, else per CPU [1]", set_nproc},
      {"node-rank", "PET_NODE_RANK", "N", "rank of this node, 0 … nnodes-1 [0]",
       integer_at_least(&Options::node_rank, 0)},
      {"master-addr", "PET_MASTER_ADDR", "HOST",
       "host of global rank 0, which serves the rendezvous store [127.0.0.1]",
       any_text(&Options::master_addr)},
      {"master-port", "PET_MASTER_PORT", "PORT", "port of the rendezvous store [29500]", set_port},
      {"max-restarts", "PET_MAX_RESTARTS", "N",
       "restarts of the local worker group after a worker fails [0]",
       integer_at_least(&Options::max_restarts, 0)},
      {"rdzv-timeout", "PET_RDZV_TIMEOUT", "SECONDS",
       "how long to wait for the master's name and port to answer [300]",
       positive_number(&Options::rdzv_timeout_s)},
      {"backend", "TRAINER_BACKEND", "auto|gloo|nccl",
       "collective backend; auto: nccl when built with it and a GPU is visible [auto]",
       one_of(&Options::backend, {"auto", "gloo", "nccl"})},
      {"local-allreduce", "TRAINER_LOCAL_ALLREDUCE", "shm|gloo",
       "how gloo workers sum when all are on one node: through shared memory, or gloo's "
       "loopback TCP; other groups always use gloo [shm]",
       one_of(&Options::local_allreduce, {"shm", "gloo"})},
      {"model", "TRAINER_MODEL", "linear|mnist-cnn",
       "linear: Linear(1,1) on y = 2x + noise; mnist-cnn: the MNIST CNN [linear]",
       one_of(&Options::model, {"linear", "mnist-cnn"})},
      {"epochs", "TRAINER_EPOCHS", "N", "training epochs [5]",
       integer_at_least(&Options::epochs, 1)},
      {"batch-size", "TRAINER_BATCH_SIZE", "N", "batch size per worker [linear 10, mnist-cnn 64]",
       integer_at_least(&Options::batch_size, 1)},
      {"lr", "TRAINER_LR", "RATE", "learning rate [linear: SGD 0.01, mnist-cnn: Adam 0.001]",
       positive_number(&Options::lr)},
      {"seed", "TRAINER_SEED", "N", "seed of data, initial parameters and shuffling [0]", set_seed},
      {"data-dir", "TRAINER_DATA_DIR", "DIR",
       "MNIST IDX files (train-images-idx3-ubyte, train-labels-idx1-ubyte, t10k-…); "
       "unset: synthetic data",
       any_text(&Options::data_dir)},
      {"samples", "TRAINER_SAMPLES", "N", "synthetic training samples [linear 100, mnist-cnn 4096]",
       integer_at_least(&Options::samples, 1)},
      {"test-samples", "TRAINER_TEST_SAMPLES", "N", "synthetic test samples, mnist-cnn [1024]",
       integer_at_least(&Options::test_samples, 1)},
      {"checkpoint-dir", "TRAINER_CHECKPOINT_DIR", "DIR",
       "rank 0 saves every epoch here; every rank resumes from the newest checkpoint",
       any_text(&Options::checkpoint_dir)},
      {"ddp", "TRAINER_DDP", "bucketed|flat|none",
       "gradient sync: buckets all-reduced during backward, one all-reduce after it, or none "
       "(a throughput ceiling, replicas drift) [bucketed]",
       set_ddp},
      {"bucket-cap-mb", "TRAINER_BUCKET_CAP_MB", "MIB",
       "size at which a gradient bucket closes; the first closes at 1 MiB, as in PyTorch [25]",
       positive_number(&Options::bucket_cap_mb)},
      {"threads", "TRAINER_THREADS", "N",
       "intra-op threads per worker [OMP_NUM_THREADS, else libtorch's default]",
       integer_at_least(&Options::threads, 1)},
      {"progress-steps", "TRAINER_PROGRESS_STEPS", "N",
       "rank 0 prints a TRAINJOB_PROGRESS line at every epoch's end and every N steps; 0: at "
       "epoch ends only [100]",
       integer_at_least(&Options::progress_steps, 0)},
      {"fail-at-step", "TRAINER_FAIL_AT_STEP", "N",
       "fault injection: worker --fail-rank exits with status 3 before global step N of the "
       "first attempt (restart tests)",
       set_fail_at_step},
      {"fail-rank", "TRAINER_FAIL_RANK", "RANK", "the worker --fail-at-step stops [0]",
       integer_at_least(&Options::fail_rank, 0)},
  };
  return table;
}

const Setting* find_setting(std::string name) {
  for (char& c : name) {
    if (c == '_') c = '-';
  }
  for (const auto& setting : settings()) {
    if (name == setting.flag) return &setting;
  }
  return nullptr;
}

}  // namespace

EnvLookup process_env() {
  return [](const std::string& name) -> std::optional<std::string> {
    const char* value = std::getenv(name.c_str());
    if (value == nullptr) return std::nullopt;
    return std::string(value);
  };
}

ParsedOptions parse_options(const std::vector<std::string>& args, const EnvLookup& env) {
  ParsedOptions parsed;
  // Environment first, then flags over it.
  for (const auto& setting : settings()) {
    auto value = env(setting.env);
    if (!value || value->empty()) continue;
    std::string problem = setting.set(parsed.options, *value);
    if (!problem.empty()) {
      parsed.error = std::string(setting.env) + ": " + problem;
      parsed.exit_code = 1;
      return parsed;
    }
  }
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "-h" || arg == "--help") {
      parsed.help = true;
      return parsed;
    }
    if (arg.rfind("--", 0) != 0 || arg.size() == 2) {
      parsed.error = "unexpected argument \"" + arg + "\"; see --help";
      parsed.exit_code = 2;
      return parsed;
    }
    auto equals = arg.find('=');
    std::string name = arg.substr(2, equals == std::string::npos ? std::string::npos : equals - 2);
    const Setting* setting = find_setting(name);
    if (setting == nullptr) {
      parsed.error = "unknown flag --" + name + "; see --help";
      parsed.exit_code = 2;
      return parsed;
    }
    std::string value;
    if (equals != std::string::npos) {
      value = arg.substr(equals + 1);
    } else if (i + 1 < args.size()) {
      value = args[++i];
    } else {
      parsed.error = "--" + std::string(setting->flag) + ": expected a value";
      parsed.exit_code = 2;
      return parsed;
    }
    std::string problem = setting->set(parsed.options, value);
    if (!problem.empty()) {
      parsed.error = "--" + std::string(setting->flag) + ": " + problem;
      parsed.exit_code = 2;
      return parsed;
    }
  }
  return parsed;
}

std::string help_text() {
  std::string text =
      "Usage: trainjob-trainer [--FLAG VALUE]...\n"
      "\n"
      "Data-parallel training with libtorch. Started with the PET_* variables of a Kubeflow\n"
      "TrainJob pod, it launches --nproc-per-node workers with the environment torchrun gives\n"
      "them (RANK, LOCAL_RANK, WORLD_SIZE, LOCAL_WORLD_SIZE, GROUP_RANK, MASTER_ADDR,\n"
      "MASTER_PORT, TORCHELASTIC_RESTART_COUNT, TORCHELASTIC_MAX_RESTARTS), restarts them up\n"
      "to --max-restarts times when one fails, and exits non-zero naming the failed rank.\n"
      "Started by torchrun (LOCAL_RANK set), it is the worker itself.\n"
      "\n"
      "Every flag may be given as its variable instead; the flag wins. Defaults in [ ].\n"
      "\n";
  for (const auto& setting : settings()) {
    std::string left = "  --" + std::string(setting.flag) + " " + setting.metavar;
    text += left + "\n      " + setting.help + "\n      env " + setting.env + "\n";
  }
  text +=
      "\n"
      "Also read: GLOO_SOCKET_IFNAME (network interface for gloo), OMP_NUM_THREADS,\n"
      "CUDA_VISIBLE_DEVICES; a worker reads RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR,\n"
      "MASTER_PORT, TORCHELASTIC_RESTART_COUNT and TORCHELASTIC_USE_AGENT_STORE.\n"
      "\n"
      "Exit status: 0 trained; 1 a failed worker, rendezvous or input; 2 a usage error.\n";
  return text;
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
    case DdpMode::bucketed:
      return "bucketed";
    case DdpMode::flat:
      return "flat";
    case DdpMode::none:
      return "none";
  }
  return "?";
}

}  // namespace trainjob::trainer
