// The spellings of the TrainJob API across Kubeflow Trainer releases.
#ifndef TRAINJOB_MODEL_DIALECT_H_
#define TRAINJOB_MODEL_DIALECT_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace trainjob {

enum class Dialect { kV2_0, kV2_1, kV2_2, kV2_3, kV2_4 };

/// The release everything compiles for when nothing pins one: the newest. Every default
/// (render, convert --to, init, runtimes get, completion, version) reads it from here.
constexpr Dialect kDefaultDialect = Dialect::kV2_4;

/// What differs between releases, in one place.
struct DialectInfo {
  Dialect dialect;
  const char* version;          ///< "2.1"
  const char* overrides_field;  ///< spec field that patches the runtime's pod templates
  bool string_num_proc;         ///< numProcPerNode may be auto/cpu/gpu (v2.0–v2.1)
  bool merge_resources;         ///< resourcesPerNode merges into the runtime's (v2.3+)
  /// MPI: file modes on the SSH Secret volume, and OMPI_* refused in spec.trainer.env (v2.3+)
  bool mpi_v2_3;
  /// MPI: spec.trainer.image on the nodes too (command and args stay on the launcher), and
  /// the PRTE_MCA_* set for Open MPI 5 beside the OMPI_MCA_* one (v2.4+)
  bool mpi_v2_4;
  /// ReplicatedJob names of runtimes at most 20 characters; numNodes, numProcPerNode and
  /// mlPolicy.mpi.numProcPerNode checked at admission (v2.4+)
  bool v2_4_limits;
  std::vector<std::string_view> pod_spec_fields;   ///< PodSpec fields an override may set
  std::vector<std::string_view> container_fields;  ///< container fields an override may set
};

const DialectInfo& dialect_info(Dialect dialect);

/// A span of Trainer releases, both ends included (empty when `first > last`).
struct DialectRange {
  Dialect first = Dialect::kV2_0;
  Dialect last = kDefaultDialect;

  bool contains(Dialect dialect) const { return first <= dialect && dialect <= last; }
  bool empty() const { return first > last; }
  DialectRange intersect(DialectRange other) const;
  /// What is left after taking away `other`, where that leaves one span (else unchanged).
  DialectRange without(DialectRange other) const;
  /// "2.0-2.4", "2.2-2.4", "2.1"; "none" when empty.
  std::string text() const;
};

/// Accepts "2.0", "v2.1", "2.2.1", "v2.3.0" and the like.
std::optional<Dialect> parse_dialect(std::string_view text);
/// "2.0, 2.1, 2.2, 2.3, 2.4" for usage messages.
std::string dialect_names();

}  // namespace trainjob

#endif  // TRAINJOB_MODEL_DIALECT_H_
