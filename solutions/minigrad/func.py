"""``torch.func``: derivatives as functions of functions (grad, vjp, jvp, jacrev, jacfwd, hessian, vmap).

Each transform takes a function of tensors and returns a new function. Reverse-mode ones
(``grad``, ``vjp``, ``jacrev``) run the function on inputs that require grad and call
``autograd.grad``; forward-mode ones (``jvp``, ``jacfwd``) run it on dual tensors
(``autograd.forward_ad``). The inputs given are never changed, and results carry a graph
only where the caller's own inputs require grad, so transforms nest: ``hessian`` is
``jacfwd(jacrev(f))``.
"""
import contextlib

from . import autograd
from .autograd import forward_ad, grad_mode
from .ops.joining import stack
from .tensor import Tensor


def _tracked(x):
    """``x`` as a fresh tensor that requires grad, linked to ``x`` if ``x`` requires grad itself."""
    if x.requires_grad:
        return x.view_as(x)
    return x.detach().requires_grad_(True)


def _picked(args, argnums):
    return argnums if isinstance(argnums, tuple) else (argnums,)


def _outside(tensors, any_tracked):
    """Results without the graph the transform built, unless the caller's inputs need it."""
    if any_tracked:
        return tensors
    return tuple(None if t is None else t.detach() for t in tensors)


def _zeros_for_none(grads, inputs):
    return tuple(g if g is not None else inputs[i].detach() * 0 for i, g in enumerate(grads))


def _flatten(tree):
    """The tensors of ``tree`` (a tensor, or dicts, lists and tuples of them), and a function
    that builds the same structure around other leaves: the "pytrees" of torch.func."""
    if isinstance(tree, Tensor):
        return [tree], lambda leaves: leaves[0]
    if isinstance(tree, (dict, list, tuple)):
        keys = list(tree) if isinstance(tree, dict) else range(len(tree))
        parts = [_flatten(tree[k]) for k in keys]
        counts = [len(leaves) for leaves, _ in parts]

        def rebuild(leaves):
            built, start = [], 0
            for (_, build), n in zip(parts, counts):
                built.append(build(leaves[start : start + n]))
                start += n
            return dict(zip(keys, built)) if isinstance(tree, dict) else type(tree)(built)

        return [leaf for leaves, _ in parts for leaf in leaves], rebuild
    return [], lambda leaves: tree


def grad_and_value(func, argnums=0, has_aux=False):
    """Like ``grad``, returning ``(gradient, value)``; ``func`` must return one element.
    The arguments differentiated may be tensors or dicts, lists and tuples of them."""

    def wrapper(*args, **kwargs):
        nums = _picked(args, argnums)
        args = list(args)
        caller_tracks = any(t.requires_grad for a in args for t in _flatten(a)[0])
        inputs, rebuilds = [], []
        for i in nums:
            leaves, rebuild = _flatten(args[i])
            tracked = [_tracked(leaf) for leaf in leaves]
            args[i] = rebuild(tracked)
            inputs.append(tracked)
            rebuilds.append(rebuild)
        with grad_mode.enable_grad():
            result = func(*args, **kwargs)
            output, aux = result if has_aux else (result, None)
            if output.numel() != 1:
                raise RuntimeError(
                    f"grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, got tensor with "
                    f"{output.dim()} dims. Maybe you wanted to use the vjp or jacrev APIs instead?"
                )
            flat = [t for tracked in inputs for t in tracked]
            grads = autograd.grad(output, flat, create_graph=True, allow_unused=True)
        grads = _outside(_zeros_for_none(grads, flat), caller_tracks)
        value, aux = (output, aux) if caller_tracks else (output.detach(), _detached(aux))
        gradients, start = [], 0
        for tracked, rebuild in zip(inputs, rebuilds):
            gradients.append(rebuild(list(grads[start : start + len(tracked)])))
            start += len(tracked)
        gradient = tuple(gradients) if isinstance(argnums, tuple) else gradients[0]
        return (gradient, (value, aux)) if has_aux else (gradient, value)

    return wrapper


def grad(func, argnums=0, has_aux=False):
    """The gradient of ``func`` (returning one element) with respect to argument ``argnums``."""
    both = grad_and_value(func, argnums, has_aux)

    def wrapper(*args, **kwargs):
        gradient, value = both(*args, **kwargs)
        return (gradient, value[1]) if has_aux else gradient

    return wrapper


def vjp(func, *primals, has_aux=False):
    """``(output, vjp_fn)``: ``vjp_fn(v)`` is vᵀ·J for each primal."""
    caller_tracks = any(p.requires_grad for p in primals)
    tracked = [_tracked(p) for p in primals]
    with grad_mode.enable_grad():
        result = func(*tracked)
    output, aux = result if has_aux else (result, None)

    def vjp_fn(*cotangents):
        outputs = output if isinstance(output, tuple) else (output,)
        with grad_mode.enable_grad():
            grads = autograd.grad(outputs, tracked, cotangents, retain_graph=True, create_graph=True,
                                  allow_unused=True)
        return _outside(_zeros_for_none(grads, tracked), caller_tracks)

    plain, aux = (output, aux) if caller_tracks else (_detached(output), _detached(aux))
    return (plain, vjp_fn, aux) if has_aux else (plain, vjp_fn)


def _detached(value):
    """``value`` (a tensor, or tuples and lists of them) with no graph."""
    if isinstance(value, Tensor):
        return value.detach()
    if isinstance(value, (tuple, list)):
        return type(value)(_detached(v) for v in value)
    return value


