"""System accounts for a class on this machine, made and removed the way a hub administrator does.

nbgrader names a student by the operating-system user their server runs as, so each learner
needs an account of their own (as on The Littlest JupyterHub): ``useradd`` makes it, with a
password that the hub's PAM login checks, and ``userdel`` removes it with its home. Every
process still running as a removed account is killed first, by its process id.
"""
import os
import pwd
import secrets
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Account:
    name: str
    password: str
    home: Path
    uid: int
    gid: int

    def run(self, argv, cwd=None, env=None, timeout=600, input=None):
        """Run ``argv`` as this account, with its home and ``env`` added to a plain environment."""
        environment = {"HOME": str(self.home), "USER": self.name, "LOGNAME": self.name,
                       "PATH": os.environ["PATH"], **(env or {})}
        return subprocess.run(argv, cwd=cwd or self.home, env=environment, user=self.uid, group=self.gid,
                              extra_groups=[], capture_output=True, text=True, timeout=timeout, input=input)

    def write(self, path, text):
        """Write a file as this account would (its folders made as needed, all its own)."""
        self.run(["sh", "-c", 'mkdir -p "$(dirname "$1")" && cat > "$1"', "sh", str(path)],
                 input=text).check_returncode()


def can_make_accounts():
    """Whether this process may add system users: root, with useradd at hand."""
    return os.geteuid() == 0 and Path("/usr/sbin/useradd").exists()


def create(name, homes):
    """A new system user ``name`` with a random password and its home under ``homes``."""
    home = Path(homes) / name
    password = secrets.token_urlsafe(12)
    subprocess.run(["useradd", "--create-home", "--home-dir", str(home), "--shell", "/bin/bash",
                    "--user-group", name], check=True, capture_output=True)
    subprocess.run(["chpasswd"], input=f"{name}:{password}\n", text=True, check=True, capture_output=True)
    entry = pwd.getpwnam(name)
    return Account(name, password, home, entry.pw_uid, entry.pw_gid)


def processes_of(uid):
    """Process ids of every process whose real user is ``uid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                status = (entry / "status").read_text()
            except OSError:  # ended meanwhile
                continue
            real_uid = next(line.split()[1] for line in status.splitlines() if line.startswith("Uid:"))
            if int(real_uid) == uid:
                found.append(int(entry.name))
    return found


def end_processes(uid, grace=5.0):
    """Stop the processes of ``uid``: SIGTERM, then SIGKILL those left after ``grace`` seconds."""
    for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, 2.0)):
        for pid in processes_of(uid):
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + wait
        while processes_of(uid) and time.monotonic() < deadline:
            time.sleep(0.1)
    return not processes_of(uid)


def remove(account):
    """End the account's processes, then remove it and its home."""
    end_processes(account.uid)
    subprocess.run(["userdel", "--remove", account.name], capture_output=True)
    return not exists(account.name)


def exists(name):
    try:
        pwd.getpwnam(name)
        return True
    except KeyError:
        return False
