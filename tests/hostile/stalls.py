"""Submissions that try to stall the grader rather than fool it: each makes some wait of the grader
last forever unless that wait has a deadline.

Like the hostile kinds of ``submissions.py``, each starts from the honest partial work (steps 2.1
and 2.2 of chapter 2, worth 2 points), so its right grade is 2 whatever it stalls.
"""
from pathlib import Path

from hostile.submissions import Kind, add_cell, replace_stub

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
