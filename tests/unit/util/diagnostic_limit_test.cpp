#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "diag/diagnostic.h"

using trainjob::Diagnostic;
using trainjob::Diagnostics;
using trainjob::Severity;

namespace {

/// Findings in a shuffled order, with repeats: some said twice alike, some said once as an
/// error and once as a warning (the error must win, kept or not).
std::vector<Diagnostic> shuffled_findings(unsigned seed) {
  std::mt19937 random(seed);
  std::vector<Diagnostic> findings;
  for (int i = 0; i < 400; ++i) {
    Diagnostic d;
    d.severity = random() % 5 == 0 ? Severity::kError : Severity::kWarning;
    d.file = "f" + std::to_string(random() % 3) + ".yaml";
    d.pos = {static_cast<int>(random() % 50) + 1, static_cast<int>(random() % 4) + 1};
    d.path = random() % 2 == 0 ? "spec.trainer" : "";
    d.message = "finding " + std::to_string(random() % 7);
    findings.push_back(d);
    if (random() % 6 == 0) findings.push_back(d);
    if (random() % 8 == 0) {
      d.severity = d.severity == Severity::kError ? Severity::kWarning : Severity::kError;
      findings.push_back(d);
    }
  }
  std::shuffle(findings.begin(), findings.end(), random);
  return findings;
}

int errors_in(const std::vector<Diagnostic>& findings) {
  int count = 0;
  for (const Diagnostic& d : findings)
    count += d.severity == Severity::kError ? 1 : 0;
  return count;
}

}  // namespace

/// What a limit shows of the sorted `report`: its first `limit` errors, then as many of its
/// first warnings as fit, in report order; the rest in `*rest`.
std::vector<Diagnostic> expected_shown(const std::vector<Diagnostic>& report, size_t limit,
                                       std::vector<Diagnostic>* rest) {
  size_t errors = static_cast<size_t>(errors_in(report));
  size_t warning_places = limit > errors ? limit - errors : 0;
  size_t error_places = std::min(limit, errors);
  std::vector<Diagnostic> shown;
  for (const Diagnostic& d : report) {
    size_t* places = d.severity == Severity::kError ? &error_places : &warning_places;
    if (*places > 0) {
      --*places;
      shown.push_back(d);
    } else {
      rest->push_back(d);
    }
  }
  return shown;
}

TEST_CASE("diagnostics: a limit keeps the first errors, then the first warnings, of the report") {
  for (unsigned seed = 1; seed <= 5; ++seed) {
    std::vector<Diagnostic> findings = shuffled_findings(seed);
    Diagnostics whole;
    for (const Diagnostic& d : findings)
      whole.add(d);
    whole.sort();
    const std::vector<Diagnostic>& report = whole.all();
    for (size_t limit : {size_t{1}, size_t{7}, size_t{100}, report.size(), report.size() + 5}) {
      CAPTURE(seed);
      CAPTURE(limit);
      Diagnostics bounded;
      bounded.set_limit(limit);
      for (const Diagnostic& d : findings)
        bounded.add(d);
      CHECK(bounded.has_errors() == whole.has_errors());
      bounded.sort();
      std::vector<Diagnostic> rest;
      std::vector<Diagnostic> shown = expected_shown(report, limit, &rest);
      REQUIRE(bounded.all().size() == shown.size());
      for (size_t i = 0; i < shown.size(); ++i) {
        CHECK(format_diagnostic(bounded.all()[i]) == format_diagnostic(shown[i]));
      }
      CHECK(bounded.errors_not_kept() == errors_in(rest));
      CHECK(bounded.warnings_not_kept() == static_cast<int>(rest.size()) - errors_in(rest));
      CHECK(bounded.error_count() == whole.error_count());
      CHECK(bounded.warning_count() == whole.warning_count());
    }
  }
}

TEST_CASE("diagnostics: the line that counts the findings not shown") {
  Diagnostics diagnostics;
  diagnostics.set_limit(2);
  for (int line = 1; line <= 1005; ++line) {
    Severity severity = line % 500 == 0 ? Severity::kError : Severity::kWarning;
    diagnostics.add({severity, "in.yaml", {line, 1}, "", "m"});
  }
  diagnostics.sort();
  // The two errors (lines 500 and 1000) take the places ahead of 1,003 warnings.
  REQUIRE(diagnostics.all().size() == 2);
  CHECK(diagnostics.all()[0].pos.line == 500);
  CHECK(diagnostics.all()[1].pos.line == 1000);
  CHECK(diagnostics.error_count() == 2);
  CHECK(trainjob::format_not_kept(diagnostics) ==
        "note: 1,003 more warnings not shown; only the first 2 findings are printed");

  Diagnostics few;
  few.set_limit(2);
  few.add({Severity::kWarning, "in.yaml", {1, 1}, "", "m"});
  few.sort();
  CHECK(trainjob::format_not_kept(few).empty());
  few.add({Severity::kWarning, "in.yaml", {2, 1}, "", "m"});
  few.add({Severity::kError, "in.yaml", {3, 1}, "", "m"});
  few.sort();
  CHECK(trainjob::format_not_kept(few) ==
        "note: 1 more warning not shown; only the first 2 findings are printed");
}
