"""Grading workers under a watchdog: each worker grades one submission at a time, and none may stall the class.

A worker is a process that prepares itself once (nbgrader takes seconds to start) and then
runs one task at a time, sent to it over its own pipe. The pool above them waits only on
those pipes and on the workers' lives, and never longer than the nearest budget:

- a worker still busy with one task after ``budget`` seconds is killed (the watchdog; a new
  worker's budget counts its preparation until it says it is ready, then its task);
- a worker that dies, or answers with anything but one short JSON object, fails its task;

either way the task ends with the reason, and a fresh worker takes the next task. What a worker
answers is decoded as JSON, never unpickled, and read up to ``ANSWER_BYTES``.
"""
import collections
import ctypes
import json
import multiprocessing
import signal
import time
from dataclasses import dataclass
from multiprocessing.connection import wait

ANSWER_BYTES = 1 << 20  # a task's answer is a short summary; anything longer is garbage
READY = b"ready"  # what a worker says once prepared: its first task's budget starts then
PR_SET_PDEATHSIG = 1  # prctl option: the signal a process gets when its parent dies
PRELOAD = ["nbgrader.apps", "tools.grading"]  # imported once by the process workers are forked from


class TaskFailed(Exception):
    """A task that ended without an answer: its worker died, went over budget or answered garbage."""


@dataclass
class _Worker:
    process: multiprocessing.Process
    pipe: object  # the pool's end of the worker's pipe
    task: tuple | None = None
    started: float = 0.0


def run(function, tasks, jobs, budget, prepare, prepare_args, done):
    """Call ``function(*task)`` for each task in ``jobs`` workers; ``done(task, answer_or_TaskFailed)`` as each ends.

    ``function`` and ``prepare`` (called once in each worker with ``prepare_args``) must be importable
    module-level functions; ``function`` returns a dict that JSON can carry.
    """
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(PRELOAD)
    waiting = collections.deque(tasks)
    workers = []
    try:
        workers = [_start(context, function, prepare, prepare_args) for _ in range(min(jobs, len(waiting)))]
        while waiting or any(w.task for w in workers):
            for worker in workers:
                if worker.task is None and waiting:
                    _give(worker, waiting.popleft())
            busy = [w for w in workers if w.task]
            nearest = min(w.started + budget for w in busy)
            ready = set(wait([w.pipe for w in busy] + [w.process.sentinel for w in busy],
                             max(0.0, nearest - time.monotonic())))
            for at, worker in enumerate(workers):
                outcome = _outcome(worker, ready, budget)
                if outcome is None:
                    continue
                task, worker.task = worker.task, None
                if isinstance(outcome, TaskFailed):
                    _stop(worker)
                    workers[at] = _start(context, function, prepare, prepare_args) if waiting else worker
                done(task, outcome)
            workers = [w for w in workers if w.process.is_alive() or w.task]
    finally:
        for worker in workers:
            _stop(worker)


def _outcome(worker, ready, budget):
    """What a busy worker's task came to: its answer, a TaskFailed, or None while it is still running."""
    if worker.task is None:
        return None
    if worker.pipe in ready:
        try:
            answer = worker.pipe.recv_bytes(ANSWER_BYTES)
            if answer == READY:
                worker.started = time.monotonic()
                return None
            return _decode(answer)
        except (EOFError, ConnectionError):
            worker.process.join(5)  # its pipe closed as it died: its exit code follows
            return TaskFailed(f"its grading process died (exit code {worker.process.exitcode})")
        except (OSError, ValueError) as error:
            return TaskFailed(f"its grading process answered garbage ({error})"[:300])
    if worker.process.sentinel in ready:
        return TaskFailed(f"its grading process died (exit code {worker.process.exitcode})")
    if time.monotonic() - worker.started > budget:
        return TaskFailed(f"the watchdog stopped its grading after {budget} s (the submission's time limit and "
                          "the grace beyond it)")
    return None


def _give(worker, task):
    """Send a task to an idle worker; one that has died meanwhile will be found dead by the pool's wait."""
    worker.task, worker.started = task, time.monotonic()
    try:
        worker.pipe.send(task)
    except (BrokenPipeError, ConnectionError):
        pass


def _decode(data):
    """A worker's answer: a JSON object, or a TaskFailed when its task raised."""
    answer = json.loads(data)
    if not isinstance(answer, dict):
        raise ValueError("not a JSON object")
    if set(answer) == {"raised"}:
        return TaskFailed(f"the grading failed: {answer['raised']}"[:300])
    return answer


def _start(context, function, prepare, prepare_args):
    ours, theirs = context.Pipe()
    process = context.Process(target=_serve, args=(theirs, function, prepare, prepare_args), daemon=True)
    process.start()
    theirs.close()
    return _Worker(process, ours)


def _stop(worker):
    """Kill a worker (a grading sandbox dies with it: bubblewrap's --die-with-parent) and reap it."""
    if worker.process.is_alive():
        worker.process.kill()
    worker.process.join(5)
    worker.pipe.close()


def _serve(pipe, function, prepare, prepare_args):
    """A worker's life: prepare, then answer each task sent until the pool closes the pipe.

    It dies with the process it was forked from (which ends when the pool's process ends, even
    killed): a killed autograde leaves no worker grading on behind it.
    """
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    prepare(*prepare_args)
    pipe.send_bytes(READY)
    while True:
        try:
            task = pipe.recv()
        except EOFError:
            return
        try:
            answer = function(*task)
        except Exception as error:  # noqa: BLE001 - a bug in grading one task: said, and the worker is replaced
            answer = {"raised": repr(error)}
        pipe.send_bytes(json.dumps(answer).encode())
