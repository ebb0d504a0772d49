"""A classroom course root for nbgrader, made from the course's own sources.

Each chapter becomes one assignment (in one language) holding the chapter's notebook
and a snapshot of the package in which the steps of earlier chapters are solved and
this chapter's steps (and later ones) are stubs. nbgrader's autograde restores every
non-notebook file from the instructor's copy unless told otherwise, so the config
lists exactly the files the learner writes in ``Autograde.exclude_overwriting``:
those are what get graded.

    python -m tools.classroom init COURSE_ROOT --lang zh
"""
import argparse
from pathlib import Path

from . import build, editions, notebooks

CONFIG = '''\
# nbgrader configuration written by `python -m tools.classroom init`.
c = get_config()
c.CourseDirectory.course_id = "minigrad"
c.CourseDirectory.root = {root!r}
# Keep the learner's own package files from each submission; restore all others.
c.Autograde.exclude_overwriting = {exclude!r}
'''


def chapter_of(step):
    return int(step.split(".")[0])


def learner_files(chapter):
    """The package files (relative to the assignment) holding the steps of ``chapter``."""
    files = set()
    for path in sorted(build.PACKAGE.rglob("*.py")):
        if any(chapter_of(step) == chapter for step, *_ in editions.regions(path.read_text())):
            files.add(("minigrad" / path.relative_to(build.PACKAGE)).as_posix())
    return sorted(files)


def assignments():
    """(assignment name, chapter number, chapter source) for every chapter, in order."""
    return [(source.stem, int(source.stem[:2]), source) for source in build.chapter_sources()]


def write_assignment(source_dir, chapter, source, language):
    """One assignment folder: the chapter's notebook and its package snapshot."""
    source_dir.mkdir(parents=True, exist_ok=True)
    notebook = notebooks.for_language(notebooks.read_source(source), language, source.stem)
    (source_dir / f"{source.stem}.ipynb").write_text(notebooks.text_of(notebook))
    solved = {step for step in editions.steps_in(build.PACKAGE) if chapter_of(step) < chapter}
    editions.write_package(build.PACKAGE, source_dir / "minigrad", keep=solved)


def init(root, language):
    """Write a course root with one assignment per chapter; return the assignment names."""
    root = Path(root).resolve()
    exclude = {}
    for name, chapter, source in assignments():
        write_assignment(root / "source" / name, chapter, source, language)
        exclude[name] = learner_files(chapter)
    (root / "nbgrader_config.py").write_text(CONFIG.format(root=str(root), exclude=exclude))
    return list(exclude)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("init", help="create a course root with one assignment per chapter")
    make.add_argument("root")
    make.add_argument("--lang", choices=notebooks.LANGUAGES, default="en")
    arguments = parser.parse_args()
    for name in init(arguments.root, arguments.lang):
        print(f"source/{name}")


if __name__ == "__main__":
    main()
