#include <map>

#include <doctest/doctest.h>

#include "load/field_path.h"
#include "load/input_files.h"
#include "load/scalar.h"
#include "load/yaml_loader.h"

using trainjob::Diagnostics;
using trainjob::Json;
using trainjob::load_documents;
using trainjob::resolve_plain_scalar;

TEST_CASE("loader: plain scalars resolve as Kubernetes reads them") {
  CHECK(resolve_plain_scalar("0644") == 420);
  CHECK(resolve_plain_scalar("0x1F") == 31);
  CHECK(resolve_plain_scalar("1_000") == 1000);
  CHECK(resolve_plain_scalar("-7") == -7);
  CHECK(resolve_plain_scalar("2.5").is_number_float());
  CHECK(resolve_plain_scalar("1e3").is_number_float());
  CHECK(resolve_plain_scalar("yes") == true);
  CHECK(resolve_plain_scalar("Off") == false);
  CHECK(resolve_plain_scalar("~").is_null());
  CHECK(resolve_plain_scalar("").is_null());
  CHECK(resolve_plain_scalar("2500m") == "2500m");
  CHECK(resolve_plain_scalar("1Gi") == "1Gi");
  CHECK(resolve_plain_scalar("v1.2") == "v1.2");
  CHECK(resolve_plain_scalar("0") == 0);
  CHECK(resolve_plain_scalar("29500") == 29500);
  CHECK(resolve_plain_scalar("123456789012345678") == 123456789012345678);
  CHECK(resolve_plain_scalar("9223372036854775807") == 9223372036854775807);
  CHECK(resolve_plain_scalar("18446744073709551615").is_number_unsigned());
  CHECK(resolve_plain_scalar("12a") == "12a");
  CHECK(resolve_plain_scalar("Y") == true);
  CHECK(resolve_plain_scalar("n") == false);
  CHECK(resolve_plain_scalar("nO") == "nO");
  CHECK(resolve_plain_scalar("NULL").is_null());
}

TEST_CASE("loader: positions of values and keys, quoted scalars stay strings") {
  Diagnostics d;
  auto docs = load_documents("a.yaml", "kind: X\nspec:\n  n: \"3\"\n  list:\n  - a: 1\n", &d);
  REQUIRE(docs.size() == 1);
  CHECK_FALSE(d.has_errors());
  CHECK(docs[0].value["spec"]["n"] == "3");
  CHECK(docs[0].pos_of("spec.n").line == 3);
  CHECK(docs[0].pos_of("spec.n").column == 6);
  CHECK(docs[0].key_pos_of("spec.n").column == 3);
  CHECK(docs[0].pos_of("spec.list[0].a").line == 5);
  CHECK(docs[0].pos_of("spec.list[0].missing").line == 5);  // nearest written ancestor
}

TEST_CASE("loader: streams, empty documents, Lists and errors") {
  Diagnostics d;
  auto docs = load_documents("s.yaml", "---\nkind: A\n---\n---\nkind: B\n", &d);
  REQUIRE(docs.size() == 2);
  CHECK(docs[1].index == 2);
  docs = load_documents("l.json", R"({"kind":"List","items":[{"kind":"A"},{"kind":"B"}]})", &d);
  REQUIRE(docs.size() == 2);
  CHECK(docs[1].kind() == "B");
  CHECK_FALSE(d.has_errors());
  load_documents("dup.yaml", "a: 1\na: 2\n", &d);
  CHECK(d.error_count() == 1);
  load_documents("bad.yaml", "a: \"unterminated\n", &d);
  CHECK(d.error_count() == 2);
  load_documents("scalar.yaml", "just text\n", &d);
  CHECK(d.error_count() == 3);
  CHECK(d.all()[1].file == "bad.yaml");
}

