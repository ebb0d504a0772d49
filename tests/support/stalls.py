"""Submissions that try to stall the grader rather than fool it: each makes some wait of the grader
last forever unless that wait has a deadline.

Like the hostile kinds of ``submissions.py``, each starts from the honest partial work (steps 2.1
and 2.2 of chapter 2, worth 2 points), so its right grade is 2 whatever it stalls.
"""
from pathlib import Path

from support.submissions import ASSIGNMENT, EARLIER, Kind, add_cell, answer_cells, hand_in, replace_stub

# Small limits for a class with stalling students, so that each stall ends in seconds; an honest
# notebook's cells need a fraction of them.
LIMITS = {"cell_seconds": 3, "notebook_seconds": 20, "checks_seconds": 8, "submission_seconds": 60,
          "grace_seconds": 15, "cpu_seconds": 4}

# Appended to a learner file of the package: runs wherever the package is imported (the notebook's
# kernel, each step's checks), and writes into the process's own descriptors: in a kernel, among them,
# its ZeroMQ sockets to the grader and ZeroMQ's own signalling descriptors.
WRITES_TO_DESCRIPTORS = '''

import os as _os

for _fd in range(3, 64):
    try:
        _os.write(_fd, b"a line of text from the student's package\\n")
    except OSError:
        pass
'''

CLOSES_DESCRIPTORS = "import os\nos.closerange(3, 64)\nprint('closed')"

STOPS_ANSWERING = "import os, signal\nos.kill(os.getpid(), signal.SIGSTOP)"

# Floods the kernel's channels to the grader: oversized frames, frames that are no message, signed
# messages of every size, and a forged reply to the running cell whose content is not a dict.
FLOODS_CHANNELS = """import itertools
kernel = get_ipython().kernel
parent, big = kernel.get_parent(), b"x" * (40 << 20)
for n in itertools.count():
    kernel.iopub_socket.send_multipart([b"<IDS|MSG>", b"no", b"message", big if n % 10 == 0 else b"{}"])
    kernel.session.send(kernel.iopub_socket, "stream", {"name": "stdout", "text": "flood " * 50_000}, parent=parent)
    if n == 20:
        try:
            kernel.session.send(kernel.shell_stream, "execute_reply", ["not", "a", "reply"], parent=parent,
                                ident=kernel._parent_ident["shell"])
        except Exception as error:
            print("no forged reply:", error)"""

SLEEP_IN_C = "import ctypes\nctypes.CDLL(None).sleep(3600)"


def limit(root):
    """Put the small limits in force in a course root."""
    with open(Path(root) / "nbgrader_config.py", "a") as config:
        config.writelines(f"c.Limits.{name} = {value}\n" for name, value in LIMITS.items())


def _writes_to_descriptors(folder, ctx):
    engine = Path(folder) / "minigrad" / "autograd" / "engine.py"
    engine.write_text(engine.read_text() + WRITES_TO_DESCRIPTORS)


def _sleeps_in_c(folder, ctx):
    """Sleeps in C where no Python signal handler runs: in the notebook, and in step 2.3's code."""
    add_cell(folder, SLEEP_IN_C)
    replace_stub(folder, "2.3", SLEEP_IN_C)


def _cell(code):
    return lambda folder, ctx: add_cell(folder, code)


KINDS = [
    Kind("writes_to_descriptors", _writes_to_descriptors, 2.0,
         "its kernel's garbled messages end the notebook's run; the kernel's stdio is /dev/null"),
    Kind("closes_descriptors", _cell(CLOSES_DESCRIPTORS), 2.0, "the kernel dies or goes silent: cell time limit"),
    Kind("stops_answering", _cell(STOPS_ANSWERING), 2.0, "cell time limit; the stopped kernel is killed"),
    Kind("floods_channels", _cell(FLOODS_CHANNELS), 2.0,
         "message size limit and bounded queues; output limit, or the cell time limit"),
    Kind("sleeps_in_c", _sleeps_in_c, 2.0, "cell time limit in the notebook; checks' time limit in step 2.3"),
]


# One student (not a kind: its proof needs no copies) whose step 2.1 loops: the topological sort reads the
# stack's top and never pops it. Steps 2.2 to 2.4 are right, and both practice questions are answered right.
# By the README's rule (each graded cell is worth its points), 2.1 scores nothing, nor does 2.3 (its engine
# runs 2.1's code), while 2.2 and 2.4 pass (their checks never call it) and both answers count: 4.
LOOPING = "loops_in_2_1"
LOOPING_POINTS = {"step_2_1": 0.0, "step_2_2": 1.0, "step_2_3": 0.0, "step_2_4": 1.0, "step_2_5": 0.0,
                  "step_2_6": 0.0, "step_2_7": 0.0, "step_2_8": 0.0, "q2_1": 1.0, "q2_2": 1.0}
NEVER_POPPED = """dependencies = {root: 0}
stack = [root]
while stack:
    node = stack[-1]
    for next_node, _ in node.next_functions:
        if next_node is None:
            continue
        if next_node not in dependencies:
            dependencies[next_node] = 0
            stack.append(next_node)
        dependencies[next_node] += 1
return dependencies"""


def hand_in_looping(root, scratch):
    """The looping student's hand-in (see ``LOOPING``)."""
    key = answer_cells(Path(root) / "source" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb")
    folder = hand_in(root, LOOPING, EARLIER | {"2.2", "2.3", "2.4"}, scratch, answers=key)
    replace_stub(folder, "2.1", NEVER_POPPED)
