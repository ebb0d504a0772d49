"""Build everything generated from ``solutions/``: the learner package and the notebooks.

    python -m tools.build          write minigrad/ and course/{en,zh}/*.ipynb
    python -m tools.build --check  fail (listing the files) if any of them is stale
"""
import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from . import editions, messages, notebooks

ROOT = Path(__file__).resolve().parent.parent
SOLUTIONS = ROOT / "solutions"
PACKAGE = SOLUTIONS / "minigrad"


def chapter_sources():
    """Each chapter's bilingual source, in chapter order: solutions/NN_topic/NN_topic.md."""
    return sorted(path for path in SOLUTIONS.glob("[0-9][0-9]_*/[0-9][0-9]_*.md") if path.stem == path.parent.name)


def build(root):
    """Write every generated file under ``root``; return their paths."""
    root = Path(root)
    written = []
    for po in (po for folder in messages.DOMAINS for po in messages.catalogues(folder)):
        mo = root / po.relative_to(ROOT).with_suffix(".mo")
        mo.parent.mkdir(parents=True, exist_ok=True)
        mo.write_bytes(messages.compiled(po))
        written.append(mo)
    expected = root / "solutions" / "minigrad" / "steps" / "expected.json"
    expected.parent.mkdir(parents=True, exist_ok=True)
    expected.write_text(recorded_observations())
    written.append(expected)
    editions.write_package(PACKAGE, root / "minigrad")
    written += [p for p in sorted((root / "minigrad").rglob("*")) if p.suffix in (".py", ".mo", ".json")]
    for source in chapter_sources():
        notebook = notebooks.read_source(source)
        for language in notebooks.LANGUAGES:
            target = root / "course" / language / f"{source.stem}.ipynb"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(notebooks.text_of(notebooks.for_language(notebook, language, source.stem)))
            written.append(target)
    return written


def recorded_observations():
    """What the reference solution's checks see (seed 0): the expectations ``minigrad.check`` judges by."""
    env = dict(os.environ, PYTHONPATH=str(SOLUTIONS))
    done = subprocess.run([sys.executable, "-m", "minigrad.steps", "record"], capture_output=True, text=True,
                          env=env, cwd=SOLUTIONS, timeout=300, check=True)
    return done.stdout


def stale_files():
    """Generated files whose committed content differs from a fresh build (or that are extra)."""
    with tempfile.TemporaryDirectory() as scratch:
        fresh = {p.relative_to(scratch) for p in build(scratch)}
        stale = [str(rel) for rel in sorted(fresh) if (Path(scratch) / rel).read_bytes() != _bytes(ROOT / rel)]
    committed = {p.relative_to(ROOT) for p in (ROOT / "minigrad").rglob("*.py")}
    committed |= {p.relative_to(ROOT) for p in (ROOT / "minigrad").rglob("*") if p.suffix in (".mo", ".json")}
    committed |= {p.relative_to(ROOT) for p in (ROOT / "course").rglob("*.ipynb") if ".ipynb_checkpoints" not in str(p)}
    return stale + [f"{rel} (no longer generated)" for rel in sorted(committed - fresh)]


def _bytes(path):
    return path.read_bytes() if path.exists() else None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="only report stale generated files")
    if parser.parse_args().check:
        stale = stale_files()
        for name in stale:
            print(f"stale: {name}")
        sys.exit(1 if stale else 0)
    for path in build(ROOT):
        print(path.relative_to(ROOT))


if __name__ == "__main__":
    main()
