// `run --local` for MPI TrainJobs: only the launcher's pod runs, and its hostfile names
// this machine, so mpirun starts every rank here without ssh (no sshd, no key needed).
#ifndef TRAINJOB_LOCAL_LOCAL_MPI_H_
#define TRAINJOB_LOCAL_LOCAL_MPI_H_

#include <map>
#include <string>
#include <vector>

#include "load/json.h"

namespace trainjob {

/// Rewrites the rendered `objects` of MPI TrainJobs (found by the launcher's `mpi-hostfile`
/// volume): drops the Jobs of replicated job `node`, the SSH Secret volume and its mounts,
/// and turns the hostfile into `localhost slots=<all slots>`. Says what it changed in
/// *notes. False with *error when an MPI TrainJob is found but `mpirun` is on neither
/// PATH nor one of `image_dirs`.
bool adapt_mpi_for_local(std::vector<Json>* objects,
                         const std::map<std::string, std::string>& image_dirs,
                         std::vector<std::string>* notes, std::string* error);

/// The slots of a hostfile: the sum of its `slots=N` (1 for a line without), saturating.
int64_t hostfile_slots(const std::string& hostfile);

}  // namespace trainjob

#endif  // TRAINJOB_LOCAL_LOCAL_MPI_H_
