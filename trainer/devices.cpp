#include "devices.h"

#include <cstdlib>
#include <filesystem>
#include <sched.h>

namespace trainjob::trainer {

int count_cuda_visible_devices(const std::string& value) {
  int count = 0;
  size_t start = 0;
  while (start <= value.size()) {
    size_t comma = value.find(',', start);
    std::string entry = value.substr(start, comma == std::string::npos ? comma : comma - start);
    // CUDA stops at the first invalid entry; -1 is the conventional "none".
    if (entry.empty() || entry.rfind("-1", 0) == 0) break;
    ++count;
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return count;
}

int visible_gpu_count() {
  if (const char* visible = std::getenv("CUDA_VISIBLE_DEVICES")) {
    return count_cuda_visible_devices(visible);
  }
  int count = 0;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator("/dev", error)) {
    std::string name = entry.path().filename().string();
    if (name.size() > 6 && name.rfind("nvidia", 0) == 0 &&
        name.find_first_not_of("0123456789", 6) == std::string::npos) {
      ++count;
    }
  }
  return count;
}

int usable_cpu_count() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return 1;
  int count = CPU_COUNT(&set);
  return count > 0 ? count : 1;
}

}  // namespace trainjob::trainer
