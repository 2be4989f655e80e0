#include "local/launch_cache.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include <doctest/doctest.h>

using namespace trainjob;

TEST_CASE("the cache directory: TRAINJOB_CACHE, else XDG_CACHE_HOME, else ~/.cache") {
  CHECK(cache_dir_from("/c", "/x", "/h") == "/c");
  CHECK(cache_dir_from("", "/x", "/h") == "/x/kubectl-trainjob");
  CHECK(cache_dir_from("", "", "/h") == "/h/.cache/kubectl-trainjob");
  CHECK(cache_dir_from("", "", "").empty());
}

TEST_CASE("a failed trial launch is remembered until its torchrun changes") {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("launch-cache-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::string torchrun = (dir / "torchrun").string();
  std::ofstream(torchrun) << "#!/bin/sh\n";
  std::string file = (dir / "cache" / "torchrun-trials").string();
  std::string identity = file_identity(torchrun);
  REQUIRE(identity.rfind(torchrun + "\t", 0) == 0);
  CHECK(file_identity((dir / "none").string()).empty());
  CHECK_FALSE(remembered_failure(file, identity));  // no file yet
  CHECK(remember_failure(file, identity, "exit status 1:\tAttributeError\n"));
  CHECK(*remembered_failure(file, identity) == "exit status 1: AttributeError ");
  CHECK(remember_failure(file, file_identity(file), "other"));  // another torchrun, kept apart
  std::ofstream(torchrun, std::ios::app) << "exit 0\n";         // upgraded: size and time differ
  std::string changed = file_identity(torchrun);
  CHECK_FALSE(remembered_failure(file, changed));
  CHECK(remember_failure(file, changed, "exit status 2"));
  CHECK_FALSE(remembered_failure(file, identity));  // the old line was replaced
  CHECK(*remembered_failure(file, changed) == "exit status 2");
  CHECK_FALSE(remember_failure("", identity, "x"));
  fs::remove_all(dir);
}
