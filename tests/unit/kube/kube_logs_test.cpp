// Whole lines from a byte stream, kubelet timestamps, resuming without repeats, watch events.
#include <doctest/doctest.h>

#include "kube/log_lines.h"
#include "kube/watcher.h"

using namespace trainjob;

TEST_CASE("lines are handed out whole, however the bytes are cut") {
  LineSplitter splitter;
  CHECK(splitter.feed("ab").empty());
  CHECK(splitter.feed("c\nde") == std::vector<std::string>{"abc"});
  CHECK(splitter.partial() == "de");
  CHECK(splitter.feed("\n\nf\n") == std::vector<std::string>{"de", "", "f"});
  CHECK(splitter.partial().empty());
}

TEST_CASE("kubelet timestamps order exactly, fractions of any length") {
  auto a = parse_log_time("2026-11-22T01:02:03.5Z");
  auto b = parse_log_time("2026-11-22T01:02:03.123456789Z");
  auto c = parse_log_time("2026-11-22T01:02:04Z");
  REQUIRE(a);
  REQUIRE(b);
  REQUIRE(c);
  CHECK(a->second == 500000000);
  CHECK(*b < *a);
  CHECK(*a < *c);
  CHECK(format_since_time(*b) == "2026-11-22T01:02:03Z");
  CHECK_FALSE(parse_log_time("hello world"));
}

TEST_CASE("a stamped line splits into time and text") {
  StampedLine line = split_stamp("2026-11-22T01:02:03.5Z epoch 1 loss 0.5");
  REQUIRE(line.time);
  CHECK(line.stamp == "2026-11-22T01:02:03.5Z");
  CHECK(line.text == "epoch 1 loss 0.5");
  CHECK_FALSE(split_stamp("no stamp here").time);
}

TEST_CASE("resuming: lines up to the last one printed are skipped, even with equal times") {
  ResumePoint resume;
  LogTime t1{100, 1}, t2{100, 2}, t3{101, 0};
  CHECK(resume.accept(t1));
  CHECK(resume.accept(t2));
  CHECK(resume.accept(t2));  // two lines with one time
  // The stream breaks; it is opened again from second 100, so everything comes again.
  resume.restart();
  CHECK_FALSE(resume.accept(t1));
  CHECK_FALSE(resume.accept(t2));
  CHECK_FALSE(resume.accept(t2));
  CHECK(resume.accept(t2));  // a third line with that time is new
  CHECK(resume.accept(t3));
  CHECK(resume.accept(std::nullopt));  // no time: never dropped
}

TEST_CASE("watch events keep a copy of the collection; 410 asks for a new list") {
  std::map<std::string, Json> objects;
  std::string version, error;
  CHECK(apply_watch_event(
      R"({"type": "ADDED", "object": {"metadata": {"name": "a", "resourceVersion": "5"}}})",
      &objects, &version, &error));
  CHECK(objects.count("a") == 1);
  CHECK(version == "5");
  CHECK(
      apply_watch_event(R"({"type": "BOOKMARK", "object": {"metadata": {"resourceVersion": "9"}}})",
                        &objects, &version, &error));
  CHECK(version == "9");
  CHECK(objects.size() == 1);
  CHECK(apply_watch_event(
      R"({"type": "DELETED", "object": {"metadata": {"name": "a", "resourceVersion": "10"}}})",
      &objects, &version, &error));
  CHECK(objects.empty());
  CHECK_FALSE(apply_watch_event(R"({"type": "ERROR", "object": {"kind": "Status", "code": 410}})",
                                &objects, &version, &error));
  CHECK(apply_watch_event(
      R"({"type": "ERROR", "object": {"kind": "Status", "code": 500, "message": "boom"}})",
      &objects, &version, &error));
  CHECK(error == "watch: boom");
}
