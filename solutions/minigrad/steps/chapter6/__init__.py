"""Chapter 6, hooks, retained gradients, saved-tensor hooks, the version counter: steps 6.1–6.6 and the challenge C6.

Its checks: ``checks.py``.
Its other files are those every chapter has (``steps/__init__.py``).
"""
