#include "status/list/list_watch.h"

#include <map>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "complete/kubectl_verbs.h"

using Rows = std::map<std::string, std::string>;
using Lines = std::vector<std::string>;

TEST_CASE("changed_list_rows: new and changed rows, then those gone; AGE alone is no change") {
  Rows before = {{"ns/a", "a   TrainJob   Running   1   2   5s\n"},
                 {"ns/b", "b   TrainJob   Pending   1   1   3s\n"},
                 {"ns/c", "c   TrainJob   Running   1   1   9s\n"}};
  Rows after = {{"ns/a", "a   TrainJob   Running    1   2   7s\n"},
                {"ns/b", "b   TrainJob   Complete   1   1   5s\n"},
                {"ns/d", "d   TrainJob   Pending    1   1   0s\n"}};
  CHECK(trainjob::changed_list_rows(before, after) ==
        Lines{"b   TrainJob   Complete   1   1   5s\n", "d   TrainJob   Pending    1   1   0s\n",
              "c   TrainJob   Running   1   1   9s\n"});
  CHECK(trainjob::changed_list_rows(after, after).empty());
}

TEST_CASE("kubectl_verb_pointer: kubectl's verbs point at ours, others at nothing") {
  CHECK(trainjob::kubectl_verb_pointer("get").find("kubectl trainjob status NAME") !=
        std::string::npos);
  CHECK(trainjob::kubectl_verb_pointer("apply").find("kubectl trainjob submit") !=
        std::string::npos);
  // wait and events are commands of their own, never pointers.
  CHECK(trainjob::kubectl_verb_pointer("wait").empty());
  CHECK(trainjob::kubectl_verb_pointer("events").empty());
  CHECK(trainjob::kubectl_verb_pointer("stauts").empty());
}