TEST_CASE("loader: field paths") {
  CHECK(trainjob::field_child("spec", "trainer") == "spec.trainer");
  CHECK(trainjob::field_child("", "spec") == "spec");
  CHECK(trainjob::field_child("metadata.labels", "app.kubernetes.io/name") ==
        "metadata.labels[app.kubernetes.io/name]");
  CHECK(trainjob::field_index("spec.env", 2) == "spec.env[2]");
  CHECK(trainjob::field_parent("spec.env[2].name") == "spec.env[2]");
  CHECK(trainjob::field_parent("spec.env[2]") == "spec.env");
  CHECK(trainjob::field_parent("metadata.labels[a.b/c]") == "metadata.labels");
  CHECK(trainjob::field_parent("spec").empty());
}

namespace {

/// An in-memory filesystem: paths ending in '/' are directories.
class MemoryFileSystem : public trainjob::FileSystem {
 public:
  std::map<std::string, std::string> files;
  Kind stat(const std::string& path) const override {
    if (files.count(path)) return Kind::kFile;
    for (const auto& entry : files) {
      if (entry.first.rfind(path + "/", 0) == 0) return Kind::kDirectory;
    }
    return Kind::kMissing;
  }
  bool read_file(const std::string& path, std::string* contents, std::string*) const override {
    *contents = files.at(path);
    return true;
  }
  bool list_directory(const std::string& path, std::vector<std::string>* names,
                      std::string*) const override {
    names->clear();
    for (const auto& entry : files) {
      if (entry.first.rfind(path + "/", 0) != 0) continue;
      std::string rest = entry.first.substr(path.size() + 1);
      std::string name = rest.substr(0, rest.find('/'));
      if (names->empty() || names->back() != name) names->push_back(name);
    }
    return true;
  }
};

}  // namespace

TEST_CASE("inputs: directories take manifest files in name order, -R recurses, - is stdin") {
  MemoryFileSystem fs;
  fs.files = {{"d/b.yaml", "kind: B\n"},
              {"d/a.json", R"({"kind":"A"})"},
              {"d/notes.txt", "kind: T\n"},
              {"d/sub/c.yml", "kind: C\n"},
              {"x.txt", "kind: X\n"}};
  Diagnostics d;
  auto stdin_reader = [] { return std::string("kind: S\n"); };
  auto kinds = [](const std::vector<trainjob::Document>& docs) {
    std::string out;
    for (const auto& doc : docs)
      out += doc.kind();
    return out;
  };
  CHECK(kinds(trainjob::load_inputs({{"d"}, false}, fs, stdin_reader, &d)) == "AB");
  CHECK(kinds(trainjob::load_inputs({{"d"}, true}, fs, stdin_reader, &d)) == "ABC");
  CHECK(kinds(trainjob::load_inputs({{"x.txt", "-"}, false}, fs, stdin_reader, &d)) == "XS");
  CHECK_FALSE(d.has_errors());
  trainjob::load_inputs({{"missing.yaml"}, false}, fs, stdin_reader, &d);
  CHECK(d.error_count() == 1);
}

TEST_CASE("loader: duplicate keys are found in large mappings too; deep nesting is an error") {
  std::string text;
  for (int i = 0; i < 40; ++i)
    text += "k" + std::to_string(i) + ": " + std::to_string(i) + "\n";
  Diagnostics d;
  CHECK(load_documents("big.yaml", text, &d).size() == 1);
  CHECK_FALSE(d.has_errors());
  load_documents("big.yaml", text + "k7: again\n", &d);
  REQUIRE(d.error_count() == 1);
  CHECK(d.all()[0].pos.line == 41);
  CHECK(d.all()[0].path == "k7");
  load_documents("deep.yaml", "a: " + std::string(3000, '[') + std::string(3000, ']') + "\n", &d);
  REQUIRE(d.error_count() == 2);
  CHECK(d.all()[1].message.find("levels deep") != std::string::npos);
}

