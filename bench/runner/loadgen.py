"""Runs ganglion-loadgen with the bench's common settings and reads its JSON report."""

import json
import os
import shlex
import subprocess

from .procs import StepError


class Loadgen:
    """The loadgen binary plus the settings every HTTP figure shares (so ratios compare like with
    like): 64 connections, 1 thread, 1 s warmup, 10 s (quick: 3 s) measured."""

    def __init__(self, procs, binary, body_path, tmp_dir, duration_s):
        self.procs = procs
        self.binary = binary
        self.body_path = body_path
        self.tmp_dir = tmp_dir
        self.duration_s = duration_s
        self.runs = 0

    def command(self, url, json_path, rate=0, sink_port=None, duration_s=None, drain_s=None,
                quiet=False, body=None):
        """The full command line of one run (`body`: another body file than event.json)."""
        cmd = [self.binary, "--url", url, "--connections", "64", "--threads", "1",
               "--warmup", "1s", "--duration", f"{duration_s or self.duration_s}s",
               "--body", body or self.body_path, "--json", json_path]
        if rate:
            cmd += ["--rate", str(int(rate))]
        if sink_port is not None:
            cmd += ["--sink", f"127.0.0.1:{sink_port}", "--sink-path", "/sink"]
        if drain_s is not None:
            cmd += ["--drain", f"{drain_s}s"]
        if quiet:
            cmd.append("--quiet")
        return cmd

    def start(self, url, **options):
        """Starts a run in the background; returns (process, json path, command text)."""
        self.runs += 1
        json_path = os.path.join(self.tmp_dir, f"loadgen-{self.runs}.json")
        cmd = self.command(url, json_path, **options)
        return self.procs.start(cmd), json_path, shlex.join(str(c) for c in cmd)

    def finish(self, proc, json_path, command):
        """Waits for a started run and returns its parsed JSON report."""
        try:
            code = proc.wait(timeout=self.duration_s + 900)
        except subprocess.TimeoutExpired:
            self.procs.stop(proc)
            raise StepError(f"loadgen did not finish: {command}")
        self.procs.stop(proc)
        if code != 0:
            raise StepError(f"loadgen exited with {code}: {command}")
        with open(json_path, encoding="utf-8") as f:
            report = json.load(f)
        if not report.get("requests", {}).get("ok"):
            raise StepError(f"loadgen: no request answered 2xx: {command}")
        return report

    def run_median(self, url, rounds=3, **options):
        """`rounds` runs in a row; returns (the report with the median throughput, its command,
        every round's req/s): one noisy run on a shared machine must not decide a ratio."""
        runs = [self.run(url, **options) for _ in range(rounds)]
        runs.sort(key=lambda r: r[0]["throughput_rps"])
        report, command = runs[len(runs) // 2]
        return report, command, [round(r[0]["throughput_rps"]) for r in runs]

    def run(self, url, **options):
        """One run in the foreground; returns (JSON report, command text)."""
        proc, json_path, command = self.start(url, **options)
        return self.finish(proc, json_path, command), command
