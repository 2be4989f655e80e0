"""What the kubelet, the scheduler and the Job controller would do, driven by tests.

Jobs get their pods at once (Indexed: one per completion index, named like the real
controller names them); pods then move only when a test or an autopilot rule says so.
All methods are called with store.cond held.
"""
import copy
import random
import re
import string
import threading
import time

from store import now_rfc3339, rfc3339_nano

JOBS = "batch/v1/jobs"
PODS = "v1/pods"
EVENTS = "v1/events"
RETRIED = "test.apiserver/retried"  # on a failed pod its Job replaced, within its backoffLimit


class LogBuffer:
    def __init__(self):
        self.lines = []  # (time, text)
        self.closed = False


class Cluster:
    def __init__(self, store):
        self.store = store
        self.logs = {}  # (namespace, pod, container, instance) -> LogBuffer
        self.autopilot = []  # rules, the first whose "job" regex matches drives the pod (see schedule)
        self.last_log_time = 0.0

    # --- the Job controller -------------------------------------------------------------
    def job_written(self, namespace, job):
        spec = job.get("spec", {})
        if self.finished(job) or job.get("metadata", {}).get("deletionTimestamp"):
            return
        if spec.get("suspend"):  # suspending deletes the active pods and stops the clock
            for pod in self.pods_of(namespace, job["metadata"]["name"]):
                self.store.remove(PODS, namespace, pod["metadata"]["name"])
            job.setdefault("status", {}).pop("startTime", None)
            job["status"]["active"] = 0
            job["status"]["ready"] = 0
            self.store.update(JOBS, namespace, job)
            return
        if self.pods_of(namespace, job["metadata"]["name"]):
            return
        count = spec.get("parallelism", spec.get("completions", 1))
        for index in range(count):
            self.create_pod(namespace, job, index)
        job.setdefault("status", {})["startTime"] = now_rfc3339()
        self.start_deadline(namespace, job)
        self.refresh_job(namespace, job["metadata"]["name"])

    @staticmethod
    def finished(job):
        return any(c.get("type") in ("Complete", "Failed") and c.get("status") == "True"
                   for c in job.get("status", {}).get("conditions", []))

    def start_deadline(self, namespace, job):
        """activeDeadlineSeconds counts from the (re)start: then the Job fails, its pods stop."""
        seconds = job["spec"].get("activeDeadlineSeconds")
        if not seconds:
            return
        uid, started = job["metadata"]["uid"], job["status"]["startTime"]

        def expire():
            with self.store.cond:
                live = self.store.get(JOBS, namespace, job["metadata"]["name"])
                if live is None or live["metadata"]["uid"] != uid or self.finished(live) or \
                        live.get("status", {}).get("startTime") != started or live["spec"].get("suspend"):
                    return
                for pod in self.pods_of(namespace, live["metadata"]["name"]):
                    if pod["status"]["phase"] in ("Pending", "Running"):
                        self.terminate(namespace, pod, "DeadlineExceeded", 143, "Failed")
                live["status"]["conditions"] = [{"type": "Failed", "status": "True", "reason": "DeadlineExceeded",
                                                 "message": "Job was active longer than specified deadline",
                                                 "lastTransitionTime": now_rfc3339()}]
                live["status"]["active"] = 0
                self.store.update(JOBS, namespace, live)
        timer = threading.Timer(seconds, expire)
        timer.daemon = True
        timer.start()

    def create_pod(self, namespace, job, index):
        template = copy.deepcopy(job["spec"]["template"])
        meta = template.get("metadata", {})
        job_name = job["metadata"]["name"]
        suffix = "".join(random.choice(string.ascii_lowercase + string.digits) for _ in range(5))
        prefix = f"{job_name}-{index}-"
        if len(prefix) > 58:
            prefix = prefix[:58]
        labels = dict(meta.get("labels", {}))
        labels.update({"batch.kubernetes.io/job-name": job_name, "job-name": job_name,
                       "batch.kubernetes.io/controller-uid": job["metadata"]["uid"],
                       "batch.kubernetes.io/job-completion-index": str(index)})
        annotations = dict(meta.get("annotations", {}))
        annotations["batch.kubernetes.io/job-completion-index"] = str(index)
        spec = template.get("spec", {})
        if spec.get("hostname") is None or job["spec"].get("completionMode") == "Indexed":
            spec["hostname"] = f"{job_name}-{index}"  # an Indexed Job names its pods' hosts
        containers = spec.get("containers", [])
        pod = {"apiVersion": "v1", "kind": "Pod",
               "metadata": {"name": prefix + suffix, "labels": labels, "annotations": annotations,
                            "ownerReferences": [{"apiVersion": "batch/v1", "kind": "Job", "name": job_name,
                                                 "uid": job["metadata"]["uid"], "controller": True}]},
               "spec": spec,
               "status": {"phase": "Pending", "conditions": [],
                          "containerStatuses": [{"name": c["name"], "ready": False, "restartCount": 0,
                                                 "image": c.get("image", ""),
                                                 "state": {"waiting": {"reason": "ContainerCreating"}}}
                                                for c in containers]}}
        self.store.create(PODS, namespace, pod)
        for rule in self.autopilot:  # the first rule that matches: a specific one before a catch-all
            if re.search(rule["job"], job_name):
                self.schedule(rule, namespace, pod["metadata"]["name"])
                break

    def pods_of(self, namespace, job_name, index=None):
        pods = [p for p in self.store.list(PODS, namespace, f"batch.kubernetes.io/job-name={job_name}")
                if not p["metadata"].get("deletionTimestamp")]
        if index is not None:
            pods = [p for p in pods if p["metadata"]["labels"].get("batch.kubernetes.io/job-completion-index") == str(index)]
        return pods

    def refresh_job(self, namespace, job_name):
        job = self.store.get(JOBS, namespace, job_name)
        if job is None:
            return
        pods = self.pods_of(namespace, job_name)
        status = job.setdefault("status", {})
        if any(c.get("type") in ("Complete", "Failed") for c in status.get("conditions", [])):
            return
        phases = [p["status"]["phase"] for p in pods]
        status["active"] = sum(1 for ph in phases if ph in ("Pending", "Running"))
        status["succeeded"] = phases.count("Succeeded")
        status["failed"] = phases.count("Failed")
        status["ready"] = sum(1 for p in pods if all(c.get("ready") for c in p["status"].get("containerStatuses", []))
                              and p["status"]["phase"] == "Running")
        completions = job["spec"].get("completions", 1)
        now = now_rfc3339()
        # A pod the Job retried (the "retry" of a failed pod) is counted, but does not fail the Job.
        if any(p["status"]["phase"] == "Failed" and not p["metadata"].get("annotations", {}).get(RETRIED)
               for p in pods):
            status["conditions"] = [{"type": "Failed", "status": "True", "reason": "BackoffLimitExceeded",
                                     "message": "Job has reached the specified backoff limit",
                                     "lastTransitionTime": now}]
            status["active"] = 0
            for pod in pods:  # the controller stops what still runs
                if pod["status"]["phase"] in ("Pending", "Running"):
                    self.terminate(namespace, pod, "Error", 143, "Failed")
        elif status["succeeded"] >= completions:
            status["conditions"] = [{"type": "Complete", "status": "True", "reason": "CompletionsReached",
                                     "message": "Reached expected number of succeeded pods",
                                     "lastTransitionTime": now}]
            status["completionTime"] = now
        self.store.update(JOBS, namespace, job)

    # --- pods, as a kubelet would move them ---------------------------------------------
    def buffer(self, namespace, pod, container, instance):
        return self.logs.setdefault((namespace, pod, container, instance), LogBuffer())

    def container_names(self, pod):
        return [c["name"] for c in pod["spec"].get("containers", [])]

    def run(self, namespace, pod, node="node-a"):
        pod["spec"]["nodeName"] = node
        pod["status"]["phase"] = "Running"
        pod["status"]["podIP"] = "10.0.0.%d" % random.randint(2, 250)
        pod["status"]["conditions"] = [{"type": "PodScheduled", "status": "True"}, {"type": "Ready", "status": "True"}]
        for status in pod["status"]["containerStatuses"]:
            status["state"] = {"running": {"startedAt": now_rfc3339()}}
            status["ready"] = True
            self.buffer(namespace, pod["metadata"]["name"], status["name"], status["restartCount"])
        self.store.update(PODS, namespace, pod)
        self.refresh_job(namespace, pod["metadata"]["labels"]["batch.kubernetes.io/job-name"])

    def log(self, namespace, pod, lines, container=None):
        container = container or self.container_names(pod)[0]
        status = self.container_status(pod, container)
        buf = self.buffer(namespace, pod["metadata"]["name"], container, status["restartCount"])
        for text in lines:
            t = max(time.time(), self.last_log_time + 1e-6)
            self.last_log_time = t
            buf.lines.append((t, text))
        self.store.cond.notify_all()

    def container_status(self, pod, container):
        for status in pod["status"]["containerStatuses"]:
            if status["name"] == container:
                return status
        raise KeyError(container)

    def terminate(self, namespace, pod, reason, exit_code, phase):
        for status in pod["status"]["containerStatuses"]:
            status["state"] = {"terminated": {"reason": reason, "exitCode": exit_code, "finishedAt": now_rfc3339()}}
            status["ready"] = False
            self.buffer(namespace, pod["metadata"]["name"], status["name"], status["restartCount"]).closed = True
        pod["status"]["phase"] = phase
        pod["status"]["conditions"] = [{"type": "PodScheduled", "status": "True"}, {"type": "Ready", "status": "False"}]
        self.store.update(PODS, namespace, pod)
        self.store.cond.notify_all()

    def finish(self, namespace, pod, succeeded, reason=None, exit_code=None):
        if pod["status"]["phase"] not in ("Pending", "Running"):
            return
        if succeeded:
            self.terminate(namespace, pod, reason or "Completed", 0 if exit_code is None else exit_code, "Succeeded")
        else:
            self.terminate(namespace, pod, reason or "Error", 1 if exit_code is None else exit_code, "Failed")
        self.refresh_job(namespace, pod["metadata"]["labels"]["batch.kubernetes.io/job-name"])

    def fail_and_retry(self, namespace, pod, reason=None, exit_code=None):
        """The pod fails and its Job, still within its backoffLimit, makes a new pod for the index."""
        if pod["status"]["phase"] not in ("Pending", "Running"):
            return
        pod["metadata"].setdefault("annotations", {})[RETRIED] = "true"
        self.terminate(namespace, pod, reason or "Error", 1 if exit_code is None else exit_code, "Failed")
        job_name = pod["metadata"]["labels"]["batch.kubernetes.io/job-name"]
        job = self.store.get(JOBS, namespace, job_name)
        if job is not None:
            self.create_pod(namespace, job, int(pod["metadata"]["labels"]["batch.kubernetes.io/job-completion-index"]))
        self.refresh_job(namespace, job_name)

    def restart(self, namespace, pod, reason="Error", exit_code=1):
        for status in pod["status"]["containerStatuses"]:
            self.buffer(namespace, pod["metadata"]["name"], status["name"], status["restartCount"]).closed = True
            status["lastState"] = {"terminated": {"reason": reason, "exitCode": exit_code, "finishedAt": now_rfc3339()}}
            status["restartCount"] += 1
            status["state"] = {"running": {"startedAt": now_rfc3339()}}
            self.buffer(namespace, pod["metadata"]["name"], status["name"], status["restartCount"])
        self.store.update(PODS, namespace, pod)
        self.store.cond.notify_all()

    def wait(self, namespace, pod, reason, message="", restart_reason=None, exit_code=None):
        for status in pod["status"]["containerStatuses"]:
            status["state"] = {"waiting": {"reason": reason, "message": message}}
            status["ready"] = False
            if restart_reason:
                status["restartCount"] += 1
                status["lastState"] = {"terminated": {"reason": restart_reason, "exitCode": exit_code or 1}}
        pod["status"]["conditions"] = [c for c in pod["status"].get("conditions", []) if c["type"] != "Ready"] + \
            [{"type": "Ready", "status": "False", "reason": "ContainersNotReady"}]
        if reason == "CrashLoopBackOff":
            pod["status"]["phase"] = "Running"
        self.store.update(PODS, namespace, pod)

    def unschedulable(self, namespace, pod, message):
        pod["status"]["conditions"] = [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable",
                                        "message": message}]
        self.store.update(PODS, namespace, pod)

    def event(self, namespace, pod, reason, message, event_type="Warning"):
        name = "%s.%x" % (pod["metadata"]["name"], int(time.time() * 1e6))
        self.store.create(EVENTS, namespace, {
            "apiVersion": "v1", "kind": "Event", "metadata": {"name": name}, "type": event_type,
            "reason": reason, "message": message, "lastTimestamp": now_rfc3339(), "count": 1,
            "involvedObject": {"kind": "Pod", "name": pod["metadata"]["name"], "namespace": namespace}})

    # --- autopilot: pods that run, print and finish by themselves -------------------------
    @staticmethod
    def expand_env(template, pod):
        """`{env:NAME}` in a "print" line: the value of NAME in the pod's first container."""
        containers = pod["spec"].get("containers") or [{}]
        env = {e.get("name"): e.get("value", "") for e in containers[0].get("env", [])}
        return re.sub(r"\{env:([A-Za-z_][A-Za-z0-9_]*)\}", lambda m: env.get(m.group(1), ""), template)

    def schedule(self, rule, namespace, pod_name):
        """Drives a new pod as `rule` says: {"job": regex (the pod's Job; set by "autopilot"),
        "start_after": s (then it runs), "lines_after": s, "lines": n generic lines, "interval": s
        between them, "print": [line templates, {env:NAME} the pod's env] (printed after them),
        "after": s (then it ends), "result": "Complete" | "Failed", "reason", "exit_code"}."""
        def drive():
            time.sleep(rule.get("start_after", 0.05))
            with self.store.cond:
                pod = self.store.get(PODS, namespace, pod_name)
                if pod is None:
                    return
                self.run(namespace, pod)
            index = pod["metadata"]["labels"]["batch.kubernetes.io/job-completion-index"]
            time.sleep(rule.get("lines_after", 0))
            lines = rule.get("lines", 0)
            interval = rule.get("interval", 0)
            for n in range(lines):
                if interval:
                    time.sleep(interval)
                with self.store.cond:
                    if self.store.get(PODS, namespace, pod_name) is None:
                        return
                    self.log(namespace, pod, [f"{pod_name} line {n} of {lines} (index {index})"])
            if rule.get("print"):
                with self.store.cond:
                    if self.store.get(PODS, namespace, pod_name) is None:
                        return
                    self.log(namespace, pod, [self.expand_env(line, pod) for line in rule["print"]])
            time.sleep(rule.get("after", 0.1))
            with self.store.cond:
                pod = self.store.get(PODS, namespace, pod_name)
                if pod is None:
                    return
                ok = rule.get("result", "Complete") == "Complete"
                self.finish(namespace, pod, ok, rule.get("reason"), rule.get("exit_code"))
        threading.Thread(target=drive, daemon=True).start()
