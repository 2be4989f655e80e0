// The status server's transport in a trainer built without libcurl
// (TRAINJOB_TRAINER_STATUS_SERVER=OFF, for a machine that lacks it): every call fails with the
// reason, which the reporter warns of once, and training goes on as with an unreachable server.
#include "progress/status_reporter.h"

namespace trainjob::trainer {

StatusPoster https_status_poster(const StatusServer& server) {
  return [url = server.url](const std::string&, std::chrono::milliseconds) {
    return "cannot post to " + url +
           ": this trainer was built without libcurl (TRAINJOB_TRAINER_STATUS_SERVER=OFF)";
  };
}

}  // namespace trainjob::trainer
