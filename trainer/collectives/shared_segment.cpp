#include "collectives/shared_segment.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <random>
#include <sys/mman.h>
#include <sys/statvfs.h>
#include <unistd.h>

namespace trainjob::trainer {
namespace {

std::string fresh_name() {
  std::random_device random;
  char name[64];
  std::snprintf(name, sizeof name, "/trainjob-allreduce-%d-%08x", static_cast<int>(getpid()),
                random());
  return name;
}

std::string describe(const char* what, const std::string& name, int error_number) {
  return std::string(what) + " /dev/shm" + name + ": " + std::strerror(error_number);
}

/// Checked before reserving: tmpfs mounted without a size limit would try to reserve
/// whatever it is asked for.
bool shm_has_room(size_t bytes, std::string* error) {
  struct statvfs shm {};
  if (statvfs("/dev/shm", &shm) != 0) {
    *error = std::string("cannot inspect /dev/shm: ") + std::strerror(errno);
    return false;
  }
  const auto free_bytes = static_cast<unsigned long long>(shm.f_bavail) * shm.f_frsize;
  if (bytes > free_bytes) {
    *error = "/dev/shm has " + std::to_string(free_bytes >> 20) + " MiB free, the segment needs " +
             std::to_string(bytes >> 20) + " MiB";
    return false;
  }
  return true;
}

}  // namespace

std::unique_ptr<SharedSegment> SharedSegment::create(size_t bytes, std::string* error) {
  if (!shm_has_room(bytes, error)) return nullptr;
  const std::string name = fresh_name();
  const int fd = shm_open(name.c_str(), O_CREAT | O_EXCL | O_RDWR, 0600);
  if (fd < 0) {
    *error = describe("cannot create", name, errno);
    return nullptr;
  }
  // posix_fallocate returns the error number rather than setting errno.
  const int reserved = posix_fallocate(fd, 0, static_cast<off_t>(bytes));
  if (reserved != 0) {
    *error = describe("cannot reserve memory for", name, reserved);
    close(fd);
    shm_unlink(name.c_str());
    return nullptr;
  }
  auto segment = map(name, fd, bytes, true, error);
  if (!segment) shm_unlink(name.c_str());
  return segment;
}

std::unique_ptr<SharedSegment> SharedSegment::open(const std::string& name, size_t bytes,
                                                   std::string* error) {
  const int fd = shm_open(name.c_str(), O_RDWR, 0);
  if (fd < 0) {
    *error = describe("cannot open", name, errno);
    return nullptr;
  }
  return map(name, fd, bytes, false, error);
}

std::unique_ptr<SharedSegment> SharedSegment::map(const std::string& name, int fd, size_t bytes,
                                                  bool linked, std::string* error) {
  void* data = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  const int map_error = errno;
  close(fd);  // the mapping keeps the segment
  if (data == MAP_FAILED) {
    *error = describe("cannot map", name, map_error);
    return nullptr;
  }
  return std::unique_ptr<SharedSegment>(
      new SharedSegment(name, static_cast<char*>(data), bytes, linked));
}

void SharedSegment::unlink() {
  if (linked_) shm_unlink(name_.c_str());
  linked_ = false;
}

SharedSegment::~SharedSegment() {
  unlink();
  munmap(data_, bytes_);
}

}  // namespace trainjob::trainer
