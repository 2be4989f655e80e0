#include "util/shared_library.h"

#include <string>

#include <doctest/doctest.h>

#include "crypto/crypto_library.h"

using trainjob::SharedLibrary;

namespace {
using Getpid = int (*)();
}  // namespace

TEST_CASE("shared library: the first of several sonames that loads") {
  SharedLibrary library({"libtrainjob-absent.so.9", "libc.so.6"}, "apt-get install libc6");
  Getpid getpid_function = nullptr;
  CHECK(library.resolve("getpid", &getpid_function));
  CHECK(getpid_function() > 0);
  CHECK(library.soname() == "libc.so.6");
  CHECK(library.error().empty());
}

TEST_CASE("shared library: none loads, and the error names them all and what to install") {
  SharedLibrary library({"libtrainjob-absent.so.9", "libtrainjob-absent.so.8"},
                        "apt-get install x");
  Getpid getpid_function = nullptr;
  CHECK_FALSE(library.resolve("getpid", &getpid_function));
  CHECK(library.error().rfind(
            "libtrainjob-absent.so.9 or libtrainjob-absent.so.8 not found: apt-get install x (",
            0) == 0);
}

TEST_CASE("shared library: a missing function is named") {
  SharedLibrary library("libc.so.6", "apt-get install libc6");
  Getpid function = nullptr;
  CHECK_FALSE(library.resolve("trainjob_no_such_function", &function));
  CHECK(library.error() == "libc.so.6 has no trainjob_no_such_function: apt-get install libc6");
}

// OpenSSL 3 here (Debian bookworm's libssl3): its own functions resolve too. The fallback to
// OpenSSL 1.1 is run by e2e/release_portability_test in a bullseye root.
TEST_CASE("crypto library: OpenSSL 3's functions where libcrypto.so.3 is") {
  CHECK(trainjob::crypto().sha1() != nullptr);
  const bool has_keygen = trainjob::crypto3().pkey_q_keygen != nullptr;
  CHECK(has_keygen);
}
