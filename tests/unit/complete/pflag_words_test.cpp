#include "complete/pflag_words.h"

#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "complete/cli_model.h"

using trainjob::CliCommand;
using trainjob::pflag_words;
using Words = std::vector<std::string>;

namespace {

// A command line shaped like the plugin's, built by hand.
CliCommand pflag_root() {
  CliCommand status{"status", "Show", false, {}, {{"NAME", "TRAINJOB", {}}}, {}};
  status.flags = {{"output", "o", "Output", true, false, "TEXT", {}},
                  {"namespace", "n", "Namespace", true, false, "NAMESPACE", {}},
                  {"watch", "w", "Watch", false, false, "", {}},
                  {"all", "A", "All", false, false, "", {}},
                  {"", "x", "Short only", true, false, "TEXT", {}},
                  {"dry-run", "d", "Dry run", true, false, "TEXT", {}, true}};
  CliCommand runtimes{"runtimes", "List", false, {}, {}, {status}};
  CliCommand hidden{"__complete", "", true, {}, {}, {}, true};
  return CliCommand{"kubectl trainjob", "", false, {}, {}, {status, runtimes, hidden}};
}

}  // namespace

TEST_CASE("pflag_words: a short flag's value after '=' is the value, as pflag reads it") {
  CliCommand root = pflag_root();
  CHECK(pflag_words(root, {"status", "x", "-o=json"}) == Words{"status", "x", "--output=json"});
  CHECK(pflag_words(root, {"status", "-o=jsonpath={.a}"}) ==
        Words{"status", "--output=jsonpath={.a}"});
  CHECK(pflag_words(root, {"status", "-o==v"}) == Words{"status", "--output==v"});
  CHECK(pflag_words(root, {"status", "-o="}) == Words{"status", "--output="});
  CHECK(pflag_words(root, {"status", "-x=v"}) == Words{"status", "-xv"});
  // A subcommand's flags are its own.
  CHECK(pflag_words(root, {"runtimes", "status", "-n=a"}) ==
        Words{"runtimes", "status", "--namespace=a"});
}

TEST_CASE("pflag_words: switches take =true and =false, and combine") {
  CliCommand root = pflag_root();
  CHECK(pflag_words(root, {"status", "-w=false"}) == Words{"status", "--watch=false"});
  CHECK(pflag_words(root, {"status", "-wA"}) == Words{"status", "-w", "-A"});
  CHECK(pflag_words(root, {"status", "-wn=ns"}) == Words{"status", "-w", "--namespace=ns"});
  CHECK(pflag_words(root, {"status", "-wojson"}) == Words{"status", "-w", "-ojson"});
}

TEST_CASE("pflag_words: values in a word of their own, and what follows --, are kept") {
  CliCommand root = pflag_root();
  CHECK(pflag_words(root, {"status", "-o", "-n=x"}) == Words{"status", "-o", "-n=x"});
  CHECK(pflag_words(root, {"status", "--output", "-n=x"}) == Words{"status", "--output", "-n=x"});
  CHECK(pflag_words(root, {"status", "--", "-o=json"}) == Words{"status", "--", "-o=json"});
  CHECK(pflag_words(root, {"status", "-o", "=json"}) == Words{"status", "-o", "=json"});
  // An optional value comes only after '=': the next word is not the flag's.
  CHECK(pflag_words(root, {"status", "--dry-run", "-o=json"}) ==
        Words{"status", "--dry-run", "--output=json"});
  CHECK(pflag_words(root, {"__complete", "status", "-o=json"}) ==
        Words{"__complete", "status", "-o=json"});
}

TEST_CASE("pflag_words: unknown flags are left for CLI11 to report") {
  CliCommand root = pflag_root();
  CHECK(pflag_words(root, {"status", "-q=1"}) == Words{"status", "-q=1"});
  CHECK(pflag_words(root, {"status", "-wq=1"}) == Words{"status", "-w", "-q=1"});
  CHECK(pflag_words(root, {"nothing", "-o=1"}) == Words{"nothing", "-o=1"});
}
