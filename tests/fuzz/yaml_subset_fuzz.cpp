// Differential libFuzzer target: wherever BlockEventReader reads a text, its events must
// be libyaml's, mark for mark and value for value. A difference aborts with both listings.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "../support/yaml_events.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::optional<std::string> fast = trainjob::testing::block_subset_events(text);
  if (!fast) return 0;
  std::string reference = trainjob::testing::libyaml_events(text);
  if (*fast != reference) {
    std::fprintf(stderr, "BlockEventReader:\n%s\nlibyaml:\n%s\n", fast->c_str(), reference.c_str());
    std::abort();
  }
  return 0;
}
