#include "settings/option_table.h"

#include <cerrno>
#include <cstdlib>
#include <optional>
#include <utility>

namespace trainjob::trainer {

std::optional<long long> parse_integer(const std::string& text) {
  if (text.empty()) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  long long value = std::strtoll(text.c_str(), &end, 10);
  if (errno != 0 || *end != '\0') return std::nullopt;
  return value;
}

namespace {

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
        if (field != nullptr) options.*field = text;
        return "";
      }
      list += (list.empty() ? "" : ", ") + choice;
    }
    return "expected one of " + list + ", found \"" + text + "\"";
  };
}

Setter any_text(std::string Options::*field) {
  return [field](Options& options, const std::string& text) -> std::string {
    if (field != nullptr) options.*field = text;
    return "";
  };
}

/// torchrun accepts "N" or "MIN:MAX"; a static job has MIN == MAX.
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
  options.seed = static_cast<uint64_t>(*value);
  return "";
}

std::string set_ddp(Options& options, const std::string& text) {
  for (DdpMode mode : {DdpMode::kBucketed, DdpMode::kFlat, DdpMode::kNone}) {
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

bool is_stream_code(const std::string& text) {
  return text.size() == 1 && text[0] >= '0' && text[0] <= '3';
}

/// torchrun's --redirects/--tee: 0-3 for every local rank, or RANK:N,... per rank.
bool valid_std_streams(const std::string& text) {
  if (is_stream_code(text)) return true;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = std::min(text.find(',', start), text.size());
    std::string item = text.substr(start, comma - start);
    size_t colon = item.find(':');
    auto rank = parse_integer(item.substr(0, colon));
    if (colon == std::string::npos || !rank || *rank < 0 || !is_stream_code(item.substr(colon + 1)))
      return false;
    start = comma + 1;
  }
  return true;
}

Setter std_streams(std::string Options::*field) {
  return [field](Options& options, const std::string& text) -> std::string {
    if (!valid_std_streams(text)) {
      return "expected 0-3 or LOCAL_RANK:0-3,..., found \"" + text + "\"";
    }
    options.*field = text;
    return "";
  };
}

/// HOST or HOST:PORT, as torchrun's --rdzv-endpoint.
std::string set_rdzv_endpoint(Options& options, const std::string& text) {
  size_t colon = text.rfind(':');
  if (colon != std::string::npos && text.find(']', colon) == std::string::npos) {
    auto port = parse_integer(text.substr(colon + 1));
    if (colon == 0 || !port || *port < 1 || *port > 65535) {
      return "expected HOST or HOST:PORT (port 1–65535), found \"" + text + "\"";
    }
  }
  options.rdzv_endpoint = text;
  return "";
}

}  // namespace

// One row a setting, read as a table: a function only in form, so the size check leaves it.
// NOLINTNEXTLINE(readability-function-size)
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
      {"rdzv-backend", "PET_RDZV_BACKEND", "static|c10d",
       "torchrun's rendezvous; c10d runs as static, at --rdzv-endpoint [static]",
       one_of(&Options::rdzv_backend, {"static", "c10d"})},
      {"rdzv-endpoint", "PET_RDZV_ENDPOINT", "HOST[:PORT]",
       "the rendezvous store instead of --master-addr/--master-port (c10d's port: 29400)",
       set_rdzv_endpoint},
      {"rdzv-id", "PET_RDZV_ID", "ID", "the job's id, TORCHELASTIC_RUN_ID of the workers [none]",
       any_text(&Options::rdzv_id)},
      {"rdzv-conf", "PET_RDZV_CONF", "K=V,...", "accepted for torchrun, not used",
       any_text(nullptr)},
      {"role", "PET_ROLE", "NAME", "the workers' ROLE_NAME [default]", any_text(&Options::role)},
      {"redirects", "PET_REDIRECTS", "0-3|RANK:0-3,...",
       "accepted for torchrun; workers write to the launcher's stdout and stderr [0]",
       std_streams(&Options::redirects), "-r"},
      {"tee", "PET_TEE", "0-3|RANK:0-3,...", "accepted for torchrun, as --redirects [0]",
       std_streams(&Options::tee), "-t"},
      {"log-dir", "PET_LOG_DIR", "DIR", "accepted for torchrun, not used", any_text(nullptr)},
      {"start-method", "PET_START_METHOD", "spawn|fork|forkserver",
       "accepted for torchrun; workers are always started with fork and exec",
       one_of(nullptr, {"spawn", "fork", "forkserver"})},
      {"monitor-interval", "PET_MONITOR_INTERVAL", "SECONDS", "accepted for torchrun, not used",
       any_text(nullptr)},
      {"python", "TRAINER_PYTHON", "PROGRAM",
       "the Python that runs SCRIPT (torchrun uses its own) [python3]", any_text(&Options::python)},
      {"rdzv-timeout", "PET_RDZV_TIMEOUT", "SECONDS",
       "how long to wait for the master's name and port to answer [300]",
       positive_number(&Options::rdzv_timeout_s)},
      {"backend", "TRAINER_BACKEND", "auto|gloo|nccl",
       "collective backend; auto: nccl when built with it and a GPU is visible [auto]",
       one_of(&Options::backend, {"auto", "gloo", "nccl"})},
      {"device", "TRAINER_DEVICE", "auto|cpu|cuda",
       "where workers train; auto: the GPU of each local rank with nccl, the CPU with gloo; "
       "cuda with gloo: local ranks share the GPUs [auto]",
       one_of(&Options::device, {"auto", "cpu", "cuda"})},
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

const std::vector<Switch>& switches() {
  static const std::vector<Switch> table = {
      {"--standalone", "PET_STANDALONE",
       "one node on loopback with a free port; overrides --nnodes, --master-addr/-port",
       &Options::standalone},
      {"-m,--module", nullptr, "SCRIPT is a module, run as python3 -m", &Options::module},
      {"--no-python,--no_python", nullptr, "SCRIPT is a program, run as it is (not by Python)",
       &Options::no_python},
  };
  return table;
}

}  // namespace trainjob::trainer
