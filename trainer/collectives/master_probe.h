// Waiting for the rendezvous master. Pods start in any order and a headless Service's DNS
// name appears only once the master pod exists, so other ranks poll until the name resolves
// and the port accepts a connection.
#ifndef TRAINJOB_TRAINER_COLLECTIVES_MASTER_PROBE_H_
#define TRAINJOB_TRAINER_COLLECTIVES_MASTER_PROBE_H_

#include <string>

namespace trainjob::trainer {

/// Polls host:port every few milliseconds until a TCP connection succeeds (true) or
/// `timeout_s` passes (false, with `last_error` saying what the last attempt met).
bool wait_for_master(const std::string& host, int port, double timeout_s, std::string* last_error);

}  // namespace trainjob::trainer

#endif  // TRAINJOB_TRAINER_COLLECTIVES_MASTER_PROBE_H_
