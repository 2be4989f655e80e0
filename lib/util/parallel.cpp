#include "util/parallel.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
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
  // An exception must not end the process from a worker thread: the first one is carried
  // over to the calling thread, which throws it after every worker has stopped.
  std::exception_ptr failure;
  std::mutex failure_lock;
  auto run = [&](size_t worker) {
    try {
      for (size_t index = next++; index < count; index = next++)
        body(index, worker);
    } catch (...) {
      std::lock_guard<std::mutex> lock(failure_lock);
      if (!failure) failure = std::current_exception();
      next = count;  // the others stop at their next item
    }
  };
  std::vector<std::thread> threads;
  for (size_t worker = 1; worker < workers; ++worker)
    threads.emplace_back(run, worker);
  run(0);
  for (std::thread& thread : threads)
    thread.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace trainjob
