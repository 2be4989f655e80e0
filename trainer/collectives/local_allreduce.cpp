#include "collectives/local_allreduce.h"

#include <ATen/ATen.h>
#include <climits>
#include <cstring>
#include <linux/futex.h>
#include <new>
#include <sys/syscall.h>
#include <unistd.h>

namespace trainjob::trainer {
namespace {

constexpr size_t kPage = 4096;
constexpr size_t kShareAlignment = 64;  // bytes; workers write disjoint cache lines

size_t round_up(size_t value, size_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

/// The segment holds each worker's progress, then a page-aligned slot per worker.
size_t header_bytes(int world_size, size_t progress_bytes) {
  return round_up(progress_bytes * world_size, kPage);
}

/// Futexes on a shared mapping work across processes (no FUTEX_PRIVATE_FLAG).
void futex_wake_all(std::atomic<uint32_t>& word) {
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(&word), FUTEX_WAKE, INT_MAX, nullptr, nullptr, 0);
}

void futex_wait(std::atomic<uint32_t>& word, uint32_t seen, std::chrono::nanoseconds limit) {
  const timespec relative{static_cast<time_t>(limit.count() / 1'000'000'000),
                          static_cast<long>(limit.count() % 1'000'000'000)};
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(&word), FUTEX_WAIT, seen, &relative, nullptr, 0);
}

/// Chunk numbers wrap after 2^32; compare them as distances.
bool reached(uint32_t value, uint32_t chunk) {
  return static_cast<int32_t>(value - chunk) >= 0;
}

std::string store_text(c10d::Store& store, const std::string& key) {
  std::vector<uint8_t> bytes = store.get(key);
  return std::string(bytes.begin(), bytes.end());
}

void store_set(c10d::Store& store, const std::string& key, const std::string& text) {
  store.set(key, std::vector<uint8_t>(text.begin(), text.end()));
}

}  // namespace

/// Where each worker stands, in chunks. A worker may refill its slot for chunk k only once
/// every worker has `copied` chunk k-1, since all of them read every slot.
struct alignas(64) LocalAllreduce::Progress {
  std::atomic<uint32_t> written{0};  ///< its input of this chunk is in its slot
  std::atomic<uint32_t> summed{0};   ///< its share of the chunk's sum is in its slot
  std::atomic<uint32_t> copied{0};   ///< it has copied every other share's sum out
};
static_assert(std::atomic<uint32_t>::is_always_lock_free);
static_assert(sizeof(std::atomic<uint32_t>) == sizeof(uint32_t));

class LocalAllreduce::Work final : public c10d::Work {
 public:
  explicit Work(at::Tensor tensor)
      : c10d::Work(-1, c10d::OpType::ALLREDUCE), tensor_(std::move(tensor)) {}
  void complete(std::exception_ptr failure) { finish(std::move(failure)); }
  const at::Tensor& tensor() const { return tensor_; }

 private:
  at::Tensor tensor_;
};

std::unique_ptr<LocalAllreduce> LocalAllreduce::connect(c10d::Store& store, int rank,
                                                        int world_size,
                                                        const LocalAllreduceLimits& limits,
                                                        std::string* error) {
  const size_t slot_bytes = (limits.segment_bytes / world_size) / kPage * kPage;
  const size_t bytes = header_bytes(world_size, sizeof(Progress)) + slot_bytes * world_size;
  if (world_size < 2 || slot_bytes == 0) {
    *error = "shared-memory all-reduce needs 2 or more workers and room for their slots";
    return nullptr;
  }
  std::unique_ptr<SharedSegment> segment;
  if (rank == 0) {
    segment = SharedSegment::create(bytes, error);
    if (segment) new (segment->data()) Progress[world_size];
    store_set(store, "local_allreduce/segment", segment ? segment->name() : "");
  } else {
    const std::string name = store_text(store, "local_allreduce/segment");
    if (name.empty()) {
      *error = "worker 0 could not create the shared segment";
    } else {
      segment = SharedSegment::open(name, bytes, error);
    }
  }
  // Everyone reads everyone's outcome, so all decide alike, and worker 0 removes the name
  // only after all have mapped it.
  store_set(store, "local_allreduce/mapped/" + std::to_string(rank), segment ? "1" : "0");
  bool all_mapped = true;
  for (int other = 0; other < world_size; ++other) {
    if (store_text(store, "local_allreduce/mapped/" + std::to_string(other)) != "1") {
      all_mapped = false;
      if (error->empty()) *error = "worker " + std::to_string(other) + " could not map the segment";
    }
  }
  if (segment) segment->unlink();
  if (!all_mapped) return nullptr;
  return std::unique_ptr<LocalAllreduce>(
      new LocalAllreduce(std::move(segment), rank, world_size, slot_bytes, limits.timeout));
}

LocalAllreduce::LocalAllreduce(std::unique_ptr<SharedSegment> segment, int rank, int world_size,
                               size_t slot_bytes, std::chrono::milliseconds timeout)
    : segment_(std::move(segment)),
      rank_(rank),
      world_size_(world_size),
      slot_bytes_(slot_bytes),
      timeout_(timeout),
      thread_([this] { serve(); }) {}

LocalAllreduce::~LocalAllreduce() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  queued_.notify_one();
  thread_.join();
}

bool LocalAllreduce::supports(const at::Tensor& tensor) {
  return tensor.device().is_cpu() && tensor.layout() == at::kStrided && tensor.is_contiguous() &&
         at::isFloatingType(tensor.scalar_type());
}

c10::intrusive_ptr<c10d::Work> LocalAllreduce::allreduce_sum(const at::Tensor& tensor) {
  auto work = c10::make_intrusive<Work>(tensor);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.push_back(work);
  }
  queued_.notify_one();
  return work;
}

void LocalAllreduce::serve() {
  for (;;) {
    c10::intrusive_ptr<Work> work;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      queued_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;
      work = queue_.front();
      queue_.pop_front();
    }
    if (!failure_) {
      try {
        sum(work->tensor());
      } catch (...) {
        failure_ = std::current_exception();
      }
    }
    work->complete(failure_);
  }
}

