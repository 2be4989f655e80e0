#include "load/typing_checks.h"

#include <string>

#include <doctest/doctest.h>

#include "load/curly_quotes.h"
#include "load/input_files.h"

using trainjob::Diagnostics;

namespace {

/// "line:col message" of the first finding, or "" when the text passes.
std::string typing_finding(const std::string& text) {
  Diagnostics d;
  if (trainjob::check_typing("t.yaml", text, 0, &d)) return "";
  const trainjob::Diagnostic& first = d.all().front();
  return std::to_string(first.pos.line) + ":" + std::to_string(first.pos.column) + " " +
         first.message;
}

/// Every finding as "line:col error|warning message", one per line; "" when there is none.
std::string typing_findings(const std::string& text) {
  Diagnostics d;
  trainjob::check_typing("t.yaml", text, 0, &d);
  std::string out;
  for (const trainjob::Diagnostic& f : d.all())
    out += std::to_string(f.pos.line) + ":" + std::to_string(f.pos.column) +
           (f.severity == trainjob::Severity::kError ? " error " : " warning ") + f.message + "\n";
  return out;
}

}  // namespace

TEST_CASE("typing: full-width punctuation where YAML reads syntax is found where it is") {
  CHECK(typing_finding("metadata:\n  # 注释，这里\n  name： demo\n") ==
        "3:7 invalid YAML: full-width colon U+FF1A: use ':'");
  CHECK(typing_finding("spec:\n  trainer:\n    numNodes：2\n") ==
        "3:13 invalid YAML: full-width colon U+FF1A: use ':'");
  CHECK(typing_finding("spec:\n\u3000\u3000name: x\n") ==
        "2:1 invalid YAML: full-width space U+3000 in the indentation: use ' '");
  CHECK(typing_finding("metadata:\n  name:\u3000demo\n") ==
        "2:8 invalid YAML: full-width space U+3000: use ' '");
  CHECK(typing_finding("args: [a，b]\n") == "1:9 invalid YAML: full-width comma U+FF0C: use ','");
  CHECK(typing_finding("args:\n－ a\n") ==
        "2:1 invalid YAML: full-width hyphen-minus U+FF0D: use '-'");
  CHECK(typing_finding("a: 1\nkey；x: 2\n") ==
        "2:4 invalid YAML: full-width semicolon U+FF1B: use ';'");
}

TEST_CASE("typing: full-width text in strings, comments, block scalars and values is content") {
  CHECK(typing_finding("# 说明：这是注释，不是语法\n"
                       "description: \"你好，世界：一\"\n"
                       "title: '（引号）'\n"
                       "note: 训练：第一步，第二步\n"
                       "args:\n"
                       "- echo 你好：世界\n"
                       "- \"－ 不是列表\"\n"
                       "- hello，world；(ok)\n"
                       "script: |\n"
                       "  name： 这是脚本\n"
                       "  \tindented with a tab after the block's indentation\n"
                       "quote: “only an opening mark\n"
                       "said: “你好”和“再见”\n"
                       "en: ‘it’s’\n"
                       "after: ok  # 注释：\n") == "");
}

TEST_CASE("typing: curly quotes around a plain value are its text, a warning that loads") {
  const char* kDouble =
      "keeps its quotation marks U+201C U+201D as text; if they were meant as "
      "YAML quotes, use '\"'";
  // A value after `key: ` or `- `, with a comment after it or not: YAML reads the same
  // string, quotes and all, so the document still loads (check_typing is true).
  Diagnostics d;
  CHECK(trainjob::check_typing("t.yaml", "env:\n- value: “你好”\n", 0, &d));
  CHECK(typing_findings("env:\n- value: “你好”\n") ==
        std::string("2:10 warning value “你好” ") + kDouble + "\n");
  CHECK(typing_findings("args:\n- “a b”  # note\n") ==
        std::string("2:3 warning value “a b” ") + kDouble + "\n");
  CHECK(typing_findings("name: ‘demo’\n") ==
        "1:7 warning value ‘demo’ keeps its quotation marks U+2018 U+2019 as text; if they "
        "were meant as YAML quotes, use \"'\"\n");
  CHECK(typing_findings("a: “”\nb: “x”\n") == std::string("1:4 warning value “” ") + kDouble +
                                                  "\n2:4 warning value “x” " + kDouble + "\n");
  // A long value is shortened in the message, not in what loads.
  CHECK(typing_findings("d: “" + std::string(50, 'x') + "”\n") ==
        "1:4 warning value “" + std::string(40, 'x') + "...” " + kDouble + "\n");
}

