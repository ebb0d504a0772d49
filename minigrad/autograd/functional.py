"""``torch.autograd.functional``: Jacobians, Hessians and their products with vectors.

Each is built on ``autograd.grad``, as PyTorch's are:

- ``vjp(f, x, v)``: vᵀ·J, one backward pass seeded with ``v``;
- ``jacobian(f, x)``: J, one backward pass per output element (one row each);
- ``jvp(f, x, v)``: J·v, by the "double backward trick": ``g(u) = uᵀ·J`` is linear in
  ``u``, so differentiating it with respect to ``u`` and seeding with ``v`` gives J·v;
- ``hessian``, ``hvp``, ``vhp``: the same, applied to the gradient of a scalar function.

Inputs and outputs may be one tensor or a tuple of tensors; results have the matching
structure. The function is called on fresh leaves (detached copies of the inputs that
require grad), so the results never carry history unless ``create_graph=True``.
"""
from ..creation import zeros_like
from ..ops.joining import stack
from ..tensor import Tensor
from . import grad as autograd_grad
from . import forward_ad, grad_mode
from .grad_mode import enable_grad

__all__ = ["hessian", "hvp", "jacobian", "jvp", "vhp", "vjp"]


# ---------------------------------------------------------------- tuples in, tuples out


def _as_tuple(value, what, fn_name):
    """``(was it a tuple, the tensors as a tuple)``, refusing anything but tensors."""
    is_tuple = isinstance(value, tuple)
    values = value if is_tuple else (value,)
    for index, x in enumerate(values):
        if not isinstance(x, Tensor):
            where = f"the value at index {index}" if is_tuple else f"the given {what}"
            raise TypeError(
                f"The {what} given to {fn_name} must be either a Tensor or a tuple of Tensors but {where} has type "
                f"{type(x)}."
            )
    return is_tuple, values


def _unpack(values, is_tuple):
    """A tuple back to one tensor when the user gave one."""
    return values if is_tuple else values[0]


def _fresh_inputs(inputs, create_graph):
    """The tensors the function is called on: new leaves that require grad, or (with
    ``create_graph``) differentiable aliases of inputs that already do, so that the
    result stays connected to them."""
    return tuple(
        x.view(x.shape) if create_graph and x.requires_grad else x.detach().requires_grad_(True) for x in inputs
    )


def _plain(values, create_graph):
    """Results without history, unless the caller asked for the graph."""
    return tuple(values) if create_graph else tuple(v.detach() for v in values)


def _check_v(v, like, is_tuple):
    """``v`` must have one tensor per entry of ``like``, each of the same size."""
    if len(v) != len(like):
        if is_tuple:
            raise RuntimeError(f"v is a tuple of invalid length: should be {len(like)} but got {len(v)}.")
        raise RuntimeError("The given v should contain a single Tensor.")
    for index, (vi, xi) in enumerate(zip(v, like)):
        if vi.shape != xi.shape:
            prefix = f"Entry {index} in " if is_tuple else ""
            raise RuntimeError(f"{prefix}v has invalid size: should be {xi.shape} but got {vi.shape}.")


def _check_outputs_differentiable(outputs, strict):
    if strict:
        for index, out in enumerate(outputs):
            if not out.requires_grad:
                raise RuntimeError(
                    f"Output {index} of the user-provided function does not require gradients. The outputs must be "
                    "computed in a differentiable manner from the input when running in strict mode."
                )


def _grads(outputs, inputs, grad_outputs=None, create_graph=False, retain_graph=None):
    """``autograd.grad`` that skips outputs that are None or have no history, and gives
    None for an input they do not depend on (instead of failing)."""
    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    pairs = [(out, g) for out, g in zip(outputs, grad_outputs) if out is not None and out.requires_grad]
    if not pairs:
        return (None,) * len(inputs)
    outs, seeds = zip(*pairs)
    return autograd_grad(outs, inputs, seeds, retain_graph=retain_graph, create_graph=create_graph,
                         allow_unused=True)


def _zeros_for_none(grads, like, strict, create_graph, independent_message):
    """Zeros where no gradient arrived (the right mathematical value); an error in strict mode."""
    filled = []
    for index, (g, x) in enumerate(zip(grads, like)):
        if g is None:
            if strict:
                raise RuntimeError(independent_message.format(index=index))
            g = zeros_like(x)
        elif strict and create_graph and not g.requires_grad:
            raise RuntimeError(
                f"The jacobian of the user-provided function is independent of input {index}. This is not allowed "
                "in strict mode when create_graph=True."
            )
        filled.append(g)
    return tuple(filled)


_BACK = "The output of the user-provided function is independent of input {index}. This is not allowed in strict mode."