void LocalAllreduce::sum(const at::Tensor& tensor) {
  auto* data = static_cast<char*>(tensor.data_ptr());
  const size_t element_bytes = tensor.element_size();
  const size_t chunk_elements = slot_bytes_ / element_bytes;
  const size_t total = static_cast<size_t>(tensor.numel());
  for (size_t done = 0; done < total; done += chunk_elements) {
    sum_chunk(data + done * element_bytes, std::min(chunk_elements, total - done),
              tensor.scalar_type());
  }
}

void LocalAllreduce::sum_chunk(char* data, size_t elements, at::ScalarType type) {
  const size_t element_bytes = c10::elementSize(type);
  const size_t share_elements =
      round_up((elements + world_size_ - 1) / world_size_, kShareAlignment / element_bytes);
  auto share_begin = [&](int rank) { return std::min(elements, share_elements * rank); };
  auto share_end = [&](int rank) { return std::min(elements, share_elements * (rank + 1)); };
  const uint32_t chunk = ++chunk_;

  wait_for_all(&Progress::copied, chunk - 1);
  std::memcpy(slot(rank_), data, elements * element_bytes);
  publish(&Progress::written);
  wait_for_all(&Progress::written, chunk);

  const size_t begin = share_begin(rank_);
  const size_t length = share_end(rank_) - begin;
  if (length > 0) sum_own_share(data, begin, length, type);
  publish(&Progress::summed);
  wait_for_all(&Progress::summed, chunk);

  for (int rank = 0; rank < world_size_; ++rank) {
    if (rank == rank_) continue;
    const size_t offset = share_begin(rank) * element_bytes;
    std::memcpy(data + offset, slot(rank) + offset,
                (share_end(rank) - share_begin(rank)) * element_bytes);
  }
  publish(&Progress::copied);
}

/// This worker's share, elements [begin, begin + length) of the chunk: the sum of every slot's,
/// in rank order, written into the tensor (the input already sits in the slot) and then into
/// the slot for the others.
void LocalAllreduce::sum_own_share(char* data, size_t begin, size_t length, at::ScalarType type) {
  const size_t element_bytes = c10::elementSize(type);
  auto share_of = [&](int rank) {
    return at::from_blob(slot(rank) + begin * element_bytes, {static_cast<int64_t>(length)},
                         at::TensorOptions(type));
  };
  at::Tensor out = at::from_blob(data + begin * element_bytes, {static_cast<int64_t>(length)},
                                 at::TensorOptions(type));
  at::add_out(out, share_of(0), share_of(1));
  for (int rank = 2; rank < world_size_; ++rank)
    out.add_(share_of(rank));
  std::memcpy(slot(rank_) + begin * element_bytes, out.data_ptr(), length * element_bytes);
}

LocalAllreduce::Progress& LocalAllreduce::progress(int rank) const {
  return reinterpret_cast<Progress*>(segment_->data())[rank];
}

char* LocalAllreduce::slot(int rank) const {
  return segment_->data() + header_bytes(world_size_, sizeof(Progress)) + slot_bytes_ * rank;
}

void LocalAllreduce::publish(Counter counter) {
  std::atomic<uint32_t>& word = progress(rank_).*counter;
  word.store(chunk_, std::memory_order_release);
  futex_wake_all(word);
}

void LocalAllreduce::wait_for_all(Counter counter, uint32_t chunk) const {
  const auto deadline = std::chrono::steady_clock::now() + timeout_;
  for (int rank = 0; rank < world_size_; ++rank) {
    std::atomic<uint32_t>& word = progress(rank).*counter;
    for (;;) {
      const uint32_t seen = word.load(std::memory_order_acquire);
      if (reached(seen, chunk)) break;
      const auto left = deadline - std::chrono::steady_clock::now();
      if (left <= std::chrono::nanoseconds(0)) {
        throw std::runtime_error("shared-memory all-reduce: worker " + std::to_string(rank) +
                                 " did not reach chunk " + std::to_string(chunk) + " within " +
                                 std::to_string(timeout_.count()) + " ms");
      }
      futex_wait(word, seen, std::min<std::chrono::nanoseconds>(left, std::chrono::seconds(1)));
    }
  }
}

}  // namespace trainjob::trainer
