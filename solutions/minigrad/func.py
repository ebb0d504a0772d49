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


def _picked(argnums):
    return argnums if isinstance(argnums, tuple) else (argnums,)


def _unpicked(per_arg, argnums):
    """One result per differentiated argument, as a tuple only when ``argnums`` was one."""
    return tuple(per_arg) if isinstance(argnums, tuple) else per_arg[0]


def _outside(tensors, any_tracked):
    """Results without the graph the transform built, unless the caller's inputs need it."""
    if any_tracked:
        return list(tensors)
    return [None if t is None else t.detach() for t in tensors]


def _zeros_for_none(grads, inputs):
    return [g if g is not None else inputs[i].detach() * 0 for i, g in enumerate(grads)]


def _flatten(tree):
    """The tensors of ``tree`` (a tensor, or dicts, lists and tuples of them, nested), and a function
    that builds the same structure around other leaves: the "pytrees" every transform takes and
    returns, so a dict of parameters in gives a dict of gradients out. Anything else is kept as is."""
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


def _structure(tree):
    """``tree``'s shape as PyTorch prints a pytree spec (``(*, {'s': *})``), for error messages."""
    if isinstance(tree, dict):
        return "{" + ", ".join(f"{k!r}: {_structure(v)}" for k, v in tree.items()) + "}"
    if isinstance(tree, (list, tuple)):
        inner = ", ".join(_structure(v) for v in tree) + ("," if isinstance(tree, tuple) and len(tree) == 1 else "")
        return f"[{inner}]" if isinstance(tree, list) else f"({inner})"
    return "*"


def _detached(tree):
    """``tree`` with no graph on its tensors."""
    leaves, rebuild = _flatten(tree)
    return rebuild([t.detach() for t in leaves])


def _requires_grad(tree):
    return any(t.requires_grad for t in _flatten(tree)[0])


def _grads(outputs, inputs, cotangents, caller_tracks):
    """vᵀ·J for each input: zeros where an input does not reach the outputs; with a graph only
    when the caller's own inputs require grad."""
    reached = [(o, v) for o, v in zip(outputs, cotangents) if o.requires_grad]
    grads = [None] * len(inputs)
    if reached:
        with grad_mode.enable_grad():
            grads = autograd.grad([o for o, _ in reached], inputs, [v for _, v in reached], retain_graph=True,
                                  create_graph=True, allow_unused=True)
    return _outside(_zeros_for_none(grads, inputs), caller_tracks)


def grad_and_value(func, argnums=0, has_aux=False):
    """Like ``grad``, returning ``(gradient, value)``; ``func`` must return one element.
    The arguments differentiated may be tensors or dicts, lists and tuples of them."""

    def wrapper(*args, **kwargs):
        nums = _picked(argnums)
        caller_tracks = _requires_grad(args)
        leaves, rebuild = _flatten(tuple(args[i] for i in nums))
        tracked = [_tracked(leaf) for leaf in leaves]
        args = list(args)
        for i, tree in zip(nums, rebuild(tracked)):
            args[i] = tree
        with grad_mode.enable_grad():
            result = func(*args, **kwargs)
        output, aux = result if has_aux else (result, None)
        if output.numel() != 1:
            raise RuntimeError(
                f"grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, got tensor with "
                f"{output.dim()} dims. Maybe you wanted to use the vjp or jacrev APIs instead?"
            )
        gradient = _unpicked(rebuild(_grads([output], tracked, [None], caller_tracks)), argnums)
        value, aux = (output, aux) if caller_tracks else (output.detach(), _detached(aux))
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
    """``(output, vjp_fn)``: ``vjp_fn(v)`` is vᵀ·J for each primal, ``v`` shaped as the output."""
    caller_tracks = _requires_grad(primals)
    leaves, rebuild = _flatten(primals)
    tracked = [_tracked(leaf) for leaf in leaves]
    with grad_mode.enable_grad():
        result = func(*rebuild(tracked))
    output, aux = result if has_aux else (result, None)
    outputs = _flatten(output)[0]

    def vjp_fn(cotangents, retain_graph=True, create_graph=None):
        if _structure(cotangents) != _structure(output):
            raise RuntimeError(
                "Expected pytree structure of cotangents to be the same as pytree structure of outputs to the "
                f"function. cotangents: {_structure(cotangents)}, primal output: {_structure(output)}"
            )
        return rebuild(_grads(outputs, tracked, _flatten(cotangents)[0], caller_tracks))

    plain, aux = (output, aux) if caller_tracks else (_detached(output), _detached(aux))
    return (plain, vjp_fn, aux) if has_aux else (plain, vjp_fn)


