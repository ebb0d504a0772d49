"""Chapter 6's last hints, the most telling: each step's answer in words, written out in both languages.

Reference only: ``make build`` seals them into ``last_hints.dat`` (``steps/sealed.py``), which
``minigrad.hint`` opens when a learner asks for a step's last hint; browsing the package does not show them.
"""

LAST_HINTS = {
    "6.1": {
        "en": 'if not requires_grad: raise a RuntimeError, in PyTorch\'s words ("can\'t retain_grad on Tensor that has requires_grad=False")\nif a leaf or already retaining: return\nhooks_of(grad_fn).retain[output number] = a weak reference to self\nset self\'s _retains_grad flag',
        "zh": '如果不 requires_grad：抛出 RuntimeError，用 PyTorch 的原话（"can\'t retain_grad on Tensor that has requires_grad=False"）\n如果是叶子节点或已在保留：返回\nhooks_of(grad_fn).retain[输出编号] = 指向 self 的弱引用\n把 self 的 _retains_grad 标志设为真',
    },
    "6.2": {
        "en": "if not requires_grad: raise RuntimeError(PyTorch's message)\nif a leaf: make self._hooks a dict if it is None, and add the hook there\nelse: add the hook to the dict of grad_fn's tensor_pre hooks for this output number (setdefault makes it); return the handle add_hook gives",
        "zh": '如果不 requires_grad：raise RuntimeError(PyTorch 的消息)\n如果是叶子节点：若 self._hooks 为 None 则设为字典，把钩子加进去\n否则：把钩子加进 grad_fn 的 tensor_pre 表中这个输出编号的字典（用 setdefault 建立）；返回 add_hook 给出的句柄',
    },
    "6.3": {
        "en": 'producer = node if no tensor was kept, else the tensor\'s grad_fn\nwhich = ", which is output 0 of NAME," if there is a producer, else ""\nreturn the sentence with tensor_type_name(dtype), the shape as a list, which, the current version, the saved version and HINT',
        "zh": 'producer = 如果没保存张量就是 node，否则是张量的 grad_fn\nwhich = 有产生者时为 ", which is output 0 of NAME,"，否则为 ""\n返回这句话，带上 tensor_type_name(dtype)、列表形式的形状、which、当前版本、保存的版本和 HINT',
    },
    "6.4": {
        "en": 'remove: if self.id is in self._table: delete self._table[self.id]\n__exit__: remove',
        "zh": 'remove：如果 self.id 在 self._table 中：删除 self._table[self.id]\n__exit__：移除',
    },
    "6.5": {
        "en": "_pack_if_hooked: if hooks are in effect: pack, unpack = the last pair; self._pack(pack(tensor), unpack)\n_pack: self._tensor = a Packed of (value, unpack hook, the tensor it replaces); the array becomes the marker\nregister_hooks: freed (array None)? ALREADY_FREED; packed already? ALREADY_HOOKED; else pack a tensor around the array\nunpacked: value = the unpack hook on self.value; not a Tensor? TypeError(PyTorch's words); return it",
        "zh": '_pack_if_hooked：如果有生效的钩子：pack, unpack = 最后一对；self._pack(pack(tensor), unpack)\n_pack：self._tensor = 由（值、解包钩子、被它代替的张量）构成的 Packed；数组换成标记\nregister_hooks：已释放（数组为 None）？ALREADY_FREED；已经打包？ALREADY_HOOKED；否则打包包装着该数组的张量\nunpacked：value = 对 self.value 调用解包钩子；不是 Tensor？TypeError（PyTorch 的原话）；返回它',
    },
    "6.6": {
        "en": "view_of: out's version counter = input's version counter (the same list)\n_write, and setitem's direct write: after storing the values, bump the tensor's version\nfollow: the saved counter = the tensor's counter; the saved version = its value now\nunpack: if the counter's value differs from the version saved: raise RuntimeError(6.3's message)",
        "zh": 'view_of：out 的版本计数器 = input 的版本计数器（同一个列表）\n_write，以及 setitem 中的直接写入：存入新值之后，给张量的版本加一\nfollow：保存的计数器 = 张量的计数器；保存的版本 = 它现在的值\nunpack：如果计数器的值与保存时的版本不同：raise RuntimeError（6.3 的提示信息）',
    },
    "C6": {
        "en": "arrived = {}\nend_of_pass: grads = arrived's entry for each position, or None; clear arrived; if mode is all: fn(grads)\nhook for position i: if arrived is empty: queue end_of_pass; if mode is any: fn(grad)\n  arrived[i] = grad\nregister one such hook on each tensor that requires grad; wrap the handles",
        "zh": 'arrived = {}\nend_of_pass：grads = 每个位置在 arrived 中的项，没有则为 None；清空 arrived；如果模式是 all：fn(grads)\n位置 i 的钩子：如果 arrived 为空：把 end_of_pass 排入队列；如果模式是 any：fn(grad)\n  arrived[i] = grad\n在每个需要梯度的张量上注册一个这样的钩子；把各个句柄包装起来',
    },
}
