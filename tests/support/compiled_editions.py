"""An edition written to a test's folder with the reference package's bytecode beside it.

Many tests write an edition (some steps solved) or a mutant of the reference, then run its checks or
its notebook in a fresh Python. Without bytecode that Python compiles the whole package first, a
quarter of a second of a core, hundreds of times a run. The full reference edition is compiled once
per test process, as bytecode checked by each source's hash (``freshchecks.compiled``, as grading
does): a written copy uses it for every file its edition left as the reference has it, and compiles
only the files that differ.
"""
import atexit
import functools
import shutil
import tempfile
from pathlib import Path

from tools import build, editions, freshchecks


@functools.lru_cache(maxsize=None)
def _reference():
    folder = Path(tempfile.mkdtemp(prefix="minigrad-bytecode-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return freshchecks.compiled(editions.write_package(build.PACKAGE, folder / "minigrad",
                                                       keep=set(editions.steps_in(build.PACKAGE))))


def write_package(target, keep):
    """``editions.write_package`` from the reference sources to ``target``, with the reference's bytecode."""
    package = editions.write_package(build.PACKAGE, target, keep=keep)
    freshchecks.with_bytecode(_reference(), package)
    return package
