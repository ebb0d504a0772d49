"""Chapter 5's last hints, by step, in both languages (how they reach a learner: ``steps/__init__.py``)."""

LAST_HINTS = {
    "5.1": {
        "en": "save_for_backward keeps the tensors it is given, as they are and in order, in self._to_save. "
              "saved_tensors is a tuple with one entry per entry of self._saved: a SavedTensor unpacked as a tensor "
              "(its unpack, for this node), anything else, such as None, as it is.",
        "zh": "save_for_backward 把收到的张量原样按顺序存进 self._to_save。saved_tensors 是一个元组，self._saved 中的每一项"
              "对应一项：SavedTensor 解包成张量（用它的 unpack，针对这个节点），其他值（比如 None）原样给出。",
    },
    "5.2": {
        "en": "First needs_input_grad: one flag per argument, true only for a Tensor that requires grad. Then forward "
              "runs through run_forward (the class, the ctx, the arguments, setup_style) under no_grad. Whether the "
              "call is recorded is should_record's answer for the tensor arguments; fresh_outputs makes the outputs "
              "from the arguments, forward's outputs, the ctx and that answer, and when the call is recorded, _link "
              "joins the ctx to the arguments and those outputs. Give back one tensor or the tuple, as forward did.",
        "zh": "先算 needs_input_grad：每个参数一个标志，只有需要梯度的 Tensor 为真。然后在 no_grad 之下通过 run_forward"
              "（类、ctx、参数、setup_style）运行 forward。这次调用是否被记录，由 should_record 对张量参数的回答决定；"
              "fresh_outputs 用参数、forward 的输出、ctx 和这个回答做出输出；调用被记录时，_link 把 ctx 与参数和这些输出"
              "连起来。像 forward 那样返回单个张量或元组。",
    },
    "5.3": {
        "en": "Each incoming gradient becomes a tensor through _grad_tensor (with its output number). Call backward "
              "with the ctx and those tensors; a result that is not a tuple becomes a tuple of one. If their number "
              "differs from len(needs_input_grad), raise a RuntimeError with PyTorch's message about an incorrect "
              "number of gradients. Keep the results at _tensor_positions: as they are when grad mode is on, "
              "otherwise each tensor's array.",
        "zh": "每个传入的梯度都通过 _grad_tensor（带上它的输出编号）变成张量。用 ctx 和这些张量调用 backward；结果不是元组"
              "时变成只有一个元素的元组。它们的个数与 len(needs_input_grad) 不同时，抛出 RuntimeError，用 PyTorch 关于"
              "梯度数目不对的消息。保留 _tensor_positions 位置上的结果：梯度模式开启时原样返回，否则返回每个张量的数组。",
    },
    "5.4": {
        "en": "P3(x) = (5x³ − 3x)/2, so P3′(x) = (15x² − 3)/2. forward saves its input on the ctx and returns P3 of "
              "it, computed with tensor operations; backward returns grad_output·P3′(x), x being the saved input.",
        "zh": "P3(x) = (5x³ − 3x)/2，所以 P3′(x) = (15x² − 3)/2。forward 把输入保存在 ctx 上，用张量运算算出并返回它的 P3；"
              "backward 返回 grad_output·P3′(x)，x 是保存的输入。",
    },
    "5.5": {
        "en": "mark_non_differentiable keeps the tensors it is given in the ctx's _non_differentiable, and "
              "set_materialize_grads keeps its value in _materialize. _unmarked: a marked value that is not a Tensor "
              "raises PyTorch's RuntimeError (NOT_A_VARIABLE); then each output keeps its flag of takes_node only if "
              "it is none of the marked tensors, compared by identity (is), never by value. _grad_tensor, when grad "
              "is None: take output nr's shape and dtype from _outputs_meta; the answer is None when materializing "
              "is off or the dtype is None (not a tensor), otherwise a tensor of zeros of that shape and dtype.",
        "zh": "mark_non_differentiable 把收到的张量放进 ctx 的 _non_differentiable，set_materialize_grads 把它的值放进 "
              "_materialize。_unmarked：被标记的值不是 Tensor 时，抛出 PyTorch 的 RuntimeError（NOT_A_VARIABLE）；然后"
              "每个输出只有在不是任何一个被标记的张量时，才保留它在 takes_node 中的标志，比较用同一性（is），不用值。"
              "_grad_tensor 在 grad 为 None 时：从 _outputs_meta 取出第 nr 个输出的形状和 dtype；不做全零填充或 dtype "
              "为 None（不是张量）时答案是 None，否则是该形状和 dtype 的全零张量。",
    },
    "5.6": {
        "en": "wrapper: run backward under no_grad. If grad mode is off, or no incoming gradient is a tensor that "
              "requires grad, its results go back as they are. Otherwise each result goes back through "
              "_behind_error: several as a tuple, a single one (even one returned in a tuple of one) alone. _behind_error: None stays None; for any other result, make a "
              "leaf that requires grad from the result, detached, then record a new tensor on that leaf's very "
              "array whose node is a new Error node with that leaf as its input: its numbers are the result's, "
              "and differentiating it again reaches Error's backward, which raises.",
        "zh": "wrapper：在 no_grad 之下运行 backward。梯度模式关闭，或者没有一个传入的梯度是需要梯度的张量时，结果原样"
              "返回。否则每个结果都经过 _behind_error 再返回：多个结果作为元组，单个结果（即使放在只有一个元素的元组里）单独返回。_behind_error：None "
              "仍是 None；其他结果先分离出来，做成一个需要梯度的叶子节点，再记录一个基于该叶子节点同一个数组的新张量，它"
              "的节点是一个新的 Error 节点，输入是那个叶子节点：它的数值就是结果的数值，而再次求导会走到 Error 的 "
              "backward，于是报错。",
    },
    "5.7": {
        "en": "forward: the index of the maximum (argmax), marked non-differentiable and saved for backward, and the "
              "input's shape kept on the ctx; return the maximum and the index. backward: zeros of that shape in "
              "grad_value's dtype, with grad_value placed at the saved index of their flattened view: only the "
              "winner gets the gradient.",
        "zh": "forward：最大值的下标（argmax），标记为不可微并为 backward 保存，再把输入的形状留在 ctx 上；返回最大值和"
              "下标。backward：该形状、grad_value 的 dtype 的全零张量，在其展平视图中保存的下标处放上 grad_value："
              "只有胜出的元素得到梯度。",
    },
    "C5": {
        "en": "r = √(x² + y²), so ∂r/∂x = x/r and ∂r/∂y = y/r. forward computes r with tensor operations and saves x, "
              "y and r both for backward and for forward. backward returns (grad_output·x/r, grad_output·y/r); jvp "
              "returns r's tangent (x·ẋ + y·ẏ)/r.",
        "zh": "r = √(x² + y²)，所以 ∂r/∂x = x/r，∂r/∂y = y/r。forward 用张量运算算出 r，并为 backward 和前向模式都保存 "
              "x、y、r。backward 返回 (grad_output·x/r, grad_output·y/r)；jvp 返回 r 的切向量 (x·ẋ + y·ẏ)/r。",
    },
}
