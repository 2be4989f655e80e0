// Runs independent pieces of work on every core.
#ifndef TRAINJOB_UTIL_PARALLEL_H_
#define TRAINJOB_UTIL_PARALLEL_H_

#include <cstddef>
#include <functional>

namespace trainjob {

/// How many workers parallel_for uses for `count` items: one per core, but one in all when
/// there is too little work for a thread to pay off (a single TrainJob stays single-threaded).
size_t worker_count(size_t count);

/// Calls body(index, worker) for every index in [0, count), on worker_count(count) threads;
/// `worker` (from 0) lets the body keep per-thread state. Returns when all are done.
void parallel_for(size_t count, const std::function<void(size_t index, size_t worker)>& body);

}  // namespace trainjob

#endif  // TRAINJOB_UTIL_PARALLEL_H_
