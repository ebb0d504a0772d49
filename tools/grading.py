"""nbgrader's autograde step, made safe: a sandboxed kernel, and graded cells judged by fresh checks.

``SandboxedExecute`` takes the place of nbgrader's ``Execute`` preprocessor. For each
submitted notebook it

1. judges every step cell (``minigrad.check("2.3")``) with that step's checks in fresh
   sandboxed interpreters (see ``freshchecks``), before any submitted code has run;
2. runs the notebook's other cells in a kernel inside the sandbox, in a scratch copy of
   the submission without its notebooks (the restored notebook holds the hidden tests):
   whatever the notebook changes or writes, it changes only that copy. Graded cells are
   never run in the kernel; for a practice question the kernel is only asked for the
   answer's value. A cell that exhausts a limit or kills the kernel ends the notebook's
   run there, with a note in that cell;
3. judges each practice question's answer (plain data the kernel printed) against the key
   in the instructor's source notebook, which no submission sees, and writes every graded
   cell's verdict as its output: nbgrader's ``SaveAutoGrades`` then scores it (an error
   output scores zero).

Every wait on the submission has a deadline (``tools.limits``): a cell's, the notebook's, a
step's checks', all within the submission's own. What the kernel sends is read in bounded
messages and queues, and a message the grader cannot read ends the notebook's run like a
dead kernel; the heartbeat thread, a wait nothing bounds, is never started.

What happened is also written to ``grading-report.json`` beside the graded notebook, for
the class summary of ``python -m tools.classroom autograde``.

``configure(c, language)`` installs all this in an nbgrader configuration, so that the plain
``nbgrader autograde`` and ``nbgrader generate_feedback`` commands grade the same way.
"""
import json
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from jupyter_client.asynchronous import AsyncKernelClient
from jupyter_client.manager import AsyncKernelManager
from nbclient.exceptions import CellTimeoutError, DeadKernelError
from nbformat.v4 import new_code_cell, new_output
from traitlets import Bool, Unicode, default

from nbgrader import utils
from nbgrader.api import Gradebook
from nbgrader.converters import Autograde, GenerateFeedback
from nbgrader.coursedir import CourseDirectory
from nbgrader.preprocessors import ClearHiddenTests, Execute, NbGraderPreprocessor

from . import freshchecks, stubs, tampering
from .instructor_messages import N_, say
from .collect import UNREADABLE
from .grading_report import INCIDENTS, REPORT
from .limits import Limits
from .sandbox import UNSANDBOXED, Sandbox, bwrap_works, limit_hit

STOPPED = N_("The notebook's run was stopped here ({why}); the cells below were not run.")
# Errors a cell raises when it reaches a limit of the sandbox, yet the kernel lives on.
LIMIT_ERRORS = {"MemoryError": N_("memory limit"), "BlockingIOError": N_("process limit")}
# Asked of the kernel for a practice question: the answer's value as JSON (a one-element array or a numpy
# scalar as its number, anything else JSON cannot hold as its text). It needs nothing of the package: a
# submission whose package is broken or gone keeps its answers.
ASK_ANSWER = """import json as _j
print(_j.dumps({variable}, default=lambda o: o.item() if getattr(o, "size", None) == 1 else str(o)))"""


class SandboxedKernelClient(AsyncKernelClient):
    """The grader's end of a sandboxed kernel's channels: only those it reads, and none that takes more than
    ``Limits.message_mb`` in one message or queues more than a few messages unread."""

    QUEUED = 64  # messages a socket holds unread (each at most message_mb)

    def start_channels(self, shell=True, iopub=True, stdin=False, hb=False, control=False):
        """Shell and iopub only: the heartbeat's thread is one more wait without a deadline (nbclient asks the
        kernel manager whether the kernel lives), and a graded notebook never reads from stdin."""
        super().start_channels(shell=shell, iopub=iopub, stdin=False, hb=False, control=False)

    def _create_connected_socket(self, channel, identity=None):
        socket = super()._create_connected_socket(channel, identity)
        socket.maxmsgsize = Limits(parent=self.parent).message_mb << 20  # a bigger one drops the connection
        socket.rcvhwm = self.QUEUED
        return socket


