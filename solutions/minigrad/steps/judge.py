"""The verdict on a step: the learner's observations against the reference's, as plain data.

``judge`` never runs the learner's code: it reads what ``observe.run_check`` reported
from the learner's process and what the reference solution reported on the same inputs,
and says, in the learner's language, whether they agree and, if not, where first.
"""
import numpy as np

from ..messages import N_, say

PASSED = N_("✓ Step {step} passed ({n} checks).")
PASSED_ONE = N_("✓ Step {step} passed (1 check).")
NOT_WRITTEN = N_(
    "Step {missing} is not implemented yet: find the line marked \"step {missing}\" in the minigrad package "
    "(a `raise NotImplementedError`, or a `pass` that does nothing), replace it with your code, save the file, "
    "then run this cell again."
)
BUILDS_ON = N_(" (step {step} builds on it)")
UNKNOWN = N_("There is no step {step}.")
FAILED = N_("✗ Step {step}: {detail}")
GOT = N_("{label}: got {got}, expected {expected}")
SHAPE = N_("{label}: shape {got}, expected {expected}")
DTYPE = N_("{label}: dtype {got}, expected {expected}")
KIND = N_("{label}: got {got}, expected {expected}")
NO_ERROR = N_("{label}: nothing was raised, expected {expected}")
CRASH = N_("your code raised {error}\n{where}")
INCOMPLETE = N_("the checks' results are incomplete or do not match the checks (was the checking process changed?)")
# The one tolerance by which numbers agree: a learner's with the reference's, and the reference recorded on one
# processor with the same reference on another (numpy's float32 paths differ in the last digit between them).
RTOL = 1e-5
ATOL = 1e-5  # a check may loosen it for one value (``see.near``)
KINDS = {"truth": N_("True or False"), "tensor": N_("a tensor"), "array": N_("a numpy array"), "none": N_("None"), "number": N_("a number"),
         "text": N_("text"), "sequence": N_("a tuple or list"), "object": N_("an object of another type")}


def judge(step, mine, reference, language):
    """The verdict ``{"status", "message"}`` on ``step``: ``mine`` and ``reference`` map each
    check's name to its observations (``observe.run_check``), for the same inputs."""
    if not reference:
        return {"status": "failed", "message": say(UNKNOWN, language, step=step)}
    for name, expected in reference.items():
        seen = mine.get(name) if isinstance(mine, dict) else None
        problem = _first_difference(seen, expected, language)
        if problem is not None:
            if problem[0] == "stub":
                missing = problem[1] or step
                message = say(NOT_WRITTEN, language, missing=missing)
                if missing != step:
                    message += say(BUILDS_ON, language, step=step)
                return {"status": "not_implemented", "message": message, "missing": missing}
            return {"status": "failed", "message": say(FAILED, language, step=step, detail=problem[1])}
    n = len(reference)
    message = say(PASSED_ONE, language, step=step) if n == 1 else say(PASSED, language, step=step, n=n)
    return {"status": "passed", "message": message}


def close(got, expected, atol=ATOL):
    """The judge's rule for numbers, scalars or arrays alike: equal within ``RTOL`` and ``atol``, nan to nan."""
    return bool(np.allclose(got, expected, rtol=RTOL, atol=atol, equal_nan=True))


def agree(recorded, fresh, atol=ATOL):
    """Whether two recordings of the reference's observations say the same thing: the same checks, labels,
    kinds, texts and mistakes, and numbers equal by ``close`` (with the tolerance of the check they are in)."""
    if isinstance(recorded, dict) and isinstance(fresh, dict):
        atol = recorded.get("atol", atol)
        return recorded.keys() == fresh.keys() and all(agree(recorded[k], fresh[k], atol) for k in recorded)
    if isinstance(recorded, list) and isinstance(fresh, list):
        return len(recorded) == len(fresh) and all(agree(r, f, atol) for r, f in zip(recorded, fresh))
    if _kind(recorded) == _kind(fresh) == "number":
        return close(float(recorded), float(fresh), atol)
    return type(recorded) is type(fresh) and recorded == fresh


def _first_difference(seen, expected, language):
    """None if ``seen`` agrees with ``expected`` throughout; else ``("stub", step)`` or ``("wrong", text)``."""
    if not isinstance(seen, list) or not seen:
        return "wrong", say(INCOMPLETE, language)
    for index, want in enumerate(expected[:-1]):
        got = seen[index] if index < len(seen) else None
        if not isinstance(got, dict):
            return "wrong", say(INCOMPLETE, language)
        if "end" in got:
            return _ended(got, language)
        if got.get("label") != want["label"]:
            return "wrong", say(INCOMPLETE, language)
        detail = _compare(got.get("value"), want, language)
        if detail is not None:
            return "wrong", detail
    end = seen[len(expected) - 1] if len(seen) == len(expected) else None
    if not isinstance(end, dict) or "end" not in end:
        return "wrong", say(INCOMPLETE, language)
    return None if end["end"] == "done" else _ended(end, language)


