// run --local's feedback and the terminal helper: the summary line, the live progress line,
// cleanPodPolicy as read from a legacy job, and colour (on, off, NO_COLOR, CLICOLOR_FORCE).
#include <cstdio>
#include <cstdlib>
#include <string>

#include <doctest/doctest.h>

#include "diag/diagnostic.h"
#include "local/live_progress.h"
#include "local/plan/local_success.h"
#include "local/run_summary.h"
#include "status/cluster_output.h"
#include "util/terminal.h"

using namespace trainjob;

namespace {

PodEnd end_exited(const std::string& label, int code) {
  PodEnd end;
  end.label = label;
  end.how = PodEnd::How::kExited;
  end.code = code;
  return end;
}

/// Sets an environment variable for one scope, restoring what was there.
class FeedbackEnv {
 public:
  FeedbackEnv(const char* name, const char* value) : name_(name) {
    const char* old = std::getenv(name);
    if (old != nullptr) old_ = old;
    had_ = old != nullptr;
    if (value != nullptr) {
      ::setenv(name, value, 1);
    } else {
      ::unsetenv(name);
    }
  }
  ~FeedbackEnv() {
    if (had_) {
      ::setenv(name_, old_.c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }

 private:
  const char* name_;
  std::string old_;
  bool had_ = false;
};

}  // namespace

TEST_CASE("summary: every pod with its exit code, and the time") {
  CHECK(format_run_summary(true, {end_exited("node-0", 0), end_exited("node-1", 0)}, 4.24) ==
        "succeeded: 2 pods (node-0 0, node-1 0) in 4.2s");
  PodEnd stopped;
  stopped.label = "worker-0";
  stopped.how = PodEnd::How::kStopped;
  stopped.stopped_by = "cleanPodPolicy Running";
  CHECK(format_run_summary(true, {end_exited("master-0", 0), stopped}, 0.5) ==
        "succeeded: 2 pods (master-0 0, worker-0 stopped by cleanPodPolicy Running) in 0.5s");
  PodEnd killed;
  killed.label = "node-0";
  killed.how = PodEnd::How::kSignaled;
  killed.code = 9;
  PodEnd not_started;
  not_started.label = "node-1";
  CHECK(format_run_summary(false, {killed, not_started}, 61) ==
        "failed: 2 pods (node-0 signal 9, node-1 not started) in 1m01s");
  CHECK(format_run_summary(true, {end_exited("node-0", 0)}, 0) ==
        "succeeded: 1 pod (node-0 0) in 0.0s");
}

TEST_CASE("summary: past 8 pods, only those that did not exit 0 are named") {
  std::vector<PodEnd> pods;
  for (int i = 0; i < 12; ++i)
    pods.push_back(end_exited("node-" + std::to_string(i), i == 5 ? 2 : 0));
  CHECK(format_run_summary(false, pods, 3725) == "failed: 12 pods (node-5 2, 11 more 0) in 1h02m");
  for (PodEnd& pod : pods)
    pod.code = 0;
  CHECK(format_run_summary(true, pods, 1) == "succeeded: 12 pods (12 more 0) in 1.0s");
}

TEST_CASE("summary: coloured only when asked") {
  CHECK(format_run_summary(true, {end_exited("node-0", 0)}, 1, true) ==
        "\033[32msucceeded:\033[0m 1 pod (node-0 0) in 1.0s");
  CHECK(
      format_run_summary(false, {end_exited("node-0", 1)}, 1, true).rfind("\033[1;31mfailed:", 0) ==
      0);
}

TEST_CASE("live progress: epoch, step/total, loss, ETA, cut to the terminal's width") {
  auto progress = parse_progress_line(
      R"(TRAINJOB_PROGRESS {"epoch":2,"epochs":5,"step":120,"totalSteps":300,"loss":0.53,)"
      R"("samplesPerSecond":99,"remainingSeconds":72})");
  REQUIRE(progress);
  CHECK(format_live_progress(*progress, "node-0", std::nullopt, 0) ==
        "[node-0] epoch 2/5, step 120/300 (40%), loss 0.53, ETA 1m12s");
  CHECK(format_live_progress(*progress, "", std::nullopt, 20) == "epoch 2/5, step 120/");
  // Without remainingSeconds, the estimate from the rate seen so far.
  auto bare = parse_progress_line(R"(TRAINJOB_PROGRESS {"epoch":1,"epochs":4})");
  REQUIRE(bare);
  CHECK(format_live_progress(*bare, "master-0", 30.0, 0) ==
        "[master-0] epoch 1/4 (25%), ETA 30.0s");
  CHECK(format_live_progress(*parse_progress_line("TRAINJOB_PROGRESS {\"acc\":1}"), "", {}, 0) ==
        "progress");
}

TEST_CASE("live progress: the time left at the rate seen so far") {
  // 10% done at 0s, 30% at 20s: 10s per 10%, 70% to go.
  CHECK(*estimate_remaining(0.1, 0, 0.3, 20) == doctest::Approx(70));
  CHECK_FALSE(estimate_remaining(0.3, 0, 0.3, 20));  // no progress since
  CHECK_FALSE(estimate_remaining(0.1, 5, 0.3, 5));   // no time since
}

TEST_CASE("cleanPodPolicy: the annotation on the kind's Jobs, else None") {
  Json job = {{"kind", "Job"},
              {"metadata",
               {{"annotations",
                 {{"kubectl-trainjob/source-kind", "PyTorchJob"},
                  {"kubectl-trainjob/clean-pod-policy", "Running"}}}}}};
  CHECK(local_success_rule({job})->clean_pod_policy == CleanPodPolicy::kRunning);
  job["metadata"]["annotations"].erase("kubectl-trainjob/clean-pod-policy");
  CHECK(local_success_rule({job})->clean_pod_policy == CleanPodPolicy::kNone);
  CHECK(parse_clean_pod_policy("All") == CleanPodPolicy::kAll);
  CHECK(std::string(clean_pod_policy_name(CleanPodPolicy::kRunning)) == "Running");
}

TEST_CASE("colour: NO_COLOR turns it off, CLICOLOR_FORCE on when not a terminal") {
  std::FILE* file = std::tmpfile();
  REQUIRE(file != nullptr);
  {
    FeedbackEnv no_color("NO_COLOR", nullptr);
    FeedbackEnv force("CLICOLOR_FORCE", nullptr);
    CHECK_FALSE(is_terminal(file));
    CHECK_FALSE(color_enabled(file));
  }
  {
    FeedbackEnv no_color("NO_COLOR", nullptr);
    FeedbackEnv force("CLICOLOR_FORCE", "1");
    CHECK(color_enabled(file));
  }
  {
    FeedbackEnv no_color("NO_COLOR", "1");
    FeedbackEnv force("CLICOLOR_FORCE", "1");
    CHECK_FALSE(color_enabled(file));
  }
  {
    FeedbackEnv no_color("NO_COLOR", "");  // empty: as if unset
    FeedbackEnv force("CLICOLOR_FORCE", "0");
    CHECK_FALSE(color_enabled(file));
  }
  std::fclose(file);
  CHECK(paint("error:", Tone::kError, true) == "\033[1;31merror:\033[0m");
  CHECK(paint("error:", Tone::kError, false) == "error:");
}

TEST_CASE("colour: a diagnostic's severity word") {
  Diagnostic diagnostic;
  diagnostic.file = "a.yaml";
  diagnostic.pos = {3, 5};
  diagnostic.severity = Severity::kWarning;
  diagnostic.message = "odd";
  CHECK(format_diagnostic(diagnostic) == "a.yaml:3:5: warning: odd");
  CHECK(format_diagnostic(diagnostic, true) == "a.yaml:3:5: \033[1;33mwarning:\033[0m odd");
}

TEST_CASE("colour: a phase word by what it says, plain when not a terminal") {
  std::FILE* file = std::tmpfile();
  REQUIRE(file != nullptr);
  {
    FeedbackEnv no_color("NO_COLOR", nullptr);
    FeedbackEnv force("CLICOLOR_FORCE", nullptr);
    CHECK(painted_phase("Failed", file) == "Failed");
  }
  {
    FeedbackEnv no_color("NO_COLOR", nullptr);
    FeedbackEnv force("CLICOLOR_FORCE", "1");
    CHECK(painted_phase("Complete", file) == "\033[32mComplete\033[0m");
    CHECK(painted_phase("Failed", file) == "\033[1;31mFailed\033[0m");
    CHECK(painted_phase("Running", file) == "\033[36mRunning\033[0m");
    CHECK(painted_phase("Pending", file) == "\033[33mPending\033[0m");
  }
  std::fclose(file);
}
