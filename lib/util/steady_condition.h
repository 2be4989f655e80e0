// A condition variable whose timed waits run on the monotonic clock, as
// std::condition_variable's do. Its wait_for is pthread_cond_timedwait on a condition made with
// pthread_condattr_setclock(CLOCK_MONOTONIC), which every glibc has; libstdc++ 10 and later
// wait with pthread_cond_clockwait instead, which needs glibc 2.30, above the release build's
// baseline (docs/install.md).
#ifndef TRAINJOB_UTIL_STEADY_CONDITION_H_
#define TRAINJOB_UTIL_STEADY_CONDITION_H_

#include <mutex>
#include <pthread.h>
#include <time.h>

namespace trainjob {

class SteadyCondition {
 public:
  SteadyCondition();
  ~SteadyCondition();
  SteadyCondition(const SteadyCondition&) = delete;
  SteadyCondition& operator=(const SteadyCondition&) = delete;

  void notify_all();

  /// Waits until `done()` holds or `seconds` have passed on the monotonic clock (`lock` held
  /// whenever `done` runs); what `done()` says at the end.
  template <typename Predicate>
  bool wait_for(std::unique_lock<std::mutex>& lock, double seconds, Predicate done) {
    const timespec deadline = deadline_after(seconds);
    while (!done()) {
      if (!wait_until(lock, deadline)) return done();
    }
    return true;
  }

 private:
  static timespec deadline_after(double seconds);
  /// False when `deadline` passed.
  bool wait_until(std::unique_lock<std::mutex>& lock, const timespec& deadline);

  pthread_cond_t condition_;
};

}  // namespace trainjob

#endif  // TRAINJOB_UTIL_STEADY_CONDITION_H_
