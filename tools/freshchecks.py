"""Verdicts for graded cells, decided in fresh sandboxed interpreters rather than in the student's kernel.

A notebook's graded cells are ``minigrad.check("2.3")`` (an exercise step) and
``minigrad.check_answer("q3.1", answer_q3_1)`` (a practice question). Run in the student's
kernel, either could be defeated by an earlier cell (``minigrad.check = lambda s: None``).
So when grading:

- a notebook's steps' checks run in a fresh interpreter (a step that does not pass there runs
  again in one of its own; after a step that stalls, the next ones run on in another, with the
  stalled step's code back to its stub), in a sandbox that sees one fresh package:
  the instructor's copy of every file except the learner's own files, taken from the
  submission. ``minigrad/steps/`` (the checks) is always the instructor's copy. That
  process only reports what the learner's code returned (plain data, a line of output
  per step), for the inputs of seed 0 and of seeds drawn anew for each grading process,
  which the learner never saw. The verdict is taken here, in the grader's process, by
  comparing those reports with the reference solution's on the same inputs (computed
  in a process of its own, on the repository's ``solutions/``). Nothing the submission
  does in its own process can pass a step but values equal to the reference's.
- a question's answer is the value the notebook computed (all the kernel is asked for, as
  JSON); whether it is right is decided here, against the answer in the instructor's source
  notebook (between its ``### BEGIN SOLUTION`` markers, which the release leaves out). The
  released package holds no key: a student cannot test guesses offline against it.
- hidden tests (nbgrader's ``### BEGIN HIDDEN TESTS`` region of a graded cell, which the
  release leaves out) run in another fresh interpreter once the step's own checks pass.
  They get the code on stdin, never on disk, and their failure prints a neutral
  message: what they test shows nowhere a student can see.

Every verdict carries a message in the course's language.
"""
import ast
import compileall
import json
import os
import py_compile
import re
import secrets
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import nbformat
from minigrad.steps.answers import canonical
from minigrad.steps.judge import judge

from . import instructor_messages
from .editions import ids
from .instructor_messages import N_

REFERENCE = Path(__file__).resolve().parent.parent / "solutions"  # the reference package's parent
HIDDEN_SEEDS = tuple(secrets.randbelow(2**31) + 1 for _ in range(2))  # new for every grading process
MAX_REPORT = 4 << 20  # characters of the checks' output read for reports: far more than a chapter's steps write
STEP_CELL = re.compile(rf'^\s*minigrad\.check\("(?P<step>{ids.STEP})"\)', re.MULTILINE)
QUESTION_CELL = re.compile(rf'^\s*minigrad\.check_answer\("(?P<question>{ids.QUESTION})", (?P<variable>\w+)\)', re.MULTILINE)
HIDDEN = re.compile(r"^[ \t]*### BEGIN HIDDEN TESTS[^\n]*\n(?P<code>.*?)^[ \t]*### END HIDDEN TESTS",
                    re.MULTILINE | re.DOTALL)
PASSED_HIDDEN = "minigrad-hidden-tests-passed"
SOLUTION = re.compile(r"^[ \t]*### BEGIN SOLUTION[^\n]*\n(?P<code>.*?)^[ \t]*### END SOLUTION",
                      re.MULTILINE | re.DOTALL)

# Run inside the sandbox: the hidden tests, read from stdin, against the fresh package.
HIDDEN_RUNNER = f"""
import sys
code = sys.stdin.read()
import numpy as np
import minigrad
exec(compile(code, "<hidden tests>", "exec"), {{"minigrad": minigrad, "torch": minigrad, "np": np}})
print({PASSED_HIDDEN!r})
"""


MESSAGES = {  # what a graded cell's verdict says (translated in tools/locale)
    "stopped": N_("✗ Step {step}: the checks were stopped ({why})."),
    "after_stopped": N_("✗ Step {step}: its checks use the code of step {stopped}, which was stopped; fix step "
                        "{stopped} first."),
    "hidden": N_("✗ Step {step}: your code passes the checks you were given, but not all of your instructor's "
                 "further checks."),
    "no_report": N_("✗ Step {step}: the checks ended without reporting what your code returned: {last}"),
    "right": N_("✓ {question}: right."),
    "wrong": N_("✗ {question}: not the right answer."),
    "unanswered": N_("✗ {question}: the notebook gave no answer (the variable is not set, or the notebook had "
                     "stopped before it)."),
}


@dataclass
class Verdict:
    """The outcome of one graded cell: passed or not, what the student reads, and which limit stopped it."""
    passed: bool
    kind: str  # the runner's status: passed, failed, not_implemented, stopped, ...
    message: str
    stopped: str | None = None


def say(key, language, **fields):
    """The message ``key`` of a verdict, in ``language``."""
    return instructor_messages.say(MESSAGES[key], language, **fields)


