#include "k8s/names.h"

#include <string>

#include <doctest/doctest.h>

using trainjob::check_name_budget;
using trainjob::JobNameShape;

TEST_CASE("names: RFC 1035 and RFC 1123 labels") {
  CHECK(trainjob::is_dns1035_label("valid-job-name"));
  CHECK(trainjob::is_dns1035_label(std::string(63, 'a')));
  CHECK_FALSE(trainjob::is_dns1035_label(std::string(64, 'a')));
  CHECK_FALSE(trainjob::is_dns1035_label("Invalid-job-name"));
  CHECK_FALSE(trainjob::is_dns1035_label("1jobname"));
  CHECK_FALSE(trainjob::is_dns1035_label("jobname-"));
  CHECK_FALSE(trainjob::is_dns1035_label("job.name"));
  CHECK_FALSE(trainjob::is_dns1035_label(""));
  CHECK(trainjob::is_dns1123_label("1jobname"));
}

TEST_CASE("names: torch-distributed leaves 48 characters up to 10 nodes, 47 up to 100") {
  std::vector<JobNameShape> ten = {{"node", 1, 10}};
  CHECK_FALSE(check_name_budget(std::string(48, 'a'), ten));
  auto problem = check_name_budget(std::string(49, 'a'), ten);
  REQUIRE(problem);
  CHECK(problem->over_by == 1);
  CHECK(problem->max_trainjob_name == 48);
  CHECK(problem->longest_name == std::string(49, 'a') + "-node-0-9-xxxxx");
  std::vector<JobNameShape> hundred = {{"node", 1, 100}};
  CHECK(check_name_budget(std::string(48, 'a'), hundred)->max_trainjob_name == 47);
}

TEST_CASE("names: the longest replicated job decides") {
  std::vector<JobNameShape> jobs = {{"dataset-initializer", 1, 1}, {"node", 1, 2}};
  CHECK_FALSE(check_name_budget(std::string(33, 'a'), jobs));
  auto problem = check_name_budget(std::string(35, 'a'), jobs);
  REQUIRE(problem);
  CHECK(problem->over_by == 2);
  CHECK(problem->max_trainjob_name == 33);
}
