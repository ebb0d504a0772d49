"""A fixture's costly work done once per test session, even when pytest-xdist runs several processes.

``make test`` runs pytest in two processes, and each would set up a module's fixture for the
tests it happens to get. Grading a class takes a minute: the first process to get here does it,
into a folder they share; the other waits, then reads the same results.
"""
import fcntl
import os
import shutil


def once(tmp_path_factory, name, make):
    """The folder that ``make(folder)`` fills, filled by whichever test process gets here first."""
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # each xdist process has its own temp folder inside a common one
    folder = shared / name
    with open(shared / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / ".done").exists():
            shutil.rmtree(folder, ignore_errors=True)  # what an earlier, failed attempt left
            folder.mkdir()
            make(folder)
            (folder / ".done").touch()
    return folder
