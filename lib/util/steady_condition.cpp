#include "util/steady_condition.h"

#include <algorithm>
#include <cerrno>
#include <cmath>

namespace trainjob {

SteadyCondition::SteadyCondition() {
  pthread_condattr_t attributes;
  pthread_condattr_init(&attributes);
  pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
  pthread_cond_init(&condition_, &attributes);
  pthread_condattr_destroy(&attributes);
}

SteadyCondition::~SteadyCondition() {
  pthread_cond_destroy(&condition_);
}

void SteadyCondition::notify_all() {
  pthread_cond_broadcast(&condition_);
}

timespec SteadyCondition::deadline_after(double seconds) {
  timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  // At most about 30 years: no wait is meant to be longer, and time_t must not overflow.
  const double wait = std::isnan(seconds) ? 0 : std::clamp(seconds, 0.0, 1e9);
  const double whole = std::floor(wait);
  timespec deadline;
  deadline.tv_sec = now.tv_sec + static_cast<time_t>(whole);
  deadline.tv_nsec = now.tv_nsec + static_cast<long>((wait - whole) * 1e9);
  if (deadline.tv_nsec >= 1000000000L) {
    deadline.tv_sec += 1;
    deadline.tv_nsec -= 1000000000L;
  }
  return deadline;
}

bool SteadyCondition::wait_until(std::unique_lock<std::mutex>& lock, const timespec& deadline) {
  return pthread_cond_timedwait(&condition_, lock.mutex()->native_handle(), &deadline) != ETIMEDOUT;
}

}  // namespace trainjob
