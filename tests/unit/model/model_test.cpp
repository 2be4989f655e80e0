#include <string>

#include <doctest/doctest.h>

#include "model/dialect.h"
#include "model/jobset_labels.h"
#include "util/suggest.h"

TEST_CASE("dialect: version strings") {
  using trainjob::Dialect;
  CHECK(trainjob::parse_dialect("2.1") == Dialect::kV2_1);
  CHECK(trainjob::parse_dialect("v2.0.0") == Dialect::kV2_0);
  CHECK(trainjob::parse_dialect("2.2.1") == Dialect::kV2_2);
  CHECK(trainjob::parse_dialect("v2.3") == Dialect::kV2_3);
  CHECK(trainjob::parse_dialect("2.4") == Dialect::kV2_4);
  CHECK(trainjob::parse_dialect("v2.4.0") == Dialect::kV2_4);
  CHECK_FALSE(trainjob::parse_dialect("2.5"));
  CHECK_FALSE(trainjob::parse_dialect("2.10"));
  CHECK_FALSE(trainjob::parse_dialect("2.40"));
  CHECK_FALSE(trainjob::parse_dialect(""));
  CHECK(trainjob::dialect_info(Dialect::kV2_3).merge_resources);
  CHECK_FALSE(trainjob::dialect_info(Dialect::kV2_2).string_num_proc);
  // The MPI launcher's PRTE set and image placement are v2.4's, not v2.3's.
  CHECK(trainjob::dialect_info(Dialect::kV2_4).mpi_v2_4);
  CHECK_FALSE(trainjob::dialect_info(Dialect::kV2_3).mpi_v2_4);
  CHECK(trainjob::dialect_names() == "2.0, 2.1, 2.2, 2.3, 2.4");
}

TEST_CASE("dialect: 2.4 is the default, and 2.3's form with 2.4's admission rules") {
  using trainjob::Dialect;
  CHECK(trainjob::kDefaultDialect == Dialect::kV2_4);
  CHECK(trainjob::DialectRange{}.last == trainjob::kDefaultDialect);
  const trainjob::DialectInfo& v23 = trainjob::dialect_info(Dialect::kV2_3);
  const trainjob::DialectInfo& v24 = trainjob::dialect_info(Dialect::kV2_4);
  CHECK(std::string(v24.version) == "2.4");
  CHECK(std::string(v24.overrides_field) == v23.overrides_field);
  CHECK(v24.merge_resources);
  CHECK(v24.mpi_v2_3);
  CHECK(v24.pod_spec_fields == v23.pod_spec_fields);
  CHECK(v24.container_fields == v23.container_fields);
  CHECK(v24.v2_4_limits);
  CHECK_FALSE(v23.v2_4_limits);
}

TEST_CASE("suggest: near misses only") {
  CHECK(trainjob::closest_match("numProcsPerNode", {"numNodes", "numProcPerNode"}) ==
        "numProcPerNode");
  CHECK(trainjob::closest_match("volumeMount", {"env", "volumeMounts", "name"}) == "volumeMounts");
  CHECK(trainjob::closest_match("image", {"env", "volumeMounts", "name"}).empty());
  CHECK(trainjob::edit_distance("kitten", "sitting") == 3);
}

TEST_CASE("jobset names: the first pod's hostname and the trainer's first node") {
  CHECK(trainjob::first_pod_hostname("mnist", "launcher") == "mnist-launcher-0-0");
  // The address upstream's torch, JAX and XGBoost policies give as the coordinator.
  CHECK(trainjob::first_node_host("mnist") == "mnist-node-0-0.mnist");
}
