"""Run tutorial scripts with PyTorch or with minigrad, and print what each printed (JSON).

``python tutorials/run.py minigrad a.py b.py`` runs each script with its line
``import torch`` read as ``import minigrad as torch``: the one change a learner makes.
All scripts share one interpreter (importing torch once is the slow part); each gets
a fresh namespace and its own captured output.
"""
import contextlib
import io
import json
import re
import sys
import traceback
from pathlib import Path

SWAP = {"torch": "import torch\n", "minigrad": "import minigrad as torch\n"}


def run(library, path):
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
