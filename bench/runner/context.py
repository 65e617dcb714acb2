"""What every step needs: paths, mode, the child processes, the loadgen and the figures."""

import os

from .figures import Figures
from .loadgen import Loadgen
from .procs import Processes, StepError, is_executable


class Context:
    """One bench run."""

    def __init__(self, repo, build, tmp, quick, loadgen_path=None):
        self.repo = repo
        self.build = build
        self.tmp = tmp
        self.quick = quick
        self.procs = Processes()
        self.figures = Figures()
        self.micro = None
        self.duration_s = 3 if quick else 10
        self.scenarios = os.path.join(repo, "bench", "scenarios")
        self.loadgen_path = loadgen_path or os.path.join(build, "ganglion-loadgen")
        self.loadgen = Loadgen(self.procs, self.loadgen_path,
                               os.path.join(self.scenarios, "event.json"), tmp, self.duration_s)
        self.soak_seconds = 30 if quick else 600
        self.soak_rate = None
        self.big_sensors = 1000 if quick else 10000

    def binary(self, name, *candidates):
        """The path of a built binary (build/<name>, or one of the candidate paths below build);
        StepError when it is not built."""
        paths = [os.path.join(self.build, name)] + [os.path.join(self.build, c) for c in candidates]
        for path in paths:
            if is_executable(path):
                return path
        raise StepError(f"{name} is not built (looked for {', '.join(paths)}); "
                        f"build it with `cmake --build {self.build} --target {name}`")

    def ganglion(self):
        """build/ganglion."""
        return self.binary("ganglion")

    def require_loadgen(self):
        """The loadgen, or StepError when it is not built."""
        if not is_executable(self.loadgen_path):
            raise StepError(f"ganglion-loadgen is not built ({self.loadgen_path}); build it with "
                            f"`cmake --build {self.build} --target ganglion-loadgen` or pass "
                            f"--loadgen PATH")
        return self.loadgen

    def path(self, *parts):
        """A path inside the run's temp dir."""
        return os.path.join(self.tmp, *parts)