def jvp(func, primals, tangents, *, strict=False, has_aux=False):
    """``(output, J·tangents)``, computed forward with dual tensors; ``primals`` and ``tangents``
    are tuples of the same pytrees, the results have the output's structure."""
    leaves, rebuild = _flatten(tuple(primals))
    with contextlib.ExitStack() as stack_:
        if forward_ad._level is None:
            stack_.enter_context(forward_ad.dual_level())
        duals = [forward_ad.make_dual(p, t) for p, t in zip(leaves, _flatten(tuple(tangents))[0])]
        result = func(*rebuild(duals))
        output, aux = result if has_aux else (result, None)
        outputs, rebuild_output = _flatten(output)
        unpacked = [forward_ad.unpack_dual(o) for o in outputs]
        primal_out = rebuild_output([u.primal for u in unpacked])
        tangent_out = rebuild_output([u.tangent if u.tangent is not None else u.primal.detach() * 0 for u in unpacked])
    return (primal_out, tangent_out, aux) if has_aux else (primal_out, tangent_out)


def _units(leaves):
    """For each element of each of ``leaves``: the leaves as zeros but a 1 at that element."""
    for j, leaf in enumerate(leaves):
        for k in range(leaf.numel()):
            units = [other.detach() * 0 for other in leaves]
            units[j].view(-1)[k] = 1
            yield units


def _blocks(rows, leaves):
    """``rows`` (one per element of ``leaves``) cut into one run per leaf."""
    start = 0
    for leaf in leaves:
        yield leaf, rows[start : start + leaf.numel()]
        start += leaf.numel()


def _with_picked(func, args, kwargs, nums):
    """``func`` as a function of the arguments numbered ``nums`` alone, the others fixed."""

    def of_picked(*picked):
        full = list(args)
        for i, p in zip(nums, picked):
            full[i] = p
        return func(*full, **kwargs)

    return of_picked


def jacrev(func, argnums=0, *, has_aux=False):
    """The Jacobian by reverse mode: one vᵀ·J per output element. For each output tensor, for each
    input tensor, a block shaped output + input, arranged as the output's and inputs' pytrees."""

    def wrapper(*args, **kwargs):
        nums = _picked(argnums)
        picked = tuple(args[i] for i in nums)
        output, vjp_fn, *aux = vjp(_with_picked(func, args, kwargs, nums), *picked, has_aux=has_aux)
        outputs, rebuild_output = _flatten(output)
        inputs, rebuild_inputs = _flatten(picked)
        rows = [_flatten(vjp_fn(rebuild_output(units)))[0] for units in _units(outputs)]
        jacobians = [
            _unpicked(rebuild_inputs([_stacked([row[j] for row in block], o.shape + x.shape, x)
                                      for j, x in enumerate(inputs)]), argnums)
            for o, block in _blocks(rows, outputs)
        ]
        jacobian = rebuild_output(jacobians)
        return (jacobian, *aux) if has_aux else jacobian

    return wrapper


def _stacked(pieces, shape, like, dim=0):
    """``pieces`` stacked along ``dim`` and reshaped to ``shape`` (zeros of ``like``'s dtype if none)."""
    if not pieces:
        return like.detach().new_zeros(shape)
    return stack(pieces, dim=dim).reshape(shape)


