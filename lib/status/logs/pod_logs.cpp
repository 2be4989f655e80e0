// `logs` without -f: each selected container's whole log, read side by side and printed in
// node order; what --step, -c and --all-containers select. Following is pod_logs_follow.cpp.
#include "status/logs/pod_logs.h"

#include <algorithm>

#include "kube/kube_error.h"
#include "kube/log_lines.h"
#include "kube/objects.h"
#include "kube/resources.h"
#include "legacy/legacy_kinds.h"
#include "model/step_place.h"
#include "status/job_not_found.h"
#include "status/pod_state.h"
#include "status/status_query.h"
#include "status/trainjob_status.h"

namespace trainjob {
namespace {

/// What --node selects: the completion index, or a legacy kind's replica index.
int node_index(const Json& pod) {
  StepPlace place = step_place_of(pod);
  return label_index(place.legacy ? place.job_index : label_of(pod, kCompletionIndexAnnotation));
}

std::string pod_node_label(const Json& pod) {
  return node_label(step_place_of(pod), label_index(label_of(pod, kCompletionIndexAnnotation)));
}

const Json& pod_spec(const Json& pod) {
  return member_or_empty(pod, "spec");
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
  const Json& containers = pod_spec(pod).value("containers", Json::array());
  for (const std::string& wanted : {step_place_of(pod).step, default_container_of_operator(label_of(
                                                                 pod, kOperatorNameLabel))}) {
    if (wanted.empty()) continue;
    for (const Json& container : containers) {
      if (string_member(container, "name") == wanted) return wanted;
    }
  }
  return containers.empty() ? "" : string_member(containers[0], "name");
}

PodLogs::PodLogs(KubeClient* client, std::string name_space, std::string trainjob,
                 LogOptions options, std::FILE* out, std::FILE* err)
    : client_(client),
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
    // -c names a container of some steps' pods (checked against the Jobs): the others are
    // not asked for.
    if (!options_.container.empty() && !has_container(pod_spec(pod), options_.container)) continue;
    const Json*& slot = newest[pod_node_label(pod)];
    auto created = [](const Json* p) {
      return string_member((*p)["metadata"], "creationTimestamp") + name_of(*p);
    };
    if (slot == nullptr || created(&pod) > created(slot)) slot = &pod;
  }
  return {newest.begin(), newest.end()};
}

std::vector<PodLogs::Source> PodLogs::sources_of(const std::string& label, const Json& pod) const {
  if (!options_.all_containers)
    return {Source{label, name_of(pod), log_container(pod, options_.container)}};
  std::vector<Source> sources;
  for (const std::string& container : container_names(pod_spec(pod)))
    sources.push_back(Source{label + "/" + container, name_of(pod), container});
  return sources;
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

void PodLogs::fetch_log(const Source& source, const Json& pod, std::string* block,
                        std::string* error) const {
  const Json* status = container_status(pod, source.container);
  if (never_started(status)) {
    // As kubectl logs: no log to read yet is an error, with what the pod waits for.
    *error = "error: " + source.label + " (pod " + source.pod + ", container " + source.container +
             ") is waiting to start: " + waiting_text(pod, status) + "; `logs -f` waits for it";
    return;
  }
  std::string path = object_path(pod_type(), name_space_, source.pod) + "/log" +
                     query(false, true, "") + "&container=" + url_escape(source.container);
  try {
    ApiResponse response = client_->send("GET", path);
    if (!response.ok()) {
      *error = source.label + ": " + client_->error_message(response.status, response.body);
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

void PodLogs::suggest_previous(const Source& source, const Json& pod) const {
  const Json* status = container_status(pod, source.container);
  if (options_.previous || !crash_looping(status)) return;
  std::fprintf(err_,
               "note: %s (pod %s, container %s) is in CrashLoopBackOff after %d restarts: `kubectl "
               "trainjob logs %s -p` prints the log of the run that crashed\n",
               source.label.c_str(), source.pod.c_str(), source.container.c_str(),
               status->value("restartCount", 0), trainjob_.c_str());
}

int PodLogs::print_once(const std::vector<Json>& jobs, const std::vector<Json>& pods) {
  std::vector<std::pair<Source, const Json*>> selected;
  for (const auto& [label, pod] : selected_pods(pods))
    for (Source& source : sources_of(label, *pod))
      selected.emplace_back(std::move(source), pod);
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
  for (const auto& [source, pod] : selected)
    suggest_previous(source, *pod);
  return exit_code;
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

std::optional<int> PodLogs::check_selection(const std::vector<Json>& jobs) {
  if (jobs.empty()) {
    // A TrainJob whose Jobs are gone still has its Service; else it is not here.
    if (!trainjob_exists(client_, name_space_, trainjob_))
      throw JobNotFound(name_space_, trainjob_);
    return report_no_jobs();
  }
  std::string error;
  if (!options_.step.empty()) {
    options_.step = resolve_step(options_.step, job_steps(jobs), &error);
    if (options_.step.empty()) {
      std::fprintf(err_, "error: %s %s: %s\n", source_kind_of(jobs).c_str(), trainjob_.c_str(),
                   error.c_str());
      return 1;
    }
  }
  if (!options_.container.empty()) {
    error = check_container(options_.container, selected_jobs(jobs));
    if (!error.empty()) {
      std::fprintf(err_, "error: %s\n", error.c_str());
      return 1;
    }
  }
  return std::nullopt;
}

int PodLogs::run() {
  std::string selector = trainjob_selector(trainjob_);
  std::vector<Json> jobs = list_objects(client_, job_type(), name_space_, selector).items;
  if (std::optional<int> refused = check_selection(jobs)) return *refused;
  if (options_.follow && !options_.previous) return follow();
  std::vector<Json> pods = list_objects(client_, pod_type(), name_space_, selector).items;
  return print_once(jobs, pods);
}

}  // namespace trainjob
