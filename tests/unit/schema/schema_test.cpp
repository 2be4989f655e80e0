#include <regex>

#include <doctest/doctest.h>

#include "k8s/quantity.h"
#include "schema/structural_schema.h"

using trainjob::Json;
using trainjob::Schema;
using trainjob::SchemaSet;

namespace {

std::vector<trainjob::SchemaProblem> problems(const char* value, const char* schema) {
  return SchemaSet().validate_against(Json::parse(value), Schema::parse(schema));
}

}  // namespace

TEST_CASE("schema: objects with properties are closed, with a suggestion for near misses") {
  auto found = problems(R"({"numProcsPerNode": 2, "numNodes": 1})",
                        R"({"type":"object","properties":{"numNodes":{"type":"integer"},
                            "numProcPerNode":{"x-kubernetes-int-or-string":true}}})");
  REQUIRE(found.size() == 1);
  CHECK(found[0].unknown_field);
  CHECK(found[0].path == "numProcsPerNode");
  CHECK(found[0].message == "unknown field \"numProcsPerNode\"; did you mean \"numProcPerNode\"?");
  CHECK(problems(R"({"x": 1})", R"({"type":"object","properties":{"a":{}},
                    "x-kubernetes-preserve-unknown-fields":true})")
            .empty());
  CHECK(problems(R"({"x": 1})", R"({"type":"object","additionalProperties":{"type":"integer"}})")
            .empty());
}

TEST_CASE("schema: int-or-string refuses floats in CRDs, with a hint") {
  auto found = problems("2.5", R"({"x-kubernetes-int-or-string":true})");
  REQUIRE(found.size() == 1);
  CHECK(found[0].message ==
        "expected an integer or a string, found number 2.5 (write it as a "
        "string: \"2.5\")");
  CHECK(problems("\"2.5\"", R"({"x-kubernetes-int-or-string":true})").empty());
  trainjob::SchemaOptions built_in;
  built_in.built_in_types = true;
  CHECK(SchemaSet(built_in)
            .validate_against(Json(2.5), Schema::parse(R"({"x-kubernetes-int-or-string":true})"))
            .empty());
}

TEST_CASE("schema: nulls read as absent; bounds, lengths, formats and list maps") {
  CHECK(problems("null", R"({"type":"integer"})").empty());
  CHECK(problems("0", R"({"type":"integer","minimum":1})").size() == 1);
  CHECK(problems("3000000000", R"({"type":"integer","format":"int32"})").size() == 1);
  CHECK(problems("\"abcdef\"", R"({"type":"string","maxLength":5})").size() == 1);
  CHECK(problems("\"日本語\"", R"({"type":"string","maxLength":3})").empty());
  auto found = problems(R"([{"name":"a","v":1},{"name":"a","v":2}])",
                        R"({"type":"array","x-kubernetes-list-type":"map",
                            "x-kubernetes-list-map-keys":["name"]})");
  REQUIRE(found.size() == 1);
  CHECK(found[0].message == "two items have the same [\"name\"]: items 0 and 1");
}

TEST_CASE("schema: the quantity pattern is checked by the quantity parser, with the same answers") {
  const std::string pattern =
      "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+("
      "\\.[0-9]*)?)|(\\.[0-9]+))))?$";
  const std::regex regex(pattern);
  const Schema schema = {{"type", "string"}, {"pattern", pattern}};
  for (const char* text :
       {"1",   "2500m", "1.5Gi", "+1", "-1",   ".5",    "5.",  "1e3", "1E-2", "100n",
        "8Ei", "",      "two",   "1K", "1 Gi", "1.2.3", "--1", "1e",  "Gi",   "0x10"}) {
    CAPTURE(text);
    bool by_regex = std::regex_search(std::string(text), regex);
    CHECK(SchemaSet().validate_against(Json(text), schema).empty() == by_regex);
  }
}
