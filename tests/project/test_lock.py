"""The lock (``requirements.lock``, ``tools/lock.py``): the same versions on every machine, every day.

It must satisfy pyproject.toml, hold every package the code imports, be what this environment has
installed, and agree with the files that follow it (``binder/requirements.txt``, ``environment.yml``).
"""
import ast
import importlib.metadata
import re
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from conftest import ROOT
from tools import lock

PROJECT = "minigrad-course"
# Where the project's Python lives; each top-level name found here is the project's own module.
CODE = [ROOT / "tools", ROOT / "tests", ROOT / "bench", ROOT / "solutions", ROOT / "binder"]


def declared(pyproject_text):
    """Every requirement of pyproject.toml: its dependencies and those of each extra."""
    project = tomllib.loads(pyproject_text)["project"]
    texts = project["dependencies"] + [r for extra in project["optional-dependencies"].values() for r in extra]
    return [Requirement(text) for text in texts]


def unmet(requirements, pins):
    """Each requirement that the pins (``{name: version}``) leave out or hold at a version it refuses."""
    return [str(r) for r in requirements
            if canonicalize_name(r.name) not in pins or not r.specifier.contains(pins[canonicalize_name(r.name)], prereleases=True)]


def test_the_lock_satisfies_pyproject():
    assert unmet(declared((ROOT / "pyproject.toml").read_text()), lock.pins()) == []


def test_a_requirement_the_lock_does_not_meet_is_named():
    """The test above can fail: pyproject asking for a numpy the lock does not hold, or a package it lacks."""
    text = (ROOT / "pyproject.toml").read_text().replace('"numpy>=2.1"', '"numpy>=99"')
    text = text.replace('"babel>=2.14"', '"babel>=2.14", "a-package-nobody-locked"')
    assert unmet(declared(text), lock.pins()) == ["numpy>=99", "a-package-nobody-locked"]


def test_this_environment_is_the_lock():
    """Every package the lock pins is installed at its version, and nothing else but the project itself (and
    the pip that came with the venv, which installs uv from the lock)."""
    site_packages = sysconfig.get_paths()["purelib"]  # not the copies other packages vendor (setuptools')
    installed = {canonicalize_name(d.metadata["Name"]): d.version
                 for d in importlib.metadata.distributions(path=[site_packages])}
    installed.pop(PROJECT, None)
    installed.pop("pip", None)
    assert installed == lock.pins()


def test_the_installed_packages_need_nothing_they_lack():
    done = subprocess.run([str(Path(sys.executable).with_name("uv")), "pip", "check", "--python", sys.executable],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def imported_names(folder):
    """The top-level names of every module imported anywhere in the ``.py`` files under ``folder``."""
    names = set()
    for path in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
    return names


def own_modules():
    """The project's own top-level names: its packages, and the modules and folders its code imports by path."""
    found = {path.stem for folder in CODE for path in folder.rglob("*") if path.suffix == ".py" or path.is_dir()}
    return found | {folder.name for folder in CODE}


def test_every_package_the_code_imports_is_declared():
    """What the code imports comes from a package pyproject.toml names, not from another package's dependencies."""
    names = set().union(*(imported_names(folder) for folder in CODE)) - set(sys.stdlib_module_names) - own_modules()
    providers = importlib.metadata.packages_distributions()
    unknown = sorted(name for name in names if name not in providers)
    assert unknown == [], f"imported, but no installed package provides them: {unknown}"
    wanted = {canonicalize_name(r.name) for r in declared((ROOT / "pyproject.toml").read_text())}
    undeclared = sorted(f"{name} (from {', '.join(providers[name])})" for name in names
                        if not {canonicalize_name(d) for d in providers[name]} & wanted)
    assert undeclared == [], f"imported but not declared in pyproject.toml: {undeclared}"


def course_part(project):
    return [Requirement(text) for text in project["dependencies"] + project["optional-dependencies"]["course"]]


def test_binder_installs_the_course_at_the_lock_s_versions():
    """binder/requirements.txt (what ``make course`` and repo2docker install) is the lock cut to the course."""
    course, locked = lock.pins(lock.COURSE), lock.pins()
    assert {name: locked.get(name) for name in course} == course
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert unmet(course_part(project), course) == []
    assert set(hashes(lock.COURSE).items()) <= set(hashes(lock.LOCK).items())


def hashes(path):
    """``{name: its hashes}`` of a requirements file uv wrote."""
    blocks = re.findall(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^]]*\])?==\S+((?:\s*\\\s*--hash=\S+)+)", path.read_text(),
                        re.MULTILINE)
    return {canonicalize_name(name): frozenset(re.findall(r"--hash=(\S+)", block)) for name, block in blocks}


def test_conda_environment_pins_the_lock_s_versions():
    listed, locked = lock.conda_pins(lock.CONDA.read_text()), lock.pins()
    assert {name: spec for name, spec in listed.items() if spec != f"=={locked.get(name)}"} == {}
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    missing = [r.name for r in course_part(project) if canonicalize_name(r.name) not in listed]
    assert missing == [], f"environment.yml lacks what the course needs: {missing}"


def test_install_takes_every_python_package_from_the_lock():
    """Each install command of tools/install.sh checks hashes against the lock, or installs the project alone; and
    whatever it builds from source (the project, chapter 7's names and jieba) is built with the lock's setuptools,
    not with whatever the package index holds that day."""
    script = (ROOT / "tools" / "install.sh").read_text().replace("\\\n", " ")
    commands = [line.strip() for line in script.splitlines() if re.search(r"pip (install|sync)", line)
                and not line.lstrip().startswith(("#", "say "))]
    assert commands, "tools/install.sh installs no Python package"
    for command in commands:
        assert "--require-hashes" in command or ("--no-deps" in command and command.endswith("-e .")), command
        assert '--build-constraint "$lock"' in command or "graphviz-pure" in command, command  # that one: a wheel
