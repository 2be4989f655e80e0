// Lazily parsed schemas: each level is the same as the whole parse's, placeholders stand
// only for large subschemas, and checking against one finds the same problems.
#include "schema/lazy_schema.h"

#include <string>

#include <doctest/doctest.h>

#include "embed/embedded.h"
#include "schema/structural_schema.h"

using trainjob::Json;
using trainjob::kLazyKeyword;
using trainjob::kLazySchemaBytes;
using trainjob::LazySchemaText;
using trainjob::Schema;

namespace {

/// `schema`, built from `text`, with every placeholder replaced by what it stands for,
/// level by level.
Schema expand_all(const LazySchemaText& text, Schema schema) {
  if (!schema.is_object()) return schema;
  if (schema.contains(kLazyKeyword)) return expand_all(text, text.build(schema));
  if (schema.contains("properties") && schema["properties"].is_object()) {
    for (auto& property : schema["properties"].items())
      property.value() = expand_all(text, property.value());
  }
  for (const char* key : {"items", "additionalProperties"}) {
    if (schema.contains(key)) schema[key] = expand_all(text, schema[key]);
  }
  return schema;
}

size_t count_placeholders(const Schema& schema) {
  if (schema.is_object() && schema.contains(kLazyKeyword)) return 1;
  size_t count = 0;
  if (schema.is_object() || schema.is_array()) {
    for (const Schema& child : schema)
      count += count_placeholders(child);
  }
  return count;
}

/// `text` built lazily and expanded again, with the number of placeholders on the way.
Schema round_trip(std::string_view text, size_t* placeholders = nullptr) {
  LazySchemaText lazy(text);
  Schema top = lazy.build(0);
  if (placeholders != nullptr) *placeholders += count_placeholders(top);
  return expand_all(lazy, top);
}

/// A string of `n` x's, to make a subschema long enough to be left as text.
std::string padding(size_t n) {
  return std::string(n, 'x');
}

}  // namespace

TEST_CASE("lazy schema: every embedded schema, expanded level by level, is the whole parse") {
  size_t placeholders = 0;
  for (const trainjob::EmbeddedFile& file : trainjob::embedded_schemas()) {
    CAPTURE(file.path);
    CHECK(round_trip(file.contents, &placeholders) == Schema::parse(file.contents));
  }
  CHECK(placeholders > 0);
}

TEST_CASE("lazy schema: only subschemas longer than the threshold stay text") {
  std::string large = R"({"type":"string","pattern":")" + padding(kLazySchemaBytes) + R"("})";
  std::string text = R"({"type":"object","properties":{"small":{"type":"integer"},"large":)" +
                     large + R"(},"items":)" + large + R"(,"required":["small"]})";
  LazySchemaText lazy(text);
  Schema schema = lazy.build(7);
  CHECK(schema["properties"]["small"] == Schema::parse(R"({"type":"integer"})"));
  size_t at = text.find(large);
  CHECK(schema["properties"]["large"] ==
        Schema{{kLazyKeyword, Schema::array({7, at, at + large.size()})}});
  CHECK(lazy.build(schema["properties"]["large"]) == Schema::parse(large));
  CHECK(schema["items"].contains(kLazyKeyword));
  CHECK(schema["required"] == Schema::array({"small"}));
}

TEST_CASE("lazy schema: strings with brackets, quotes and escapes, numbers and literals") {
  std::string text = R"( {"properties": {"a\"b": {"enum": ["}", "]\\", "{\"", 1.5e3, true, null]},
      "c": {"minimum": 0, "description": ")" +
                     padding(kLazySchemaBytes) + R"(" } },
      "maxProperties": 12 , "x-kubernetes-preserve-unknown-fields": false} )";
  size_t placeholders = 0;
  CHECK(round_trip(text, &placeholders) == Schema::parse(text));
  CHECK(placeholders == 1);
  CHECK(LazySchemaText(text).build(0)["properties"].contains("a\"b"));
}

TEST_CASE("lazy schema: checking through placeholders finds what the whole schema finds") {
  std::string deep = R"({"type":"object","properties":{"limit":{"type":"integer","minimum":1},
      "name":{"type":"string","description":")" +
                     padding(kLazySchemaBytes) + R"("}}})";
  std::string text = R"({"type":"object","required":["spec"],"properties":{"spec":)" + deep +
                     R"(,"list":{"type":"array","items":)" + deep + R"(}}})";
  Json value = Json::parse(R"({"spec":{"limit":0,"nmae":"x"},"list":[{"limit":"2"}]})");
  trainjob::SchemaSet lazy_set;
  Schema lazy = lazy_set.parse_lazily(text);
  lazy_set.prepare(lazy);
  auto found = lazy_set.validate_against(value, lazy);
  auto whole = trainjob::SchemaSet().validate_against(value, Schema::parse(text));
  REQUIRE(found.size() == 3);
  REQUIRE(found.size() == whole.size());
  for (size_t i = 0; i < found.size(); ++i) {
    CHECK(found[i].path == whole[i].path);
    CHECK(found[i].message == whole[i].message);
    CHECK(found[i].unknown_field == whole[i].unknown_field);
  }
  // Checked again, the expansions are reused and the answer is the same.
  CHECK(lazy_set.validate_against(value, lazy).size() == 3);
}
