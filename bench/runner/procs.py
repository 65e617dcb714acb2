"""Child processes of the bench run: start, wait for readiness, measure RSS, stop them all."""

import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request


class StepError(Exception):
    """A step could not produce its figures; the message says why (and where the log is)."""


def free_port():
    """A port that was free on 127.0.0.1 a moment ago (bind to port 0, read it, release it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http_get(url, timeout=2.0):
    """(status, body text) of GET url; status 0 when nothing answered."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return r.status, r.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode("utf-8", "replace")
    except (OSError, urllib.error.URLError):
        return 0, ""


def wait_port(port, timeout):
    """True once something accepts TCP connections on 127.0.0.1:port."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return True
        except OSError:
            time.sleep(0.05)
    return False


def wait_log_line(procs, proc, log, name, pick, missing, timeout=15):
    """The first `pick(line)` that is not None among the lines `proc` writes to `log`; stops
    `proc` and raises StepError when it exits or `timeout` s pass first (`missing`: what it did
    not print)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise StepError(f"{name} exited with {proc.returncode}; log: {log}")
        with open(log, encoding="utf-8", errors="replace") as f:
            found = [v for v in map(pick, f) if v is not None]
        if found:
            return found[0]
        time.sleep(0.05)
    procs.stop(proc)
    raise StepError(f"{name} {missing}; log: {log}")


def rss_mib(pid):
    """VmRSS of a process in MiB, from /proc/PID/status."""
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    raise StepError(f"no VmRSS for pid {pid}")


class Processes:
    """Every process the run starts; stop_all() ends them (SIGTERM, SIGKILL after 5 s)."""

    def __init__(self):
        self._running = []

    def start(self, cmd, log_path=None, quiet=False, env=None):
        """Starts cmd (in `env` when given); output goes to log_path, or nowhere when quiet,
        else to the terminal."""
        out = None
        if log_path:
            out = open(log_path, "ab")
        elif quiet:
            out = subprocess.DEVNULL
        try:
            proc = subprocess.Popen([str(c) for c in cmd], stdout=out, stderr=out,
                                    stdin=subprocess.DEVNULL, env=env)
        finally:
            if log_path:
                out.close()
        self._running.append(proc)
        return proc

    def stop(self, proc, grace=5.0):
        """SIGTERM, then SIGKILL when the process is still there after `grace` seconds."""
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if proc in self._running:
            self._running.remove(proc)

    def stop_all(self):
        """Stops every process still running, newest first."""
        for proc in reversed(list(self._running)):
            self.stop(proc)


def raise_on_signals():
    """Turns SIGINT and SIGTERM into KeyboardInterrupt so the run's finally blocks stop the
    children (SIGINT too: a shell starts background jobs with SIGINT ignored)."""
    def handler(signum, frame):
        raise KeyboardInterrupt(f"signal {signum}")
    signal.signal(signal.SIGINT, handler)
    signal.signal(signal.SIGTERM, handler)


def is_executable(path):
    """True when path is an executable file."""
    return os.path.isfile(path) and os.access(path, os.X_OK)
