"""Many learners at once on one JupyterHub: how long a check and a notebook cell take, and the memory each costs.

    sudo .venv/bin/python bench/bench_hub.py [--learners 20] [--rounds 3] [--deadline 900]

Makes ``--learners`` system accounts, each with the released chapter 2 in its home (every step
solved, as a learner who has done the work), starts a JupyterHub on 127.0.0.1 as
``tests/hub/test_class_on_hub.py`` does, and starts every learner's JupyterLab through the hub's
API, all at once. Then every learner, all at the same time, opens a kernel through the hub's proxy
and runs ``--rounds`` rounds of two things a learner does: a notebook cell (a forward and backward
pass through a small network) and the chapter's checks (``minigrad.check("2.1")`` .. ``"2.4"``,
each in a fresh process). Each execution is timed from request to reply, as the browser sees it.
Bounded: ``learners * rounds`` rounds, and the whole run stops at ``--deadline`` seconds. Loopback
only. Everything made is removed at the end (servers, hub, accounts, homes).

Prints: the time to start every server, each action's median and 95th percentile latency, the
memory (resident set) of one learner's server with its kernel, and the machine's memory in use.
"""
import argparse
import asyncio
import json
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from tornado.httpclient import AsyncHTTPClient, HTTPRequest  # noqa: E402
from tornado.websocket import websocket_connect  # noqa: E402

from support.submissions import ASSIGNMENT, CHAPTER, solved_copy, steps_before, steps_of  # noqa: E402
from hub import accounts  # noqa: E402
from hub.server import Hub  # noqa: E402
from tools import classroom  # noqa: E402

CELL = """\
import numpy as np, minigrad
x = minigrad.tensor(np.random.randn(128, 64).astype("float32"))
w1 = minigrad.randn(64, 128, requires_grad=True); w2 = minigrad.randn(128, 1, requires_grad=True)
((x @ w1).relu() @ w2).sum().backward()
w1.grad.shape"""


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def resident_mib(pid):
    """Resident memory of process ``pid`` and all its descendants, in MiB."""
    children = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError):
                continue
            children.setdefault(parent, []).append(int(entry.name))
    total, todo = 0, [pid]
    while todo:
        current = todo.pop()
        try:
            status = (Path("/proc") / str(current) / "status").read_text()
            total += next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:"))
        except (OSError, StopIteration):  # ended, or a kernel thread
            pass
        todo += children.get(current, [])
    return total / 1024


def memory_in_use_mib():
    info = dict(line.split(":", 1) for line in Path("/proc/meminfo").read_text().splitlines())
    return (int(info["MemTotal"].split()[0]) - int(info["MemAvailable"].split()[0])) / 1024


