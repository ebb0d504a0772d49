"""Where a submission's code runs when it is graded: a bubblewrap sandbox with limits.

A sandbox sees the system's programs and libraries, the Python environment and the
folders it is given, nothing else: not the course root (source notebooks, hidden tests,
gradebook, other students), not this repository (the solutions), not the grader's
environment variables. It has no network (``--unshare-net``; notebook kernels talk to
the grader over unix sockets), its own process tree (``--unshare-pid``: when the
sandbox ends, every process started in it dies), a small private ``/tmp``, and limits
on CPU time, wall time, memory, file size and processes.

The process limit counts per user, and root ignores it, so when the grader is root the
sandboxed code runs as an unused uid of its own (one per grading process: parallel
graders do not share a budget). As another user the sandbox still works, without the
process limit. Where bubblewrap cannot run at all (no user namespaces), code runs with
the limits alone, and every grading log says so loudly.
"""
import contextlib
import fcntl
import functools
import importlib.util
import os
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from traitlets import Integer, List, Unicode
from traitlets.config import Configurable

from .instructor_messages import N_
from .limits import Limits

UID_BASE = 61000  # sandbox uids are UID_BASE + slot: ids no account on a Debian system uses
UID_SLOTS = 128
# Every namespace but the user's: as root, the sandbox's own uid must be a real one (see sandbox_uid).
NAMESPACES = ("--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try")
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64")
UNSANDBOXED = N_("bubblewrap cannot run here: grading WITHOUT a sandbox "
                 "(submissions can read and write what the grader can)")


@dataclass
class Outcome:
    """How a sandboxed command ended: its exit code and output, and which limit stopped it, if any."""
    returncode: int
    stdout: str
    stderr: str
    stopped: str | None


class Sandbox(Configurable):
    """The command line of a sandbox, under the course's limits (``tools.limits``; configurable in
    nbgrader_config.py)."""

    bwrap = Unicode("bwrap", help="The bubblewrap command.").tag(config=True)
    hidden_packages = List(Unicode(), ["torch", "functorch", "torchgen"],
                           help="Installed packages a submission may not import (it must compute on its own)."
                           ).tag(config=True)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.limits = Limits(parent=self)
        self.deadline = None  # time.monotonic() by which every run must end (the submission's), if any

    def command(self, argv, binds, cwd):
        """``argv`` wrapped in the sandbox; ``binds`` is a list of (folder, writable) it may see."""
        confined = self._limits() + ["env", "-i", *(f"{k}={v}" for k, v in environment().items()), *argv]
        if not bwrap_works(self.bwrap):
            return ["setpriv", "--pdeathsig", "KILL", *confined]  # bubblewrap's --die-with-parent, without it
        return self._bwrap(binds, cwd) + self._as_sandbox_user() + confined

    def run(self, argv, binds, cwd, stdin="", seconds=None):
        """Run ``argv`` in the sandbox to its end, to its output limit or to its wall time (``seconds``, by
        default the limit of one step's checks); it inherits no descriptor but its three pipes."""
        seconds = self.limits.checks_seconds if seconds is None else seconds
        late = N_("wall time limit")
        if self.deadline is not None and self.deadline - time.monotonic() < seconds:
            seconds, late = max(0.0, self.deadline - time.monotonic()), N_("submission time limit")
        process = subprocess.Popen(self.command(argv, binds, cwd), cwd=cwd, stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, close_fds=True,
                                   start_new_session=True)
        try:
            stdout, stderr, stopped = read_bounded(process, stdin.encode(), seconds, self.limits.output_mb << 20, late)
        finally:
            _kill_group(process)
        text = [data.decode(errors="replace") for data in (stdout, stderr)]
        return Outcome(process.returncode, *text, stopped or limit_hit(process.returncode))

    def give(self, folder):
        """Make ``folder`` (and what it holds) the sandboxed user's own, so code in the sandbox can write it."""
        if bwrap_works(self.bwrap) and os.geteuid() == 0:
            for path in [folder, *Path(folder).rglob("*")]:
                os.chown(path, sandbox_uid(), sandbox_uid(), follow_symlinks=False)

    def _limits(self):
        cpu, memory, size = self.limits.cpu_seconds, self.limits.memory_mb << 20, self.limits.file_mb << 20
        limits = [f"--cpu={cpu}:{cpu + 1}", f"--as={memory}", f"--fsize={size}"]
        if bwrap_works(self.bwrap) and os.geteuid() == 0:
            limits.append(f"--nproc={self.limits.processes}")
        return ["prlimit", *limits, "--"]

    def _as_sandbox_user(self):
        if os.geteuid() != 0:
            return []
        uid = sandbox_uid()
        return ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups"]

    def _bwrap(self, binds, cwd):
        args = [self.bwrap, *NAMESPACES, "--die-with-parent", "--new-session", "--proc", "/proc", "--dev", "/dev",
                "--size", str(64 << 20), "--perms", "1777", "--tmpfs", "/tmp"]
        for path in SYSTEM_DIRS:
            args += ["--ro-bind-try", path, path]
        for path in python_dirs():
            args += _parents(path) + ["--ro-bind", path, path]
        for path in hidden_dirs(tuple(self.hidden_packages)):
            args += ["--tmpfs", path]
        for folder, writable in binds:
            args += _parents(folder) + ["--bind" if writable else "--ro-bind", str(folder), str(folder)]
        return args + ["--chdir", str(cwd)]


