// A POSIX shared memory segment that the workers of one node map, each at its own address.
#ifndef TRAINJOB_TRAINER_COLLECTIVES_SHARED_SEGMENT_H_
#define TRAINJOB_TRAINER_COLLECTIVES_SHARED_SEGMENT_H_

#include <cstddef>
#include <memory>
#include <string>

namespace trainjob::trainer {

class SharedSegment {
 public:
  /// A new zero-filled segment under a fresh name. Its pages are reserved now, so a full
  /// /dev/shm fails here with a message instead of killing a worker with SIGBUS later.
  static std::unique_ptr<SharedSegment> create(size_t bytes, std::string* error);
  /// The segment another worker created, by name.
  static std::unique_ptr<SharedSegment> open(const std::string& name, size_t bytes,
                                             std::string* error);
  ~SharedSegment();
  SharedSegment(const SharedSegment&) = delete;
  SharedSegment& operator=(const SharedSegment&) = delete;

  /// Removes the name, once every worker has the segment mapped; the mappings live on, and
  /// the memory is freed with the last of them, however the workers end.
  void unlink();

  char* data() const { return data_; }
  const std::string& name() const { return name_; }

 private:
  SharedSegment(std::string name, char* data, size_t bytes, bool linked)
      : name_(std::move(name)), data_(data), bytes_(bytes), linked_(linked) {}
  static std::unique_ptr<SharedSegment> map(const std::string& name, int fd, size_t bytes,
                                            bool linked, std::string* error);

  std::string name_;
  char* data_;
  size_t bytes_;
  bool linked_;
};

}  // namespace trainjob::trainer

#endif  // TRAINJOB_TRAINER_COLLECTIVES_SHARED_SEGMENT_H_