def graded_kind(source):
    """("step", "2.3", None) or ("question", "q3.1", "answer_q3_1") for a graded cell's source, else None."""
    step = STEP_CELL.search(source)
    if step:
        return "step", step["step"], None
    question = QUESTION_CELL.search(source)
    if question:
        return "question", question["question"], question["variable"]
    return None


def hidden_tests(source):
    """The code of the hidden-test region of a graded cell ("" when it has none)."""
    found = HIDDEN.search(source)
    return found["code"] if found else ""


def fresh_package(instructor_package, submission, learner_files, target):
    """Write the package to grade: the instructor's files, then the learner's from ``submission``.

    Returns the learner files the submission lacks (the instructor's stub stands in for each).
    """
    shutil.copytree(instructor_package, target / "minigrad", ignore=BEING_WRITTEN)  # with its bytecode: ``compiled``
    missing = []
    for name in learner_files:
        submitted = Path(submission) / name
        if submitted.is_file():
            shutil.copyfile(submitted, target / name)
        else:
            missing.append(name)
    return missing


# A bytecode file another grader is writing at this moment (py_compile writes NAME.pyc.NUMBER, then renames it).
BEING_WRITTEN = shutil.ignore_patterns("*.pyc.*")


def compiled(package):
    """Compile the instructor's ``package``, beside its sources, unless done: bytecode checked by the source's
    hash, not its time.

    The grader copies that package for every submission, and its sandboxed interpreters cannot write
    bytecode there: without it each of them compiles the whole package again. Checked against each
    source's hash, the bytecode serves every copy of a file left as it was, whatever its copy's time, while
    a file the learner changed is compiled anew. Graders working at once write the same files atomically."""
    if not (Path(package) / "__pycache__").is_dir():
        compileall.compile_dir(str(package), quiet=1, invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)
    return package


def with_bytecode(instructor_package, package):
    """Give a copy of the package (the notebook's, made from the submission) the instructor's bytecode: each
    ``__pycache__`` folder of ``instructor_package`` goes where ``package`` has the same folder."""
    for cache in Path(instructor_package).rglob("__pycache__"):
        folder = Path(package) / cache.parent.relative_to(instructor_package)
        if folder.is_dir() and not folder.is_symlink():
            shutil.copytree(cache, folder / "__pycache__", dirs_exist_ok=True, ignore=BEING_WRITTEN)


def check_steps(sandbox, package_parent, steps, language, hidden, stub_out=lambda step: None):
    """The verdicts on ``steps`` ({step: Verdict}): what their checks saw in fresh sandboxed interpreters,
    judged here against the reference, for the usual inputs and then for hidden ones; then the hidden tests
    of each step that passed (``hidden``: {step: code}).

    All the steps' checks run first in one interpreter, in order, each step reporting as it ends. A
    passed step, or an untouched one ("not implemented"), is judged from that run. A failed one could
    owe its failure to an earlier step's code in the same process, so its verdict is taken again in an
    interpreter of its own (unless it ran first in its process); so is the step during which the process
    ended without a report (it crashed), and the steps after that one run together in a fresh interpreter.

    A step during which a limit stopped the process is stopped: its own code stalled. It is not run again
    alone, which would spend one more limit on the same loop (each step's checks start from a fresh grad
    mode: what an earlier step leaves behind does not make a later one loop). Its code is put back to the
    instructor's stub (``stub_out(step)``, see ``stubs``), and the steps after it run together again in a
    fresh interpreter, where a check that reaches the stalled code fails at once (its verdict names the
    stalled step) and the others keep their points. So a step that loops costs one limit, not one more
    per step that builds on it."""
    seeds = (0, *HIDDEN_SEEDS)
    reference = reference_observations(steps, seeds)
    verdicts, stopped, pending = {}, set(), list(steps)
    while pending:
        observed = _observe(sandbox, package_parent, pending, seeds)
        for index, step in enumerate(pending):
            verdict = _step_verdict(observed, step, reference[step], language, seeds, stopped)
            if index and verdict.kind not in ("passed", "not_implemented", "stopped", "after_stopped"):
                verdict = _step_verdict(_observe(sandbox, package_parent, [step], seeds), step, reference[step],
                                        language, seeds, stopped)
            verdicts[step] = verdict
            if verdict.kind == "stopped":
                stopped.add(step)
                stub_out(step)
            if step not in observed[1]:  # the process ended here: the steps after it run in a fresh one
                break
        pending = pending[index + 1:]
    return {step: _hidden_verdict(sandbox, package_parent, step, verdicts[step], language, hidden.get(step))
            for step in steps}


def _hidden_verdict(sandbox, package_parent, step, verdict, language, code):
    """The verdict on a step that passed its checks, once its hidden tests (``code``) have run."""
    if not (verdict.passed and code):
        return verdict
    outcome = _run(sandbox, package_parent, ["-c", HIDDEN_RUNNER], stdin=code)
    if outcome.stdout.strip().splitlines()[-1:] != [PASSED_HIDDEN]:
        return Verdict(False, "hidden", say("hidden", language, step=step), outcome.stopped)
    return verdict