class SandboxedKernelManager(AsyncKernelManager):
    """A notebook kernel inside the sandbox, reached over unix sockets in a folder the sandbox shares.

    The kernel inherits no descriptor of the grader's: its standard streams are /dev/null (ipykernel
    sends what the notebook prints over iopub), and Popen closes every other descriptor.
    """

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.transport = "ipc"  # TCP would need the host's network, which the sandbox does not have
        self.sandbox = Sandbox(parent=self)
        self.workdir = None  # set by SandboxedExecute before the kernel starts

    @default("client_factory")
    def _sandboxed_client(self):
        return SandboxedKernelClient

    async def _async_launch_kernel(self, kernel_cmd, **kw):
        quiet = {stream: subprocess.DEVNULL for stream in ("stdin", "stdout", "stderr")}
        return await super()._async_launch_kernel(kernel_cmd, **{**kw, **quiet, "close_fds": True})

    def write_connection_file(self, **kwargs):
        result = super().write_connection_file(**kwargs)
        self.sandbox.give(Path(self.connection_file))
        return result

    def format_kernel_cmd(self, extra_arguments=None):
        sockets = Path(self.connection_file).parent
        argv = super().format_kernel_cmd(extra_arguments)
        return self.sandbox.command(argv, [(self.workdir, True), (sockets, True)], self.workdir)

    def exit_reason(self):
        """Why the kernel process ended, as far as its exit code tells: a catalogue message, and the code when
        the message names it."""
        process = getattr(self.provisioner, "process", None)
        code = process.poll() if process else None
        if code is None:
            return N_("the kernel died"), None
        hit = limit_hit(code)
        return (hit, None) if hit else (N_("the kernel exited with code {code}"), code)


