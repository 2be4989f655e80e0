#include <doctest/doctest.h>

#include "model/dialect.h"
#include "model/suggest.h"

TEST_CASE("dialect: version strings") {
  using trainjob::Dialect;
  CHECK(trainjob::parse_dialect("2.1") == Dialect::kV2_1);
  CHECK(trainjob::parse_dialect("v2.0.0") == Dialect::kV2_0);
  CHECK(trainjob::parse_dialect("2.2.1") == Dialect::kV2_2);
  CHECK(trainjob::parse_dialect("v2.3") == Dialect::kV2_3);
  CHECK(trainjob::parse_dialect("v2.4.0") == Dialect::kV2_4);
  CHECK_FALSE(trainjob::parse_dialect("2.5"));
  CHECK_FALSE(trainjob::parse_dialect("2.10"));
  CHECK_FALSE(trainjob::parse_dialect(""));
  CHECK(trainjob::dialect_info(Dialect::kV2_3).merge_resources);
  CHECK_FALSE(trainjob::dialect_info(Dialect::kV2_2).string_num_proc);
  // The MPI launcher's PRTE set and image placement are v2.4's, not v2.3's.
  CHECK(trainjob::dialect_info(Dialect::kV2_4).mpi_v2_4);
  CHECK_FALSE(trainjob::dialect_info(Dialect::kV2_3).mpi_v2_4);
}

TEST_CASE("suggest: near misses only") {
  CHECK(trainjob::closest_match("numProcsPerNode", {"numNodes", "numProcPerNode"}) ==
        "numProcPerNode");
  CHECK(trainjob::closest_match("volumeMount", {"env", "volumeMounts", "name"}) == "volumeMounts");
  CHECK(trainjob::closest_match("image", {"env", "volumeMounts", "name"}).empty());
  CHECK(trainjob::edit_distance("kitten", "sitting") == 3);
}
