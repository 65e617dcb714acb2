"""ganglion under test: scenario manifests, start until /ready, metrics, the pass-counter check."""

import os
import re
import shlex
import time

from .procs import StepError, free_port, http_get, rss_mib

PLACEHOLDER = re.compile(r"\$\{([A-Z_]+)\}")
SAMPLE = re.compile(r"^(\w+)\{([^}]*)\}\s+(\S+)$")

FILTERS = """      filters:
        data:
          - path: body.action
            type: string
            value: ["^(opened|reopened|synchronize)$"]
          - path: body.pull_request.additions
            type: number
            comparator: ">"
            value: ["0"]
          - path: body.pull_request.draft
            type: bool
            value: ["false"]
        exprs:
          - expr: additions + deletions < 10000 && base == "main"
            fields:
              - name: additions
                path: body.pull_request.additions
              - name: deletions
                path: body.pull_request.deletions
              - name: base
                path: body.pull_request.base.ref
"""


def render(template_path, values):
    """The text of a scenario file with every ${VAR} replaced; an unknown VAR is an error."""
    with open(template_path, encoding="utf-8") as f:
        text = f.read()

    def fill(match):
        if match.group(1) not in values:
            raise StepError(f"{template_path}: no value for ${{{match.group(1)}}}")
        return str(values[match.group(1)])
    return PLACEHOLDER.sub(fill, text)


def write_scenario(template_path, values, out_dir):
    """Renders a scenario file into out_dir (created) and returns out_dir."""
    os.makedirs(out_dir, exist_ok=True)
    name = os.path.basename(template_path)
    with open(os.path.join(out_dir, name), "w", encoding="utf-8") as f:
        f.write(render(template_path, values))
    return out_dir


def write_sensors_n(n, webhook_port, out_dir, per_file=1000):
    """The sensors-N scenario: EventSource `bench` with webhook events event-0 … event-{n-1} on
    one port, and n Sensors, sensor-i depending on (bench, event-i) through the bench filters
    with a rate-limited log trigger. Files of at most `per_file` documents."""
    os.makedirs(out_dir, exist_ok=True)
    events = "".join(f"    event-{i}:\n      port: \"{webhook_port}\"\n"
                     f"      endpoint: /event-{i}\n      method: POST\n" for i in range(n))
    with open(os.path.join(out_dir, "eventsource.yaml"), "w", encoding="utf-8") as f:
        f.write("apiVersion: argoproj.io/v1alpha1\nkind: EventSource\nmetadata:\n  name: bench\n"
                "spec:\n  webhook:\n" + events)
    for first in range(0, n, per_file):
        docs = [sensor_document(i) for i in range(first, min(n, first + per_file))]
        with open(os.path.join(out_dir, f"sensors-{first:05d}.yaml"), "w", encoding="utf-8") as f:
            f.write("---\n".join(docs))
    return out_dir


def sensor_document(i):
    """Sensor sensor-i of the sensors-N scenario."""
    return (f"apiVersion: argoproj.io/v1alpha1\nkind: Sensor\nmetadata:\n  name: sensor-{i}\n"
            f"spec:\n  dependencies:\n    - name: pr\n      eventSourceName: bench\n"
            f"      eventName: event-{i}\n{FILTERS}"
            f"  triggers:\n    - template:\n        name: log\n        log:\n"
            f"          intervalSeconds: 1\n")


def parse_metrics(text):
    """Prometheus text → {(name, frozenset(label pairs)): value}."""
    out = {}
    for line in text.splitlines():
        m = SAMPLE.match(line.strip())
        if not m:
            continue
        labels = frozenset(re.findall(r'(\w+)="([^"]*)"', m.group(2)))
        out[(m.group(1), labels)] = float(m.group(3))
    return out


def counter(samples, name, **labels):
    """The value of one labelled series, 0 when absent."""
    return samples.get((name, frozenset(labels.items())), 0.0)


