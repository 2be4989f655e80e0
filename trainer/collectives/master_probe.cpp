#include "collectives/master_probe.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <netdb.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

namespace trainjob::trainer {
namespace {

bool try_connect(const std::string& host, int port, std::string* error) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* addresses = nullptr;
  int resolved = getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &addresses);
  if (resolved != 0) {
    *error = "cannot resolve " + host + ": " + gai_strerror(resolved);
    return false;
  }
  bool connected = false;
  for (addrinfo* address = addresses; address != nullptr && !connected;
       address = address->ai_next) {
    int fd = socket(address->ai_family, address->ai_socktype | SOCK_CLOEXEC, address->ai_protocol);
    if (fd < 0) continue;
    if (connect(fd, address->ai_addr, address->ai_addrlen) == 0) {
      connected = true;
    } else {
      *error = "connect to " + host + ":" + std::to_string(port) + ": " + std::strerror(errno);
    }
    close(fd);
  }
  freeaddrinfo(addresses);
  return connected;
}

}  // namespace

bool wait_for_master(const std::string& host, int port, double timeout_s, std::string* last_error) {
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::chrono::duration<double>(timeout_s);
  // Short first, since the master is usually a moment away; capped to spare its DNS.
  auto pause = std::chrono::milliseconds(5);
  for (;;) {
    if (try_connect(host, port, last_error)) return true;
    if (Clock::now() + pause >= deadline) return false;
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(250));
  }
}

}  // namespace trainjob::trainer
