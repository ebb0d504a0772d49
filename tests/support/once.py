"""A fixture's costly work done once per test session, even when pytest-xdist runs several processes.

``make test`` runs pytest in two processes, and each would set up a module's fixture for the
tests it happens to get. Grading a class takes a minute: the first process to get here does it,
into a folder they share; the other waits, then reads the same results. While it waits, it
fills another folder the tests will need (``meanwhile``), if no process has taken that one yet.
"""
import fcntl
import os
import shutil


def once(tmp_path_factory, name, make, meanwhile=()):
    """The folder that ``make(folder)`` fills, filled by whichever test process gets here first.

    ``meanwhile``: (name, make) pairs this process fills, if nobody has, while another fills ``name``.
    """
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # each xdist process has its own temp folder inside a common one
    if not _fill(shared, name, make, wait=False):
        for other, make_other in meanwhile:
            try:
                _fill(shared, other, make_other, wait=False)
            except Exception:  # noqa: BLE001 - that folder's own tests will make it again, and report the error
                pass
        _fill(shared, name, make, wait=True)
    return shared / name


def _fill(shared, name, make, wait):
    """Fill ``shared/name`` unless it is done; False if another process is at it and ``wait`` is false."""
    folder = shared / name
    with open(shared / f"{name}.lock", "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        if not (folder / ".done").exists():
            shutil.rmtree(folder, ignore_errors=True)  # what an earlier, failed attempt left
            folder.mkdir()
            make(folder)
            (folder / ".done").touch()
    return True
