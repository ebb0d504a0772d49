"""Chapter 4, vector-Jacobian products, accumulation, freeing, forward mode: steps 4.1–4.8 and the challenge C4.

Its checks: ``checks.py`` (4.1–4.4), ``forward.py`` (4.5–4.7, C4), ``shapes.py`` (4.8).
Its other files are those every chapter has (``steps/__init__.py``).
"""
