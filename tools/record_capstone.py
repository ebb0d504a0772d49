"""Record PyTorch's run of chapter 7's GPT, in each language: the losses the chapter sets beside the learner's.

    python -m tools.record_capstone     (needs PyTorch 2.13: pip install -e ".[torch]"; about four minutes)

Writes ``solutions/minigrad/capstone_losses.json``: for each language, the first ``KEPT`` training losses, the
number of steps, the last loss and the validation loss. The tests compare a fresh PyTorch run of the first steps
with it, by value (``minigrad.capstone.TOLERANCE``), never by bytes.
"""
import json
import sys

from . import capstone

KEPT = 50  # the first losses kept: the chapter and the tests compare 20 of them


def record(language, steps=None):
    import torch
    program = capstone.run(torch, language, steps)
    return {"losses": [round(loss, 6) for loss in program["losses"][:KEPT]], "steps": program["steps"],
            "final": round(program["losses"][-1], 6), "validation": round(program["val_loss"], 6)}


def main():
    sys.path.insert(0, str(capstone.SOURCE.parent.parent))  # the reference minigrad, for minigrad.capstone
    from minigrad.capstone import RECORDED
    runs = {language: record(language) for language in ("en", "zh")}
    RECORDED.write_text(json.dumps(runs, indent=1) + "\n")
    print(f"wrote {RECORDED}")


if __name__ == "__main__":
    main()
