"""The message catalogues, as the build reads them: their translations, and their compiled ``.mo`` files.

Two catalogues: the learner's (``solutions/minigrad``, domain ``minigrad``, shipped with the package)
and the instructor's (``tools``, domain ``classroom``, what the classroom commands print).
``make build`` compiles each ``.po`` into the ``.mo`` that Python's gettext reads; new messages come into
the ``.po`` files with ``python -m tools.update_catalogues``. The texts are shown at run time by the
package's ``minigrad/messages.py`` (the learner's) and by ``tools/instructor_messages.py`` (the instructor's).
"""
import functools
import io
from pathlib import Path

from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "solutions" / "minigrad"
TOOLS = ROOT / "tools"
DOMAINS = {PACKAGE: "minigrad", TOOLS: "classroom"}  # each folder whose code has messages, and its catalogue


def catalogues(package=PACKAGE):
    """Each language's ``.po`` file in ``package``."""
    return sorted((package / "locale").glob(f"*/LC_MESSAGES/{DOMAINS[package]}.po"))


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