class SandboxedExecute(Execute):
    """nbgrader's Execute, with the kernel in a sandbox and graded cells judged by fresh checks."""

    language = Unicode("en", help="The language of the verdicts: en or zh.").tag(config=True)
    interrupt_on_timeout = Bool(False)  # a cell out of time ends the run: the sandbox's kernel cannot be interrupted

    def __init__(self, **kwargs):
        kwargs.setdefault("kernel_manager_class", SandboxedKernelManager)
        super().__init__(**kwargs)
        self.limits = Limits(parent=self)
        self.output_limit = self.limits.output_mb << 20  # the grader's memory holds what a notebook prints

    @default("shutdown_kernel")
    def _kill_the_kernel_at_the_end(self):
        return "immediate"

    def preprocess(self, nb, resources):
        sandbox = Sandbox(parent=self)
        sandbox.deadline = time.monotonic() + self.limits.submission_seconds
        folder = Path(resources["metadata"]["path"])
        (folder / REPORT).unlink(missing_ok=True)  # a report handed in with the submission is not ours
        self._report = {"sandbox": bwrap_works(sandbox.bwrap), "said": [], "verdicts": {}}
        self._left_out = []  # the steps whose checks stalled or crashed: the notebook runs their stubs
        if not self._report["sandbox"]:
            self.log.warning("!" * 20 + " " + UNSANDBOXED)
        with tempfile.TemporaryDirectory(prefix="minigrad-grading-") as scratch:
            package_parent = Path(scratch) / "checks"
            self._note_unreadable(resources)
            self._build_package(resources, folder, package_parent)
            verdicts = self._judge_steps(nb, sandbox, package_parent)
            self._run_notebook(nb, resources, folder, Path(scratch), sandbox)
            verdicts.update(self._judge_answers(resources))
        self._write_verdicts(nb, verdicts)
        (folder / REPORT).write_text(json.dumps(self._report, ensure_ascii=False, indent=1))
        return nb, resources

    def _build_package(self, resources, folder, package_parent):
        """The fresh package for the checks: the instructor's files, and the learner's from the submission."""
        assignment = resources["nbgrader"]["assignment"]
        coursedir = CourseDirectory(parent=self)
        source = Path(coursedir.format_path(coursedir.source_directory, ".", assignment)) / "minigrad"
        learner_files = self.config.Autograde.get("exclude_overwriting", {}).get(assignment, [])
        package_parent.mkdir(parents=True)
        self._instructor_package = freshchecks.compiled(source)
        for name in freshchecks.fresh_package(source, folder, learner_files, package_parent):
            self._incident("not_submitted", name=name)

    def _judge_steps(self, nb, sandbox, package_parent):
        """The verdict of every step cell, by grade id: the steps' checks run together (``freshchecks``)."""
        cells = [(cell, kind_of(cell)[1]) for cell in graded_cells(nb) if kind_of(cell)[0] == "step"]
        if not cells:
            return {}
        hidden = {step: freshchecks.hidden_tests(cell.source) for cell, step in cells}
        verdicts = freshchecks.check_steps(sandbox, package_parent, list(hidden), self.language, hidden,
                                           lambda step: self._stub_out(step, package_parent))
        for step, verdict in verdicts.items():
            if verdict.stopped:
                self._incident("checks_stopped", step=step, why=verdict.stopped)
            elif verdict.kind == "no_verdict":
                self._incident("checks_crashed", step=step)
                self._left_out.append(step)
        return {grade_id(cell): verdicts[step] for cell, step in cells}

    def _stub_out(self, step, package_parent):
        """Put the stub of a step whose checks stalled in place of its code, in the checks' package."""
        self._left_out.append(step)
        stubs.stub_out(step, self._instructor_package, package_parent / "minigrad")

    def _run_notebook(self, nb, resources, folder, scratch, sandbox):
        """Run the notebook's ungraded cells in the sandbox, in a scratch copy of the submission.

        The code of a step whose checks stalled or crashed is its stub there (``stubs``): the chapter's demo
        cells call it, and would stall (one cell limit each) or kill the kernel where the checks did, ending the
        notebook's run before the practice answers. With the stub they fail at once, and the run goes on to
        the answers. A stall of a cell's own code still ends the run: a new kernel would not know what the
        cells before it defined, and each later cell could spend a limit again."""
        self._work = scratch / "work"
        shutil.copytree(folder, self._work, ignore=shutil.ignore_patterns("*.ipynb", REPORT, "__pycache__"))
        freshchecks.with_bytecode(self._instructor_package, self._work / "minigrad")
        for step in self._left_out:
            if stubs.stub_out(step, self._instructor_package, self._work / "minigrad"):
                self._incident("left_out", step=step)
        (scratch / "kernel").mkdir()
        sandbox.give(scratch)
        self._answers, self._stopped, self._printed = {}, False, 0
        self._deadline = min(time.monotonic() + self.limits.notebook_seconds, sandbox.deadline)
        self._sockets = scratch / "kernel"
        # Starting the kernel is bounded by the notebook's time; its first answer, like any cell's.
        self.startup_timeout = max(1, self._time_left())
        self.timeout = max(1, min(self.limits.cell_seconds, self._time_left()))
        try:
            super().preprocess(nb, {**resources, "metadata": {**resources["metadata"], "path": str(self._work)}})
        except Exception as error:  # noqa: BLE001 - the kernel did not start, or garbled its first answer
            self._incident("no_kernel", error=_said(error))

    def create_kernel_manager(self):
        km = super().create_kernel_manager()
        km.connection_file = str(self._sockets / "kernel.json")
        km.workdir = self._work
        return km

    def preprocess_cell(self, cell, resources, index):
        kind = kind_of(cell) if utils.is_grade(cell) else None
        if kind and kind[0] == "question" and not self._stopped:
            self._answers[grade_id(cell)] = (kind[1], self._ask_answer(kind[2], cell, index))
        elif not kind and cell.cell_type == "code" and not self._stopped:
            self._execute(cell, index)
        return cell, resources

    def _time_left(self):
        return int(self._deadline - time.monotonic())

    def _execute(self, cell, index, store_history=True):
        """Run one cell in the kernel; a cell out of time or output, one that kills the kernel or makes it send
        what the grader cannot read, ends the run."""
        self.timeout = min(self._time_left(), self.limits.cell_seconds)
        try:
            if self.timeout <= 0:
                raise CellTimeoutError("the notebook's wall time is used up")
            self.execute_cell(cell, index, store_history=store_history)
        except CellTimeoutError:
            self._stop(cell, index, "wall time limit")
        except DeadKernelError:
            self._stop(cell, index, *self.km.exit_reason())
        except Exception as error:  # noqa: BLE001 - a message from the kernel that is not one
            self._stop(cell, index, f"the kernel sent a message the grader cannot read: {_said(error)}")
        else:
            if self._printed > self.output_limit:
                self._stop(cell, index, N_("output limit"))
            for error in {o.ename for o in cell.outputs if o.output_type == "error"} & LIMIT_ERRORS.keys():
                self._incident("limit_in_cell", index=index, limit=LIMIT_ERRORS[error], error=error)

    def output(self, outs, msg, display_id, cell_index):
        """Keep what a cell prints while the notebook's total is under the limit; drop the rest."""
        self._printed += len(str(msg["content"]))
        return super().output(outs, msg, display_id, cell_index) if self._printed <= self.output_limit else None

    def _ask_answer(self, variable, cell, index):
        """The answer's value as the notebook computed it (JSON text), or None."""
        probe = new_code_cell(ASK_ANSWER.format(variable=variable))
        self._execute(probe, index, store_history=False)
        self.nb.cells[index] = cell  # nbclient puts the cell it ran in the notebook: put the graded one back
        printed = "".join(o.text for o in probe.outputs if o.output_type == "stream" and o.name == "stdout")
        lines = printed.strip().splitlines()
        return lines[-1] if lines and not any(o.output_type == "error" for o in probe.outputs) else None

    def _judge_answers(self, resources):
        """Each answer the notebook gave, judged here against the key in the instructor's source notebook."""
        key = freshchecks.answer_key(self._source_notebook(resources))
        return {cell_id: freshchecks.check_answer(key, question, answer, self.language)
                for cell_id, (question, answer) in self._answers.items()}

    def _source_notebook(self, resources):
        coursedir = CourseDirectory(parent=self)
        folder = coursedir.format_path(coursedir.source_directory, ".", resources["nbgrader"]["assignment"])
        return Path(folder) / f"{resources['nbgrader']['notebook']}.ipynb"

    def _note_unreadable(self, resources):
        """Say so when the submitted notebook could not be read (``collect.make_gradable`` replaced it)."""
        coursedir = CourseDirectory(parent=self)
        ids = resources["nbgrader"]
        submitted = coursedir.format_path(coursedir.submitted_directory, ids["student"], ids["assignment"])
        notebook = f"{ids['notebook']}.ipynb"
        if (Path(submitted) / (notebook + UNREADABLE)).exists():
            self._incident("unreadable", notebook=notebook)

    def _stop(self, cell, index, why, code=None):
        """End the notebook's run at this cell, saying why (``code``: the kernel's exit code, when ``why`` names it)."""
        if self._printed > self.output_limit:  # a flood ends by a limit, or by itself
            why, code = N_("output limit"), None
        self._stopped = True
        fields = {} if code is None else {"code": code}
        note = say(STOPPED, self.language, why=say(why, self.language, **fields))
        cell.outputs.append(new_output("error", ename="SandboxStopped", evalue=note, traceback=[note]))
        if code is None:
            self._incident("notebook_stopped", index=index, why=why)
        else:
            self._incident("kernel_exited", index=index, code=code)

    def _write_verdicts(self, nb, verdicts):
        for cell in graded_cells(nb):
            verdict = verdicts.get(grade_id(cell))
            if verdict is None:  # a question the notebook never reached
                verdict = freshchecks.Verdict(False, "unanswered",
                                              freshchecks.say("unanswered", self.language, question=kind_of(cell)[1]))
            cell.outputs = [verdict_output(verdict)]
            cell.execution_count = None
            self._report["verdicts"][grade_id(cell)] = {"passed": verdict.passed, "kind": verdict.kind}

    def _incident(self, kind, **fields):
        """Note what happened, in nbgrader's log, and in the report as the message's kind and its fields: the
        class summary and the feedback page say it in the course's language (``said``)."""
        self.log.warning("%s", say(INCIDENTS[kind], "en", **fields))
        self._report["said"].append({"kind": kind, "fields": {k: str(v) for k, v in fields.items()}})


