"""The backward and forward-mode rules a learner writes, one file per chapter, set on their nodes here.

A node class in ``ops/`` or ``nn/`` holds what its operation saved; the rule that is an exercise lives in
``rules/chapterN.py`` with the others of its chapter, so that a learner edits a few files, each rule beside its
neighbours. Setting a function as a class's method costs nothing when it runs.
"""
from . import chapter1, chapter2, chapter4, chapter7

for chapter in (chapter1, chapter2, chapter4, chapter7):
    for (node, method), rule in chapter.RULES.items():
        setattr(node, method, rule)
