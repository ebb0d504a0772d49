"""Chapter 5, custom autograd Functions: steps 5.1–5.7 and the challenge C5.

Its checks: ``checks.py``.
Its other files are those every chapter has (``steps/__init__.py``).
"""
