"""The message catalogues: gathering the messages of the code, compiling the translations.

Two catalogues: the learner's (``solutions/minigrad``, domain ``minigrad``, shipped with the package)
and the instructor's (``tools``, domain ``classroom``, what the classroom commands print).

    python -m tools.messages        add new messages of the code, and the comments of the chapters'
                                    code cells, to every catalogue (and drop the ones no longer
                                    used); then translate the empty ones
``make build`` compiles each ``.po`` into the ``.mo`` that Python's gettext reads.
"""
import functools
import io
import sys
from pathlib import Path

from babel.messages.extract import extract_from_dir
from babel.messages.catalog import Catalog
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "solutions" / "minigrad"
TOOLS = ROOT / "tools"
DOMAINS = {PACKAGE: "minigrad", TOOLS: "classroom"}  # each folder whose code has messages, and its catalogue
KEYWORDS = {"N_": None}  # messages are marked where they are defined, and shown with say()


def catalogues(package=PACKAGE):
    """Each language's ``.po`` file in ``package``."""
    return sorted((package / "locale").glob(f"*/LC_MESSAGES/{DOMAINS[package]}.po"))


def extracted(package=PACKAGE):
    """Every message the code of ``package`` marks with ``N_`` (for the learner's package, also every
    comment of a chapter's code cells), as a catalogue with no translations."""
    catalog = Catalog(project="minigrad", domain=DOMAINS[package])
    for filename, lineno, message, comments, context in extract_from_dir(
        str(package), method_map=[("**.py", "python")], keywords=KEYWORDS
    ):
        catalog.add(message, locations=[(filename, lineno)], context=context)
    if package == PACKAGE:
        for filename, lineno, message in chapter_comments():
            catalog.add(message, locations=[(filename, lineno)])
    return catalog


def chapter_comments():
    """``(file, line, comment)`` for each comment in the code cells of the chapters' sources."""
    from . import build, notebooks  # build imports this module

    for source in build.chapter_sources():
        for cell in notebooks.read_source(source).cells:
            if cell.cell_type == "code":
                for line, _, text in notebooks.comments(cell.source):
                    yield str(source.relative_to(ROOT)), line, text


@functools.lru_cache(maxsize=None)
def translations(language):
    """``{English: translation}`` of one language's catalogue; empty for English."""
    path = PACKAGE / "locale" / language / "LC_MESSAGES" / "minigrad.po"
    if not path.exists():
        return {}
    return {message.id: message.string for message in read(path) if message.id and message.string}


def read(path):
    with open(path, "rb") as file:
        return read_po(file)


def compiled(po_path):
    """The ``.mo`` bytes of one ``.po`` file."""
    out = io.BytesIO()
    write_mo(out, read(po_path))
    return out.getvalue()


def messages_of(mo_bytes):
    """What a compiled catalogue says: ``{(context, message): translation}``. Its header is left out: it names
    the Babel that wrote it and the time, which say nothing a learner reads."""
    catalog = read_mo(io.BytesIO(mo_bytes))
    return {(message.context, message.id): message.string for message in catalog if message.id}


def update(package=PACKAGE):
    """Bring every catalogue in step with the code: new messages in, unused ones out."""
    template = extracted(package)
    for path in catalogues(package):
        catalog = read(path)
        catalog.update(template, no_fuzzy_matching=True)
        catalog.obsolete.clear()
        with open(path, "wb") as file:
            write_po(file, catalog, width=120, omit_header=False, sort_output=True, include_lineno=False)
        missing = [m.id for m in catalog if m.id and not m.string]
        print(f"{path.relative_to(ROOT)}: {len(catalog)} messages, {len(missing)} to translate")


if __name__ == "__main__":
    for folder in DOMAINS:
        update(folder)
    sys.exit(0)
