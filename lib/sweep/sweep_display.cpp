#include "sweep/sweep_display.h"

#include <algorithm>
#include <cinttypes>

#include "util/terminal.h"

namespace trainjob {
namespace {

int line_count(const std::string& text) {
  return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}

std::string metric_text(const TrialResult& trial, const SweepObjective& objective) {
  const std::string* value = metric_named(trial.metrics, objective.metric);
  if (value == nullptr) return "";
  std::string text = ", ";
  text += objective.metric;
  text += ' ';
  text += *value;
  return text;
}

}  // namespace

SweepDisplay::SweepDisplay(std::FILE* out, std::FILE* err)
    : out_(out), err_(err), live_(is_terminal(out)) {}

void SweepDisplay::heading(const std::string& name, size_t trials, int64_t parallel,
                           const SweepObjective& objective, const std::string& seed_note) {
  std::fprintf(out_, "OptimizationJob %s: %zu trial%s, %" PRId64 " at a time, %s %s%s%s\n",
               name.c_str(), trials, trials == 1 ? "" : "s", parallel,
               objective.maximize ? "maximizing" : "minimizing", objective.metric.c_str(),
               seed_note.empty() ? "" : ", ", seed_note.c_str());
  std::fflush(out_);
}

void SweepDisplay::trial_started(const std::vector<TrialResult>& trials, size_t i,
                                 const SweepObjective& objective) {
  if (live_) return refresh(trials, objective);
  std::fprintf(out_, "%s (%s): started\n", trials[i].name.c_str(),
               describe_values(trials[i]).c_str());
  std::fflush(out_);
}

void SweepDisplay::trial_ended(const std::vector<TrialResult>& trials, size_t i,
                               const SweepObjective& objective, double seconds) {
  const TrialResult& trial = trials[i];
  bool quiet = live_ && trial.state == TrialState::kSucceeded;
  if (!quiet) {
    erase_table();
    std::string detail =
        trial.message.empty() ? metric_text(trial, objective) : ": " + trial.message;
    std::fprintf(out_, "%s: %s%s (%.1fs)\n", trial.name.c_str(), trial_state_name(trial.state),
                 detail.c_str(), seconds);
  }
  refresh(trials, objective);
  std::fflush(out_);
}

void SweepDisplay::message(const char* kind, const std::string& text) {
  erase_table();
  std::fflush(out_);
  bool error = std::string(kind) == "error";
  std::fprintf(
      err_, "%s %s\n",
      paint(std::string(kind) + ":", error ? Tone::kError : Tone::kWaiting, color_enabled(err_))
          .c_str(),
      text.c_str());
  std::fflush(err_);
}

void SweepDisplay::erase_table() {
  if (!live_ || table_lines_ == 0) return;
  std::fprintf(out_, "\033[%dA\033[J", table_lines_);
  table_lines_ = 0;
  drawn_.clear();
}

void SweepDisplay::refresh(const std::vector<TrialResult>& trials,
                           const SweepObjective& objective) {
  if (!live_) return;
  std::string table = format_sweep_table(trials, objective);
  if (table == drawn_) return;
  erase_table();
  std::fputs(table.c_str(), out_);
  table_lines_ = line_count(table);
  drawn_ = table;
  std::fflush(out_);
}

void SweepDisplay::finish(const std::vector<TrialResult>& trials, const SweepObjective& objective,
                          std::optional<size_t> best, bool say_none) {
  if (live_) {
    refresh(trials, objective);
  } else {
    std::fputs(format_sweep_table(trials, objective).c_str(), out_);
  }
  table_lines_ = 0;  // the last table stays
  size_t failed =
      static_cast<size_t>(std::count_if(trials.begin(), trials.end(), [](const TrialResult& t) {
        return t.state == TrialState::kFailed;
      }));
  if (best) std::fprintf(out_, "%s\n", describe_best(trials[*best], objective).c_str());
  std::fflush(out_);
  if (failed > 0) std::fprintf(err_, "warning: %zu of %zu trials failed\n", failed, trials.size());
  if (!best && say_none)
    std::fprintf(err_, "error: no trial succeeded with a value of %s\n", objective.metric.c_str());
}

}  // namespace trainjob
