#include "status/job_events.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "kube/credentials.h"
#include "kube/objects.h"
#include "kube/resources.h"
#include "status/cluster_output.h"
#include "status/job_not_found.h"
#include "status/trainjob_status.h"
#include "util/columns.h"

namespace trainjob {
namespace {

double time_of(const Json& holder, const char* key) {
  return parse_rfc3339(string_member(holder, key)).value_or(0);
}

/// kubectl events' sort key.
double sort_time(const Json& event) {
  const Json& series = member_or_empty(event, "series");
  if (!series.empty()) return time_of(series, "lastObservedTime");
  double last = time_of(event, "lastTimestamp");
  return last != 0 ? last : time_of(event, "eventTime");
}

/// Whether `pod` is named as Job `job`'s pods are: JOB-RANDOM or JOB-INDEX-RANDOM.
bool pod_of_job(const std::string& pod, const std::string& job) {
  if (pod.size() <= job.size() + 1 || pod.compare(0, job.size(), job) != 0 ||
      pod[job.size()] != '-')
    return false;
  std::string rest = pod.substr(job.size() + 1);
  size_t dash = rest.find('-');
  if (dash != std::string::npos) {
    bool index =
        dash > 0 && std::all_of(rest.begin(), rest.begin() + static_cast<long>(dash),
                                [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
    if (!index) return false;
    rest = rest.substr(dash + 1);
  }
  return rest.size() == 5 && std::all_of(rest.begin(), rest.end(), [](char c) {
           return std::isalnum(static_cast<unsigned char>(c));
         });
}

bool involves_job(const Json& event, const std::string& kind, const std::string& name,
                  const std::set<std::string>& jobs, const std::set<std::string>& services) {
  const Json& object = member_or_empty(event, "involvedObject");
  const std::string& object_kind = string_member_ref(object, "kind");
  const std::string& object_name = string_member_ref(object, "name");
  if (object_kind == "Job") return jobs.count(object_name) != 0;
  if (object_kind == "Service") return services.count(object_name) != 0;
  if (object_kind == "Pod")
    return std::any_of(jobs.begin(), jobs.end(),
                       [&](const std::string& job) { return pod_of_job(object_name, job); });
  return object_kind == kind && object_name == name;
}

/// kubectl events' LAST SEEN: the age, and for a repeated event how often over how long.
std::string last_seen(const Json& event, double now) {
  double first = time_of(event, "eventTime");
  if (first == 0) first = time_of(event, "firstTimestamp");
  auto age = [&](double at) { return at == 0 ? std::string("<unknown>") : format_age(now - at); };
  const Json& series = member_or_empty(event, "series");
  long count = series.empty() ? event.value("count", 0L) : series.value("count", 0L);
  if (count <= 1) return age(first);
  double last =
      series.empty() ? time_of(event, "lastTimestamp") : time_of(series, "lastObservedTime");
  return age(last) + " (x" + std::to_string(count) + " over " + age(first) + ")";
}

std::string trimmed(std::string text) {
  auto space = [](unsigned char c) { return std::isspace(c) != 0; };
  text.erase(text.begin(), std::find_if_not(text.begin(), text.end(), space));
  text.erase(std::find_if_not(text.rbegin(), text.rend(), space).base(), text.end());
  return text;
}

std::vector<std::string> names_of(const std::vector<Json>& objects) {
  std::vector<std::string> names;
  for (const Json& object : objects)
    names.push_back(name_of(object));
  return names;
}

}  // namespace

std::vector<Json> events_of_job(const std::vector<Json>& events, const std::string& kind,
                                const std::string& name, const std::vector<std::string>& jobs,
                                const std::vector<std::string>& services) {
  std::set<std::string> job_names(jobs.begin(), jobs.end());
  std::set<std::string> service_names(services.begin(), services.end());
  std::vector<Json> out;
  for (const Json& event : events)
    if (involves_job(event, kind, name, job_names, service_names)) out.push_back(event);
  std::stable_sort(out.begin(), out.end(),
                   [](const Json& a, const Json& b) { return sort_time(a) < sort_time(b); });
  return out;
}

std::string format_events_table(const std::vector<Json>& events, double now) {
  std::vector<std::vector<std::string>> rows = {
      {"LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE"}};
  for (const Json& event : events) {
    const Json& object = member_or_empty(event, "involvedObject");
    rows.push_back({last_seen(event, now), string_member(event, "type"),
                    string_member(event, "reason"),
                    string_member(object, "kind") + "/" + string_member(object, "name"),
                    trimmed(string_member(event, "message"))});
  }
  return format_columns(rows);
}

std::vector<Json> fetch_job_events(KubeClient* client, const std::string& name_space,
                                   const std::string& name) {
  std::string selector = trainjob_selector(name);
  std::vector<Json> jobs = list_objects(client, job_type(), name_space, selector).items;
  std::vector<Json> services = list_objects(client, service_type(), name_space, selector).items;
  if (jobs.empty() && services.empty()) throw JobNotFound(name_space, name);
  std::vector<Json> events = list_objects(client, event_type(), name_space, "").items;
  return events_of_job(events, source_kind_of(jobs), name, names_of(jobs), names_of(services));
}

}  // namespace trainjob
