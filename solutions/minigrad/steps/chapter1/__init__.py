"""Chapter 1, how operations build the graph: steps 1.1–1.8 and the challenge C1.

Everything the course holds about these steps is in this folder:

- the checks: ``checks.py`` (1.1–1.4), ``rules.py`` (1.5–1.8), ``kinks.py`` (C1);
- ``hints.py``: each step's hints, from the idea to pseudocode in words;
- ``expected.json``: what the checks see of the reference solution (written by ``make build``);
- ``mistakes.py``: the usual mistakes a check names, each with the mutant that proves it (reference edition
  only: the mutants hold the solution's lines);
- ``zh.po``: the Chinese of every sentence written in this folder.
"""
