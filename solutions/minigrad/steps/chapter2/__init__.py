"""Chapter 2, the engine that computes gradients: steps 2.1–2.8 and the challenge C2.

Its checks: ``checks.py`` (2.1–2.4), ``rules.py`` (2.5–2.8), ``challenge.py`` (C2).
Its other files are those every chapter has (``steps/__init__.py``).
"""
