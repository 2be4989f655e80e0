// Upstream's progress protocol: rank 0 POSTs its progress to the status server of Kubeflow
// Trainer's controller, which writes it into the TrainJob's status.trainerStatus. The
// controller's TrainJobStatus feature gives each trainer container three variables:
//   KUBEFLOW_TRAINER_SERVER_URL      https://…/namespaces/NS/trainjobs/NAME/status
//   KUBEFLOW_TRAINER_SERVER_CA_CERT  the path of the CA certificate that signed the server's
//   KUBEFLOW_TRAINER_SERVER_TOKEN    the path of a projected service-account token (rotated)
// Reporting must never fail or slow training: the POSTs run on a thread of their own, at most
// one every 5 s, each bounded in time, and a failure is logged once. The worker's exit waits
// for the status server at most kStatusCallTimeout in all.
#ifndef TRAINJOB_TRAINER_PROGRESS_STATUS_REPORTER_H_
#define TRAINJOB_TRAINER_PROGRESS_STATUS_REPORTER_H_

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "progress/progress.h"
#include "settings/options.h"

namespace trainjob::trainer {

inline constexpr const char* kStatusServerUrlVariable = "KUBEFLOW_TRAINER_SERVER_URL";
inline constexpr const char* kStatusServerCaVariable = "KUBEFLOW_TRAINER_SERVER_CA_CERT";
inline constexpr const char* kStatusServerTokenVariable = "KUBEFLOW_TRAINER_SERVER_TOKEN";
/// Each call, connection and TLS included, and the exit's whole wait: a server that does not
/// answer costs rank 0's reporting thread this long, never the training.
inline constexpr std::chrono::milliseconds kStatusCallTimeout{2500};

/// Where to report: the three variables' values (the two paths empty when unset).
struct StatusServer {
  std::string url;
  std::string ca_cert_file;  ///< empty: the system's CAs
  std::string token_file;    ///< empty: no Authorization header
};

/// The status server the environment names, or nullopt when KUBEFLOW_TRAINER_SERVER_URL is
/// unset or empty.
std::optional<StatusServer> status_server_from_env(const EnvLookup& env);

/// Sends one body within `timeout` (> 0), or gives up; returns empty on success, else why it
/// failed.
using StatusPoster =
    std::function<std::string(const std::string& body, std::chrono::milliseconds timeout)>;

/// A poster over HTTPS with libcurl: POST with the bearer token read from its file at every
/// call (the kubelet rotates it), the server verified against the CA file, the timeout for
/// the whole call, connection included.
StatusPoster https_status_poster(const StatusServer& server);

/// Sends the reports it is offered from a thread of its own: the first at once, then at most
/// one every `interval`, always the latest (a report superseded before its turn is dropped),
/// and on finish() the last one not yet sent. Each call gets `call_timeout`; finish() returns
/// within `call_timeout` of being called (a call in flight and the last one share it, and the
/// last is dropped when none is left). The first failure goes to `warn`; later ones are
/// counted only.
class StatusReporter {
 public:
  struct Settings {
    std::chrono::milliseconds interval{5000};
    std::string destination;                       ///< named in the warning
    std::function<void(const std::string&)> warn;  ///< default: a line on stderr
    std::chrono::milliseconds call_timeout{kStatusCallTimeout};
  };

  StatusReporter(StatusPoster post, Settings settings);
  /// Stops without sending what is pending (a failed worker exits soon); waits for a call in
  /// flight, which its poster bounds.
  ~StatusReporter();
  StatusReporter(const StatusReporter&) = delete;
  StatusReporter& operator=(const StatusReporter&) = delete;

  /// Queues `report`, stamped with the current time; never waits on the network.
  void offer(const ProgressReport& report);
  /// Sends the pending report now, whatever the interval, and stops the thread; returns within
  /// `call_timeout`.
  void finish();

  int sent() const;
  int failures() const;

 private:
  void run();
  /// How long the next call may take; zero when finishing and no time is left.
  std::chrono::milliseconds next_call_timeout() const;
  void deliver(const std::string& body, std::chrono::milliseconds timeout);
  void record_failure(const std::string& error);

  StatusPoster post_;
  Settings settings_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::optional<std::string> pending_;  ///< the body to send next
  std::optional<std::chrono::steady_clock::time_point> last_call_;
  bool finishing_ = false;                                 ///< send what is pending, then stop
  std::chrono::steady_clock::time_point finish_deadline_;  ///< set by finish()
  bool stopping_ = false;                                  ///< stop without sending
  int sent_ = 0;
  int failures_ = 0;
  std::thread thread_;
};

/// Rank 0's reporter for the status server the environment names (a line saying where it
/// reports goes to stdout), or null when it names none.
std::unique_ptr<StatusReporter> status_reporter_from_env(const EnvLookup& env);

}  // namespace trainjob::trainer

#endif  // TRAINJOB_TRAINER_PROGRESS_STATUS_REPORTER_H_