class DropForgedCells(NbGraderPreprocessor):
    """Take nbgrader's marks off cells the instructor never made (an unknown or repeated grade id).

    nbgrader 0.9.6 fails a whole submission on such a cell; without its marks it is an ordinary
    cell, and the instructor's graded cells are restored and graded as usual.
    """

    def preprocess(self, nb, resources):
        ids = resources["nbgrader"]
        with Gradebook(ids["db_url"]) as gradebook:
            known = {cell.name for cell in gradebook.find_notebook(ids["notebook"], ids["assignment"]).source_cells}
        seen = set()
        for cell in nb.cells:
            marks = cell.metadata.get("nbgrader")
            if marks is not None and (marks.get("grade_id") not in known or marks.get("grade_id") in seen):
                del cell.metadata["nbgrader"]
            elif marks is not None:
                seen.add(marks["grade_id"])
        return nb, resources


def _said(error):
    """An error in a line short enough for the summary."""
    return f"{type(error).__name__}: {error}"[:200]


def kind_of(cell):
    """What a graded cell grades (see freshchecks.graded_kind); an unknown graded cell stops the grading."""
    kind = freshchecks.graded_kind(cell.source)
    if kind is None:
        raise ValueError(f"graded cell {grade_id(cell)} is neither minigrad.check(...) nor "
                         "minigrad.check_answer(...): no fresh-interpreter grader knows it")
    return kind


