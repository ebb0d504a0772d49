"""Chapter 5's last hints, the most telling: each step's answer in words, written out in both languages.

Reference only: ``make build`` seals them into ``last_hints.dat`` (``steps/sealed.py``), which
``minigrad.hint`` opens when a learner asks for a step's last hint; browsing the package does not show them.
"""

LAST_HINTS = {
    "5.1": {
        "en": 'save_for_backward: keep the tensors it was given in self._to_save\nsaved_tensors: a tuple of (s unpacked as a tensor if s is a SavedTensor, else s) for s in self._saved',
        "zh": 'save_for_backward：把收到的 tensors 存进 self._to_save\nsaved_tensors：对 self._saved 中的每个 s，如果 s 是 SavedTensor 就解包成张量，否则就是 s；组成元组返回',
    },
    "5.2": {
        "en": 'needs_input_grad = for each argument: (it is a Tensor and it requires grad)\nunder no_grad: outputs = run forward through run_forward (the class, the ctx, the arguments, setup_style)\nrecording = should_record of the tensor arguments\nouts = fresh_outputs(the arguments, outputs, the ctx, recording)\nif recording: link the ctx to the arguments and outs\nreturn a single tensor or the tuple, as forward did',
        "zh": 'needs_input_grad = 对每个参数：（它是 Tensor 并且需要梯度）\n在 no_grad 之下：outputs = 通过 run_forward 运行 forward（类、ctx、参数、setup_style）\nrecording = 张量参数的 should_record\nouts = fresh_outputs(参数, outputs, ctx, recording)\n如果 recording：把 ctx 与参数和 outs 连起来\n像 forward 那样返回单个张量或元组',
    },
    "5.3": {
        "en": "grads = [_grad_tensor(g, nr) for each incoming g]\nresults = call backward with self and these grads\nif results is not a tuple: make it a tuple of one\nif its length differs from needs_input_grad's: raise RuntimeError(the incorrect number message)\npicked = the results at _tensor_positions\nreturn picked as they are if grad mode is on, else each tensor's array",
        "zh": 'grads = [对每个传入的 g 取 _grad_tensor(g, nr)]\nresults = 用 self 和这些 grads 调用 backward\n如果 results 不是元组：把它变成只有一个元素的元组\n如果它的长度与 needs_input_grad 的不同：raise RuntimeError(数目不对的消息)\npicked = _tensor_positions 位置上的结果\n梯度模式开启就原样返回 picked，否则返回每个张量的数组',
    },
    "5.4": {
        "en": 'forward: save input on ctx; return (5 · input³ − 3 · input) / 2\nbackward: input = the one saved tensor; return grad_output · (the derivative at input)',
        "zh": 'forward：把 input 保存在 ctx 上；返回 (5 · input³ − 3 · input) / 2\nbackward：input = 唯一保存的张量；返回 grad_output · (input 处的导数)',
    },
    "5.5": {
        "en": "mark_non_differentiable: keep the tensors in the ctx's _non_differentiable\nset_materialize_grads: keep value in the ctx's _materialize\n_unmarked: if a marked value is not a Tensor: raise PyTorch's RuntimeError (its words are NOT_A_VARIABLE)\n  a flag per output: its flag in takes_node, and it is not (is) any marked tensor\n_grad_tensor, grad is None: shape, dtype = the meta of output nr\n  if not materializing or dtype is None: the answer is None\n  else: a tensor wrapping zeros of (shape, dtype)",
        "zh": 'mark_non_differentiable：把这些张量放在 ctx 的 _non_differentiable 中\nset_materialize_grads：把 value 放在 ctx 的 _materialize 中\n_unmarked：如果某个被标记的值不是 Tensor：抛出 PyTorch 的 RuntimeError（原话在 NOT_A_VARIABLE 中）\n  每个输出一个标志：它在 takes_node 中的标志，并且它不是（is）任何一个被标记的张量\n_grad_tensor，grad 为 None 时：shape, dtype = 第 nr 个输出的元信息\n  如果不做全零填充或 dtype 为 None：答案是 None\n  否则：包装 (shape, dtype) 全零数组的张量',
    },
    "5.6": {
        "en": "wrapper: under no_grad: results = backward(ctx, the grads)\nif grad mode is off or no grad is a tensor requiring grad: return results\nreturn a tuple: _behind_error of each result (results made a tuple if it is not one)\n_behind_error: if result is None: None\n  leaf = result detached, then made to require grad\n  return record(a new tensor wrapping leaf's array, a new Error node, leaf)",
        "zh": 'wrapper：在 no_grad 之下：results = backward(ctx, 这些梯度)\n如果梯度模式关闭或没有一个梯度是需要梯度的张量：return results\n返回一个元组：每个结果的 _behind_error（results 不是元组时先变成元组）\n_behind_error：如果 result 是 None：None\n  leaf = 分离后的 result，再让它需要梯度\n  return record(包装 leaf 数组的新张量, 新的 Error 节点, leaf)',
    },
    "5.7": {
        "en": "forward: index = argmax of input; mark index; save index; keep input's shape on ctx; return (max of input, index)\nbackward: index = the saved tensor; grad = zeros of the shape\n  grad's flattened view at index = grad_value; return grad",
        "zh": 'forward：index = input 的 argmax；标记 index；保存 index；把 input 的形状留在 ctx 上；返回 (input 的最大值, index)\nbackward：index = 保存的张量；grad = 该形状的全零张量\n  grad 展平的视图在 index 处 = grad_value；返回 grad',
    },
    "C5": {
        "en": 'forward: r = √(x² + y²); save x, y, r for backward; save x, y, r for forward; return r\nbackward: read x, y, r; return (grad_output · x / r, grad_output · y / r)\njvp: read x, y, r; return (x · x_tangent + y · y_tangent) / r',
        "zh": 'forward：r = √(x² + y²)；为 backward 保存 x、y、r；为前向模式保存 x、y、r；返回 r\nbackward：读出 x、y、r；返回 (grad_output · x / r, grad_output · y / r)\njvp：读出 x、y、r；返回 (x · x_tangent + y · y_tangent) / r',
    },
}
