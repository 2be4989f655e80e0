#include "cluster/pod_logs.h"

#include <algorithm>
#include <chrono>

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
  const Json& statuses = member(member(pod, "status"), "containerStatuses");
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

}  // namespace

void LinePrinter::write(const std::string& block) {
  if (block.empty()) return;
  std::lock_guard<std::mutex> lock(mutex_);
  std::fwrite(block.data(), 1, block.size(), out_);
  std::fflush(out_);
}

std::string log_container(const Json& pod, const std::string& requested) {
  if (!requested.empty()) return requested;
  const Json& containers = member(pod, "spec").value("containers", Json::array());
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
  std::vector<std::string> blocks(selected.size());
  std::vector<std::string> errors(selected.size());
  std::vector<std::thread> fetches;
  for (size_t i = 0; i < selected.size(); ++i) {
    fetches.emplace_back([&, i] {
      const auto& [label, pod] = selected[i];
      Source source{label, name_of(*pod), log_container(*pod, options_.container)};
      std::string path = object_path(pod_type(), name_space_, source.pod) + "/log" +
                         query(false, true, "") + "&container=" + url_escape(source.container);
      try {
        ApiResponse response = client_->send("GET", path);
        if (!response.ok()) {
          errors[i] = label + ": " + client_->error_message(response.status, response.body);
          return;
        }
        LineSplitter splitter;
        for (const std::string& line : splitter.feed(response.body))
          blocks[i] += line_out(source, line);
        if (!splitter.partial().empty()) blocks[i] += line_out(source, splitter.partial());
      } catch (const KubeError& e) {
        errors[i] = e.what();
      }
    });
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
  return *restart_count == source.instance && member(*status, "state").contains("running");
}

void PodLogs::stream_source(Source source) {
  ResumePoint resume;
  LineSplitter splitter;
  std::string base = object_path(pod_type(), name_space_, source.pod) + "/log";
  std::string container = "&container=" + url_escape(source.container);
  std::string previous_path = base;
  previous_path.append("?timestamps=true&previous=true").append(container);
  auto emit = [&](std::string_view data) {
    std::string block;
    for (const std::string& line : splitter.feed(data)) {
      if (resume.accept(split_stamp(line).time)) block += line_out(source, line);
    }
    printer_.write(block);
    return true;
  };
  try {
    for (int attempt = 0; attempt <= kMaxReconnects && !cancel_; ++attempt) {
      if (attempt == 0 && source.previous_first) {
        ApiResponse previous = client_->send("GET", previous_path);
        if (previous.ok()) emit(previous.body);
        if (!splitter.partial().empty()) printer_.write(line_out(source, splitter.partial()));
        splitter.clear_partial();
        resume = ResumePoint();  // the next instance's lines are new, whatever their times
      }
      std::string since = resume.empty() ? "" : format_since_time(resume.last());
      resume.restart();
      splitter.clear_partial();
      std::string path = base;
      path.append(query(true, attempt == 0, since)).append(container);
      HttpResponse response = client_->stream(path, emit, &cancel_);
      if (cancel_) break;
      if (response.status == 404) break;  // the pod is gone
      int restarts = source.instance;
      bool clean = response.status >= 200 && response.status < 300 && response.error.empty();
      if (response.status >= 300 && response.status != 400) {
        std::fprintf(err_, "%s: %s\n", source.label.c_str(),
                     client_->error_message(response.status, response.body).c_str());
        break;
      }
      if (still_running(source, &restarts)) {
        // The stream broke or the kubelet closed it while the container runs: resume.
        std::this_thread::sleep_for(std::chrono::milliseconds(clean ? 50 : 100 * (attempt + 1)));
        continue;
      }
      if (restarts > source.instance && !clean) {
        // The container restarted while we were cut off: its last lines are in `previous`.
        resume.restart();
        splitter.clear_partial();
        std::string rest_path = previous_path;
        if (!resume.empty())
          rest_path.append("&sinceTime=").append(url_escape(format_since_time(resume.last())));
        ApiResponse rest = client_->send("GET", rest_path);
        if (rest.ok()) emit(rest.body);
      } else if (!clean) {
        continue;  // cut off and finished meanwhile: one more read gets the end
      }
      if (!splitter.partial().empty()) printer_.write(line_out(source, splitter.partial()));
      break;
    }
  } catch (const KubeError& e) {
    std::fprintf(err_, "%s: %s\n", source.label.c_str(), e.what());
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    finished_.insert(source.pod + "/" + source.container + "/" + std::to_string(source.instance));
  }
  if (watcher_ != nullptr) watcher_->poke();
}

int PodLogs::follow() {
  TrainJobWatcher watcher(client_, name_space_, trainjob_selector(trainjob_));
  watcher.start();
  watcher_ = &watcher;
  // However this ends, the streams stop before the watcher they poke goes away.
  struct StopStreams {
    PodLogs* logs;
    ~StopStreams() {
      if (logs->threads_.empty()) return;
      logs->cancel_ = true;
      for (std::thread& thread : logs->threads_)
        thread.join();
      logs->threads_.clear();
      logs->watcher_ = nullptr;
    }
  } stop_streams{this};
  std::map<std::string, std::string> waiting_said;  // label -> reason printed
  int seen = 0;
  bool prefix_decided = false;
  while (true) {
    WatchSnapshot snapshot = watcher.wait_newer(seen, 1.0);
    seen = snapshot.version;
    std::vector<const Json*> jobs;
    for (const Json& job : snapshot.jobs)
      if (selected_job(job)) jobs.push_back(&job);
    if (jobs.empty() && snapshot.pods.empty()) {
      std::fprintf(err_, "error: no Jobs of TrainJob %s%s in namespace %s\n", trainjob_.c_str(),
                   options_.step.empty() ? "" : (" in step " + options_.step).c_str(),
                   name_space_.c_str());
      return 1;
    }
    if (!prefix_decided) {
      long expected = 0;
      for (const Json* job : jobs)
        expected += (*job)["spec"].value("parallelism", 1);
      prefix_ = options_.prefix || (options_.node < 0 && expected > 1);
      prefix_decided = true;
    }
    bool all_streams_done = true;
    for (const auto& [label, pod] : selected_pods(snapshot.pods)) {
      Source source{label, name_of(*pod), log_container(*pod, options_.container)};
      const Json* status = container_status(*pod, source.container);
      const Json& state = status ? member(*status, "state") : member(Json(), "");
      if (status != nullptr)  // only this thread touches first_instance_
        first_instance_.emplace(source.pod + "/" + source.container,
                                status->value("restartCount", 0));
      if (status == nullptr || state.contains("waiting")) {
        std::string reason = pod_reason(*pod, {});
        if (reason.empty() && status != nullptr) reason = string_member(state["waiting"], "reason");
        JobPhase phase = pod_phase_of(*pod);
        std::string said = job_phase_name(phase);
        if (!reason.empty()) said.append(": ").append(reason);
        if (waiting_said[label] != said) {
          std::fprintf(err_, "waiting for %s (pod %s): %s\n", label.c_str(), source.pod.c_str(),
                       said.c_str());
          waiting_said[label] = said;
        }
        // A pod that never started is done only once it ended without running.
        all_streams_done =
            all_streams_done && phase != JobPhase::kPending && phase != JobPhase::kRunning;
        continue;
      }
      source.instance = status->value("restartCount", 0);
      std::string key = source.pod + "/" + source.container + "/" + std::to_string(source.instance);
      std::lock_guard<std::mutex> lock(mutex_);
      // A container that ran and restarted between two looks: its lines are in `previous`.
      std::string container_key = source.pod + "/" + source.container;
      int first = first_instance_.emplace(container_key, source.instance).first->second;
      source.previous_first =
          source.instance > first &&
          started_.count(container_key + "/" + std::to_string(source.instance - 1)) == 0;
      if (started_.insert(key).second)
        threads_.emplace_back([this, source] { stream_source(source); });
      all_streams_done = all_streams_done && finished_.count(key) != 0;
    }
    bool jobs_finished =
        !jobs.empty() && std::all_of(jobs.begin(), jobs.end(), [](const Json* job) {
          return job_phase_finished(job_state(*job));
        });
    if (jobs_finished && all_streams_done) break;
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