TEST_CASE("typing: curly quotes YAML's quotes were needed for are an error") {
  const char* kLeft = " error invalid YAML: left double quotation mark U+201C: use '\"'\n";
  // Around a key, in a list item or not: the key would keep the marks.
  CHECK(typing_findings("“name”: demo\n") == std::string("1:1") + kLeft);
  CHECK(typing_findings("env:\n- “name”: demo\n") == std::string("2:3") + kLeft);
  CHECK(typing_findings("‘name’: demo\n") ==
        "1:1 error invalid YAML: left single quotation mark U+2018: use \"'\"\n");
  // Around `: ` (a mapping to YAML) or ` #` (a comment to YAML) that quotes would protect.
  CHECK(typing_findings("value: “a: b”\n") == std::string("1:8") + kLeft);
  CHECK(typing_findings("- “a: b”\n") == std::string("1:3") + kLeft);
  CHECK(typing_findings("value: “a #b”\n") == std::string("1:8") + kLeft);
  // In a flow collection, anywhere.
  CHECK(typing_findings("args: [“a”, “b”]\n") == std::string("1:8") + kLeft);
  CHECK(typing_findings("env: {k: “v”}\n") == std::string("1:10") + kLeft);
  // An error still drops the document.
  Diagnostics d;
  CHECK_FALSE(trainjob::check_typing("t.yaml", "“name”: demo\n", 0, &d));
}

TEST_CASE("classify_curly_quotes: a pair around the value, around syntax, or inside text") {
  using trainjob::classify_curly_quotes;
  using trainjob::CurlyQuotes;
  CHECK(classify_curly_quotes("“你好”", 0) == CurlyQuotes::kText);
  CHECK(classify_curly_quotes("v: “x”  \t", 3) == CurlyQuotes::kText);
  CHECK(classify_curly_quotes("“x” # “c”", 0) == CurlyQuotes::kText);
  CHECK(classify_curly_quotes("“a:b”", 0) == CurlyQuotes::kText);  // no blank after the colon
  CHECK(classify_curly_quotes("“a#b”", 0) == CurlyQuotes::kText);  // no blank before the #
  CHECK(classify_curly_quotes("“a:”", 0) == CurlyQuotes::kText);
  CHECK(classify_curly_quotes("“k”:", 0) == CurlyQuotes::kSyntax);
  CHECK(classify_curly_quotes("“a #b”", 0) == CurlyQuotes::kSyntax);
  CHECK(classify_curly_quotes("“a: b” # c", 0) == CurlyQuotes::kSyntax);
  CHECK(classify_curly_quotes("“k” : v", 0) == CurlyQuotes::kSyntax);
  CHECK(classify_curly_quotes("“a”#b", 0) == CurlyQuotes::kContent);
  CHECK(classify_curly_quotes("“a", 0) == CurlyQuotes::kContent);
  CHECK(classify_curly_quotes("“a” b", 0) == CurlyQuotes::kContent);
  CHECK(classify_curly_quotes("‘it’s’", 0) == CurlyQuotes::kContent);
  CHECK(classify_curly_quotes("‘a”", 0) == CurlyQuotes::kContent);  // marks that do not pair
}

TEST_CASE("typing: a tab in the indentation is named at its own column") {
  CHECK(typing_finding("spec:\n  runtimeRef:\n  \tname: x\n") ==
        "3:3 invalid YAML: a tab character in the indentation; YAML indents with spaces only");
  // Blank lines and comments may hold tabs; a tab after a key's colon is a separator.
  CHECK(typing_finding("a:\n\t\n\t# c\n  b:\tx\n") == "");
}

TEST_CASE("typing: a Helm template is recognised, once") {
  std::string found = typing_finding(
      "metadata:\n  name: {{ .Values.name }}\n  labels:\n    {{- include \"l\" . | nindent 4 }}\n");
  CHECK(found.rfind("2:9 this looks like a Helm template", 0) == 0);
  CHECK(found.find("--post-renderer") != std::string::npos);
  CHECK(typing_finding("image: \"{{ .Values.image }}\"\n").rfind("1:9 this looks like", 0) == 0);
  // Braces that are not a template action, and a template inside a script, are content.
  CHECK(typing_finding("a: '{{x}}'\nscript: |\n  echo {{ .Values.x }}\n") == "");
}

TEST_CASE("input files: a directory walk leaves out kustomize's file and hidden entries") {
  CHECK(trainjob::skipped_entry_reason("kustomization.yaml", false).find("kustomize") == 0);
  CHECK(trainjob::skipped_entry_reason(".job.yaml", false) == "a hidden file");
  CHECK(trainjob::skipped_entry_reason(".git", true) == "a hidden directory");
  CHECK(trainjob::skipped_entry_reason("job.yaml", false).empty());
  CHECK(trainjob::skipped_entry_reason("kustomization.yaml", true).empty());
}

TEST_CASE("wide_digits_hint: a number typed in full-width digits, and nothing else") {
  using trainjob::wide_digits_hint;
  CHECK(wide_digits_hint("２") ==
        "; full-width digits U+FF10-U+FF19 (an input method's full-width mode): use 2");
  CHECK(wide_digits_hint("１６") ==
        "; full-width digits U+FF10-U+FF19 (an input method's full-width mode): use 16");
  CHECK(wide_digits_hint("1６") ==
        "; full-width digits U+FF10-U+FF19 (an input method's full-width mode): use 16");
  CHECK(wide_digits_hint("－０．５") ==
        "; full-width digits U+FF10-U+FF19 (an input method's full-width mode): use -0.5");
  CHECK(wide_digits_hint("2").empty());
  CHECK(wide_digits_hint("").empty());
  CHECK(wide_digits_hint("２个").empty());
  CHECK(wide_digits_hint("v２").empty());
}
