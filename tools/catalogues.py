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
    """Each language's main ``.po`` file in ``package`` (``locale/<language>/LC_MESSAGES/``)."""
    return sorted((package / "locale").glob(f"*/LC_MESSAGES/{DOMAINS[package]}.po"))


def parts(po_path):
    """The ``.po`` files one language's catalogue is made of: the main one, then, for the learner's package,
    each chapter's (``steps/chapterN/<language>.po``: the sentences of its checks, hints and mistakes)."""
    po_path = Path(po_path)
    language, package = po_path.parent.parent.name, po_path.parents[3]
    return [po_path, *sorted((package / "steps").glob(f"chapter*/{language}.po"))] if package == PACKAGE else [po_path]


def chapter_of_message(locations):
    """The chapter whose ``.po`` holds a message of the learner's package found at ``locations`` (its files,
    relative to the package): that of its folder, when every place it is written is in one chapter's
    folder; else None (the main ``.po``)."""
    folders = {Path(name).parent.as_posix() for name, _ in locations}
    if len(folders) == 1 and (folder := folders.pop()).startswith("steps/chapter"):
        return int(folder.removeprefix("steps/chapter"))
    return None


def merged(po_path):
    """One language's whole catalogue: the messages of all its ``parts``."""
    catalog = read(po_path)
    for part in parts(po_path)[1:]:
        for message in read(part):
            if message.id:
                catalog[message.id] = message
    return catalog


@functools.lru_cache(maxsize=None)
def translations(language):
    """``{English: translation}`` of one language's catalogue; empty for English."""
    path = PACKAGE / "locale" / language / "LC_MESSAGES" / "minigrad.po"
    if not path.exists():
        return {}
    return {message.id: message.string for message in merged(path) if message.id and message.string}


def read(path):
    with open(path, "rb") as file:
        return read_po(file)


def compiled(po_path):
    """The ``.mo`` bytes of one language's catalogue, from its main ``.po`` file and the chapters' (``parts``)."""
    out = io.BytesIO()
    write_mo(out, merged(po_path))
    return out.getvalue()


def messages_of(mo_bytes):
    """What a compiled catalogue says: ``{(context, message): translation}``. Its header is left out: it names
    the Babel that wrote it and the time, which say nothing a learner reads."""
    catalog = read_mo(io.BytesIO(mo_bytes))
    return {(message.context, message.id): message.string for message in catalog if message.id}
