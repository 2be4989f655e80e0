// Files written beneath a root: hostile names and planted symlinks lead nowhere else.
#include "util/beneath.h"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

#include <doctest/doctest.h>

#include "../../support/temp_dir.h"

namespace trainjob {
namespace {

using testing::mode_of;
using testing::read_text;
using testing::TempDir;

TEST_CASE("paths that would leave their root are named") {
  CHECK(beneath_path_problem("a/b.txt") == "");
  CHECK(beneath_path_problem("..a/b..") == "");
  CHECK(beneath_path_problem("") == "an empty path");
  CHECK(beneath_path_problem("/etc/passwd") == "an absolute path; it must be relative");
  CHECK(beneath_path_problem("../x").find("\"..\" path element") != std::string::npos);
  CHECK(beneath_path_problem("a/../../x").find("\"..\"") != std::string::npos);
  CHECK(beneath_path_problem("a/./x").find("\".\"") != std::string::npos);
  CHECK(beneath_path_problem("a//x").find("empty path element") != std::string::npos);
  CHECK(beneath_path_problem("a/").find("empty path element") != std::string::npos);
  CHECK(beneath_path_problem(std::string("a\0b", 3)) == "a NUL byte in the path");
}

TEST_CASE("files are written beneath the root, with parents and masked modes") {
  TempDir temp;
  RootDir root;
  std::string error;
  REQUIRE(root.open(temp.path, &error));
  REQUIRE(root.write_file("a/b/c.txt", "hello", 06755, &error));
  CHECK(read_text(temp.path + "/a/b/c.txt") == "hello");
  CHECK(mode_of(temp.path + "/a/b/c.txt") == 0755);  // never setuid
  REQUIRE(root.write_file("a/b/c.txt", "again", 0644, &error));
  CHECK(read_text(temp.path + "/a/b/c.txt") == "again");
  CHECK_FALSE(root.write_file("../escape.txt", "x", 0644, &error));
  CHECK(error.find("refused path \"../escape.txt\"") == 0);
  CHECK(::access((temp.path + "/../escape.txt").c_str(), F_OK) != 0);
}

TEST_CASE("a symlinked directory on the way is refused, not followed") {
  TempDir temp;
  TempDir outside;
  REQUIRE(::symlink(outside.path.c_str(), (temp.path + "/link").c_str()) == 0);
  RootDir root;
  std::string error;
  REQUIRE(root.open(temp.path, &error));
  CHECK_FALSE(root.write_file("link/x.txt", "x", 0644, &error));
  CHECK(error == "link is not a directory");
  CHECK_FALSE(root.make_dirs("link/sub", 0755, &error));
  CHECK(::access((outside.path + "/x.txt").c_str(), F_OK) != 0);
}

TEST_CASE("a symlink or a directory at the target name is an error, not written through") {
  TempDir temp;
  TempDir outside;
  std::string victim = outside.path + "/victim";
  std::ofstream(victim) << "untouched";
  REQUIRE(::symlink(victim.c_str(), (temp.path + "/out.yaml").c_str()) == 0);
  REQUIRE(::mkdir((temp.path + "/dir.yaml").c_str(), 0755) == 0);
  RootDir root;
  std::string error;
  REQUIRE(root.open(temp.path, &error));
  CHECK_FALSE(root.write_file("out.yaml", "x", 0644, &error));
  CHECK(error == "out.yaml exists and is not a regular file");
  CHECK(read_text(victim) == "untouched");
  CHECK_FALSE(root.write_file("dir.yaml", "x", 0644, &error));
}

TEST_CASE("read-only files and directories are still removed by remove_tree") {
  TempDir temp;
  RootDir root;
  std::string error;
  REQUIRE(root.open(temp.path, &error));
  REQUIRE(root.write_file("ro/file", "x", 0644, &error));
  REQUIRE(root.make_read_only("ro/file", &error));
  REQUIRE(root.make_read_only("ro", &error));
  CHECK(mode_of(temp.path + "/ro") == 0555);
  CHECK(mode_of(temp.path + "/ro/file") == 0444);
  std::string copy = temp.path;
  CHECK(remove_tree(copy));
  CHECK(::access(copy.c_str(), F_OK) != 0);
  ::mkdir(copy.c_str(), 0700);  // for TempDir's own removal
}

}  // namespace
}  // namespace trainjob
