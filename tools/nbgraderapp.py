"""nbgrader for one course root: its Python API in this process, or its command line in a subprocess.

Both read the course root's ``nbgrader_config.py``. The API is the quick way (nbgrader takes
seconds to start): the class-wide commands grade many students, and export every grade, in one
process with it. The command line is nbgrader's own commands as an instructor would type them in the
course root (the tests grade with them too: the plain ``nbgrader`` path must grade the same way).
"""
import os
import subprocess
import sys
from pathlib import Path

from traitlets.config.loader import PyFileConfigLoader

from .instructor_messages import N_, Refused

CONFIG_FILE = "nbgrader_config.py"
NOT_A_COURSE_ROOT = N_("{root} is not a course root (it has no {file}): make one with "
                       "`minigrad-classroom init {root} --lang en` (or --lang zh), or give the folder init made.")


def command(root, *args, check=True):
    """Run ``nbgrader ARGS`` in the course root; return the finished process."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PATH"] = _path_with_alembic()
    done = subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=root, env=env, capture_output=True, text=True)
    if check and done.returncode != 0:
        raise RuntimeError(f"nbgrader {' '.join(args)} failed:\n{done.stdout}{done.stderr}")
    return done


def course_root(root):
    """``root`` if it holds a course's ``nbgrader_config.py``; refused otherwise, before nbgrader says so in a
    traceback (``ConfigFileNotFound``)."""
    if not (Path(root) / CONFIG_FILE).is_file():
        raise Refused(NOT_A_COURSE_ROOT, root=root, file=CONFIG_FILE)
    return root


def config(root):
    """The course's nbgrader configuration, as nbgrader itself reads it."""
    return PyFileConfigLoader(CONFIG_FILE, path=str(Path(root).resolve())).load_config()


def course_language(root):
    """The language the course root was made in (``classroom init --lang``): the one its commands speak."""
    return config(root).SandboxedExecute.get("language", "en")


def api(root):
    """nbgrader's Python API on the course root."""
    from nbgrader.apps import NbGraderAPI

    os.environ["PATH"] = _path_with_alembic()
    return NbGraderAPI(config=config(root))


def succeed(outcome, what):
    """An API call's outcome, or an error that shows nbgrader's log."""
    if not outcome["success"]:
        raise RuntimeError(f"nbgrader {what} failed:\n{outcome.get('log', '')}{outcome.get('error', '')}")
    return outcome


def export_grades(root, to):
    """nbgrader's CSV of every grade at ``to``, as its ``export`` command writes it, written in this process
    (the command would start nbgrader anew: seconds of a core each time)."""
    from nbgrader.plugins import CsvExportPlugin

    plugin = CsvExportPlugin(config=config(root))
    plugin.to = str(to)
    with gradebook(api(root).coursedir) as book:
        plugin.export(book)


def gradebook(coursedir):
    """The gradebook of a course (``api(root).coursedir``); close it after use, or use it in a ``with``."""
    from nbgrader.api import Gradebook

    return Gradebook(coursedir.db_url, coursedir.course_id)


def _path_with_alembic():
    """PATH with this Python's scripts in it: nbgrader runs the ``alembic`` command of its environment."""
    scripts, path = os.path.dirname(sys.executable), os.environ.get("PATH", "")
    return path if scripts in path.split(os.pathsep) else os.pathsep.join([scripts, path])
