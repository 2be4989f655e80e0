#include "launch/worker_identity.h"

#include <cerrno>
#include <cstdlib>

namespace trainjob::trainer {
namespace {

bool read_int(const EnvLookup& env, const char* name, long long minimum, long long maximum,
              const long long* fallback, int* out, std::string* error) {
  auto text = env(name);
  if (!text || text->empty()) {
    if (fallback != nullptr) {
      *out = static_cast<int>(*fallback);
      return true;
    }
    *error = std::string(name) + " is not set; start workers with trainjob-trainer or torchrun";
    return false;
  }
  errno = 0;
  char* end = nullptr;
  long long value = std::strtoll(text->c_str(), &end, 10);
  if (errno != 0 || *end != '\0' || value < minimum || value > maximum) {
    *error = std::string(name) + ": expected an integer " + std::to_string(minimum) + " … " +
             std::to_string(maximum) + ", found \"" + *text + "\"";
    return false;
  }
  *out = static_cast<int>(value);
  return true;
}

}  // namespace

bool read_worker_identity(const EnvLookup& env, WorkerIdentity* identity, std::string* error) {
  const long long zero = 0;
  const long long one = 1;
  const long long default_port = 29500;
  if (!read_int(env, "WORLD_SIZE", 1, 1'000'000, nullptr, &identity->world_size, error) ||
      !read_int(env, "RANK", 0, identity->world_size - 1, nullptr, &identity->rank, error) ||
      !read_int(env, "LOCAL_RANK", 0, identity->world_size - 1, &zero, &identity->local_rank,
                error) ||
      !read_int(env, "LOCAL_WORLD_SIZE", 1, identity->world_size, &one, &identity->local_world_size,
                error) ||
      !read_int(env, "MASTER_PORT", 1, 65535, &default_port, &identity->master_port, error) ||
      !read_int(env, "TORCHELASTIC_RESTART_COUNT", 0, 1'000'000, &zero, &identity->attempt,
                error)) {
    return false;
  }
  identity->master_addr = env("MASTER_ADDR").value_or("127.0.0.1");
  if (identity->master_addr.empty()) identity->master_addr = "127.0.0.1";
  identity->agent_store = env("TORCHELASTIC_USE_AGENT_STORE").value_or("") == "True";
  return true;
}

std::string attempt_key_prefix(int attempt) {
  return "/worker/attempt_" + std::to_string(attempt);
}

}  // namespace trainjob::trainer
