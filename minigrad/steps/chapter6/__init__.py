"""Chapter 6, hooks, retained gradients, saved-tensor hooks, the version counter: steps 6.1–6.6 and the challenge C6.

Everything the course holds about these steps is in this folder:

- the checks: ``checks.py``;
- ``hints.py``: each step's hints, from the idea to pseudocode in words;
- ``expected.json``: what the checks see of the reference solution (written by ``make build``);
- ``mistakes.py``: the usual mistakes a check names, each with the mutant that proves it (reference edition
  only: the mutants hold the solution's lines);
- ``zh.po``: the Chinese of every sentence written in this folder.
"""