class Engine:
    """One `ganglion run` on a directory of manifests, with its admin port and log file."""

    def __init__(self, procs, binary, manifest_dir, log_path, extra_args=()):
        self.procs = procs
        self.extra_args = list(extra_args)
        self.binary = binary
        self.manifest_dir = manifest_dir
        self.log_path = log_path
        self.admin_port = free_port()
        self.proc = None
        self.ready_s = None

    def command(self):
        """The command line that starts the engine."""
        return [self.binary, "run", "-f", self.manifest_dir,
                "--admin", f"127.0.0.1:{self.admin_port}", "--webhook-host", "127.0.0.1",
                *self.extra_args]

    def command_text(self):
        """The command line as one shell-quoted string."""
        return shlex.join(str(c) for c in self.command())

    def start(self, timeout=120.0):
        """Starts the engine and waits for GET /ready = 200; records the time it took."""
        begin = time.monotonic()
        self.proc = self.procs.start(self.command(), log_path=self.log_path)
        url = f"http://127.0.0.1:{self.admin_port}/ready"
        while time.monotonic() - begin < timeout:
            if self.proc.poll() is not None:
                raise StepError(f"ganglion exited with {self.proc.returncode} before it was "
                                f"ready; log: {self.log_path}")
            if http_get(url, timeout=1.0)[0] == 200:
                self.ready_s = time.monotonic() - begin
                return self
            time.sleep(0.05)
        raise StepError(f"ganglion was not ready after {timeout:.0f} s; log: {self.log_path}")

    def stop(self):
        """SIGTERM (graceful), SIGKILL after 5 s."""
        if self.proc:
            self.procs.stop(self.proc)

    def rss_mib(self):
        """The engine's VmRSS in MiB."""
        if self.proc.poll() is not None:
            raise StepError(f"ganglion exited with {self.proc.returncode}; log: {self.log_path}")
        return rss_mib(self.proc.pid)

    def metrics(self):
        """The parsed /metrics."""
        status, text = http_get(f"http://127.0.0.1:{self.admin_port}/metrics", timeout=5.0)
        if status != 200:
            raise StepError(f"GET /metrics answered {status}; log: {self.log_path}")
        return parse_metrics(text)

    def poll_metrics(self):
        """(time.monotonic() after the read, the parsed /metrics or None when it did not answer
        200); StepError when the engine exited."""
        if self.proc.poll() is not None:
            raise StepError(f"ganglion exited with {self.proc.returncode}; log: {self.log_path}")
        status, text = http_get(f"http://127.0.0.1:{self.admin_port}/metrics", timeout=5.0)
        return time.monotonic(), parse_metrics(text) if status == 200 else None

    def verify_filters_pass(self, sensor, event, answered_ok, timeout=15.0):
        """Checks that every event the webhook accepted passed the sensor's filters and that the
        webhook accepted at least the loadgen's 2xx count; raises StepError otherwise."""
        deadline = time.monotonic() + timeout
        while True:
            m = self.metrics()
            accepted = counter(m, "ganglion_events_accepted_total", eventsource="bench",
                               event=event)
            labels = {"sensor": sensor, "dependency": "pr"}
            passed = counter(m, "ganglion_dependency_events_total", result="pass", **labels)
            failed = counter(m, "ganglion_dependency_events_total", result="fail", **labels)
            errored = counter(m, "ganglion_dependency_events_total", result="error", **labels)
            if passed == accepted or failed or errored or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        if failed or errored or passed != accepted or accepted < answered_ok or passed == 0:
            raise StepError(
                f"FILTERS DID NOT PASS THE EVENTS: sensor {sensor}: {passed:.0f} passed, "
                f"{failed:.0f} rejected, {errored:.0f} errors, of {accepted:.0f} events the "
                f"webhook accepted ({answered_ok} answered 2xx to the loadgen after warmup); "
                f"the figure is worthless. Log: {self.log_path}")
        return passed
