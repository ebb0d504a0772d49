"""Chapter 1, how operations build the graph: steps 1.1–1.8 and the challenge C1.

Its checks: ``checks.py`` (1.1–1.4), ``rules.py`` (1.5–1.8), ``kinks.py`` (C1).
Its other files are those every chapter has (``steps/__init__.py``).
"""