def jacfwd(func, argnums=0, has_aux=False, *, randomness="error"):
    """The Jacobian by forward mode: one J·v per input element, arranged as ``jacrev``'s."""

    def wrapper(*args, **kwargs):
        nums = _picked(argnums)
        picked = tuple(args[i] for i in nums)
        inputs, rebuild_inputs = _flatten(picked)
        of_picked = _with_picked(func, args, kwargs, nums)
        runs = [jvp(of_picked, picked, rebuild_inputs(units), has_aux=has_aux) for units in _units(inputs)]
        output, _, *aux = runs[0]
        outputs, rebuild_output = _flatten(output)
        columns = [_flatten(run[1])[0] for run in runs]
        per_input = list(_blocks(columns, inputs))
        jacobians = [
            _unpicked(rebuild_inputs([_stacked([column[i] for column in block], o.shape + x.shape, o, dim=-1)
                                      for x, block in per_input]), argnums)
            for i, o in enumerate(outputs)
        ]
        jacobian = rebuild_output(jacobians)
        return (jacobian, *aux) if has_aux else jacobian

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


def _dims_per_leaf(dims, tree, name):
    """``dims`` (an int or None for a whole subtree, else a tree matching ``tree`` down to such
    ints: a pytree prefix) spelled out as one entry per tensor of ``tree``."""
    if dims is None or isinstance(dims, int):
        return [dims] * len(_flatten(tree)[0])
    if isinstance(dims, dict) and isinstance(tree, dict) and dims.keys() == tree.keys():
        return [d for k in tree for d in _dims_per_leaf(dims[k], tree[k], name)]
    if isinstance(dims, (list, tuple)) and type(dims) is type(tree) and len(dims) == len(tree):
        return [d for sub, part in zip(dims, tree) for d in _dims_per_leaf(sub, part, name)]
    raise ValueError(
        f"vmap: {name} is not compatible with the structure of the {'inputs' if name == 'in_dims' else 'outputs'}: "
        f"{name} has structure {_structure(dims)} but they have structure {_structure(tree)}."
    )


def _batch_size(leaves, dims):
    sizes = {leaf.shape[d] for leaf, d in zip(leaves, dims) if d is not None}
    if not sizes:
        raise ValueError("vmap: at least one input must be mapped over (got in_dims None for every tensor)")
    if len(sizes) != 1:
        raise ValueError(
            "vmap: Expected all tensors to have the same size in the mapped dimension, "
            f"got sizes {sorted(sizes)} for the mapped dimension"
        )
    return sizes.pop()


def vmap(func, in_dims=0, out_dims=0, randomness="error", *, chunk_size=None):
    """``func`` mapped over a batch dimension of its inputs (dimension ``in_dims``; None: not mapped).

    Inputs and outputs may be pytrees (dicts, lists and tuples of tensors); ``in_dims`` gives
    one entry per argument (or one int for all), each an int, None, or a tree of them.
    This vmap has no batching rules: it calls ``func`` once per batch element, in a Python
    loop, and stacks the results along ``out_dims``. The results are PyTorch's; the speed
    of PyTorch's vectorised vmap is not.
    """

    def wrapper(*args, **kwargs):
        leaves, rebuild = _flatten(args)
        dims = _dims_per_leaf(tuple(in_dims) if isinstance(in_dims, list) else in_dims, args, "in_dims")
        size = _batch_size(leaves, dims)
        results = [
            func(*rebuild([t if d is None else t.select(d, k) for t, d in zip(leaves, dims)]), **kwargs)
            for k in range(size)
        ]
        outputs, rebuild_output = _flatten(results[0])
        per_result = [_flatten(r)[0] for r in results]
        outs = _dims_per_leaf(out_dims, results[0], "out_dims")
        return rebuild_output([per_result[0][j] if d is None else stack([r[j] for r in per_result], dim=d)
                               for j, d in enumerate(outs)])

    return wrapper


def stack_module_state(models):
    """``(params, buffers)`` of identical ``models``: each name's tensors stacked along a new first
    dimension, for ``vmap`` over ``functional_call``. The stacked parameters are new leaves that
    require grad (gradients land on them, not on the models); the buffers are plain stacks."""
    if len(models) == 0:
        raise RuntimeError("stack_module_state: Expected at least one model, got 0.")
    params = {name: _stacked_leaf([dict(m.named_parameters())[name] for m in models])
              for name, _ in models[0].named_parameters()}
    buffers = {name: stack([dict(m.named_buffers())[name] for m in models])
               for name, _ in models[0].named_buffers()}
    return params, buffers


def _stacked_leaf(tensors):
    stacked = stack(tensors).detach()
    return stacked.requires_grad_(True) if tensors[0].requires_grad else stacked