def read_bounded(process, stdin, seconds, most, late="wall time limit"):
    """Feed ``stdin`` to ``process`` and read its stdout and stderr until they close, with a deadline and a
    length limit: returns (stdout, stderr, why it was stopped or None): ``late`` when out of time, "output
    limit" once it has printed more than ``most`` bytes. No write or read can block past the deadline."""
    deadline = time.monotonic() + seconds
    kept = {process.stdout: bytearray(), process.stderr: bytearray()}
    printed = 0
    with selectors.DefaultSelector() as selector:
        for pipe in kept:
            selector.register(pipe, selectors.EVENT_READ)
        if stdin:
            os.set_blocking(process.stdin.fileno(), False)  # a process that never reads cannot block the grader
            selector.register(process.stdin, selectors.EVENT_WRITE)
        else:
            process.stdin.close()
        while selector.get_map():
            left = deadline - time.monotonic()
            if left <= 0:
                return bytes(kept[process.stdout]), bytes(kept[process.stderr]), late
            for key, _ in selector.select(left):
                if key.fileobj is process.stdin:
                    stdin = _feed(process.stdin, stdin, selector)
                    continue
                data = os.read(key.fd, 1 << 16)
                if not data:
                    selector.unregister(key.fileobj)
                    continue
                printed += len(data)
                kept[key.fileobj] += data[:max(0, most - len(kept[key.fileobj]))]
                if printed > most:
                    return bytes(kept[process.stdout]), bytes(kept[process.stderr]), N_("output limit")
    try:
        process.wait(max(0.0, deadline - time.monotonic()))  # its pipes are closed: it is ending, or hiding
    except subprocess.TimeoutExpired:
        return bytes(kept[process.stdout]), bytes(kept[process.stderr]), late
    return bytes(kept[process.stdout]), bytes(kept[process.stderr]), None


def _feed(pipe, data, selector):
    """Write what the pipe takes of ``data`` now; return the rest (the pipe is closed once all is written)."""
    try:
        written = os.write(pipe.fileno(), data[:1 << 16])
    except BlockingIOError:
        written = 0
    except BrokenPipeError:  # it will not read the rest: nothing more to feed
        written = len(data)
    data = data[written:]
    if not data:
        selector.unregister(pipe)
        pipe.close()
    return data


def _kill_group(process):
    """Kill whatever is left of a sandboxed command (its whole process group) and reap it."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    for pipe in (process.stdin, process.stdout, process.stderr):
        pipe.close()


def environment():
    """The whole environment of sandboxed code: none of the grader's variables, one thread for numpy, and
    chapter 7's models trained for 20 steps (``minigrad.capstone``): its grade comes from its checks and
    questions, and two minutes of training per submission would only spend the class's evening."""
    return {"PATH": os.pathsep.join([os.path.dirname(sys.executable), "/usr/bin", "/bin"]), "HOME": "/tmp",
            "LANG": "C.UTF-8", "MPLCONFIGDIR": "/tmp", "PYTHONDONTWRITEBYTECODE": "1",
            "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MINIGRAD_CAPSTONE_STEPS": "20",
            "JPY_PARENT_PID": "1"}  # a kernel's parent is the sandbox's init: no parent to watch, no banner


def limit_hit(returncode):
    """Which limit a process's exit code shows it hit (``None`` for an ordinary exit)."""
    signalled = -returncode if returncode < 0 else returncode - 128 if returncode > 128 else 0
    return {signal.SIGXCPU: N_("CPU time limit"), signal.SIGKILL: N_("killed (CPU or memory limit)"),
            signal.SIGXFSZ: N_("file size limit"),
            # C code that cannot allocate under the address-space limit often aborts rather than raise MemoryError
            signal.SIGABRT: N_("aborted (most likely at the memory limit)")}.get(signalled)


@functools.cache
def bwrap_works(bwrap):
    """Whether bubblewrap can make a sandbox here (probed once per process)."""
    if not shutil.which(bwrap):
        return False
    probe = [bwrap, *NAMESPACES, "--ro-bind", "/", "/", "true"]
    return subprocess.run(probe, capture_output=True).returncode == 0


@functools.cache
def sandbox_uid():
    """This process's own sandbox uid: the first slot no other grading process holds (kept until exit)."""
    for slot in range(UID_SLOTS):
        handle = open(Path(tempfile.gettempdir()) / f"minigrad-sandbox-uid-{slot}.lock", "w")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            continue
        _held_locks.append(handle)
        return UID_BASE + slot
    raise RuntimeError(f"all {UID_SLOTS} sandbox uids are in use: too many graders at once")


_held_locks = []


@functools.cache
def python_dirs():
    """The folders of the running Python and its environment (the venv and the interpreter it comes from)."""
    dirs = {os.path.realpath(p) for p in (sys.prefix, sys.exec_prefix, sys.base_prefix, sys.base_exec_prefix)}
    return sorted(d for d in dirs if not any(d.startswith(s + os.sep) for s in SYSTEM_DIRS))


@functools.cache
def hidden_dirs(packages):
    """Where the hidden packages are installed (found without importing them)."""
    found = []
    for name in packages:
        spec = importlib.util.find_spec(name)
        if spec and spec.submodule_search_locations:
            found += list(spec.submodule_search_locations)
    return found


def _parents(path):
    """Create the folders above ``path`` world-readable (bubblewrap would make them private to root)."""
    args = []
    for parent in reversed(Path(path).parents[:-1]):
        args += ["--perms", "0755", "--dir", str(parent)]
    return args