def _ended(end, language):
    """The learner's run stopped before the reference's did: a stub, or a crash."""
    if end.get("end") == "stub":
        return "stub", end.get("step")
    if end.get("end") == "crash":
        return "wrong", say(CRASH, language, error=str(end.get("error")), where=str(end.get("where", "")))
    return "wrong", say(INCOMPLETE, language)


def _compare(got, want, language):
    """None if ``got`` is the reference's value ``want["value"]``; else what differs, for the learner,
    led by the name of the mistake when ``got`` is what one of the reference's known mistakes gives."""
    detail = _difference(got, want, language)
    if detail is None:
        return None
    for wrong, message in want.get("mistakes", ()):
        if _difference(got, {"label": want["label"], "value": wrong, "atol": want.get("atol", ATOL)}, language) is None:
            return say(message, language) + "\n" + detail
    return detail


def _difference(got, want, language):
    """None if ``got`` is the value ``want["value"]``; else what differs."""
    label, expected = say(want["label"], language), want["value"]
    if want.get("requirement"):
        return None if got is True else label
    if isinstance(expected, dict) and "error" in expected:
        return _compare_error(got, expected, label, language)
    got_kind, want_kind = _kind(got), _kind(expected)
    if got_kind != want_kind:
        return say(KIND, language, label=label, got=say(KINDS[got_kind], language),
                   expected=say(KINDS[want_kind], language))
    if want_kind in ("tensor", "array"):
        return _compare_arrays(got, expected, want_kind, label, want.get("atol", ATOL), language)
    if want_kind == "sequence":
        if len(got) != len(expected):
            return say(GOT, language, label=label, got=show(got), expected=show(expected))
        for g, e in zip(got, expected):
            detail = _difference(g, {"label": want["label"], "value": e, "atol": want.get("atol", ATOL)}, language)
            if detail is not None:
                return say(GOT, language, label=label, got=show(got), expected=show(expected))
        return None
    if want_kind == "number":
        if not close(float(got), float(expected), want.get("atol", ATOL)):
            return say(GOT, language, label=label, got=show(got), expected=show(expected))
        return None
    return None if got == expected else say(GOT, language, label=label, got=show(got), expected=show(expected))


def _compare_arrays(got, expected, kind, label, atol, language):
    if got.get("shape") != expected["shape"]:
        return say(SHAPE, language, label=label, got=tuple(got.get("shape") or ()), expected=tuple(expected["shape"]))
    if got.get("dtype") != expected["dtype"]:
        return say(DTYPE, language, label=label, got=got.get("dtype"), expected=expected["dtype"])
    mine, theirs = _values(got[kind]), _values(expected[kind])
    if mine.shape != theirs.shape or not close(mine, theirs, atol):
        return say(GOT, language, label=label, got=show(got), expected=show(expected))
    return None


def _compare_error(got, expected, label, language):
    want = f"{expected['error']}: {expected['text']}" if expected["error"] else None
    have = f"{got.get('error')}: {got.get('text')}" if isinstance(got, dict) and got.get("error") else None
    if have == want:
        return None
    if have is None:
        return say(NO_ERROR, language, label=label, expected=want)
    return say(GOT, language, label=label, got=have, expected=want or say(KINDS["none"], language))


def _kind(value):
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "truth"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "sequence"
    if isinstance(value, dict):
        return next((k for k in ("tensor", "array") if k in value), "object")
    return "object"


def _values(items):
    """Observed numbers as an array (``observe`` wrote nan and inf as text; ``float`` reads them back)."""
    return np.array([float(v) for v in items], dtype=np.float64)


def show(value):
    """A plain value as the learner reads it: arrays as numpy prints them (4 decimals)."""
    if isinstance(value, dict) and ("tensor" in value or "array" in value):
        kind = "tensor" if "tensor" in value else "array"
        array = _values(value[kind])
        if array.size == int(np.prod(value["shape"])):
            array = array.reshape(value["shape"])
        return np.array2string(array, precision=4, separator=", ", threshold=20)
    if isinstance(value, list):
        return "(" + ", ".join(show(v) for v in value) + ("," if len(value) == 1 else "") + ")"
    if isinstance(value, dict) and "object" in value:
        return value["object"]
    return repr(value)
