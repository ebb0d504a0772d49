"""The lock: every Python package any install of the project uses, at one exact version, with its hashes.

    python -m tools.lock            bring the lock in step with pyproject.toml, keeping every pin that
                                    still satisfies it; then rewrite the files that follow the lock
    python -m tools.lock --upgrade  the same, taking the newest release of everything (a refresh)

``requirements.lock`` is made by uv (``uv pip compile --generate-hashes``) from ``pyproject.toml``, all
extras together, so the course, the tests and a hub's learners get the same version of each package.
``tools/install.sh`` installs only from it, refusing any file whose hash it does not hold. Two files
follow it: ``binder/requirements.txt`` (what ``make course`` installs: the lock cut to the course, with
the same pins and hashes, for repo2docker) and the version pins of ``environment.yml`` (conda users).
``tests/project/test_lock.py`` fails when any of them disagrees with pyproject.toml or with the lock.

PyTorch (test-only) is locked as this kind of machine serves it: its CPU build, a file pip finds in
``TORCH_WHEELS``; PyPI's build of the same version is a CUDA one of several GB. The folder is not written
into the lock, so that the course's install works where it does not exist: ``tools/install.sh test``
names it.
"""
import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "requirements.lock"
COURSE = ROOT / "binder" / "requirements.txt"
CONDA = ROOT / "environment.yml"
TORCH_WHEELS = os.environ.get("PIP_FIND_LINKS", "/opt/wheels")  # where this kind of machine keeps PyTorch's CPU build
TARGET = ["--python-version", "3.11", "--python-platform", "x86_64-manylinux_2_28"]  # the machines, Binder's too
# conda-forge's name -> PyPI's, where they differ; None: no PyPI package (conda's graphviz is the dot program)
CONDA_NAMES = {"python-graphviz": "graphviz", "graphviz": None, "python": None, "pip": None}


def uv(*arguments):
    """Run the uv that the project's own environment holds (it is in the lock too)."""
    command = [str(Path(sys.executable).with_name("uv")), "pip", "compile", *arguments, *TARGET,
               "--generate-hashes", "--custom-compile-command", "python -m tools.lock", "--quiet"]
    subprocess.run(command, cwd=ROOT, check=True, env=dict(os.environ, UV_SYSTEM_CERTS="1"))  # as install.sh


def write_lock(upgrade):
    uv("pyproject.toml", "--all-extras", "--find-links", TORCH_WHEELS, *(["--upgrade"] if upgrade else []),
       "-o", LOCK.name)


def write_course():
    """The course's part of the lock: pyproject's dependencies and its ``course`` extra, pinned by the lock.
    pip installs it (repo2docker, a hub's admin): its lines keep their extras (``jsonschema[format-nongpl]``),
    without which pip's hash-checking mode refuses the file."""
    uv("pyproject.toml", "--extra", "course", "--constraint", LOCK.name, "--no-strip-extras",
       "-o", str(COURSE.relative_to(ROOT)))


def pins(path=LOCK):
    """``{normalised name: version}`` of a pip requirements file written by uv."""
    found = re.findall(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^]]*\])?==(\S+?)(?: \\)?$", path.read_text(), re.MULTILINE)
    return {canonicalize_name(name): version for name, version in found}


CONDA_LINE = re.compile(r"^(\s+- )([A-Za-z0-9][A-Za-z0-9._-]*)([<>=!~][^#\s]*)?(\s*(?:#.*)?)$")


def conda_pins(text):
    """``{PyPI name: its version specifier}`` for each line of environment.yml that names a PyPI package."""
    found = {}
    for line in text.split("\ndependencies:", 1)[1].splitlines():
        match = CONDA_LINE.match(line)
        if match and pypi_name(match[2]):
            found[pypi_name(match[2])] = match[3] or ""
    return found


def pypi_name(conda_name):
    name = CONDA_NAMES.get(conda_name, conda_name)
    return name and canonicalize_name(name)


def write_conda():
    """Pin each package environment.yml names that the lock holds to the lock's version."""
    locked = pins()

    def pinned(match):
        name = pypi_name(match[2])
        if name not in locked:
            return match[0]
        return f"{match[1]}{match[2]}=={locked[name]}{match[4]}"

    lines = [CONDA_LINE.sub(pinned, line) for line in CONDA.read_text().splitlines()]
    CONDA.write_text("\n".join(lines) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--upgrade", action="store_true", help="take the newest release of every package")
    upgrade = parser.parse_args().upgrade
    write_lock(upgrade)
    write_course()
    write_conda()
    print(f"{LOCK.name}: {len(pins())} packages; {COURSE.relative_to(ROOT)}: {len(pins(COURSE))}")


if __name__ == "__main__":
    main()
