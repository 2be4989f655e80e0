// Runs independent pieces of work on every core.
#ifndef TRAINJOB_UTIL_PARALLEL_H_
#define TRAINJOB_UTIL_PARALLEL_H_

#include <cstddef>
#include <functional>

namespace trainjob {

/// Items per thread below which starting a thread costs more than it saves (so a single
/// TrainJob stays single-threaded).
inline constexpr size_t kMinItemsPerWorker = 32;

/// How many workers parallel_for uses: one per core, and at least `min_items` per worker.
size_t worker_count(size_t count, size_t min_items = kMinItemsPerWorker);

/// Calls body(index, worker) for every index in [0, count), on worker_count(count,
/// min_items) threads; `worker` (from 0) lets the body keep per-thread state. Returns when
/// all are done.
void parallel_for(size_t count, const std::function<void(size_t index, size_t worker)>& body,
                  size_t min_items = kMinItemsPerWorker);

}  // namespace trainjob

#endif  // TRAINJOB_UTIL_PARALLEL_H_
