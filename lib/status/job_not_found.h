// kubectl's "not found" for the job a command was pointed at (status, logs, delete, suspend,
// resume, wait, events), and where else the cluster has it: a user who forgot -n is told the
// namespace rather than left to guess.
#ifndef TRAINJOB_STATUS_JOB_NOT_FOUND_H_
#define TRAINJOB_STATUS_JOB_NOT_FOUND_H_

#include <string>
#include <vector>

#include "kube/client.h"
#include "kube/kube_error.h"
#include "status/trainjob_names.h"

namespace trainjob {

/// Thrown where a command finds nothing of the job NAME in its namespace. what() is
/// `KIND "NAME" not found in namespace "NS"` and the detail; a command's top level rewrites it
/// with job_not_found_message, which may ask the cluster more.
class JobNotFound : public KubeError {
 public:
  /// `label`: the label key every object of the job carries with NAME as its value.
  JobNotFound(std::string name_space, std::string name, std::string detail = "",
              std::string kind_word = "trainjob", const char* label = nullptr);
  const std::string& name_space() const { return name_space_; }
  const std::string& name() const { return name_; }
  const std::string& detail() const { return detail_; }
  const std::string& kind_word() const { return kind_word_; }
  const std::string& label() const { return label_; }

 private:
  std::string name_space_, name_, detail_, kind_word_, label_;
};

/// The namespaces other than `except` whose Jobs or Services carry `label`=`name`, sorted:
/// one cluster-wide LIST of each. None when the cluster will not say (403 for a user who may
/// only read their own namespace, or any other failure): the hint is a courtesy.
std::vector<std::string> namespaces_holding(KubeClient* client, const std::string& label,
                                            const std::string& name, const std::string& except);

/// The error's message under KIND, the TYPE the user typed (`kind`; null: the error's own
/// word), then where else the job is: `KIND "NAME" not found in namespace "NS"[DETAIL]; found
/// in team-a (use -n team-a)`.
std::string job_not_found_message(const JobNotFound& error, const ManagedKind* kind,
                                  const std::vector<std::string>& elsewhere);

}  // namespace trainjob

#endif  // TRAINJOB_STATUS_JOB_NOT_FOUND_H_
