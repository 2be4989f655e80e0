#include "util/steady_condition.h"

#include <chrono>
#include <mutex>
#include <thread>

#include <doctest/doctest.h>

using trainjob::SteadyCondition;

TEST_CASE("steady condition: a wait that nothing ends times out, after its time") {
  std::mutex mutex;
  SteadyCondition condition;
  std::unique_lock<std::mutex> lock(mutex);
  const auto start = std::chrono::steady_clock::now();
  CHECK_FALSE(condition.wait_for(lock, 0.05, [] { return false; }));
  CHECK(std::chrono::steady_clock::now() - start >= std::chrono::milliseconds(50));
  CHECK(lock.owns_lock());
}

TEST_CASE("steady condition: notify_all ends the wait once the predicate holds") {
  std::mutex mutex;
  SteadyCondition condition;
  bool done = false;
  std::thread other([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    std::lock_guard<std::mutex> guard(mutex);
    done = true;
    condition.notify_all();
  });
  std::unique_lock<std::mutex> lock(mutex);
  const auto start = std::chrono::steady_clock::now();
  CHECK(condition.wait_for(lock, 30, [&] { return done; }));
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
  lock.unlock();
  other.join();
}

TEST_CASE("steady condition: a predicate already true, and no time at all") {
  std::mutex mutex;
  SteadyCondition condition;
  std::unique_lock<std::mutex> lock(mutex);
  CHECK(condition.wait_for(lock, 0, [] { return true; }));
  CHECK_FALSE(condition.wait_for(lock, 0, [] { return false; }));
  CHECK_FALSE(condition.wait_for(lock, -1, [] { return false; }));
}
