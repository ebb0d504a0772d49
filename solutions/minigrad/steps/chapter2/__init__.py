"""Chapter 2, the engine that computes gradients: steps 2.1–2.8 and the challenge C2.

Everything the course holds about these steps is in this folder:

- the checks: ``checks.py`` (2.1–2.4), ``rules.py`` (2.5–2.8), ``challenge.py`` (C2);
- ``hints.py``: each step's hints, from the idea to pseudocode in words;
- ``expected.json``: what the checks see of the reference solution (written by ``make build``);
- ``mistakes.py``: the usual mistakes a check names, each with the mutant that proves it (reference edition
  only: the mutants hold the solution's lines);
- ``zh.po``: the Chinese of every sentence written in this folder.
"""
