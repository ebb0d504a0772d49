"""Every message the course shows a learner, in the learner's language: one catalogue.

Messages are written in English in the code, marked with ``N_`` where they are defined
and translated where they are shown, with ``say``. The translations are gettext
catalogues: ``locale/zh/LC_MESSAGES/minigrad.po`` (compiled to ``.mo`` by ``make build``).
Another language is another catalogue, not a change of code; ``python -m tools.update_catalogues``
gathers new messages into the catalogues for the translators.
"""
import functools
import gettext
import os
from pathlib import Path

LOCALES = Path(__file__).resolve().parent / "locale"
DOMAIN = "minigrad"


def languages():
    """The languages a learner can choose: English, and each language with a catalogue."""
    return ("en",) + tuple(sorted(p.name for p in LOCALES.iterdir() if (p / "LC_MESSAGES").is_dir()))


_language = os.environ.get("MINIGRAD_LANG", "en")


def set_language(language):
    """Choose the language of every message: ``"en"`` or ``"zh"``."""
    global _language
    if language not in languages():
        raise ValueError(f"language must be one of {', '.join(map(repr, languages()))}, not {language!r}")
    _language = language


def language():
    """The language messages are shown in now."""
    return _language


def N_(text):  # noqa: N802 - gettext's name for "translate later"
    """Mark ``text`` as a message of the catalogue; it is translated when shown (``say``)."""
    return text


@functools.lru_cache(maxsize=None)
def _catalogue(language):
    return gettext.translation(DOMAIN, LOCALES, languages=[language], fallback=True)


def say(text, language=None, **fields):
    """``text`` in ``language`` (the chosen one by default), its ``{fields}`` filled in."""
    translated = _catalogue(language or _language).gettext(text)
    return translated.format(**fields) if fields else translated
