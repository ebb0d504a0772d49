"""The course image (repo2docker's ``binder/`` files) installs what ``make course`` installs, and no solutions.

Binder and Zero to JupyterHub build the learners' image from these files. No container runtime
runs here, so this reads them and compares them with the project's own install files. That
``requirements.txt`` is the lock cut to the course is tests/project/test_lock.py's to check.
"""
import re
import tomllib

from packaging.specifiers import SpecifierSet
from packaging.version import Version

from conftest import ROOT
from tools import lock

BINDER = ROOT / "binder"


def course_apt_packages():
    """The Debian packages ``tools/install.sh course`` installs: those named before its test-only part."""
    script = (ROOT / "tools" / "install.sh").read_text()
    course_part = script.split('if [ "$what" = test ]', 1)[0]
    return {package for line in re.findall(r"^\s*[^#\n]*apt_install ([^|&\n]+)", course_part, re.MULTILINE)
            for package in line.split() if not package.startswith('"')}


def test_image_installs_the_system_packages_of_make_course():
    image = set((BINDER / "apt.txt").read_text().split())
    assert image == course_apt_packages() == {"graphviz"}


def test_image_python_is_one_the_project_supports():
    version = re.fullmatch(r"python-(\d+\.\d+)\s*", (BINDER / "runtime.txt").read_text())[1]
    supported = SpecifierSet(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"])
    assert version in supported


def test_image_installs_the_package_alone_and_leaves_the_solutions_and_grading_out():
    steps = [line.strip() for line in (BINDER / "postBuild").read_text().splitlines()
             if line.strip() and not line.lstrip().startswith("#")]
    assert "pip install --no-deps -e ." in steps  # nothing beyond requirements.txt
    assert "rm -rf solutions" in steps
    assert 'rm -rf tools "$(command -v minigrad-classroom)"' in steps  # the instructor's side stays out too
    assert "solutions/" in (ROOT / ".dockerignore").read_text().split()
    assert (BINDER / "postBuild").stat().st_mode & 0o111, "repo2docker runs postBuild only when it is executable"


def test_image_language_pack_matches_its_jupyterlab():
    """JupyterLab's Chinese menus come from a language pack made for the same minor version."""
    image = lock.pins(BINDER / "requirements.txt")
    assert Version(image["jupyterlab"]).release[:2] == Version(image["jupyterlab-language-pack-zh-cn"]).release[:2]