TEST_CASE("loader: List items keep their own positions; aliases count as copies") {
  Diagnostics d;
  auto docs = load_documents("l.yaml",
                             "kind: List\n"
                             "apiVersion: v1\n"
                             "items:\n"
                             "- kind: A\n"
                             "  spec: {x: 1}\n"
                             "- kind: B\n"
                             "  spec:\n"
                             "    y: 2\n",
                             &d);
  REQUIRE(docs.size() == 2);
  CHECK(docs[1].pos_of("spec.y").line == 8);
  CHECK(docs[1].pos_of("spec.y").column == 8);
  CHECK(docs[1].key_pos_of("spec.y").column == 5);
  CHECK(docs[0].pos_of("spec.x").line == 5);
  docs = load_documents("a.yaml",
                        "base: &b {p: 1, q: [1, 2]}\n"
                        "copy: *b\n"
                        "after: 3\n",
                        &d);
  REQUIRE(docs.size() == 1);
  CHECK(docs[0].value["copy"]["q"][1] == 2);
  CHECK(docs[0].pos_of("copy.q").line == 2);
  CHECK(docs[0].pos_of("after").line == 3);
  CHECK(docs[0].pos_of("after").column == 8);
  CHECK_FALSE(d.has_errors());
}

TEST_CASE("loader: alias bombs and unknown anchors are errors, not hangs") {
  std::string bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
  char previous = 'a';
  for (char name = 'b'; name <= 'k'; ++name, ++previous) {
    bomb += std::string(1, name) + ": &" + name + " [";
    for (int i = 0; i < 10; ++i)
      bomb += std::string(i ? ", *" : "*") + previous;
    bomb += "]\n";
  }
  Diagnostics d;
  CHECK(load_documents("bomb.yaml", bomb, &d).empty());
  REQUIRE(d.error_count() == 1);
  CHECK(d.all()[0].message.find("alias expansion") != std::string::npos);
  CHECK(load_documents("alias.yaml", "a: *nowhere\n", &d).empty());
  CHECK(d.error_count() == 2);
}

TEST_CASE("loader: a large stream parsed in parallel pieces keeps positions and order") {
  std::string text;
  int line = 1;
  for (int i = 0; i < 12000; ++i) {
    text += "---\nkind: K\nmetadata:\n  name: doc-" + std::to_string(i) +
            "\ndata:\n  text: " + std::string(100, 'x') + "\n";
    line += 6;
  }
  REQUIRE(text.size() > (1 << 20));
  Diagnostics d;
  auto docs = load_documents("big.yaml", text, &d);
  REQUIRE(docs.size() == 12000);
  CHECK_FALSE(d.has_errors());
  CHECK(docs[11999].name() == "doc-11999");
  CHECK(docs[11999].index == 11999);
  CHECK(docs[11999].pos_of("metadata.name").line == line - 3);
  CHECK(docs[6000].pos_of("data.text").line == 6000 * 6 + 6);
  load_documents("broken.yaml", text + "---\nkind: K\nkind: again\n", &d);
  REQUIRE(d.error_count() == 1);
  CHECK(d.all()[0].pos.line == line + 2);
}

TEST_CASE("loader: YAML merge keys add what the mapping does not set, in order, with positions") {
  Diagnostics d;
  auto docs = load_documents("merge.yaml",
                             "base: &base {a: 1, b: 2}\n"
                             "more: &more {b: 20, c: 30}\n"
                             "one:\n"
                             "  <<: *base\n"
                             "  b: 5\n"
                             "many:\n"
                             "  x: 0\n"
                             "  <<: [*more, *base]\n"
                             "after: [1, 2]\n",
                             &d);
  REQUIRE(docs.size() == 1);
  CHECK_FALSE(d.has_errors());
  const Json& value = docs[0].value;
  CHECK(value["one"] == Json::parse(R"({"b":5,"a":1})"));
  CHECK(value["many"] == Json::parse(R"({"x":0,"b":20,"c":30,"a":1})"));
  CHECK(docs[0].pos_of("one.b").line == 5);
  CHECK(docs[0].pos_of("many.x").line == 7);
  CHECK(docs[0].pos_of("after[1]").line == 9);
  CHECK(docs[0].pos_of("after[1]").column == 12);
  load_documents("bad.yaml", "a:\n  <<: 3\n", &d);
  CHECK(d.error_count() == 1);
}
