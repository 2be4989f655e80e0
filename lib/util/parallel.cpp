#include "util/parallel.h"

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

namespace trainjob {
namespace {

constexpr size_t kMaxWorkers = 16;

}  // namespace

size_t worker_count(size_t count, size_t min_items) {
  size_t cores = std::max<size_t>(1, std::thread::hardware_concurrency());
  return std::max<size_t>(1,
                          std::min({cores, kMaxWorkers, count / std::max<size_t>(min_items, 1)}));
}

void parallel_for(size_t count, const std::function<void(size_t index, size_t worker)>& body,
                  size_t min_items) {
  size_t workers = worker_count(count, min_items);
  std::atomic<size_t> next{0};
  auto run = [&](size_t worker) {
    for (size_t index = next++; index < count; index = next++)
      body(index, worker);
  };
  std::vector<std::thread> threads;
  for (size_t worker = 1; worker < workers; ++worker)
    threads.emplace_back(run, worker);
  run(0);
  for (std::thread& thread : threads)
    thread.join();
}

}  // namespace trainjob
