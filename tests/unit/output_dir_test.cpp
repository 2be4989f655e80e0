// `render --output-dir`: all files or none, and nothing but files replaced.
#include "output/output_dir.h"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

#include <doctest/doctest.h>

#include "../support/temp_dir.h"
#include "util/beneath.h"

namespace trainjob {
namespace {

using testing::read_text;
using testing::TempDir;

/// Every entry of `dir`, one line each: name and size, sorted.
std::string listing(const std::string& dir) {
  std::string command = "cd '" + dir + "' && find . -printf '%p %s\\n' | sort";
  std::string out;
  FILE* pipe = ::popen(command.c_str(), "r");
  char buffer[4096];
  while (size_t n = std::fread(buffer, 1, sizeof buffer, pipe))
    out.append(buffer, n);
  ::pclose(pipe);
  return out;
}

TEST_CASE("output dir: created with its parents, files written, other entries kept") {
  TempDir temp;
  std::string dir = temp.path + "/a/b";
  Diagnostics diagnostics;
  REQUIRE(write_output_files(dir, {{"x.yaml", "x"}, {"y.yaml", "y"}}, &diagnostics));
  CHECK(read_text(dir + "/x.yaml") == "x");
  std::ofstream(dir + "/notes.txt") << "mine";
  REQUIRE(write_output_files(dir, {{"x.yaml", "x2"}}, &diagnostics));
  CHECK(read_text(dir + "/x.yaml") == "x2");
  CHECK(read_text(dir + "/y.yaml") == "y");
  CHECK(read_text(dir + "/notes.txt") == "mine");
  CHECK(listing(dir).find(".trainjob-render") == std::string::npos);  // no staging left
}

TEST_CASE("output dir: a target that is not a file changes nothing, created dirs go again") {
  TempDir temp;
  std::string dir = temp.path + "/out";
  REQUIRE(::mkdir(dir.c_str(), 0755) == 0);
  REQUIRE(::mkdir((dir + "/b.yaml").c_str(), 0755) == 0);
  std::ofstream(dir + "/a.yaml") << "old";
  std::string before = listing(temp.path);
  Diagnostics diagnostics;
  CHECK_FALSE(write_output_files(dir, {{"a.yaml", "new"}, {"b.yaml", "new"}}, &diagnostics));
  REQUIRE(diagnostics.all().size() == 1);
  CHECK(diagnostics.all()[0].file == dir + "/b.yaml");
  CHECK(listing(temp.path) == before);
  CHECK(read_text(dir + "/a.yaml") == "old");

  Diagnostics again;
  CHECK_FALSE(write_output_files(temp.path + "/new/out", {{"../x", "x"}}, &again));
  CHECK(again.all()[0].message.find("refused file name") == 0);
  CHECK(listing(temp.path) == before);  // new/ and new/out were removed again
}

TEST_CASE("output dir: a file that is not a directory is an error") {
  TempDir temp;
  std::ofstream(temp.path + "/file") << "x";
  Diagnostics diagnostics;
  CHECK_FALSE(write_output_files(temp.path + "/file", {{"a.yaml", "a"}}, &diagnostics));
  CHECK(diagnostics.all()[0].message == "--output-dir: not a directory");
}

}  // namespace
}  // namespace trainjob
