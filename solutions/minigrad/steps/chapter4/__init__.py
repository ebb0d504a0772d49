"""Chapter 4, vector-Jacobian products, accumulation, freeing, forward mode: steps 4.1–4.8 and the challenge C4.

Everything the course holds about these steps is in this folder:

- the checks: ``checks.py`` (4.1–4.4), ``forward.py`` (4.5–4.7, C4), ``shapes.py`` (4.8);
- ``hints.py``: each step's hints, from the idea to pseudocode in words;
- ``expected.json``: what the checks see of the reference solution (written by ``make build``);
- ``mistakes.py``: the usual mistakes a check names, each with the mutant that proves it (reference edition
  only: the mutants hold the solution's lines);
- ``zh.po``: the Chinese of every sentence written in this folder.
"""