def check_answer(key, question, answer, language):
    """The verdict on a practice question, given the answer the notebook computed (JSON text, or None)
    and the instructor's ``key`` (``answer_key``)."""
    if answer is None:
        return Verdict(False, "unanswered", say("unanswered", language, question=question))
    try:
        given = canonical(json.loads(answer))
    except (ValueError, RecursionError):
        given = None
    kind = "right" if question in key and given == key[question] else "wrong"
    return Verdict(kind == "right", kind, say(kind, language, question=question))


def answer_key(notebook):
    """question ("q1.1") -> its answer in canonical spelling, from the instructor's source notebook: each
    answer cell's solution region ends by assigning a literal (``answer_q1_1 = 2``)."""
    key = {}
    for cell in nbformat.read(notebook, as_version=4).cells:
        variable = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id", "")
        region = SOLUTION.search(cell.source)
        if cell.cell_type == "code" and variable.startswith("answer_q") and region:
            assigned = [node.value for node in ast.parse(region["code"]).body if isinstance(node, ast.Assign)
                        and [getattr(t, "id", None) for t in node.targets] == [variable]]
            if not assigned:
                raise ValueError(f"{notebook}: the solution of {variable} assigns it no value")
            key[variable.removeprefix("answer_").replace("_", ".")] = canonical(ast.literal_eval(assigned[-1]))
    return key


def _run(sandbox, package_parent, args, stdin=""):
    return sandbox.run([sys.executable, *args], [(package_parent, False)], package_parent, stdin=stdin)


def _observe(sandbox, package_parent, steps, seeds):
    """How the checks of ``steps``, run in turn in one sandboxed interpreter, ended: the outcome, and the
    report of each step that gave one ({step: {seed: observations}})."""
    outcome = _run(sandbox, package_parent, ["-m", "minigrad.steps", "observe", *steps, "--out", "-",
                                             *[f"--seed={seed}" for seed in seeds]])
    return outcome, _reports(outcome.stdout, seeds)


def _step_verdict(observed, step, reference, language, seeds, stopped=()):
    """Judge the report of ``step`` (seed -> observations) against the reference's; a step that builds on one
    of the ``stopped`` steps (whose code is now its stub) is told so."""
    outcome, reports = observed
    if step not in reports:
        if outcome.stopped:
            why = instructor_messages.say(outcome.stopped, language)
            return Verdict(False, "stopped", say("stopped", language, step=step, why=why), outcome.stopped)
        last = (outcome.stderr.strip().splitlines() or [f"exit code {outcome.returncode}"])[-1][:300]
        return Verdict(False, "no_verdict", say("no_report", language, step=step, last=last))
    for seed in seeds:
        verdict = judge(step, reports[step][str(seed)], reference[str(seed)], language)
        if verdict["status"] != "passed":
            if verdict.get("missing") in stopped:
                return Verdict(False, "after_stopped", say("after_stopped", language, step=step,
                                                           stopped=verdict["missing"]))
            if seed != 0:  # right on the inputs the learner saw, wrong on others: say no more
                return Verdict(False, "hidden", say("hidden", language, step=step))
            return Verdict(False, verdict["status"], verdict["message"])
    return Verdict(True, "passed", verdict["message"])


def _reports(stdout, seeds):
    """{step: its report}, from the last line of ``stdout`` (its bounded tail) that reports that step for
    every seed: ``{"step": "2.3", "seen": {seed: observations}}``."""
    reports = {}
    for line in reversed(stdout[-MAX_REPORT:].splitlines()):
        found = _json_object(line)
        step, seen = found.get("step"), found.get("seen")
        if (isinstance(step, str) and step not in reports and isinstance(seen, dict)
                and all(isinstance(seen.get(str(seed)), dict) for seed in seeds)):
            reports[step] = seen
    return reports


_references = {}


def reference_observations(steps, seeds):
    """What the reference solution's checks see for ``seeds`` ({step: {seed: observations}}), from a process
    of its own; kept, so each step's are computed once per grading process."""
    missing = [step for step in steps if (step, seeds) not in _references]
    if missing:
        env = dict(os.environ, PYTHONPATH=str(REFERENCE))
        done = subprocess.run([sys.executable, "-m", "minigrad.steps", "observe", *missing, "--out", "-",
                               *[f"--seed={seed}" for seed in seeds]], cwd=REFERENCE, env=env, capture_output=True,
                              text=True, timeout=300, check=True)
        for step, seen in _reports(done.stdout, seeds).items():
            _references[step, seeds] = seen
    return {step: _references[step, seeds] for step in steps}


def _json_object(line):
    try:
        found = json.loads(line)
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}
