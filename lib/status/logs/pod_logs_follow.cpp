// `logs -f`: waits for pods to start, streams each container instance's log, follows
// restarts and resumes dropped streams without repeating or losing lines, until every
// selected Job has finished and every stream ended.
#include <algorithm>
#include <chrono>

#include "kube/kube_error.h"
#include "kube/log_lines.h"
#include "kube/objects.h"
#include "kube/resources.h"
#include "kube/watcher.h"
#include "status/logs/pod_logs.h"
#include "status/pod_state.h"
#include "status/trainjob_status.h"

namespace trainjob {
namespace {

constexpr int kMaxReconnects = 20;

bool all_finished(const std::vector<const Json*>& jobs) {
  return !jobs.empty() && std::all_of(jobs.begin(), jobs.end(), [](const Json* job) {
    return job_phase_finished(job_state(*job));
  });
}

}  // namespace

bool PodLogs::still_running(const Source& source, int* restart_count) {
  std::optional<Json> pod = get_object(client_, pod_type(), name_space_, source.pod);
  if (!pod) return false;
  const Json* status = container_status(*pod, source.container);
  if (status == nullptr) return false;
  *restart_count = status->value("restartCount", 0);
  return *restart_count == source.instance && member_or_empty(*status, "state").contains("running");
}

/// One container instance's stream as it is read, and read again after a break.
struct PodLogs::StreamState {
  ResumePoint resume;  ///< the last line printed: a stream read again skips what came before
  LineSplitter splitter;
  std::string log_path;       ///< the pod's log
  std::string container;      ///< the query parameter naming the container
  std::string previous_path;  ///< the log of the instance before
};

void PodLogs::print_lines(const Source& source, StreamState* state, std::string_view data) {
  std::string block;
  for (const std::string& line : state->splitter.feed(data)) {
    if (state->resume.accept(split_stamp(line).time)) block += line_out(source, line);
  }
  printer_.write(block);
}

void PodLogs::print_partial_line(const Source& source, StreamState* state) {
  if (!state->splitter.partial().empty())
    printer_.write(line_out(source, state->splitter.partial()));
  state->splitter.clear_partial();
}

void PodLogs::print_previous_instance(const Source& source, StreamState* state) {
  ApiResponse previous = client_->send("GET", state->previous_path);
  if (previous.ok()) print_lines(source, state, previous.body);
  print_partial_line(source, state);
  state->resume = ResumePoint();  // the next instance's lines are new, whatever their times
}

void PodLogs::print_rest_of_previous(const Source& source, StreamState* state) {
  state->resume.restart();
  state->splitter.clear_partial();
  std::string path = state->previous_path;
  if (!state->resume.empty())
    path.append("&sinceTime=").append(url_escape(format_since_time(state->resume.last())));
  ApiResponse rest = client_->send("GET", path);
  if (rest.ok()) print_lines(source, state, rest.body);
}

HttpResponse PodLogs::read_live(const Source& source, bool first, StreamState* state) {
  std::string since = state->resume.empty() ? "" : format_since_time(state->resume.last());
  state->resume.restart();
  state->splitter.clear_partial();
  std::string path = state->log_path;
  path.append(query(true, first, since)).append(state->container);
  return client_->stream(
      path,
      [&](std::string_view data) {
        print_lines(source, state, data);
        return true;
      },
      &cancel_);
}

bool PodLogs::read_again(const Source& source, StreamState* state, const HttpResponse& response,
                         int attempt) {
  int restarts = source.instance;
  bool clean = response.status >= 200 && response.status < 300 && response.error.empty();
  if (still_running(source, &restarts)) {
    // The stream broke or the kubelet closed it while the container runs: resume.
    std::this_thread::sleep_for(std::chrono::milliseconds(clean ? 50 : 100 * (attempt + 1)));
    return true;
  }
  if (restarts > source.instance && !clean) {
    // The container restarted while we were cut off: its last lines are in `previous`.
    print_rest_of_previous(source, state);
  } else if (!clean) {
    return true;  // cut off and finished meanwhile: one more read gets the end
  }
  print_partial_line(source, state);
  return false;
}

void PodLogs::read_until_done(const Source& source, StreamState* state) {
  for (int attempt = 0; attempt <= kMaxReconnects && !cancel_; ++attempt) {
    if (attempt == 0 && source.previous_first) print_previous_instance(source, state);
    HttpResponse response = read_live(source, attempt == 0, state);
    if (cancel_) return;
    if (response.status == 404) return;  // the pod is gone
    if (response.status >= 300 && response.status != 400) {
      std::fprintf(err_, "%s: %s\n", source.label.c_str(),
                   client_->error_message(response.status, response.body).c_str());
      return;
    }
    if (!read_again(source, state, response, attempt)) return;
  }
}

void PodLogs::stream_source(Source source) {
  StreamState state;
  state.log_path = object_path(pod_type(), name_space_, source.pod) + "/log";
  state.container = "&container=" + url_escape(source.container);
  state.previous_path = state.log_path + "?timestamps=true&previous=true" + state.container;
  try {
    read_until_done(source, &state);
  } catch (const KubeError& e) {
    std::fprintf(err_, "%s: %s\n", source.label.c_str(), e.what());
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    finished_.insert(source.pod + "/" + source.container + "/" + std::to_string(source.instance));
  }
  if (watcher_ != nullptr) watcher_->poke();
}

bool PodLogs::prefix_for(const std::vector<const Json*>& jobs) const {
  long expected = 0;
  for (const Json* job : jobs) {
    const Json& spec = member_or_empty(*job, "spec");
    size_t containers = 1;
    if (options_.all_containers)
      containers =
          container_names(member_or_empty(member_or_empty(spec, "template"), "spec")).size();
    expected += spec.value("parallelism", 1) * static_cast<long>(containers);
  }
  return options_.prefix || (options_.node < 0 && expected > 1);
}

bool PodLogs::report_waiting(const Source& source, const Json& pod, const Json* status) {
  JobPhase phase = pod_phase_of(pod);
  std::string said = waiting_text(pod, status);
  std::string& last_said = waiting_said_[source.label];
  if (last_said != said) {
    std::fprintf(err_, "waiting for %s (pod %s): %s\n", source.label.c_str(), source.pod.c_str(),
                 said.c_str());
    last_said = said;
  }
  // A pod that never started is done only once it ended without running.
  return phase != JobPhase::kPending && phase != JobPhase::kRunning;
}

bool PodLogs::start_stream(Source source) {
  std::string container_key = source.pod + "/" + source.container;
  std::string key = container_key + "/" + std::to_string(source.instance);
  std::lock_guard<std::mutex> lock(mutex_);
  // A container that ran and restarted between two looks: its lines are in `previous`.
  int first = first_instance_.emplace(container_key, source.instance).first->second;
  source.previous_first =
      source.instance > first &&
      started_.count(container_key + "/" + std::to_string(source.instance - 1)) == 0;
  if (started_.insert(key).second) threads_.emplace_back([this, source] { stream_source(source); });
  return finished_.count(key) != 0;
}

bool PodLogs::follow_pod(const std::string& label, const Json& pod) {
  bool done = true;
  for (Source& source : sources_of(label, pod))
    done = follow_source(std::move(source), pod) && done;  // every one: it starts the streams
  return done;
}

bool PodLogs::follow_source(Source source, const Json& pod) {
  const Json* status = container_status(pod, source.container);
  if (status != nullptr)  // only this thread touches first_instance_
    first_instance_.emplace(source.pod + "/" + source.container, status->value("restartCount", 0));
  if (status == nullptr || member_or_empty(*status, "state").contains("waiting"))
    return report_waiting(source, pod, status);
  source.instance = status->value("restartCount", 0);
  return start_stream(source);
}

void PodLogs::stop_streams() {
  if (threads_.empty()) return;
  cancel_ = true;
  for (std::thread& thread : threads_)
    thread.join();
  threads_.clear();
  watcher_ = nullptr;
}

int PodLogs::follow() {
  TrainJobWatcher watcher(client_, name_space_, trainjob_selector(trainjob_));
  watcher.start();
  watcher_ = &watcher;
  // However this ends, the streams stop before the watcher they poke goes away.
  struct StopStreams {
    PodLogs* logs;
    ~StopStreams() { logs->stop_streams(); }
  } stopping{this};
  int seen = 0;
  bool prefix_decided = false;
  while (true) {
    WatchSnapshot snapshot = watcher.wait_newer(seen, 1.0);
    seen = snapshot.version;
    std::vector<const Json*> jobs = selected_jobs(snapshot.jobs);
    if (jobs.empty() && snapshot.pods.empty()) return report_no_jobs();
    if (!prefix_decided) prefix_ = prefix_for(jobs);
    prefix_decided = true;
    bool all_streams_done = true;
    for (const auto& [label, pod] : selected_pods(snapshot.pods)) {
      bool done = follow_pod(label, *pod);  // called for every pod: it starts their streams
      all_streams_done = all_streams_done && done;
    }
    if (all_streams_done && all_finished(jobs)) break;
  }
  for (std::thread& thread : threads_)
    thread.join();
  threads_.clear();
  return 0;
}

}  // namespace trainjob