def _call(func, inputs, fn_name, strict):
    outputs = func(*inputs)
    is_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", fn_name)
    _check_outputs_differentiable(outputs, strict)
    return is_tuple, outputs


def _prepared_v(v, like, is_tuple, fn_name, create_graph, none_message):
    """The user's ``v`` as a tuple checked against ``like``, or 1 for a single one-element tensor."""
    if v is None:
        if len(like) != 1 or like[0].numel() != 1:
            raise RuntimeError(none_message)
        return None
    _, v = _as_tuple(v, "v", fn_name)
    v = tuple(x if create_graph else x.detach() for x in v)
    _check_v(v, like, is_tuple)
    return v


# ---------------------------------------------------------------- the products


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), vᵀ·J)``: the vector-Jacobian product, shaped like the inputs."""
    with enable_grad():
        inputs_tuple, inputs = _as_tuple(inputs, "inputs", "vjp")
        inputs = _fresh_inputs(inputs, create_graph)
        outputs_tuple, outputs = _call(func, inputs, "vjp", strict)
        v = _prepared_v(v, outputs, outputs_tuple, "vjp", create_graph,
                        "The vector v can only be None if the user-provided function returns a single Tensor with "
                        "a single element.")
    with grad_mode.set_grad_enabled(create_graph or grad_mode.is_grad_enabled()):
        grads = _grads(outputs, inputs, v, create_graph)
        result = _zeros_for_none(grads, inputs, strict, create_graph, _BACK)
    return _unpack(_plain(outputs, create_graph), outputs_tuple), _unpack(_plain(result, create_graph), inputs_tuple)


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), J·v)``: the Jacobian-vector product, shaped like the outputs."""
    with enable_grad():
        inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jvp")
        inputs = _fresh_inputs(inputs, create_graph)
        v = _prepared_v(v, inputs, inputs_tuple, "jvp", create_graph, _ONE_INPUT)
        outputs_tuple, outputs = _call(func, inputs, "jvp", strict)
        # g(u) = uᵀ·J is linear in u: any u works as long as it has no inf or nan.
        u = tuple(zeros_like(out, requires_grad=True) for out in outputs)
        g = _grads(outputs, inputs, u, create_graph=True)
        _check_depends(g, strict, "The gradient with respect to input {index} is independent of the inputs of the "
                                  "user-provided function. This is not allowed in strict mode.")
    with grad_mode.set_grad_enabled(create_graph or grad_mode.is_grad_enabled()):
        grads = _grads(g, u, v, create_graph)
        result = _zeros_for_none(
            grads, outputs, strict, create_graph,
            "The gradient with respect to the input is independent of entry {index} in the grad_outputs when using "
            "the double backward trick to compute forward mode gradients. This is not allowed in strict mode.",
        )
    return _unpack(_plain(outputs, create_graph), outputs_tuple), _unpack(_plain(result, create_graph), outputs_tuple)


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False, strategy="reverse-mode"):
    """The Jacobian of ``func`` at ``inputs``: for one output and one input, a tensor of
    shape ``output.shape + input.shape``; otherwise tuples, ``J[i][j]`` for output i and input j.

    Row by row: the gradient of each output element with respect to every input; with
    ``vectorize=True`` too (PyTorch batches the rows there, the values are the same). With
    ``strategy="forward-mode"``, column by column: the tangent of every output for each input
    element, with dual tensors.
    """
    if strategy not in ("forward-mode", "reverse-mode"):
        raise ValueError(
            'Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your function has more '
            'outputs than inputs, "forward-mode" tends to be more performant. Otherwise, prefer to use '
            '"reverse-mode".'
        )
    if strategy == "forward-mode":
        if not vectorize:
            raise NotImplementedError(
                "Computing Jacobian using forward-AD or forward-over-reverse Hessian isonly implemented for "
                "`vectorize=True`."
            )
        return _forward_jacobian(func, inputs, create_graph, strict)
    with enable_grad():
        inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
        inputs = _fresh_inputs(inputs, create_graph)
        outputs_tuple, outputs = _call(func, inputs, "jacobian", strict)
        blocks = []
        for i, out in enumerate(outputs):
            rows = [[] for _ in inputs]
            flat = out.reshape(-1)
            for k in range(flat.numel()):
                grads = _grads((flat[k],), inputs, retain_graph=True, create_graph=create_graph)
                message = f"Output {i} of the user-provided function is independent of input {{index}}. This is " \
                          "not allowed in strict mode."
                for row, g in zip(rows, _zeros_for_none(grads, inputs, strict, create_graph, message)):
                    row.append(g)
            blocks.append(tuple(
                (stack(row) if row else zeros_like(x).reshape(0, *x.shape)).reshape(out.shape + x.shape)
                for row, x in zip(rows, inputs)
            ))
    blocks = tuple(_plain(block, create_graph) for block in blocks)
    if not inputs_tuple:
        blocks = tuple(block[0] for block in blocks)
    return blocks if outputs_tuple else blocks[0]


