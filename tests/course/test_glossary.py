"""One glossary (``solutions/glossary.tsv``) that the Chinese edition follows.

A Chinese reader meets each term under one name: the chapters' Chinese prose never leaves a
glossary term in bare English (it may gloss it once, in parentheses after the Chinese, and
code stays code), and no Chinese text of the course (prose, messages, docstrings) spells a
term another way than the glossary's.
"""
import ast
import csv
import functools
import re

import pytest

from conftest import ROOT
from tools import build, catalogues, notebooks

GLOSSARY = ROOT / "solutions" / "glossary.tsv"
CODE = [
    r"```.*?```",  # code blocks
    r"`[^`]*`",  # code spans
    r"\$\$.*?\$\$|\$[^$]*\$",  # formulas
    r"（[^）]*）|\([A-Za-z][^()（）]*\)",  # glosses: 计算图（computational graph）
    r"\]\([^)]*\)",  # link targets
]
HAN = re.compile(r"[\u4e00-\u9fff]")


def terms():
    """The glossary's rows: ``english``, ``chinese``, ``not`` (a list of refused spellings)."""
    with open(GLOSSARY, encoding="utf-8") as file:
        rows = csv.DictReader((line for line in file if not line.startswith("#")), delimiter="\t")
        return [dict(row, **{"not": [s for s in (row["not"] or "").split(",") if s]}) for row in rows]


@functools.lru_cache(maxsize=None)
def chinese_prose():
    """``(chapter, text)`` of every Chinese markdown cell of the chapters."""
    return [(source.stem, cell.source) for source in build.chapter_sources()
            for cell in notebooks.read_source(source).cells
            if cell.cell_type == "markdown" and cell.metadata.get("lang") == "zh"]


@functools.lru_cache(maxsize=None)
def chinese_texts():
    """``(where, text)`` of all the course's Chinese: prose, messages and code comments, docstrings."""
    texts = list(chinese_prose())
    texts += [("minigrad.po", message.string) for message in catalogues.merged(catalogues.catalogues()[0])
              if message.id and message.string]
    for path in sorted((ROOT / "solutions" / "minigrad").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.Module)):
                doc = ast.get_docstring(node)
                if doc and HAN.search(doc):
                    texts.append((str(path.relative_to(ROOT)), doc))
    return texts


def without_code(text):
    """``text`` with code, formulas, glosses and link targets blanked out: the prose alone."""
    for pattern in CODE:
        text = re.sub(pattern, " ", text, flags=re.DOTALL)
    return text


def bare_english(prose, english):
    """The places where ``english`` (or its plural) stands bare in ``prose``."""
    words = r"[\s-]+".join(map(re.escape, re.split(r"[\s-]+", english)))
    return re.findall(rf"(?<![\w`.]){words}s?(?![\w`(])", without_code(prose), flags=re.IGNORECASE)


def other_spellings(text, row):
    """The refused spellings of ``row``'s term in ``text`` (the right spelling taken out first,
    so that 叶子 is refused and 叶子节点 is not)."""
    rest = text.replace(row["chinese"], "　")
    return [spelling for spelling in row["not"] if spelling in rest]


def test_the_glossary_has_one_chinese_term_per_english_one_and_no_spelling_twice():
    rows = terms()
    english = [row["english"].lower() for row in rows]
    assert len(english) == len(set(english))
    refused = {s for row in rows for s in row["not"]}
    assert not refused & {row["chinese"] for row in rows}, "a term both used and refused"
    assert all(HAN.search(row["chinese"]) for row in rows)


@pytest.mark.parametrize("row", terms(), ids=lambda row: row["english"])
def test_chinese_prose_leaves_no_glossary_term_in_english(row):
    found = [(chapter, hit) for chapter, prose in chinese_prose() for hit in bare_english(prose, row["english"])]
    assert found == [], f"write {row['chinese']} (code in `backticks` is kept as it is)"


@pytest.mark.parametrize("row", [row for row in terms() if row["not"]], ids=lambda row: row["english"])
def test_chinese_text_spells_each_term_one_way(row):
    found = [(where, spelling) for where, text in chinese_texts() for spelling in other_spellings(text, row)]
    assert found == [], f"write {row['chinese']}"


def test_the_check_finds_bare_terms_and_other_spellings():
    """The two rules, on sentences written to break them: a test that cannot fail proves nothing."""
    assert bare_english("调用 backward 之后", "backward") == ["backward"]
    assert bare_english("调用 `loss.backward()`，计算图（computational graph）", "backward") == []
    assert bare_english("计算图（computational graph）就是 computational  graph", "computational graph") == [
        "computational  graph"]
    leaf = next(row for row in terms() if row["english"] == "leaf")
    assert other_spellings("叶子节点和叶子", leaf) == ["叶子"]
    assert other_spellings("叶子节点", leaf) == []
