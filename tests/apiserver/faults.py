"""Faults tests ask for: rules matched against each request, in order."""
import re


class Faults:
    def __init__(self):
        self.rules = []

    def set(self, rules):
        self.rules = [dict(rule, seen=0, fired=0) for rule in rules]

    def match(self, method, path, query):
        """The first rule that fires for this request, or None."""
        dry_run = query.get("dryRun") == "All"
        for rule in self.rules:
            if rule.get("method") and rule["method"] != method:
                continue
            if rule.get("path") and not re.search(rule["path"], path):
                continue
            if "dry_run" in rule and rule["dry_run"] != dry_run:
                continue
            if rule.get("watch") is not None and (query.get("watch") in ("true", "1")) != rule["watch"]:
                continue
            if rule.get("follow") is not None and (query.get("follow") in ("true", "1")) != rule["follow"]:
                continue
            rule["seen"] += 1
            if rule["seen"] <= rule.get("skip", 0):
                continue
            if rule["fired"] >= rule.get("times", 1):
                continue
            rule["fired"] += 1
            return rule
        return None
