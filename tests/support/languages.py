"""What a reader sees in an executed notebook, and the words in it that are not in its language.

JupyterLab shows each output in its richest form: a widget, else a picture (SVG, whose words
are its ``<text>`` elements), else HTML, else plain text; an error shows its traceback. The
Chinese edition may show English only where it is code or PyTorch's own text: identifiers
(``grad_fn``, ``AddBackward0``, the names the code cells use) and the sentences PyTorch prints,
which minigrad reproduces word for word (``tests/data/pytorch_texts.txt``). The English edition
shows no Chinese at all.
"""
import builtins
import functools
import html
import io
import keyword
import re
import tokenize

from conftest import ROOT

PYTORCH_TEXTS = ROOT / "tests" / "data" / "pytorch_texts.txt"
QUOTED = re.compile(r"`[^`]*`|“[ -~]*”|（[ -~]+）")  # code in a sentence (`pass`, “step 1.1”), a gloss（kernel）
PATH = re.compile(r"\S*/\S*")  # a file's path (a warning's origin), a URL, a formula like dy/dx
ANSI = re.compile(r"\x1b\[[0-9;]*m")
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_']*")
HAN = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]+")
RICHEST_FIRST = ("image/svg+xml", "image/png", "text/html", "text/plain")
PYTHON = set(keyword.kwlist) | set(dir(builtins))  # True, None, RuntimeError, ...
UNITS = {"ms"}
NUMBERS = {"inf", "nan"}  # how PyTorch prints infinities and NaN in a tensor: tensor([0., -inf])
DOTTED = re.compile(r"\w+(?:\.\w+)+")  # a qualified name: 0.weight, torch.float32, autograd.grad


def seen(notebook):
    """``(cell number, text)`` of everything a reader of the executed ``notebook`` sees in its outputs."""
    texts = []
    for number, cell in enumerate(notebook.cells):
        streams = {}  # a cell's prints read as one text, however the kernel split them
        for output in cell.get("outputs", []) if cell.cell_type == "code" else []:
            if output.output_type == "stream":
                streams[output.name] = streams.get(output.name, "") + output.text
            elif output.output_type == "error":
                texts.append((number, ANSI.sub("", "\n".join(output.traceback))))
            elif "application/vnd.jupyter.widget-view+json" not in output.get("data", {}):
                kind = next((k for k in RICHEST_FIRST if k in output.get("data", {})), None)
                texts.append((number, shown(kind, output["data"][kind]) if kind else ""))
        texts += [(number, text) for text in streams.values()]
    state = notebook.metadata.get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {})
    for widget in state.get("state", {}).values():  # what a widget shows: its labels and its HTML
        for key in ("description", "value"):
            value = widget.get("state", {}).get(key)
            if isinstance(value, str):
                texts.append((None, shown("text/html", value)))
    return texts


def shown(kind, data):
    """The words of one output as a reader sees them: an SVG's or HTML's text, not its markup."""
    if kind == "image/png":
        return ""
    if kind == "image/svg+xml":
        return "\n".join(html.unescape(t) for t in re.findall(r"<text[^>]*>([^<]*)</text>", data))
    if kind == "text/html":
        return html.unescape(re.sub(r"<style.*?</style>|<[^>]+>", " ", data, flags=re.DOTALL))
    return data


def identifiers(notebook):
    """The names the notebook's code uses, and its strings that are single names (``"w"``, ``"version"``)."""
    names = set()
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        try:
            tokens = list(tokenize.generate_tokens(io.StringIO(cell.source).readline))
        except (tokenize.TokenError, IndentationError):
            continue
        for token in tokens:
            if token.type == tokenize.NAME:
                names.add(token.string)
            elif token.type == tokenize.STRING and re.fullmatch(r"['\"]\w+['\"]", token.string):
                names.add(token.string[1:-1])
    return names


@functools.lru_cache(maxsize=None)
def pytorch_names():
    """Names PyTorch shows in pictures: what each node saves for backward (``self``, ``exponent``)."""
    from minigrad.autograd.graph import Node

    names, classes = set(), [Node]
    while classes:
        cls = classes.pop()
        names.update(getattr(cls, "saved_names", ()))
        classes += cls.__subclasses__()
    return names


@functools.lru_cache(maxsize=None)
def pytorch_texts():
    """PyTorch's own sentences that minigrad prints as PyTorch does, one a line, longest first."""
    lines = PYTORCH_TEXTS.read_text(encoding="utf-8").splitlines()
    return sorted((line for line in lines if line and not line.startswith("#")), key=len, reverse=True)


def is_identifier(word):
    """A word shaped like code rather than prose: ``grad_fn``, ``AddBackward0``, ``requires_grad``."""
    return "_" in word or any(c.isdigit() for c in word) or any(c.isupper() for c in word[1:])


def english_words(text, allowed):
    """The English words of ``text`` that are neither PyTorch's sentences, nor names, nor ``allowed``."""
    for sentence in pytorch_texts():
        text = text.replace(sentence, " ")
    text = DOTTED.sub(" ", PATH.sub(" ", QUOTED.sub(" ", text)))
    return [word for word in WORD.findall(text) if len(word) > 1 and not is_identifier(word)
            and word.strip("'") not in allowed and word not in PYTHON | UNITS | NUMBERS | pytorch_names()]


def chinese(text):
    """The runs of Chinese characters and punctuation in ``text``."""
    return HAN.findall(text)
