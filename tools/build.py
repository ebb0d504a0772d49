"""Build everything generated from ``solutions/``: the learner package, the notebooks, the README's map.

    python -m tools.build          write minigrad/, course/{en,zh}/*.ipynb, README.md's generated parts and
                                   docs/package-layers.svg
    python -m tools.build --check  fail (listing the files) if any of them is stale

A generated file is stale when it no longer says what a fresh build says. What it says is compared, not
its bytes, where the bytes depend on the machine or a tool's version: a catalogue by its messages (its
header names the Babel that compiled it), the reference observations by the judge's own rule (float32
results differ in the last digit from one processor to another), a notebook by its JSON, the layers'
picture by the modules and arrows it shows (graphviz's coordinates change with its version).
"""
import argparse
import json
import os
import runpy
import subprocess
import sys
import tempfile
from pathlib import Path

from . import catalogues, editions, notebooks, readme
from .sealing import seal, unseal

ROOT = Path(__file__).resolve().parent.parent
SOLUTIONS = ROOT / "solutions"
PACKAGE = SOLUTIONS / "minigrad"
STEPS = Path("solutions", "minigrad", "steps")  # each chapterN/expected.json: the reference's observations (seed 0)
LAST_HINTS = "last_hints.dat"  # each chapterN/: its last hints, sealed
GENERATED_SUFFIXES = (".py", ".mo", ".json", ".dat")


def chapter_sources():
    """Each chapter's bilingual source, in chapter order: solutions/NN_topic/NN_topic.md."""
    return sorted(path for path in SOLUTIONS.glob("[0-9][0-9]_*/[0-9][0-9]_*.md") if path.stem == path.parent.name)


def build(root):
    """Write every generated file under ``root``; return their paths."""
    root = Path(root)
    written = []
    for po in (po for folder in catalogues.DOMAINS for po in catalogues.catalogues(folder)):
        mo = root / po.relative_to(ROOT).with_suffix(".mo")
        mo.parent.mkdir(parents=True, exist_ok=True)
        mo.write_bytes(catalogues.compiled(po))
        written.append(mo)
    recorded = json.loads(recorded_observations())
    for chapter in sorted({editions.ids.chapter_of(step) for step in recorded}):
        expected = root / expected_file(chapter)
        expected.parent.mkdir(parents=True, exist_ok=True)
        observed = {step: seen for step, seen in recorded.items() if editions.ids.chapter_of(step) == chapter}
        expected.write_text(json.dumps(observed, indent=1) + "\n")
        written.append(expected)
    for source in sorted(PACKAGE.glob("steps/chapter*/last_hints.py")):
        sealed_hints = root / STEPS / source.parent.name / LAST_HINTS
        sealed_hints.write_text(seal(runpy.run_path(str(source))["LAST_HINTS"]))
        written.append(sealed_hints)
    editions.write_package(PACKAGE, root / "minigrad")
    written += [p for p in sorted((root / "minigrad").rglob("*")) if p.suffix in GENERATED_SUFFIXES]
    for source in chapter_sources():
        notebook = notebooks.read_source(source)
        for language in notebooks.LANGUAGES:
            target = root / "course" / language / f"{source.stem}.ipynb"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(notebooks.text_of(notebooks.for_language(notebook, language, source.stem)))
            written.append(target)
    for path, content in ((root / "README.md", readme.rendered(readme.README.read_text(), PACKAGE).encode()),
                          (root / readme.LAYERS, readme.layers_picture(PACKAGE))):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
        written.append(path)
    return written


def expected_file(chapter):
    """Where chapter ``chapter``'s reference observations are kept, relative to the repository."""
    return STEPS / f"chapter{chapter}" / "expected.json"


def recorded_observations():
    """What the reference solution's checks see (seed 0): the expectations ``minigrad.check`` judges by."""
    return reference("record", check=True).stdout


def reference(*arguments, **options):
    """Run ``python -m minigrad.steps ...`` on the reference edition."""
    env = dict(os.environ, PYTHONPATH=str(SOLUTIONS))
    return subprocess.run([sys.executable, "-m", "minigrad.steps", *arguments], capture_output=True, text=True,
                          env=env, cwd=SOLUTIONS, timeout=300, **options)


def steps_disagreeing(pairs):
    """For each ``(recorded, fresh)`` pair of observation files, the steps whose observations differ by the
    judge's rule (``judge.agree``): one Python for all of them."""
    if not pairs:
        return []
    done = reference("agree", *(str(path) for pair in pairs for path in pair))
    if done.returncode not in (0, 1):
        raise RuntimeError(f"minigrad.steps agree failed:\n{done.stderr}")
    return [line.split() for line in done.stdout.split("\n")[:len(pairs)]]


def stale_files(committed=ROOT, fresh=None):
    """Generated files under ``committed`` that do not say what a fresh build says, or that a build no longer
    writes. ``fresh``: a folder a build already wrote into (else one is built here)."""
    if fresh is None:
        with tempfile.TemporaryDirectory() as scratch:
            build(scratch)
            return stale_files(committed, scratch)
    fresh, committed = Path(fresh), Path(committed)
    written = {p.relative_to(fresh) for p in generated(fresh)}
    observed = [rel for rel in sorted(written) if rel.name == "expected.json" and (committed / rel).exists()]
    differing = dict(zip(observed, steps_disagreeing([(committed / rel, fresh / rel) for rel in observed])))
    stale = [str(rel) for rel in sorted(written)
             if (differing[rel] if rel in differing else not same(fresh / rel, committed / rel))]
    kept = {p.relative_to(committed) for p in generated(committed)}
    return stale + [f"{rel} (no longer generated)" for rel in sorted(kept - written)]


def generated(root):
    """The files under ``root`` that a build writes: the learner package's, the catalogues, the
    reference observations and the notebooks."""
    found = [p for p in (root / "minigrad").rglob("*") if p.suffix in GENERATED_SUFFIXES]
    found += [p for folder in catalogues.DOMAINS for p in (root / folder.relative_to(ROOT)).glob("locale/*/LC_MESSAGES/*.mo")]
    found += sorted((root / STEPS).glob("chapter*/expected.json")) + sorted((root / STEPS).glob(f"chapter*/{LAST_HINTS}"))
    found += [p for p in (root / "course").rglob("*.ipynb") if ".ipynb_checkpoints" not in str(p)]
    found += [p for p in (root / "README.md", root / readme.LAYERS) if p.exists()]
    return found


def same(fresh, committed):
    """Whether ``committed`` says what the freshly built ``fresh`` says (see the module's docstring); the
    observation files are compared all at once, by ``steps_disagreeing``."""
    if not committed.exists():
        return False
    if fresh.suffix == ".mo":
        return catalogues.messages_of(fresh.read_bytes()) == catalogues.messages_of(committed.read_bytes())
    if fresh.suffix == ".ipynb":
        return json.loads(fresh.read_text()) == json.loads(committed.read_text())
    if fresh.suffix == ".dat":  # zlib's bytes may change with its version; what they hold may not
        return unseal(fresh.read_text()) == unseal(committed.read_text())
    if fresh.suffix == ".svg":
        return readme.pictured_imports(fresh.read_text()) == readme.pictured_imports(committed.read_text())
    return fresh.read_bytes() == committed.read_bytes()


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
