"""Chapter 3's last hints, by step, in both languages (how they reach a learner: ``steps/__init__.py``)."""

LAST_HINTS = {
    "3.1": {
        "en": "__enter__ keeps the mode in force on the object (self._prev), then switches recording off. __exit__ "
              "sets the mode back to what __enter__ kept, whatever it was: blocks nest, and Python calls __exit__ "
              "on an exception too.",
        "zh": "__enter__ 把当时的模式记在对象上（self._prev），然后关闭记录。__exit__ 把模式恢复成 __enter__ 记下的值，"
              "不论它是什么：块可以嵌套，而且出现异常时 Python 也会调用 __exit__。",
    },
    "3.2": {
        "en": "A new tensor around self's very array (no copy), given self's version counter itself (the same list): "
              "the same numbers, the same memory, the same count of changes, and no history.",
        "zh": "一个包装 self 的同一个数组（不复制）的新张量，并直接使用 self 的版本计数器（同一个列表）：同样的数值、同样"
              "的内存、同样的修改计数，而没有历史。",
    },
    "3.3": {
        "en": "A non-leaf (it has a grad_fn): asking for False raises a RuntimeError with NOT_LEAF_FLAG, asking for "
              "True changes nothing. Asking for True on a dtype that is not floating point raises a RuntimeError in "
              "PyTorch's words. Otherwise the flag takes the value asked for. Whenever nothing is raised, the "
              "answer is the tensor itself.",
        "zh": "非叶子节点（它有 grad_fn）：要求 False 时抛出消息为 NOT_LEAF_FLAG 的 RuntimeError，要求 True 时什么也不变。"
              "对不是浮点的 dtype 要求 True 时，抛出用 PyTorch 原话的 RuntimeError。其他情况把标志设为所要求的值。只要"
              "没有抛出异常，返回的就是这个张量本身。",
    },
    "3.4": {
        "en": "__enter__ keeps the mode in force on the object, then switches recording on. __exit__ sets the mode "
              "back to what __enter__ kept (off, inside a no_grad block), and returns nothing, so that an exception "
              "goes on.",
        "zh": "__enter__ 把当时的模式记在对象上，然后打开记录。__exit__ 把模式恢复成 __enter__ 记下的值（在 no_grad 块中"
              "就是关闭），并且不返回任何值，让异常继续传出。",
    },
    "3.5": {
        "en": "The constructor does the work: a mode that is not a bool raises a TypeError in PyTorch's words (with "
              "the type's name); otherwise it keeps the mode in force on the object, then switches to the new mode. "
              "__enter__ has nothing left to do; __exit__ sets back the mode the constructor kept.",
        "zh": "工作在构造函数里完成：mode 不是 bool 时抛出用 PyTorch 原话的 TypeError（带上类型名）；否则先把当时的模式"
              "记在对象上，再切换到新的模式。__enter__ 已经无事可做；__exit__ 恢复构造函数记下的模式。",
    },
    "C3": {
        "en": "A function: each call runs inside its own fresh clone of the context, and gives back what the function "
              "returns. A generator: a loop that resumes it inside a fresh context each time, by send (None the "
              "first time, then whatever the caller sent) or by throw (what the caller threw in); when the "
              "generator raises StopIteration, return the value it carries. Each value it produces is yielded to "
              "the caller outside any context. When the caller closes the wrapper (GeneratorExit), close the "
              "generator inside a fresh context and let the exit go on.",
        "zh": "函数：每次调用都在上下文的一个新副本中运行，并返回函数的返回值。生成器：一个循环，每次都在新的上下文中"
              "恢复它，用 send（第一次是 None，之后是调用者送进来的值）或 throw（调用者抛进来的异常）；生成器抛出 "
              "StopIteration 时，返回它携带的值。生成器产出的每个值都在任何上下文之外交给调用者。调用者关闭包装器"
              "（GeneratorExit）时，在新的上下文中关闭生成器，再让这次退出继续传出。",
    },
}
