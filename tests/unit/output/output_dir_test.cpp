// `render --output-dir`: all files or none, and nothing but files replaced.
#include "output/output_dir.h"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

#include <doctest/doctest.h>

#include "../../support/temp_dir.h"
#include "output/output_manifest.h"
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
  REQUIRE(write_output_files(dir, {{"x.yaml", "x"}, {"y.yaml", "y"}}, {}, &diagnostics));
  CHECK(read_text(dir + "/x.yaml") == "x");
  std::ofstream(dir + "/notes.txt") << "mine";
  REQUIRE(write_output_files(dir, {{"x.yaml", "x2"}}, {}, &diagnostics));
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
  CHECK_FALSE(write_output_files(dir, {{"a.yaml", "new"}, {"b.yaml", "new"}}, {}, &diagnostics));
  REQUIRE(diagnostics.all().size() == 1);
  CHECK(diagnostics.all()[0].file == dir + "/b.yaml");
  CHECK(listing(temp.path) == before);
  CHECK(read_text(dir + "/a.yaml") == "old");

  Diagnostics again;
  CHECK_FALSE(write_output_files(temp.path + "/new/out", {{"../x", "x"}}, {}, &again));
  CHECK(again.all()[0].message.find("refused file name") == 0);
  CHECK(listing(temp.path) == before);  // new/ and new/out were removed again
}

TEST_CASE("output dir: a file that is not a directory is an error") {
  TempDir temp;
  std::ofstream(temp.path + "/file") << "x";
  Diagnostics diagnostics;
  CHECK_FALSE(write_output_files(temp.path + "/file", {{"a.yaml", "a"}}, {}, &diagnostics));
  CHECK(diagnostics.all()[0].message == "--output-dir: not a directory");
}

bool exists(const std::string& path) {
  struct stat info {};
  return ::lstat(path.c_str(), &info) == 0;
}

TEST_CASE("output dir: the manifest lists what was written, in sha256sum's format") {
  TempDir temp;
  std::string dir = temp.path + "/out";
  Diagnostics diagnostics;
  REQUIRE(write_output_files(dir, {{"x.yaml", "x"}, {"y.json", "y"}}, {}, &diagnostics));
  CHECK(read_text(dir + "/.kubectl-trainjob") ==
        sha256_hex("x") + "  x.yaml\n" + sha256_hex("y") + "  y.json\n");
  CHECK(std::system(("cd '" + dir + "' && sha256sum --quiet -c .kubectl-trainjob").c_str()) == 0);
}

TEST_CASE("output dir: --prune removes only files an earlier write made and nobody changed") {
  TempDir temp;
  std::string dir = temp.path + "/out";
  Diagnostics diagnostics;
  REQUIRE(write_output_files(
      dir, {{"a.yaml", "a"}, {"b.yaml", "b"}, {"c.yaml", "c"}, {"d.yaml", "d"}}, {}, &diagnostics));
  std::ofstream(dir + "/foreign.yaml") << "not ours";
  std::ofstream(dir + "/notes.txt") << "mine";
  std::ofstream(dir + "/c.yaml") << "edited by hand";

  // Without --prune nothing goes, and b stays listed as ours.
  REQUIRE(write_output_files(dir, {{"a.yaml", "a2"}}, {}, &diagnostics));
  CHECK(read_text(dir + "/b.yaml") == "b");
  CHECK(read_text(dir + "/.kubectl-trainjob").find("  b.yaml\n") != std::string::npos);
  CHECK(read_text(dir + "/.kubectl-trainjob").find("c.yaml") == std::string::npos);  // edited
  std::ofstream(dir + "/d.yaml") << "edited after the last write";

  OutputDirOptions prune;
  prune.prune = true;
  Diagnostics pruning;
  REQUIRE(write_output_files(dir, {{"a.yaml", "a3"}}, prune, &pruning));
  CHECK_FALSE(exists(dir + "/b.yaml"));
  CHECK(read_text(dir + "/a.yaml") == "a3");
  CHECK(read_text(dir + "/c.yaml") == "edited by hand");
  CHECK(read_text(dir + "/foreign.yaml") == "not ours");
  CHECK(read_text(dir + "/notes.txt") == "mine");
  CHECK(read_text(dir + "/.kubectl-trainjob") == sha256_hex("a3") + "  a.yaml\n");
  CHECK(listing(dir).find(".trainjob-render") == std::string::npos);
  CHECK(read_text(dir + "/d.yaml") == "edited after the last write");
  REQUIRE(pruning.all().size() == 1);  // the file edited while listed is named, and kept
  CHECK(pruning.all()[0].severity == Severity::kWarning);
  CHECK(pruning.all()[0].file == dir + "/d.yaml");
}

TEST_CASE("output dir: a failed write prunes nothing") {
  TempDir temp;
  std::string dir = temp.path + "/out";
  Diagnostics diagnostics;
  REQUIRE(write_output_files(dir, {{"a.yaml", "a"}, {"b.yaml", "b"}}, {}, &diagnostics));
  REQUIRE(::mkdir((dir + "/c.yaml").c_str(), 0755) == 0);
  std::string before = listing(dir);
  OutputDirOptions prune;
  prune.prune = true;
  Diagnostics failing;
  CHECK_FALSE(write_output_files(dir, {{"a.yaml", "a2"}, {"c.yaml", "c"}}, prune, &failing));
  CHECK(listing(dir) == before);
  CHECK(read_text(dir + "/b.yaml") == "b");
}

TEST_CASE("output dir: a manifest line that does not parse protects the file it names") {
  TempDir temp;
  std::string dir = temp.path + "/out";
  Diagnostics diagnostics;
  REQUIRE(write_output_files(dir, {{"a.yaml", "a"}}, {}, &diagnostics));
  std::ofstream(dir + "/keep.yaml") << "k";
  std::ofstream(dir + "/.kubectl-trainjob", std::ios::app)
      << sha256_hex("k") << " keep.yaml\n"      // one space: not the format
      << sha256_hex("k") << "  ../keep.yaml\n"  // not one path element
      << sha256_hex("k") << "  keep.txt\n";     // not a name render writes
  OutputDirOptions prune;
  prune.prune = true;
  Diagnostics pruning;
  REQUIRE(write_output_files(dir, {{"b.yaml", "b"}}, prune, &pruning));
  CHECK(read_text(dir + "/keep.yaml") == "k");
  CHECK_FALSE(exists(dir + "/a.yaml"));
  REQUIRE(pruning.all().size() == 3);
  CHECK(pruning.all()[0].pos.line == 2);
  CHECK(pruning.all()[0].severity == Severity::kWarning);
}

}  // namespace
}  // namespace trainjob