def jvp(func, primals, tangents, *, strict=False, has_aux=False):
    """``(output, J·tangents)``, computed forward with dual tensors."""
    with contextlib.ExitStack() as stack_:
        if forward_ad._level is None:
            stack_.enter_context(forward_ad.dual_level())
        duals = [forward_ad.make_dual(p, t) for p, t in zip(primals, tangents)]
        result = func(*duals)
        output, aux = result if has_aux else (result, None)
        outputs = output if isinstance(output, tuple) else (output,)
        unpacked = [forward_ad.unpack_dual(o) for o in outputs]
        primal_out = tuple(u.primal for u in unpacked)
        tangent_out = tuple(u.tangent if u.tangent is not None else u.primal.detach() * 0 for u in unpacked)
    if not isinstance(output, tuple):
        primal_out, tangent_out = primal_out[0], tangent_out[0]
    return (primal_out, tangent_out, aux) if has_aux else (primal_out, tangent_out)


def _unit_vectors(like):
    """One tensor per element of ``like``: zeros with a 1 at that element."""
    count = like.numel()
    for k in range(count):
        unit = like.detach() * 0
        unit.view(-1)[k] = 1
        yield unit


def jacrev(func, argnums=0, *, has_aux=False):
    """The Jacobian by reverse mode: one vᵀ·J per output element (shape: output + input)."""

    def wrapper(*args):
        nums = _picked(args, argnums)
        fixed = list(args)

        def of_picked(*picked):
            for i, p in zip(nums, picked):
                fixed[i] = p
            return func(*fixed)

        output, vjp_fn = vjp(of_picked, *[args[i] for i in nums])
        rows = [vjp_fn(unit) for unit in _unit_vectors(output)]
        jacobians = tuple(
            stack([row[j] for row in rows]).reshape(output.shape + args[i].shape) for j, i in enumerate(nums)
        )
        return jacobians if isinstance(argnums, tuple) else jacobians[0]

    return wrapper


def jacfwd(func, argnums=0, has_aux=False, *, randomness="error"):
    """The Jacobian by forward mode: one J·v per input element (shape: output + input)."""

    def wrapper(*args):
        nums = _picked(args, argnums)
        jacobians = []
        for i in nums:

            def of_one(x, i=i):
                return func(*args[:i], x, *args[i + 1 :])

            columns = [jvp(of_one, (args[i],), (unit,))[1] for unit in _unit_vectors(args[i])]
            output_shape = columns[0].shape
            jacobian = stack(columns, dim=-1).reshape(output_shape + args[i].shape)
            jacobians.append(jacobian)
        return tuple(jacobians) if isinstance(argnums, tuple) else jacobians[0]

    return wrapper


def hessian(func, argnums=0):
    """The matrix of second derivatives: the forward-mode Jacobian of the reverse-mode one."""
    return jacfwd(jacrev(func, argnums), argnums)


def functional_call(module, parameter_and_buffer_dicts, args=None, kwargs=None, *, tie_weights=True, strict=False):
    """Call ``module`` with some of its parameters and buffers replaced by the tensors given,
    by name (``"0.weight"``); the module is as it was afterwards."""
    dicts = parameter_and_buffer_dicts
    replacements = {}
    for d in dicts if isinstance(dicts, (list, tuple)) else (dicts,):
        replacements.update(d)
    args = args if isinstance(args, tuple) else (() if args is None else (args,))
    originals = {}
    try:
        for name, value in replacements.items():
            owner, attribute = _owner(module, name)
            originals[name] = (owner, attribute, owner.__dict__.get("_parameters", {}).get(attribute),
                               owner.__dict__.get("_buffers", {}).get(attribute))
            _set(owner, attribute, value)
        return module(*args, **(kwargs or {}))
    finally:
        for owner, attribute, parameter, buffer in originals.values():
            _set(owner, attribute, parameter if parameter is not None else buffer)


def _owner(module, name):
    *path, attribute = name.split(".")
    for part in path:
        module = getattr(module, part)
    return module, attribute


def _set(owner, attribute, value):
    """Put ``value`` where the module keeps ``attribute`` (a parameter or a buffer slot, else a plain attribute)."""
    for table in ("_parameters", "_buffers"):
        slots = owner.__dict__.get(table)
        if slots is not None and attribute in slots:
            slots[attribute] = value
            return
    object.__setattr__(owner, attribute, value)


def vmap(func, in_dims=0, out_dims=0, randomness="error", *, chunk_size=None):
    """``func`` mapped over a batch dimension of its inputs (dimension ``in_dims``; None: not mapped).

    This vmap has no batching rules: it calls ``func`` once per batch element, in a Python
    loop, and stacks the results (tensors, or dicts, lists and tuples of them) along
    ``out_dims``. The results are PyTorch's; the speed of PyTorch's vectorised vmap is not.
    """

    def wrapper(*args):
        dims = in_dims if isinstance(in_dims, (tuple, list)) else (in_dims,) * len(args)
        sizes = {a.shape[d] for a, d in zip(args, dims) if d is not None}
        if len(sizes) != 1:
            raise ValueError(
                f"vmap: Expected all tensors to have the same size in the mapped dimension, got sizes {sorted(sizes)}"
            )
        (size,) = sizes
        results = [func(*[a if d is None else a.select(d, k) for a, d in zip(args, dims)]) for k in range(size)]
        leaves, rebuild = _flatten(results[0])
        per_result = [_flatten(r)[0] for r in results]
        outs = out_dims if isinstance(out_dims, (tuple, list)) else (out_dims,) * len(leaves)
        return rebuild([stack([r[j] for r in per_result], dim=outs[j]) for j in range(len(leaves))])

    return wrapper
