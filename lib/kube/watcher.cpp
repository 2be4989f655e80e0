#include "kube/watcher.h"

#include <chrono>

#include "kube/kube_error.h"
#include "kube/log_lines.h"
#include "kube/objects.h"

namespace trainjob {
namespace {

constexpr int kWatchTimeoutSeconds = 60;
constexpr int kMaxConsecutiveFailures = 8;

}  // namespace

bool apply_watch_event(const std::string& line, std::map<std::string, Json>* objects,
                       std::string* resource_version, std::string* error) {
  Json event = Json::parse(line, nullptr, false);
  if (event.is_discarded() || !event.is_object()) return true;  // a blank keep-alive line
  std::string type = string_member(event, "type");
  const Json& object = member_or_empty(event, "object");
  if (type == "ERROR") {
    if (object.value("code", 0) == 410) return false;
    *error = "watch: " + string_member(object, "message");
    return true;
  }
  std::string version = string_member(member_or_empty(object, "metadata"), "resourceVersion");
  if (!version.empty()) *resource_version = version;
  if (type == "ADDED" || type == "MODIFIED") (*objects)[name_of(object)] = object;
  if (type == "DELETED") objects->erase(name_of(object));
  return true;
}

TrainJobWatcher::TrainJobWatcher(KubeClient* client, std::string name_space, std::string selector)
    : client_(client), name_space_(std::move(name_space)), selector_(std::move(selector)) {}

TrainJobWatcher::~TrainJobWatcher() {
  cancel_ = true;
  for (std::thread& thread : threads_)
    thread.join();
}

void TrainJobWatcher::start() {
  threads_.emplace_back([this] { watch_loop(job_type(), &jobs_); });
  threads_.emplace_back([this] { watch_loop(pod_type(), &pods_); });
}

void TrainJobWatcher::poke() {
  std::lock_guard<std::mutex> lock(mutex_);
  publish();
}

void TrainJobWatcher::publish() {
  ++version_;
  changed_.notify_all();
}

std::string TrainJobWatcher::list_into(const ResourceType& type,
                                       std::map<std::string, Json>* objects) {
  ObjectList list = list_objects(client_, type, name_space_, selector_);
  std::lock_guard<std::mutex> lock(mutex_);
  objects->clear();
  for (Json& item : list.items) {
    std::string name = name_of(item);  // first: C++17 evaluates the right side first
    (*objects)[name] = std::move(item);
  }
  ++listed_;
  publish();
  return list.resource_version;
}

/// How one watch request ended.
struct TrainJobWatcher::WatchEnd {
  HttpResponse response;
  bool gone = false;  ///< 410 Gone: the history from `version` on is compacted
  std::string error;  ///< from an ERROR event
};

TrainJobWatcher::WatchEnd TrainJobWatcher::watch_from(const ResourceType& type,
                                                      std::map<std::string, Json>* objects,
                                                      std::string* version) {
  WatchEnd end;
  LineSplitter splitter;
  std::string path = collection_path(type, name_space_) + "?watch=1&allowWatchBookmarks=true" +
                     "&timeoutSeconds=" + std::to_string(kWatchTimeoutSeconds) +
                     "&resourceVersion=" + *version +
                     (selector_.empty() ? "" : "&labelSelector=" + selector_);
  end.response = client_->stream(
      path,
      [&](std::string_view data) {
        std::lock_guard<std::mutex> lock(mutex_);
        bool changed = false;
        for (const std::string& line : splitter.feed(data)) {
          if (!apply_watch_event(line, objects, version, &end.error)) end.gone = true;
          changed = true;
        }
        if (changed) publish();
        return !end.gone;
      },
      &cancel_);
  end.gone = end.gone || end.response.status == 410;
  return end;
}

void TrainJobWatcher::watch_loop(const ResourceType& type, std::map<std::string, Json>* objects) {
  try {
    std::string version;
    bool need_list = true;
    int failures = 0;
    while (!cancel_) {
      if (need_list) version = list_into(type, objects);
      need_list = false;
      WatchEnd end = watch_from(type, objects, &version);
      if (cancel_) return;
      if (end.gone) {
        ++relists_;
        need_list = true;  // history compacted: only a fresh list is complete
        continue;
      }
      const HttpResponse& response = end.response;
      if (!end.error.empty()) throw KubeError(end.error);
      if (response.status >= 300)
        throw KubeError(client_->error_message(response.status, response.body), response.status);
      // A clean end is the server's timeout; a broken stream resumes from `version` too.
      failures = response.status == 0 ? failures + 1 : 0;
      if (failures > kMaxConsecutiveFailures)
        throw KubeError("watch of " + type.plural + " keeps failing: " + response.error);
      if (failures > 0) std::this_thread::sleep_for(std::chrono::milliseconds(200 * failures));
    }
  } catch (const std::exception& e) {  // reported by wait_newer, on the caller's thread
    std::lock_guard<std::mutex> lock(mutex_);
    error_ = e.what();
    changed_.notify_all();
  }
}

WatchSnapshot TrainJobWatcher::wait_newer(int seen, double timeout_seconds) {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait_for(lock, timeout_seconds,
                    [&] { return !error_.empty() || (listed_ >= 2 && version_ > seen); });
  if (!error_.empty()) throw KubeError(error_);
  WatchSnapshot snapshot;
  snapshot.version = listed_ >= 2 ? version_ : seen;
  for (const auto& [name, job] : jobs_)
    snapshot.jobs.push_back(job);
  for (const auto& [name, pod] : pods_)
    snapshot.pods.push_back(pod);
  return snapshot;
}

}  // namespace trainjob
