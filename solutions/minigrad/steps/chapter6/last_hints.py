"""Chapter 6's last hints, by step, in both languages (how they reach a learner: ``steps/__init__.py``)."""

LAST_HINTS = {
    "6.1": {
        "en": "A tensor that does not require grad: raise a RuntimeError in PyTorch's words (\"can't retain_grad on "
              "Tensor that has requires_grad=False\"). A leaf, or a tensor already retaining: nothing to do. "
              "Otherwise, in the hooks of its grad_fn (hooks_of), the retain table gets, under the tensor's output "
              "number, a weak reference to the tensor (so the graph does not keep it alive); then set its "
              "_retains_grad flag.",
        "zh": "不需要梯度的张量：抛出 RuntimeError，用 PyTorch 的原话（\"can't retain_grad on Tensor that has "
              "requires_grad=False\"）。叶子节点，或已经在保留梯度的张量：什么也不用做。否则在它的 grad_fn 的钩子"
              "（hooks_of）中，retain 表在这个张量的输出编号下放一个指向它的弱引用（这样计算图不会让它一直存活）；"
              "然后设置它的 _retains_grad 标志。",
    },
    "6.2": {
        "en": "A tensor that does not require grad: raise a RuntimeError with PyTorch's message. A leaf: its own "
              "_hooks dict (made the first time, when it is None) receives the hook. A non-leaf: the dict of its "
              "grad_fn's tensor_pre hooks under its output number (made when missing, as setdefault does) receives "
              "it. In both cases add_hook stores it and gives the handle to return.",
        "zh": "不需要梯度的张量：抛出带 PyTorch 消息的 RuntimeError。叶子节点：钩子放进它自己的 _hooks 字典（为 None 时"
              "第一次建立）。非叶子节点：钩子放进它的 grad_fn 的 tensor_pre 钩子中、它的输出编号下的字典（没有时建立，"
              "就像 setdefault 那样）。两种情况都由 add_hook 存放钩子，并给出要返回的句柄。",
    },
    "6.3": {
        "en": "remove deletes the entry of the handle's id from the handle's own table when it is still there, and "
              "does nothing otherwise; __exit__ calls remove.",
        "zh": "remove 在句柄自己的表中还有该句柄 id 的条目时把它删掉，否则什么也不做；__exit__ 调用 remove。",
    },
    "6.4": {
        "en": "At save time, when pairs of hooks are in effect, the last pair (the innermost block) is used: pack is "
              "called on the tensor, and _pack keeps the result with the unpack hook. _pack: the saved tensor's "
              "_tensor becomes a Packed of the packed value, the unpack hook and the tensor it replaces; its array "
              "becomes the PACKED marker. register_hooks: a freed tensor (array None) raises ALREADY_FREED, one "
              "packed already raises ALREADY_HOOKED, otherwise pack a tensor around the array the same way. "
              "unpacked: call the unpack hook on the kept value; anything but a Tensor raises a TypeError in "
              "PyTorch's words; return it.",
        "zh": "保存时，如果有生效的钩子对，就用最后一对（最内层的块）：对张量调用 pack，由 _pack 把结果和解包钩子一起"
              "保存。_pack：保存的张量的 _tensor 变为一个 Packed，由打包后的值、解包钩子和被它代替的张量构成；它的数组"
              "换成 PACKED 标记。register_hooks：已释放的张量（数组为 None）抛出 ALREADY_FREED，已经打包的抛出 "
              "ALREADY_HOOKED，否则用同样的方式打包一个包装该数组的张量。unpacked：对保存的值调用解包钩子；结果不是 "
              "Tensor 时抛出用 PyTorch 原话的 TypeError；否则返回它。",
    },
    "6.5": {
        "en": "The producer is the node passed in when no tensor was kept, otherwise the kept tensor's grad_fn. With a "
              "producer the sentence says \", which is output 0 of NAME,\"; without one (a leaf) that clause is left "
              "out. Fill PyTorch's sentence with tensor_type_name of the array's dtype, the array's shape as a list, "
              "that clause, the counter's version now, the version saved, and HINT.",
        "zh": "没有保存张量时，产生者就是传入的节点，否则是保存的张量的 grad_fn。有产生者时句子里写 \", which is output "
              "0 of NAME,\"；没有产生者（叶子节点）时省去这一句。用数组 dtype 的 tensor_type_name、列表形式的数组形状、"
              "这一句、计数器现在的版本、保存时的版本和 HINT 填好 PyTorch 的那句话。",
    },
    "6.6": {
        "en": "share_counter: the view's version counter is the input's, the very same list. count_write: one "
              "more version of the tensor. follow: "
              "the saved tensor takes the tensor's counter, and its value now as the version saved. unpack: when "
              "the counter's value differs from the version saved, raise a RuntimeError with 6.5's message.",
        "zh": "share_counter：视图的版本计数器就是输入的，同一个列表。count_write：张量的版本加一。"
              "follow：保存的张量取这个张量的计数器，并把它现在的值作为保存时的版本。unpack：计数器的值与保存"
              "时的版本不同时，抛出带 6.5 消息的 RuntimeError。",
    },
    "C6": {
        "en": "Keep a dict, position to gradient, for the pass in progress. The hook of the tensor at position i: "
              "when the dict is empty (the first gradient of a pass), queue the end-of-pass callback with "
              "queue_callback, and in mode \"any\" call fn with this gradient; then store the gradient under i. At "
              "the end of the pass: the gradients by position, None where nothing arrived; empty the dict; in mode "
              "\"all\" call fn with them. Register one such hook on each tensor that requires grad, and return one "
              "handle that removes them all.",
        "zh": "为进行中的这一遍反向传播保存一个字典，从位置到梯度。位置 i 上张量的钩子：字典为空时（这一遍的第一个梯度），"
              "用 queue_callback 排入这一遍结束时的回调，模式为 \"any\" 时用这个梯度调用 fn；然后把梯度存在 i 之下。"
              "这一遍结束时：按位置取出各个梯度，没有到达的为 None；清空字典；模式为 \"all\" 时用它们调用 fn。在每个"
              "需要梯度的张量上注册一个这样的钩子，并返回一个能把它们全部移除的句柄。",
    },
}
