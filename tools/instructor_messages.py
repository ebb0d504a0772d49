"""What the instructor's commands print, in the course's language: one gettext catalogue.

The same mechanism as the learner's messages (``minigrad/messages.py``), with a catalogue of its own
(``tools/locale/zh/LC_MESSAGES/classroom.po``), so that nothing the instructor reads ships to learners.
Messages are written in English, marked with ``N_`` where they are defined, and translated where
they are printed, with ``say``; ``python -m tools.update_catalogues`` gathers new ones into the catalogue.
"""
import functools
import gettext
from pathlib import Path

LOCALES = Path(__file__).resolve().parent / "locale"
DOMAIN = "classroom"


def N_(text):  # noqa: N802 - gettext's name for "translate later"
    """Mark ``text`` as a message of the catalogue; it is translated when printed (``say``)."""
    return text


def languages():
    """English, in which the messages are written, and each language the catalogue is translated into."""
    return ("en", *sorted(path.name for path in LOCALES.iterdir() if path.is_dir()))


@functools.lru_cache(maxsize=None)
def _catalogue(language):
    return gettext.translation(DOMAIN, LOCALES, languages=[language], fallback=True)


def say(text, language, **fields):
    """``text`` in ``language``, its ``{fields}`` filled in."""
    translated = _catalogue(language).gettext(text)
    return translated.format(**fields) if fields else translated


class Refused(Exception):
    """A command that cannot go on: why, as a catalogue message and its fields (``say(*refused.args, ...)``)."""

    def __init__(self, message, **fields):
        super().__init__(message)
        self.message, self.fields = message, fields

    def said(self, language):
        return say(self.message, language, **self.fields)
