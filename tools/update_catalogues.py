"""Bring the message catalogues in step with the code: ``python -m tools.update_catalogues``.

Adds every new message of the code (marked ``N_``) and every comment of the chapters' code cells to each
language's ``.po`` file, drops the ones no longer used, and says how many are left to translate. Translate
those by hand in the ``.po`` files; ``make build`` then compiles them.
"""
import sys

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import write_po

from . import build, notebooks
from .catalogues import DOMAINS, PACKAGE, ROOT, catalogues, chapter_of_message, merged, read

KEYWORDS = {"N_": None}  # messages are marked where they are defined, and shown with say()


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
    for source in build.chapter_sources():
        for cell in notebooks.read_source(source).cells:
            if cell.cell_type == "code":
                for line, _, text in notebooks.comments(cell.source):
                    yield str(source.relative_to(ROOT)), line, text


def update(package=PACKAGE):
    """Bring every catalogue in step with the code: new messages in, unused ones out. A message of the learner's
    package written only in one chapter's folder goes to that chapter's ``.po`` (``catalogues.parts``); a
    translation follows its message from one file to another."""
    template = extracted(package)
    for main in catalogues(package):
        known = {message.id: message.string for message in merged(main) if message.id and message.string}
        for path, part in split(template, main).items():
            write(path, part, known, locale=read(main).locale)


def split(template, main):
    """{``.po`` path: the part of ``template`` it holds}, for the language of the main file ``main``."""
    language = main.parent.parent.name
    found = {main: Catalog(project="minigrad", domain=template.domain)}
    for message in template:
        if not message.id:
            continue
        chapter = chapter_of_message(message.locations) if main.parents[3] == PACKAGE else None
        path = main if chapter is None else PACKAGE / "steps" / f"chapter{chapter}" / f"{language}.po"
        found.setdefault(path, Catalog(project="minigrad", domain=template.domain))
        found[path].add(message.id, locations=message.locations, context=message.context)
    return found


def write(path, part, known, locale):
    """Bring the ``.po`` file ``path`` in step with ``part``, filling each new message's translation from
    ``known`` when another file of the language had it; say what is left to translate."""
    catalog = read(path) if path.exists() else Catalog(
        project="minigrad", domain=part.domain, locale=locale, fuzzy=False,
        header_comment=f"# The {locale.english_name} of the sentences written in this folder: checks, hints, mistakes.")
    catalog.update(part, no_fuzzy_matching=True)
    catalog.obsolete.clear()
    for message in catalog:
        if message.id and not message.string and known.get(message.id):
            message.string = known[message.id]
    with open(path, "wb") as file:
        write_po(file, catalog, width=120, omit_header=False, sort_output=True, include_lineno=False)
    missing = [m.id for m in catalog if m.id and not m.string]
    print(f"{path.relative_to(ROOT)}: {len(catalog)} messages, {len(missing)} to translate")


if __name__ == "__main__":
    for folder in DOMAINS:
        update(folder)
    sys.exit(0)
