"""Chapter 3's usual mistakes, each named by a check at its step, with the mutant that makes it (the format and
why this file stays out of the learner edition: ``steps/__init__.py``)."""
from . import checks as chapter3

MODE = "autograd/grad_mode.py"
DECORATORS = "autograd/mode_decorators.py"
GENERATOR_LOOP = '    method, value = "send", None\n    while True:\n'
ENABLE_ENTER = "        self._prev = is_grad_enabled()\n        _set_enabled(True)\n"
EXITS = {"3.4": "都交还进入时的模式。\n", "3.5": "都交还调用之前的模式。\n"}
SET_NOW = "        self._prev = is_grad_enabled()\n        _set_enabled(mode)\n"

def _exit(step, body):
    """The ``__exit__`` of step ``step`` (3.4 or 3.5) with ``body`` instead of restoring the mode."""
    end = EXITS[step] + '        """\n'
    return (MODE, end + "        _set_enabled(self._prev)\n", end + body)


MUTANTS = {
    "no_grad switches grad mode on when it ends": ("3.1", [(MODE, "        _set_enabled(self._prev)\n",
                                                           "        _set_enabled(True)\n")], chapter3.SWITCHED_ON),
    "no_grad leaves grad mode off after an exception": (
        "3.1", [(MODE, "        _set_enabled(self._prev)\n",
                 "        if exc[0] is None:\n            _set_enabled(self._prev)\n")], chapter3.LEFT_OFF),
    "no_grad swallows exceptions": ("3.1", [(MODE, "        _set_enabled(self._prev)\n",
                                             "        _set_enabled(self._prev)\n        return True\n")],
                                    chapter3.SWALLOWED),
    "enable_grad does not switch recording on": (
        "3.4", [(MODE, ENABLE_ENTER, "        self._prev = is_grad_enabled()\n")], chapter3.NOT_ON),
    "enable_grad switches recording on when it ends": (
        "3.4", [_exit("3.4", "        _set_enabled(True)\n")], chapter3.LEFT_ON),
    "enable_grad switches recording off when it ends": (
        "3.4", [_exit("3.4", "        _set_enabled(False)\n")], chapter3.SWITCHED_OFF),
    "enable_grad leaves grad mode on after an exception": (
        "3.4", [_exit("3.4", "        if exc[0] is None:\n            _set_enabled(self._prev)\n")],
        chapter3.LEFT_ON_AFTER_ERROR),
    "enable_grad swallows exceptions": (
        "3.4", [_exit("3.4", "        _set_enabled(self._prev)\n        return True\n")], chapter3.SWALLOWED_3_4),
    "set_grad_enabled switches only when a block is entered": (
        "3.5", [(MODE, SET_NOW, "        self._prev, self._wanted = is_grad_enabled(), mode\n"),
                (MODE, '        """Nothing left to do: the call itself already switched the mode."""\n',
                 "        _set_enabled(self._wanted)\n")], chapter3.NOT_AT_ONCE),
    "set_grad_enabled remembers the mode after switching it": (
        "3.5", [(MODE, SET_NOW, "        _set_enabled(mode)\n        self._prev = is_grad_enabled()\n")],
        chapter3.REMEMBERED_TOO_LATE),
    "set_grad_enabled switches recording on when it ends": (
        "3.5", [_exit("3.5", "        _set_enabled(True)\n")], chapter3.SWITCHED_ON_3_5),
    "set_grad_enabled flips the mode it set when it ends": (
        "3.5", [(MODE, SET_NOW, SET_NOW + "        self._mode = mode\n"),
                _exit("3.5", "        _set_enabled(not self._mode)\n")], chapter3.SWITCHED_ON_3_5),
    "set_grad_enabled leaves the mode after an exception": (
        "3.5", [_exit("3.5", "        if exc[0] is None:\n            _set_enabled(self._prev)\n")],
        chapter3.LEFT_AFTER_ERROR_3_5),
    "set_grad_enabled swallows exceptions": (
        "3.5", [_exit("3.5", "        _set_enabled(self._prev)\n        return True\n")], chapter3.SWALLOWED_3_5),
    "C3: the mode given back only when the call returns": (
        "C3", [(DECORATORS, "            with self._clone():\n                return func(*args, **kwargs)\n",
                "            context = self._clone()\n            context.__enter__()\n"
                "            result = func(*args, **kwargs)\n            context.__exit__(None, None, None)\n"
                "            return result\n")], chapter3.NOT_GIVEN_BACK_ON_ERROR),
    "C3: one context shared by every call": (
        "C3", [(DECORATORS, "            with self._clone():\n", "            with self:\n")], chapter3.SHARED_CONTEXT),
    "C3: the generator keeps the mode between its values": (
        "C3", [(DECORATORS, GENERATOR_LOOP, "    with context():\n        return (yield from steps)\n")], chapter3.LEAKED),
}
