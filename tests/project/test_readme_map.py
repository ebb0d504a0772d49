"""The README's map of the package says what the code does.

Its generated parts (the files holding stubs, the speed table, ``make core``'s time, the layers' picture) are
kept fresh by ``make build`` and held by ``test_editions.py::test_generated_files_are_up_to_date``; what is
written by hand about them is checked here.
"""
import re

import pytest

from conftest import ROOT
from tools import build, import_graph, readme

README = (ROOT / "README.md").read_text()
LAYERS = {"en": r"Imports run one way, bottom to top: (?P<order>.*?)\.\n", "zh": r"导入只朝一个方向，自下而上：(?P<order>.*?)。\n"}


def stated_layers(language):
    """The groups of modules the README names, bottom first, as dotted names."""
    order = re.search(LAYERS[language], README, re.DOTALL)["order"]
    return [[f"minigrad.{name.replace('/', '.')}" for name in re.findall(r"`([\w/]+)`", group)]
            for group in order.split("→")]


@pytest.mark.parametrize("language", LAYERS)
def test_the_layers_the_readme_states_are_the_imports(language):
    graph = import_graph.imports(build.PACKAGE)
    groups = stated_layers(language)
    assert len(groups) > 5 and all(module in graph for group in groups for module in group), groups
    for low, lower in enumerate(groups):
        for higher in groups[low + 1:]:
            assert not any(import_graph.reaches(graph, a, b) for a in lower for b in higher), (lower, higher)


def test_both_languages_state_the_same_layers():
    assert stated_layers("en") == stated_layers("zh")


@pytest.mark.parametrize("opening", ["Everything else exists for PyTorch's behaviour or for speed",
                                     "其余文件是为了与 PyTorch 的行为一致或为了速度而存在的"])
def test_the_files_the_readme_says_need_no_reading_hold_no_stub(opening):
    paragraph = README[README.index(opening):].split("\n\n")[0]
    named = re.findall(r"`([\w/]+\.py)`", paragraph)
    stubbed = {name.rsplit("/", 1)[-1] for name, _ in readme.learner_files(build.PACKAGE)}
    assert len(named) > 5 and not stubbed & {name.rsplit("/", 1)[-1] for name in named}, named
    existing = {path.name for path in build.PACKAGE.rglob("*.py")}
    assert {name.rsplit("/", 1)[-1] for name in named} <= existing


def test_the_learner_files_table_lists_every_stubbed_file_once():
    table = readme.part("learner-files", build.PACKAGE)
    files = re.findall(r"^\| `([\w/.]+)` \|", table, re.MULTILINE)
    assert files == [name for name, _ in readme.learner_files(build.PACKAGE)]
    assert "autograd/engine.py" in files and "autograd/saved_hooks.py" in files
