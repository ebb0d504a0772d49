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
import fcntl
import functools
import importlib.util
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from traitlets import Integer, List, Unicode
from traitlets.config import Configurable

UID_BASE = 61000  # sandbox uids are UID_BASE + slot: ids no account on a Debian system uses
UID_SLOTS = 128
# Every namespace but the user's: as root, the sandbox's own uid must be a real one (see sandbox_uid).
NAMESPACES = ("--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try")
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64")
UNSANDBOXED = ("bubblewrap cannot run here: grading WITHOUT a sandbox "
               "(submissions can read and write what the grader can)")


@dataclass
class Outcome:
    """How a sandboxed command ended: its exit code and output, and which limit stopped it, if any."""
    returncode: int
    stdout: str
    stderr: str
    stopped: str | None


class Sandbox(Configurable):
    """The limits and the command line of a sandbox (configurable in nbgrader_config.py)."""

    bwrap = Unicode("bwrap", help="The bubblewrap command.").tag(config=True)
    cpu_seconds = Integer(60, help="CPU time of one sandboxed process (a notebook's kernel, one step's checks)."
                          ).tag(config=True)
    wall_seconds = Integer(300, help="Wall time of one notebook run, or of one step's checks.").tag(config=True)
    memory_mb = Integer(2048, help="Address space of each sandboxed process, in MiB.").tag(config=True)
    processes = Integer(64, help="Processes and threads the sandbox may run at once.").tag(config=True)
    file_mb = Integer(64, help="Largest file a sandboxed process may write, in MiB.").tag(config=True)
    hidden_packages = List(Unicode(), ["torch", "functorch", "torchgen"],
                           help="Installed packages a submission may not import (it must compute on its own)."
                           ).tag(config=True)

    def command(self, argv, binds, cwd):
        """``argv`` wrapped in the sandbox; ``binds`` is a list of (folder, writable) it may see."""
        confined = self._limits() + ["env", "-i", *(f"{k}={v}" for k, v in environment().items()), *argv]
        if not bwrap_works(self.bwrap):
            return confined
        return self._bwrap(binds, cwd) + self._as_sandbox_user() + confined

    def run(self, argv, binds, cwd, stdin=""):
        """Run ``argv`` in the sandbox to its end or to the wall time limit."""
        process = subprocess.Popen(self.command(argv, binds, cwd), cwd=cwd, text=True, errors="replace",
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   start_new_session=True)
        try:
            stdout, stderr = process.communicate(stdin, timeout=self.wall_seconds)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)  # the whole group: without bubblewrap, children too
            stdout, stderr = process.communicate()
            return Outcome(process.returncode, stdout, stderr, "wall time limit")
        return Outcome(process.returncode, stdout, stderr, limit_hit(process.returncode))

    def give(self, folder):
        """Make ``folder`` (and what it holds) the sandboxed user's own, so code in the sandbox can write it."""
        if bwrap_works(self.bwrap) and os.geteuid() == 0:
            for path in [folder, *Path(folder).rglob("*")]:
                os.chown(path, sandbox_uid(), sandbox_uid(), follow_symlinks=False)

    def _limits(self):
        limits = [f"--cpu={self.cpu_seconds}:{self.cpu_seconds + 1}", f"--as={self.memory_mb << 20}",
                  f"--fsize={self.file_mb << 20}"]
        if bwrap_works(self.bwrap) and os.geteuid() == 0:
            limits.append(f"--nproc={self.processes}")
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


def environment():
    """The whole environment of sandboxed code: none of the grader's variables, one thread for numpy."""
    return {"PATH": os.pathsep.join([os.path.dirname(sys.executable), "/usr/bin", "/bin"]), "HOME": "/tmp",
            "LANG": "C.UTF-8", "MPLCONFIGDIR": "/tmp", "PYTHONDONTWRITEBYTECODE": "1",
            "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1",
            "JPY_PARENT_PID": "1"}  # a kernel's parent is the sandbox's init: no parent to watch, no banner


def limit_hit(returncode):
    """Which limit a process's exit code shows it hit (``None`` for an ordinary exit)."""
    signalled = -returncode if returncode < 0 else returncode - 128 if returncode > 128 else 0
    return {signal.SIGXCPU: "CPU time limit", signal.SIGKILL: "killed (CPU or memory limit)",
            signal.SIGXFSZ: "file size limit"}.get(signalled)


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
