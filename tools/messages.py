"""The message catalogues: gathering the messages of the code, compiling the translations.

Two catalogues: the learner's (``solutions/minigrad``, domain ``minigrad``, shipped with the package)
and the instructor's (``tools``, domain ``classroom``, what the classroom commands print).

    python -m tools.messages        add new messages of the code to every catalogue (and drop
                                    the ones no longer used); then translate the empty ones
``make build`` compiles each ``.po`` into the ``.mo`` that Python's gettext reads.
"""
import io
import sys
from pathlib import Path

from babel.messages.extract import extract_from_dir
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
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
    """Every message the code of ``package`` marks with ``N_``, as a catalogue with no translations."""
    catalog = Catalog(project="minigrad", domain=DOMAINS[package])
    for filename, lineno, message, comments, context in extract_from_dir(
        str(package), method_map=[("**.py", "python")], keywords=KEYWORDS
    ):
        catalog.add(message, locations=[(filename, lineno)], context=context)
    return catalog


def read(path):
    with open(path, "rb") as file:
        return read_po(file)


def compiled(po_path):
    """The ``.mo`` bytes of one ``.po`` file."""
    out = io.BytesIO()
    write_mo(out, read(po_path))
    return out.getvalue()


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