def _forward_jacobian(func, inputs, create_graph, strict):
    """``jacobian`` in forward mode: one J·e per input element, the tangents of the outputs."""
    inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
    outputs_tuple, outputs = _call(func, inputs, "jacobian", strict)
    blocks = [[[] for _ in inputs] for _ in outputs]
    for j, x in enumerate(inputs):
        for k in range(x.numel()):
            unit = zeros_like(x)
            unit.view(-1)[k] = 1
            with forward_ad.dual_level():
                duals = [forward_ad.make_dual(a, unit if i == j else zeros_like(a)) for i, a in enumerate(inputs)]
                tangents = [forward_ad.unpack_dual(o).tangent for o in _call(func, tuple(duals), "jacobian", strict)[1]]
            for i, (out, tangent) in enumerate(zip(outputs, tangents)):
                blocks[i][j].append(zeros_like(out) if tangent is None else tangent)
    blocks = tuple(
        tuple(stack(columns, dim=-1).reshape(out.shape + x.shape) for columns, x in zip(per_input, inputs))
        for per_input, out in zip(blocks, outputs)
    )
    if not inputs_tuple:
        blocks = tuple(block[0] for block in blocks)
    return blocks if outputs_tuple else blocks[0]


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False, outer_jacobian_strategy="reverse-mode"):
    """The Hessian of a scalar function: the Jacobian of its gradient.

    For one input, a tensor of shape ``input.shape + input.shape``; for a tuple,
    ``H[i][j]`` for inputs i and j.
    """
    inputs_tuple, inputs = _as_tuple(inputs, "inputs", "hessian")

    def scalar(*x):
        outputs_tuple, outputs = _call(func, x, "hessian", strict)
        _check_single(outputs_tuple, outputs, "hessian")
        return outputs[0].squeeze()

    def gradient(*x):
        jac = jacobian(scalar, x, create_graph=True)
        _check_depends(jac, strict, _LINEAR)
        return jac

    result = jacobian(gradient, inputs, create_graph=create_graph, strict=strict, vectorize=vectorize,
                      strategy=outer_jacobian_strategy)
    return result if inputs_tuple else result[0][0]


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), vᵀ·H)`` for a scalar ``func``: the gradient of gᵀ·v, g being func's gradient."""
    with enable_grad():
        inputs_tuple, inputs = _as_tuple(inputs, "inputs", "vhp")
        inputs = _fresh_inputs(inputs, create_graph)
        v = _prepared_v(v, inputs, inputs_tuple, "vhp", create_graph, _ONE_INPUT)
        outputs_tuple, outputs = _call(func, inputs, "vhp", strict)
        _check_single(outputs_tuple, outputs, "vhp")
        g = _grads(outputs, inputs, create_graph=True)
        _check_depends(g, strict, _LINEAR)
    with grad_mode.set_grad_enabled(create_graph or grad_mode.is_grad_enabled()):
        grads = _grads(g, inputs, v, create_graph)
        result = _zeros_for_none(
            grads, inputs, strict, create_graph,
            "The hessian of the user-provided function is independent of entry {index} in the grad_jacobian. This "
            "is not allowed in strict mode as it prevents from using the double backward trick to replace forward "
            "mode AD.",
        )
    return _plain(outputs, create_graph)[0], _unpack(_plain(result, create_graph), inputs_tuple)


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), H·v)`` for a scalar ``func``: the Hessian is symmetric, so this is ``vhp``."""
    return vhp(func, inputs, v, create_graph, strict)


_ONE_INPUT = ("The vector v can only be None if the input to the user-provided function is a single Tensor with a "
              "single element.")
_LINEAR = (
    "While computing the hessian, found that the jacobian of the user-provided function with respect to input "
    "{index} is independent of the input. This is not allowed in strict mode. You should ensure that your function "
    "is twice differentiable and that the jacobian depends on the inputs (this would be violated by a linear "
    "function for example)."
)


def _check_single(outputs_tuple, outputs, fn_name):
    """Hessian products need a function with one output holding one element."""
    if outputs_tuple:
        raise RuntimeError(f"The function given to {fn_name} should return a single Tensor")
    if outputs[0].numel() != 1:
        raise RuntimeError(f"The Tensor returned by the function given to {fn_name} should contain a single element")


def _check_depends(grads, strict, message):
    """In strict mode, every gradient must still depend on the inputs (have history)."""
    if strict:
        for index, g in enumerate(grads):
            if g is None or not g.requires_grad:
                raise RuntimeError(message.format(index=index))
