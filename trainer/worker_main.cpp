// trainjob-trainer-worker: one data-parallel worker, started by trainjob-trainer (or by
// trainjob-trainer under torchrun) with RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR and
// MASTER_PORT set.
#include <c10/util/Exception.h>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "collectives/communicator.h"
#include "launch/worker_identity.h"
#include "settings/options.h"
#include "training/training.h"

using namespace trainjob::trainer;

namespace {

int fail(const std::string& message, int exit_code) {
  std::fprintf(stderr, "trainjob-trainer: error: %s\n", message.c_str());
  return exit_code;
}

}  // namespace

int main(int argc, char** argv) {
  // Lines from several workers share one stream; keep each whole.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  ParsedOptions parsed = parse_options(std::vector<std::string>(argv + 1, argv + argc));
  if (parsed.help) {
    std::fputs(help_text().c_str(), stdout);
    return 0;
  }
  if (!parsed.error.empty()) return fail(parsed.error, parsed.exit_code);
  WorkerIdentity identity;
  std::string error;
  if (!read_worker_identity(process_env(), &identity, &error)) return fail(error, 1);
  std::printf("[init] RANK=%d, WORLD_SIZE=%d, LOCAL_RANK=%d, MASTER_ADDR=%s, MASTER_PORT=%d\n",
              identity.rank, identity.world_size, identity.local_rank, identity.master_addr.c_str(),
              identity.master_port);

  Placement placement;
  if (!choose_placement(parsed.options.backend, parsed.options.device, backend_support(),
                        &placement, &error))
    return fail(error, 1);
  const ConnectOptions connect{placement.backend, placement.device, parsed.options.rdzv_timeout_s,
                               parsed.options.local_allreduce};
  auto communicator = connect_workers(identity, connect, &error);
  if (!communicator) return fail(error, 1);
  std::string failure;
  try {
    return train(parsed.options, identity, *communicator);
  } catch (const c10::Error& e) {
    failure = e.what_without_backtrace();
  } catch (const std::exception& e) {
    failure = e.what();
  }
  fail("rank " + std::to_string(identity.rank) + ": " + failure, 1);
  // Tearing down a process group whose peers are gone can block; the launcher restarts us.
  std::fflush(nullptr);
  std::_Exit(1);
}
