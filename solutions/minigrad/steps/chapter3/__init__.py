"""Chapter 3, turning tracking off: steps 3.1–3.5 and the challenge C3.

Its checks: ``checks.py``.
Its other files are those every chapter has (``steps/__init__.py``).
"""
