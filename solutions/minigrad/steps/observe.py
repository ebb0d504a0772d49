"""What a check sees of the learner's code, as plain data: the only thing that leaves its process.

A check runs the learner's functions and reports what they returned with ``see``; it
never decides whether that is right. The verdict is taken elsewhere (``judge.py``), by
comparing these observations with those of the reference solution on the same inputs,
in a process the learner's code never ran in. So nothing the learner's package does in
its own process (printing, patching, ``atexit``) can pass a step: only values equal to
the reference's can, and graded runs draw inputs the learner never saw (``see.rng``).
"""
import math
import traceback

import numpy as np

from .ids import stubbed_step

MAX_ITEMS = 1000  # elements of one observed array: enough for any check, bounded for the judge


class Observations:
    """The ``see`` a check receives: ``see(value, label)`` and its variants record, in order,
    what the learner's code produced. ``label`` is a catalogue message (``N_``) naming it."""

    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)  # draw the check's inputs from here: hidden runs reseed it
        self.seen = []

    def __call__(self, value, label, mistakes=()):
        """``value`` must equal the reference's (numbers within float tolerance).

        ``mistakes`` pairs the value a usual mistake gives with a catalogue message naming it:
        the judge shows that message when the learner's value is that one. Only the reference's
        own list is ever read, so a package cannot name its mistakes away."""
        self.seen.append(_seen(label, value, mistakes))

    def near(self, value, label, atol=1e-5, mistakes=()):
        """Like ``see``, with an absolute tolerance of its own for the numbers."""
        self.seen.append(dict(_seen(label, value, mistakes), atol=atol))

    def that(self, condition, label):
        """A requirement, stated by ``label``; on failure the learner reads the label itself."""
        self.seen.append({"label": label, "value": bool(condition), "requirement": True})

    def require(self, condition, label):
        """A requirement the rest of the check relies on (a returned value's type, its length):
        when it fails, the check stops here, before it uses what it could not rely on."""
        self.that(condition, label)
        if not condition:
            raise Stop

    def attempt(self, run, *named):
        """``run()``, the learner's code. Each of ``named`` is ``(errors, label)``: a failure with one
        of ``errors`` is the usual mistake ``label`` names (a ``RecursionError``, numpy's shape error).
        Each label is a requirement, met unless that failure happened; on a failure the check
        reports it, not a traceback, and stops there."""
        try:
            result = run()
        except NotImplementedError:
            raise
        except Exception as error:
            failed = next((label for errors, label in named if isinstance(error, errors)), None)
            if failed is None:
                raise
            for _, label in named:
                self.require(label != failed, label)
        for _, label in named:
            self.that(True, label)
        return result

    def error(self, run, label, kind=RuntimeError):
        """``run()`` must fail as the reference fails: the error's type and PyTorch's words.
        A stub's NotImplementedError (a RuntimeError too) is let through: the step is not written."""
        try:
            run()
        except NotImplementedError:
            raise
        except kind as error:
            self.seen.append({"label": label, "value": {"error": type(error).__name__, "text": str(error)}})
            return
        self.seen.append({"label": label, "value": {"error": None}})


class Stop(Exception):
    """A check stops early: what it reported so far already names what went wrong."""


def _seen(label, value, mistakes):
    seen = {"label": label, "value": plain(value)}
    if mistakes:
        seen["mistakes"] = [[plain(wrong), message] for wrong, message in mistakes]
    return seen


def plain(value):
    """``value`` as JSON data: numbers, text, lists; an array or tensor with its kind, dtype and shape."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, (int, float, np.number, np.bool_)):
        return _number(value.item() if isinstance(value, np.generic) else value)
    if isinstance(value, (tuple, list)):
        return [plain(v) for v in value]
    if isinstance(value, np.dtype) or type(value).__name__ == "dtype":
        return str(value)  # numpy's "float32", minigrad's "torch.float32"
    array = getattr(value, "_array", None)
    kind = "tensor" if array is not None else "array"
    if array is None:
        if not isinstance(value, np.ndarray):
            return {"object": type(value).__name__}
        array = value
    flat = array.reshape(-1)[:MAX_ITEMS]
    return {kind: [_number(v) for v in flat.tolist()], "dtype": str(array.dtype), "shape": list(array.shape)}


def _number(x):
    """A JSON number, or the text of one JSON cannot hold (nan, inf)."""
    return x if isinstance(x, (bool, int)) or math.isfinite(x) else repr(float(x))


def run_check(check, seed):
    """Run one check; its observations, then how it ended: ``{"end": "done" | "stub" | "crash", ...}``."""
    see = Observations(seed)
    try:
        check(see)
        end = {"end": "done"}
    except Stop:
        end = {"end": "stopped"}
    except NotImplementedError as error:
        end = {"end": "stub", "step": stubbed_step(str(error))}
    except Exception as error:  # the learner's code failed: say what, and where (its last frames)
        where = "".join(traceback.format_exception(error)[-3:])[-2000:]
        end = {"end": "crash", "error": f"{type(error).__name__}: {error}"[:1000], "where": where}
    return see.seen + [end]
