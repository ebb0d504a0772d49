"""What a learner should meet only when they ask for it, kept out of sight of a casual look.

A step's last hint says its answer in words; its checks compute the values a right answer
and the usual wrong ones give. Written in plain text in the package, they would be one
glance away for a learner reading the files around their stub. Sealed, they are compressed
JSON in base64: ``minigrad.hint`` and ``minigrad.check`` open them, an editor shows a block
of letters. This hides nothing from someone who decodes it on purpose; it keeps the answer
from being read by accident. The reference keeps its checks in plain files, where they are
written; a learner's package has each chapter's checks sealed in its ``checks.dat``.
"""
import base64
import functools
import importlib.abc
import importlib.util
import json
import zlib

SUFFIX = ".dat"


def seal(data):
    """``data`` (anything JSON holds) as the text of a sealed file."""
    packed = base64.b64encode(zlib.compress(json.dumps(data, ensure_ascii=False).encode(), 9))
    return "\n".join(packed[i:i + 76].decode() for i in range(0, len(packed), 76)) + "\n"


def unseal(text):
    """What ``seal`` sealed."""
    return json.loads(zlib.decompress(base64.b64decode("".join(text.split()))))


# ---------------------------------------------------------------- a chapter's checks, sealed

CHECKS = "checks" + SUFFIX  # in each chapter's folder of a learner's package: its check modules and observations


@functools.cache
def sealed_checks(folder):
    """What a learner package's chapter ``folder`` holds sealed: ``{"modules": {name: source}, "expected": {...}}``
    (empty in the reference, whose checks are plain files). Opened once per process."""
    path = folder / CHECKS
    return unseal(path.read_text()) if path.exists() else {}


class SealedChecks(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports ``<package>.chapterN.<module>`` from the chapter's sealed file when no plain file has it.

    It comes after Python's own finders: in the reference, where the checks are written, their
    files are imported as usual; in a learner's package, where they are sealed, from here.
    """

    def __init__(self, package, folder):
        self.package, self.folder = package, folder

    def find_spec(self, fullname, path=None, target=None):
        parts = fullname.split(".")
        if ".".join(parts[:-2]) != self.package or not parts[-2].startswith("chapter"):
            return None
        source = sealed_checks(self.folder / parts[-2]).get("modules", {}).get(parts[-1])
        if source is None:
            return None
        return importlib.util.spec_from_loader(fullname, _Source(source, self.folder / parts[-2] / CHECKS))


class _Source(importlib.abc.Loader):
    def __init__(self, source, origin):
        self.source, self.origin = source, origin

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        exec(compile(self.source, f"{self.origin} ({module.__name__.rsplit('.', 1)[-1]})", "exec"), module.__dict__)
