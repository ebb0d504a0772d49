"""Run tutorial scripts with PyTorch or with minigrad, and print what each printed (JSON).

``python tutorials/run.py minigrad a.py b.py`` runs each script with its line
``import torch`` read as ``import minigrad as torch``: the one change a learner makes.
Its other imports of torch (``from torch import nn``, ``import torch.nn.functional as F``)
then mean the same modules of minigrad, and never PyTorch's.
All scripts share one interpreter (importing torch once is the slow part); each gets
a fresh namespace and its own captured output.
"""
import contextlib
import importlib
import importlib.abc
import importlib.util
import io
import json
import re
import sys
import traceback
from pathlib import Path

SWAP = {"torch": "import torch\n", "minigrad": "import minigrad as torch\n"}


class TorchMeansMinigrad(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports ``torch.<name>`` as ``minigrad.<name>``: a module minigrad lacks is a ModuleNotFoundError."""

    def find_spec(self, name, path=None, target=None):
        if name == "torch" or name.startswith("torch."):
            return importlib.util.spec_from_loader(name, self)
        return None

    def create_module(self, spec):
        return importlib.import_module("minigrad" + spec.name[len("torch"):])

    def exec_module(self, module):
        pass  # create_module returned minigrad's module, already run


def run(library, path):
    if library == "minigrad" and not any(isinstance(f, TorchMeansMinigrad) for f in sys.meta_path):
        sys.meta_path.insert(0, TorchMeansMinigrad())
    source = Path(path).read_text()
    if "import torch\n" not in source:
        raise ValueError(f"{path} has no line `import torch`")
    source = source.replace("import torch\n", SWAP[library], 1)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        try:
            exec(compile(source, str(path), "exec"), {"__name__": "__main__"})
        except Exception:  # the comparison shows where the two libraries part
            print(traceback.format_exc().splitlines()[-1])
    return re.sub(r"0x[0-9a-fA-F]+", "0x…", printed.getvalue())


if __name__ == "__main__":
    library, *paths = sys.argv[1:]
    print(json.dumps({Path(p).stem: run(library, p) for p in paths}))