def graded_cells(nb):
    return [cell for cell in nb.cells if cell.cell_type == "code" and utils.is_grade(cell)]


def grade_id(cell):
    return cell.metadata["nbgrader"]["grade_id"]


def verdict_output(verdict):
    """A passing verdict prints; any other is an error output, which nbgrader scores zero."""
    if verdict.passed:
        return new_output("stream", name="stdout", text=verdict.message + "\n")
    ename = "StepNotImplemented" if verdict.kind == "not_implemented" else "CheckFailed"
    return new_output("error", ename=ename, evalue=verdict.message, traceback=[verdict.message])


def configure(c, language):
    """Make nbgrader's autograde and feedback commands grade the minigrad way (called by nbgrader_config.py)."""
    c.SandboxedExecute.language = language
    sanitizers = Autograde.class_traits()["sanitize_preprocessors"].default()
    c.Autograde.sanitize_preprocessors = [DropForgedCells, *sanitizers]
    nbgraders = Autograde.class_traits()["autograde_preprocessors"].default()
    c.Autograde.autograde_preprocessors = [SandboxedExecute if step is Execute else step for step in nbgraders]
    c.OverwriteCells.add_missing_cells = True  # a deleted graded cell comes back, and is graded
    c.GenerateFeedback.preprocessors = [*GenerateFeedback.class_traits()["preprocessors"].default(), ClearHiddenTests]
    tampering.configure(c)