class Learner:
    """One learner's kernel, reached through the hub's proxy with the hub service's token."""

    def __init__(self, hub, name):
        self.hub, self.name = hub, name
        self.base = f"{hub.url}/user/{name}/api"
        self.headers = {"Authorization": f"token {hub.token}"}

    async def open_kernel(self):
        body = json.dumps({"path": f"{ASSIGNMENT}/bench.ipynb", "type": "notebook", "kernel": {"name": "python3"}})
        response = await AsyncHTTPClient().fetch(HTTPRequest(f"{self.base}/sessions", method="POST", body=body,
                                                             headers=self.headers, request_timeout=120))
        kernel = json.loads(response.body)["kernel"]["id"]
        url = f"{self.base}/kernels/{kernel}/channels".replace("http://", "ws://")
        self.socket = await websocket_connect(HTTPRequest(url, headers=self.headers, request_timeout=120))

    async def execute(self, code):
        """Run ``code``; (seconds from request to the kernel's reply, whether it ended without error)."""
        msg_id = uuid.uuid4().hex
        header = {"msg_id": msg_id, "msg_type": "execute_request", "username": self.name, "session": self.name,
                  "version": "5.3", "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
        message = {"header": header, "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
                   "content": {"code": code, "silent": False, "store_history": False, "user_expressions": {},
                               "allow_stdin": False, "stop_on_error": True}}
        start = time.monotonic()
        await self.socket.write_message(json.dumps(message))
        while True:
            text = await self.socket.read_message()
            if text is None:
                raise ConnectionError("the kernel's connection closed")
            reply = json.loads(text)
            if reply.get("parent_header", {}).get("msg_id") == msg_id and reply["msg_type"] == "execute_reply":
                return time.monotonic() - start, reply["content"]["status"] == "ok"


async def learn(hub, name, rounds, latencies, errors):
    """One learner's session; what fails (an error, a lost connection) is counted, and ends only theirs."""
    learner = Learner(hub, name)
    action = "open a kernel and import minigrad"
    try:
        start = time.monotonic()
        await learner.open_kernel()
        await learner.execute("import minigrad")
        latencies.setdefault(action, []).append(time.monotonic() - start)
        actions = [("notebook cell (forward + backward)", CELL)]
        actions += [(f"check {step}", f'minigrad.check("{step}")') for step in steps_of(CHAPTER)]
        for _ in range(rounds):
            for action, code in actions:
                seconds, ok = await learner.execute(code)
                latencies.setdefault(action, []).append(seconds)
                errors += [] if ok else [(name, action, "error in the cell")]
        learner.socket.close()
    except Exception as error:  # any failure is a figure of the run
        errors.append((name, action, f"{type(error).__name__}: {error}"))


async def learn_all(hub, names, rounds, latencies, errors):
    await asyncio.gather(*(learn(hub, name, rounds, latencies, errors) for name in names))


def prepare(names, folder, made):
    """Accounts for ``names``, each holding the released chapter with every step solved."""
    course = folder / "course"
    classroom.init(course, "en")
    classroom.release(course, ASSIGNMENT)
    learners = []
    for name in names:
        account = accounts.create(name, folder / "home")
        made.append(account)
        work = solved_copy(course, account.home / ASSIGNMENT, steps_before(CHAPTER) | set(steps_of(CHAPTER)),
                           folder / "scratch" / name)
        shutil.chown(account.home, account.name, account.name)
        for path in [work, *work.rglob("*")]:
            shutil.chown(path, account.name, account.name)
        learners.append(account)
    return learners


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--learners", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--deadline", type=float, default=900, help="seconds: the whole run stops by then")
    args = parser.parse_args()
    if not accounts.can_make_accounts():
        sys.exit("run as root: the benchmark makes a system account per learner")
    folder = Path(tempfile.mkdtemp(prefix="minigrad-bench-hub-"))
    folder.chmod(0o755)
    (folder / "home").mkdir(mode=0o755)
    made, hub = [], None
    try:
        prefix = "mb" + uuid.uuid4().hex[:4]
        names = [f"{prefix}-{number:02d}" for number in range(args.learners)]
        learners = prepare(names, folder, made)
        (folder / "state").mkdir(mode=0o700)
        idle = memory_in_use_mib()
        hub = Hub(folder / "state", names)
        for name in names:
            hub.person_config(name, "c = get_config()\n")
        hub.start()
        started = time.monotonic()
        asyncio.run(asyncio.wait_for(start_all(hub, names), args.deadline))
        spawn = time.monotonic() - started
        latencies, errors = {}, []
        left = args.deadline - spawn
        asyncio.run(asyncio.wait_for(learn_all(hub, names, args.rounds, latencies, errors), left))
        work = time.monotonic() - started - spawn
        servers = [hub.api("GET", f"/users/{name}")["servers"][""]["state"]["pid"] for name in names]
        per_server = [resident_mib(pid) for pid in servers]
        report(args, spawn, work, latencies, errors, per_server, memory_in_use_mib() - idle, len(learners))
    finally:
        if hub:
            hub.stop()
        for account in made:
            accounts.remove(account)
        shutil.rmtree(folder, ignore_errors=True)


async def start_all(hub, names):
    """Ask the hub for every learner's server at once; wait until all are ready."""
    loop = asyncio.get_running_loop()
    await asyncio.gather(*(loop.run_in_executor(None, hub.start_server, name) for name in names))


def report(args, spawn, work, latencies, errors, per_server, in_use, count):
    print(f"{count} learners on one JupyterHub (127.0.0.1), {args.rounds} rounds each")
    print(f"all {count} servers started in {spawn:.1f} s; the rounds took {work:.1f} s")
    print(f"{'action':<38} {'runs':>5} {'median s':>9} {'p95 s':>7}")
    for action, seconds in latencies.items():
        print(f"{action:<38} {len(seconds):>5} {statistics.median(seconds):>9.2f} {percentile(seconds, 0.95):>7.2f}")
    print(f"a learner's server with its kernel: {statistics.median(per_server):.0f} MiB resident "
          f"(median; largest {max(per_server):.0f} MiB)")
    print(f"memory in use, all servers running, above the idle machine: {in_use:.0f} MiB")
    print(f"failures: {len(errors)}")
    for name, action, reason in errors[:10]:
        print(f"  {name}: {action}: {reason}")


if __name__ == "__main__":
    main()
