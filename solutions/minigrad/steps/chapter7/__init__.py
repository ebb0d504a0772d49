"""Chapter 7, the capstone's four backward rules: steps 7.1–7.4 (the lookup table, layer normalisation, the causal
mask, GELU).

Its checks: ``checks.py``.
Its other files are those every chapter has (``steps/__init__.py``).
"""
