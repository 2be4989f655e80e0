#include "local/plan_runner.h"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <vector>

#include "local/live_progress.h"
#include "local/run_summary.h"
#include "local/signal_catcher.h"
#include "local/stage_runner.h"
#include "util/process.h"

namespace trainjob {

bool run_local_plan(const LocalPlan& plan, const RunSettings& settings, std::string* failure) {
  SignalCatcher signals;
  SteadyTime start = std::chrono::steady_clock::now();
  SteadyTime deadline =
      settings.timeout_seconds > 0
          ? start + std::chrono::milliseconds(static_cast<int64_t>(settings.timeout_seconds * 1000))
          : SteadyTime::max();
  std::optional<LiveProgress> live;
  if (settings.live_progress) live.emplace(settings.out);
  std::vector<PodEnd> ends;
  BadProgressLines bad_progress;
  bool ok = true;
  for (size_t i = 0; i < plan.stages.size(); ++i) {
    if (!ok) {  // after a failed stage: its pods are named as not started
      for (const LocalPod& pod : plan.stages[i]) {
        ends.emplace_back();
        ends.back().label = pod.label;
      }
      continue;
    }
    StageRunner runner(plan.stages[i], settings, deadline,
                       settings.marker + std::to_string(i) + ".", plan.rule ? &*plan.rule : nullptr,
                       live ? &*live : nullptr, &bad_progress);
    ok = runner.run(failure);
    if (settings.interrupted != nullptr && runner.interrupted()) *settings.interrupted = true;
    std::vector<PodEnd> stage_ends = runner.ends();
    ends.insert(ends.end(), stage_ends.begin(), stage_ends.end());
  }
  if (live) live->finish();
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // Said whatever the end: the program meant to report progress (a sweep's metrics).
  if (bad_progress.count > 0)
    std::fprintf(settings.log, "warning: %s\n", bad_progress.describe().c_str());
  std::fprintf(settings.log, "%s\n", format_run_summary(ok, ends, seconds, settings.color).c_str());
  std::fflush(settings.log);
  return ok;
}

}  // namespace trainjob
