"""Chapter 3's last hints, the most telling: each step's answer in words, written out in both languages.

Reference only: ``make build`` seals them into ``last_hints.dat`` (``steps/sealed.py``), which
``minigrad.hint`` opens when a learner asks for a step's last hint; browsing the package does not show them.
"""

LAST_HINTS = {
    "3.1": {
        "en": '__enter__: self._prev = the current mode; switch the mode off\n__exit__: switch the mode to self._prev',
        "zh": '__enter__：self._prev = 当前模式；关闭模式\n__exit__：把模式设为 self._prev',
    },
    "3.2": {
        "en": "out = a new tensor around self._array\nout._version_counter = self's version counter\nreturn out",
        "zh": 'out = 包装 self._array 的新张量\nout._version_counter = self 的版本计数器\n返回 out',
    },
    "3.3": {
        "en": "if self has a grad_fn:\n  if asked for False: raise a RuntimeError whose message is NOT_LEAF_FLAG\n  return self\nif asked for True and the dtype is not floating point: raise RuntimeError(PyTorch's words)\nset the flag; return self",
        "zh": '如果 self 有 grad_fn：\n  如果要求 False：抛出 RuntimeError，消息为 NOT_LEAF_FLAG\n  返回 self\n如果要求 True 而 dtype 不是浮点：raise RuntimeError(PyTorch 的原话)\n设置标志；返回 self',
    },
    "3.4": {
        "en": '__enter__: remember the current mode on self; switch the mode on\n__exit__: switch the mode to what self remembered',
        "zh": '__enter__：把当前模式记在 self 上；打开模式\n__exit__：把模式切换为 self 记下的值',
    },
    "3.5": {
        "en": "__init__: if mode is not a bool: raise TypeError(PyTorch's words, with the type's name)\n  remember the current mode on self; switch the mode to mode\n__exit__: switch the mode to what self remembered",
        "zh": '__init__：如果 mode 不是 bool：raise TypeError（PyTorch 的原话，带上类型名）\n  把当前模式记在 self 上；把模式切换为 mode\n__exit__：把模式切换为 self 记下的值',
    },
    "C3": {
        "en": 'function: with a fresh clone: return func(...)\ngenerator: method, value = send, None; loop:\n  try: in a fresh context: result = the method on the generator with value\n  on StopIteration: return its value\n  try: value = (yield result), method = send\n  on GeneratorExit: close the generator in a fresh context; raise\n  on any other error: method, value = throw, the error',
        "zh": '函数：在一个新的副本中：return func(...)\n生成器：method, value = send, None；循环：\n  try：在新的上下文中：result = 以 value 调用生成器的 method\n  遇到 StopIteration：返回它的值\n  try：value = (yield result)，method = send\n  遇到 GeneratorExit：在新的上下文中关闭生成器；raise\n  遇到其他任何错误：method, value = throw, 该错误',
    },
}
