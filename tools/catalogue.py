"""What the instructor's tools say, and the feedback pages say to students, in the course's language.

The same mechanism as the package's (``minigrad.messages``): messages are written in English
where they are defined, marked with ``N_``, and translated where they are shown, with ``say``.
Their translations are a catalogue of their own, ``tools/locale/LANG/LC_MESSAGES/tools.po``
(``python -m tools.messages`` gathers new messages into it), so that the learner's package
carries none of the grader's words. The ``.po`` file is read as it is: no compiled copy to keep
in step.
"""
import functools
from pathlib import Path

LOCALES = Path(__file__).resolve().parent / "locale"
DOMAIN = "tools"


def N_(text):  # noqa: N802 - gettext's name for "translate later"
    """Mark ``text`` as a message of the catalogue; it is translated when shown (``say``)."""
    return text


@functools.lru_cache(maxsize=None)
def _translations(language):
    """msgid -> translation, for one language (none for English, or a language without a catalogue)."""
    from babel.messages.pofile import read_po

    path = LOCALES / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    if not path.exists():
        return {}
    with open(path, "rb") as file:
        return {message.id: message.string for message in read_po(file) if message.id and message.string}


def say(text, language, **fields):
    """``text`` in ``language``, its ``{fields}`` filled in (English where no translation exists)."""
    translated = _translations(language).get(text, text)
    return translated.format(**fields) if fields else translated
