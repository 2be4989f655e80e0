// `run --local` for MPI TrainJobs and MPIJobs (both operators): only the launcher's pod
// runs, and its hostfile names this machine, so mpirun starts every rank here without ssh
// or kubectl exec (no sshd, no key, no cluster needed).
#ifndef TRAINJOB_LOCAL_LOCAL_MPI_H_
#define TRAINJOB_LOCAL_LOCAL_MPI_H_

#include <map>
#include <string>
#include <vector>

#include "load/json.h"

namespace trainjob {

/// Rewrites the rendered `objects` of MPI jobs (found by the launcher's hostfile volume:
/// `mpi-hostfile` of a TrainJob, `mpi-job-config` of an MPIJob launcher): drops the Jobs of
/// replicated job `node` or the MPIJob's workers, the volumes of remote access (SSH key, v1's
/// kubectl with its init container) and their mounts, and turns the hostfile into localhost
/// with all the slots. Says what it changed in *notes. False with *error when an MPI job is
/// found but `mpirun` is on neither PATH nor one of `image_dirs`.
bool adapt_mpi_for_local(std::vector<Json>* objects,
                         const std::map<std::string, std::string>& image_dirs,
                         std::vector<std::string>* notes, std::string* error);

/// The slots of a hostfile: the sum of its `slots=N` or `:N` (1 for a line without either),
/// saturating.
int64_t hostfile_slots(const std::string& hostfile);

}  // namespace trainjob

#endif  // TRAINJOB_LOCAL_LOCAL_MPI_H_
