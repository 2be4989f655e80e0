#include "cluster/pod_logs.h"

#include <algorithm>
#include <chrono>

#include "cluster/pod_state.h"
#include "cluster/trainjob_status.h"
#include "kube/kube_error.h"
#include "kube/log_lines.h"
#include "kube/objects.h"
#include "kube/resources.h"
#include "kube/watcher.h"
#include "model/operator_labels.h"

namespace trainjob {
namespace {

constexpr int kMaxReconnects = 20;

const Json* container_status(const Json& pod, const std::string& container) {
  const Json& statuses = member_or_empty(member_or_empty(pod, "status"), "containerStatuses");
  if (!statuses.is_array()) return nullptr;
  for (const Json& entry : statuses) {
    if (string_member(entry, "name") == container) return &entry;
  }
  return nullptr;
}

/// What --node selects: the completion index, or a legacy kind's replica index.
int node_index(const Json& pod) {
  StepPlace place = step_place_of(pod);
  return label_index(place.legacy ? place.job_index : label_of(pod, kCompletionIndexAnnotation));
}

std::string pod_node_label(const Json& pod) {
  return node_label(step_place_of(pod), label_index(label_of(pod, kCompletionIndexAnnotation)));
}

/// Why a pod's container does not run: the pod's reason as `status` gives it (Unschedulable,
/// ImagePullBackOff), else the container's waiting reason (ContainerCreating), after the phase.
std::string waiting_text(const Json& pod, const Json* status) {
  std::string reason = pod_reason(pod, {});
  if (reason.empty() && status != nullptr)
    reason = string_member(member_or_empty(member_or_empty(*status, "state"), "waiting"), "reason");
  std::string said = job_phase_name(pod_phase_of(pod));
  if (!reason.empty()) said.append(": ").append(reason);
  return said;
}

/// A container that never ran: no status yet, or waiting without a terminated instance
/// before (a container in CrashLoopBackOff has logs: those of its last run).
bool never_started(const Json* status) {
  if (status == nullptr) return true;
  return member_or_empty(*status, "state").contains("waiting") &&
         !member_or_empty(*status, "lastState").contains("terminated");
}

bool all_finished(const std::vector<const Json*>& jobs) {
  return !jobs.empty() && std::all_of(jobs.begin(), jobs.end(), [](const Json* job) {
    return job_phase_finished(job_state(*job));
  });
}

}  // namespace

void LinePrinter::write(const std::string& block) {
  if (block.empty()) return;
  std::lock_guard<std::mutex> lock(mutex_);
  std::fwrite(block.data(), 1, block.size(), out_);
  std::fflush(out_);
}

std::string log_container(const Json& pod, const std::string& requested) {
  if (!requested.empty()) return requested;
  const Json& containers = member_or_empty(pod, "spec").value("containers", Json::array());
  for (const std::string& wanted : {step_place_of(pod).step, default_container_of_operator(label_of(
                                                                 pod, kOperatorNameLabel))}) {
    if (wanted.empty()) continue;
    for (const Json& container : containers) {
      if (string_member(container, "name") == wanted) return wanted;
    }
  }
  return containers.empty() ? "" : string_member(containers[0], "name");
}

PodLogs::PodLogs(KubeClient* client, const Clock* clock, std::string name_space,
                 std::string trainjob, LogOptions options, std::FILE* out, std::FILE* err)
    : client_(client),
      clock_(clock),
      name_space_(std::move(name_space)),
      trainjob_(std::move(trainjob)),
      options_(std::move(options)),
      printer_(out),
      err_(err) {}

PodLogs::~PodLogs() {
  cancel_ = true;
  for (std::thread& thread : threads_)
    thread.join();
}

bool PodLogs::selected_job(const Json& job) const {
  return options_.step.empty() || step_place_of(job).step == options_.step;
}

std::vector<std::pair<std::string, const Json*>> PodLogs::selected_pods(
    const std::vector<Json>& pods) const {
  // The newest pod per node: a retried pod replaces the one before it.
  std::map<std::string, const Json*> newest;
  for (const Json& pod : pods) {
    if (!options_.step.empty() && step_place_of(pod).step != options_.step) continue;
    if (options_.node >= 0 && node_index(pod) != options_.node) continue;
    const Json*& slot = newest[pod_node_label(pod)];
    auto created = [](const Json* p) {
      return string_member((*p)["metadata"], "creationTimestamp") + name_of(*p);
    };
    if (slot == nullptr || created(&pod) > created(slot)) slot = &pod;
  }
  return {newest.begin(), newest.end()};
}

std::string PodLogs::query(bool follow, bool first, const std::string& since_time) const {
  std::string out = "?timestamps=true";
  if (follow) out += "&follow=true";
  if (options_.previous) out += "&previous=true";
  if (!since_time.empty()) return out + "&sinceTime=" + url_escape(since_time);
  if (first && options_.since_seconds)
    out += "&sinceSeconds=" + std::to_string(*options_.since_seconds);
  if (first && options_.tail_lines) out += "&tailLines=" + std::to_string(*options_.tail_lines);
  return out;
}

std::string PodLogs::line_out(const Source& source, std::string_view line) const {
  StampedLine stamped = split_stamp(line);
  std::string out;
  if (prefix_) out += "[" + source.label + "] ";
  if (options_.timestamps && !stamped.stamp.empty()) out.append(stamped.stamp).push_back(' ');
  out.append(stamped.time ? stamped.text : line);
  out.push_back('\n');
  return out;
}

void PodLogs::fetch_log(const std::string& label, const Json& pod, std::string* block,
                        std::string* error) const {
  Source source{label, name_of(pod), log_container(pod, options_.container)};
  const Json* status = container_status(pod, source.container);
  if (never_started(status)) {
    // As kubectl logs: no log to read yet is an error, with what the pod waits for.
    *error = "error: " + label + " (pod " + source.pod + ", container " + source.container +
             ") is waiting to start: " + waiting_text(pod, status) + "; `logs -f` waits for it";
    return;
  }
  std::string path = object_path(pod_type(), name_space_, source.pod) + "/log" +
                     query(false, true, "") + "&container=" + url_escape(source.container);
  try {
    ApiResponse response = client_->send("GET", path);
    if (!response.ok()) {
      *error = label + ": " + client_->error_message(response.status, response.body);
      return;
    }
    LineSplitter splitter;
    for (const std::string& line : splitter.feed(response.body))
      *block += line_out(source, line);
    if (!splitter.partial().empty()) *block += line_out(source, splitter.partial());
  } catch (const KubeError& e) {
    *error = e.what();
  }
}

int PodLogs::print_once(const std::vector<Json>& jobs, const std::vector<Json>& pods) {
  auto selected = selected_pods(pods);
  if (selected.empty()) {
    std::fprintf(err_, "error: %s %s has no pods%s in namespace %s (%zu Jobs)\n",
                 source_kind_of(jobs).c_str(), trainjob_.c_str(),
                 options_.step.empty() ? "" : (" in step " + options_.step).c_str(),
                 name_space_.c_str(), jobs.size());
    return 1;
  }
  prefix_ = options_.prefix || selected.size() > 1;
  // Fetched side by side, printed in node order: a pod's lines stay together.
  std::vector<std::string> blocks(selected.size());
  std::vector<std::string> errors(selected.size());
  std::vector<std::thread> fetches;
  for (size_t i = 0; i < selected.size(); ++i) {
    fetches.emplace_back(
        [&, i] { fetch_log(selected[i].first, *selected[i].second, &blocks[i], &errors[i]); });
  }
  for (std::thread& fetch : fetches)
    fetch.join();
  int exit_code = 0;
  for (size_t i = 0; i < selected.size(); ++i) {
    printer_.write(blocks[i]);
    if (!errors[i].empty()) {
      std::fprintf(err_, "%s\n", errors[i].c_str());
      exit_code = 1;
    }
  }
  return exit_code;
}

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
  for (const Json* job : jobs)
    expected += (*job)["spec"].value("parallelism", 1);
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
  Source source{label, name_of(pod), log_container(pod, options_.container)};
  const Json* status = container_status(pod, source.container);
  if (status != nullptr)  // only this thread touches first_instance_
    first_instance_.emplace(source.pod + "/" + source.container, status->value("restartCount", 0));
  if (status == nullptr || member_or_empty(*status, "state").contains("waiting"))
    return report_waiting(source, pod, status);
  source.instance = status->value("restartCount", 0);
  return start_stream(source);
}

std::vector<const Json*> PodLogs::selected_jobs(const std::vector<Json>& jobs) const {
  std::vector<const Json*> out;
  for (const Json& job : jobs)
    if (selected_job(job)) out.push_back(&job);
  return out;
}

int PodLogs::report_no_jobs() const {
  std::fprintf(err_, "error: no Jobs of TrainJob %s%s in namespace %s\n", trainjob_.c_str(),
               options_.step.empty() ? "" : (" in step " + options_.step).c_str(),
               name_space_.c_str());
  return 1;
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

int PodLogs::run() {
  if (options_.follow && !options_.previous) return follow();
  std::string selector = trainjob_selector(trainjob_);
  std::vector<Json> jobs = list_objects(client_, job_type(), name_space_, selector).items;
  std::vector<Json> pods = list_objects(client_, pod_type(), name_space_, selector).items;
  return print_once(jobs, pods);
}

}  // namespace trainjob
