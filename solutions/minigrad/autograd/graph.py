"""The pieces of the computational graph: nodes, edges and saved tensors.

Every operation on tensors that require grad records a *node* (PyTorch calls it a
``Function`` or ``Node``; the result's ``grad_fn``). A node knows its local
derivative (its ``backward``) and where to send the gradients it computes: its
``next_functions``, one *edge* ``(node, output_nr)`` per input, ``(None, 0)`` for an
input that needs no gradient. A leaf that requires grad is reached through an
``AccumulateGrad`` node, which stores the arriving gradient in ``leaf.grad``.
"""
import itertools
import weakref

import numpy as np

from . import grad_mode, ownership, saved_hooks
from .saved_hooks import disable_saved_tensors_hooks, save_on_cpu, saved_tensors_hooks  # noqa: F401 - torch.autograd.graph's names

SECOND_BACKWARD = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you call "
    ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the "
    "graph a second time or if you need to access saved tensors after calling backward."
)

HINT = (
    "Hint: enable anomaly detection to find the operation that failed to compute its gradient, with "
    "torch.autograd.set_detect_anomaly(True, check_nan=False)."
)

_sequence = itertools.count()  # creation order: the engine runs later nodes first
_LAST = float("inf")  # AccumulateGrad runs as soon as it is ready, as in PyTorch


class Node:
    """One backward function in the graph (the object a tensor's ``grad_fn`` holds).

    Subclasses implement ``backward(grad)``: given the gradient of the loss with respect
    to this node's output, return the gradient with respect to each input, in the
    order of ``next_functions``. Inside ``backward``, gradients and saved tensors are
    numpy arrays (tensors when the graph of the backward itself is recorded, with
    ``create_graph=True``), so formulas written with operators work for both.
    """

    __slots__ = ("next_functions", "_saved", "_seq", "_shape", "_dtype", "_hooks", "_metadata", "__weakref__")
    saved_names = ()  # the names behind ``_saved_<name>``, in the order of ``_saved``
    _num_outputs = 1

    def __init__(self, *saved):
        self._saved = saved

    def backward(self, grad):
        raise NotImplementedError(f"{self.name()} has no backward formula")

    def name(self):
        return type(self).__name__

    def _output_meta(self, nr):
        """The shape and dtype of output ``nr``; ``_shape`` and ``_dtype`` are output 0's,
        and nodes with several outputs of their own shapes override this."""
        return self._shape, self._dtype

    def __repr__(self):
        return f"<{self.name()} object at {id(self):#x}>"

    # saved_tensors and needs_input_grad run once per node: plain loops, as a comprehension
    # costs a function call of its own in Python 3.11.

    @property
    def saved_tensors(self):
        """The saved values, unpacked: arrays while backward runs, tensors with create_graph."""
        as_tensor = grad_mode._enabled
        values = []
        for s in self._saved:
            values.append(s.unpack(self, as_tensor) if type(s) is SavedTensor else s)
        return tuple(values)

    @property
    def needs_input_grad(self):
        """Which inputs need a gradient: skip the work for the others."""
        edges = self.next_functions
        if len(edges) == 2:  # the nodes that ask are mostly two-input ones: written out, faster
            return (edges[0][0] is not None, edges[1][0] is not None)
        needs = []
        for fn, _ in edges:
            needs.append(fn is not None)
        return tuple(needs)

    @property
    def metadata(self):
        if getattr(self, "_metadata", None) is None:
            self._metadata = {}
        return self._metadata

    @property
    def requires_grad(self):
        return True

    def __init_subclass__(cls, **kwargs):
        """Give the class a ``_saved_<name>`` property for each of its ``saved_names``.

        Properties, not ``__getattr__``: a class with ``__getattr__`` makes Python look up
        every attribute of its instances the slow, generic way, in the engine's loop too.
        """
        super().__init_subclass__(**kwargs)
        for name in cls.__dict__.get("saved_names", ()):
            setattr(cls, "_saved_" + name, _saved_attribute(name))
            setattr(cls, "_raw_saved_" + name, _raw_saved_attribute(name))

    def __dir__(self):
        """List the ``_saved_*`` attributes too: tools such as torchviz find them with ``dir``."""
        names = type(self).saved_names
        return sorted(set(super().__dir__()) | {prefix + n for n in names for prefix in ("_saved_", "_raw_saved_")})

    def __call__(self, *grads):
        """``grad_fn(grad)``: this node's backward alone, on gradient tensors, as PyTorch allows.

        Returns one gradient per edge (None where none), as tensors: a tuple, unless there
        is exactly one (PyTorch's way). Nothing is freed, no hook runs, and no broadcast
        gradient is summed back to its input's shape: that is the engine's work, not the
        node's. With grad mode on, the call is recorded.
        """
        if len(grads) != self._num_outputs:
            raise TypeError(f"expected {self._num_outputs} arguments, got {len(grads)} instead")
        recording = grad_mode._enabled
        results = self.backward(*[g if recording or g is None else g._array for g in grads])
        if type(results) is not tuple:
            results = (results,)
        results = tuple(None if r is None else grad_tensor(r) for r in results)
        return results[0] if len(results) == 1 else results

    def register_hook(self, hook):
        """Call ``hook(grad_inputs, grad_outputs)`` after this node's backward."""
        return hooks_of(self).add(hooks_of(self).post, hook)

    def register_prehook(self, hook):
        """Call ``hook(grad_outputs)`` before this node's backward; it may replace them."""
        return hooks_of(self).add(hooks_of(self).pre, hook)

    def _release(self):
        """Free the saved tensors, so memory goes back once backward has used them.

        The engine calls this after the node has run, unless the graph is retained. Each
        ``SavedTensor`` in ``_saved`` lets go of what it holds; the node and its edges stay,
        so the graph can still be drawn, but a second backward through it now fails.
        """
        # BEGIN SOLUTION 4.4 quiet
        for value in self._saved:
            if type(value) is SavedTensor:
                value.release()
        # END SOLUTION


def _saved_attribute(name):
    """The property ``_saved_<name>``: what the node kept for backward, as a tensor."""

    def get(node):
        names = type(node).saved_names
        if name not in names:  # inherited by a subclass that saves other things
            raise AttributeError(f"'{node.name()}' object has no attribute '_saved_{name}'")
        value = node._saved[names.index(name)]
        return value.unpack(node, True) if type(value) is SavedTensor else value

    return property(get, doc=f"What this node kept for backward as ``{name}``.")


def _raw_saved_attribute(name):
    """The property ``_raw_saved_<name>``: the ``SavedTensor`` itself (to ``register_hooks`` on)."""

    def get(node):
        names = type(node).saved_names
        value = node._saved[names.index(name)] if name in names else None
        if type(value) is not SavedTensor:
            raise AttributeError(f"'{node.name()}' object has no attribute '_raw_saved_{name}'")
        return value

    return property(get, doc=f"The saved tensor behind ``_saved_{name}``.")


class AccumulateGrad(Node):
    """The sink of a leaf that requires grad: adds the arriving gradient to ``leaf.grad``."""

    __slots__ = ("variable",)

    def __init__(self, variable):
        self._saved = ()
        self.variable = variable
        self.next_functions = ()
        self._seq = _LAST
        self._hooks = None
        self._shape = variable._array.shape
        self._dtype = variable._array.dtype

    def backward(self, grad):
        variable = self.variable
        if variable._hooks:
            grad = run_tensor_hooks(variable._hooks, grad)
        accumulate_grad(variable, grad, owned=variable._grad is None and ownership.take(grad))
        if variable._post_accumulate_hooks:
            for hook in list(variable._post_accumulate_hooks.values()):
                if hook(variable) is not None:
                    raise RuntimeError("Tensor post accumulate grad hooks should return None.")
        return ()


class GraphRoot(Node):
    """The start of a backward pass: hands each output its seed gradient."""

    __slots__ = ("_grads",)

    def __init__(self, edges, grads):
        self._saved = ()
        self.next_functions = tuple(edges)
        self._grads = tuple(grads)
        self._seq = _LAST
        self._hooks = None

    def backward(self, grad=None):
        return self._grads


_new_object, _asarray = object.__new__, np.asarray  # looked up once (numpy's module __getattr__ is slow)
_UNCHANGED = [0]  # the version counter of a saved number until it becomes a tensor; never bumped
PACKED = object()  # SavedTensor._array of a tensor a pack hook holds (see ``saved_hooks``)
_hooks_in_effect = saved_hooks._in_effect  # the list itself, bound once: looked at for every saved tensor


class SavedTensor:
    """A tensor a node keeps for its backward, with the version it had when saved.

    An input is kept as the tensor itself; an output is kept as its array only (the
    output refers to this node through ``grad_fn``, so keeping the tensor would make a
    reference cycle). Unpacking checks that no in-place operation changed the tensor
    since, and fails once backward has freed it.

    Under ``saved_tensors_hooks`` (or after ``register_hooks``), a pack hook's result is
    kept instead: ``_array`` is then ``PACKED`` and ``_tensor`` a ``saved_hooks.Packed``.
    """

    __slots__ = ("_tensor", "_array", "_counter", "_version", "_output_nr", "_number")

    def __init__(self, tensor, is_output=False):
        self._counter = counter = tensor._version_counter
        self._version = counter[0]
        self._array = tensor._array
        self._tensor = None if is_output else tensor
        self._output_nr = tensor._output_nr if is_output else None
        if _hooks_in_effect:
            pack_hook, unpack_hook = _hooks_in_effect[-1]
            self._pack(pack_hook(tensor), unpack_hook)

    def _pack(self, packed_value, unpack_hook):
        """Keep what a pack hook returned, and let go of the tensor and its array."""
        self._tensor = saved_hooks.Packed(packed_value, unpack_hook, self._tensor)
        self._array = PACKED

    def register_hooks(self, pack_hook, unpack_hook):
        """Pack this one saved tensor now (``grad_fn._raw_saved_self.register_hooks(...)``)."""
        from ..tensor import Tensor

        if self._array is None:
            raise RuntimeError(saved_hooks.ALREADY_FREED)
        if self._array is PACKED:
            raise RuntimeError(saved_hooks.ALREADY_HOOKED)
        self._pack(pack_hook(Tensor._wrap(self._array)), unpack_hook)

    @classmethod
    def number(cls, value, array):
        """A Python number an operation keeps (``x * 2`` keeps the 2), with ``array``, the
        zero-dim array the operation computed with (``promoted`` gave it the tensor's dtype).

        Backward reads ``array``: a gradient times it keeps the gradient's dtype, as in
        PyTorch, and costs less than a product with the number itself. The value a user
        sees (``_saved_other``) is what PyTorch keeps, a zero-dim tensor of the number's own
        type (``tensor(2)``, float64 for ``2.5``), made from the number on first use.
        """
        saved = _new_object(cls)
        saved._array, saved._number = array, value
        saved._counter, saved._version = _UNCHANGED, 0
        saved._tensor = saved._output_nr = None
        return saved

    def unpack(self, node, as_tensor):
        if self._array is None:
            raise RuntimeError(SECOND_BACKWARD)
        if self._array is PACKED:
            return self._tensor.unpack(node, as_tensor, self._output_nr)
        if self._counter[0] != self._version:
            raise RuntimeError(self._modified_message(node))
        if not as_tensor:
            return self._array
        if self._tensor is not None:
            return self._tensor
        from ..tensor import Tensor

        if self._output_nr is None:  # a number (see ``number``): from now on, its tensor is what is kept
            self._tensor = Tensor._wrap(_asarray(self._number))
            self._array, self._counter = self._tensor._array, self._tensor._version_counter
            return self._tensor
        out = Tensor._wrap(self._array, requires_grad=True)
        out.grad_fn, out._output_nr, out._version_counter = node, self._output_nr, self._counter
        return out

    def release(self):
        """Drop the references to the saved value: once nothing else holds its array,
        numpy gives the memory back, and ``unpack`` raises PyTorch's second-backward error."""
        # BEGIN SOLUTION 4.4 quiet
        self._tensor = self._array = None
        # END SOLUTION

    def follow(self, tensor):
        """The saved output was written into ``tensor`` by an in-place operation: from now
        on an in-place change of ``tensor`` makes it stale."""
        self._counter, self._version = tensor._version_counter, tensor._version_counter[0]

    def _modified_message(self, node):
        """PyTorch's error, word for word, for a saved tensor changed in place since."""
        from ..tensor import tensor_type_name

        # BEGIN SOLUTION 6.3
        array = self._array
        producer = node if self._tensor is None else self._tensor.grad_fn
        which = "" if producer is None else f", which is output 0 of {_op_name(producer)},"
        return (
            "one of the variables needed for gradient computation has been modified by an inplace "
            f"operation: [torch.{tensor_type_name(array.dtype)} {list(array.shape)}]{which} "
            f"is at version {self._counter[0]}; expected version {self._version} instead. {HINT}"
        )
        # END SOLUTION


def _op_name(node):
    """How PyTorch names an operation in its errors: ``MulBackward0`` -> ``Mul``; a node
    that is not an operation's backward by its C++ name, ``torch::autograd::CopySlices``."""
    name = node.name()
    return name[: name.rindex("Backward")] if "Backward" in name else "torch::autograd::" + name


class NodeHooks:
    """The hooks attached to one node; most nodes have none, and pay nothing."""

    __slots__ = ("pre", "post", "tensor_pre", "retain")

    def __init__(self):
        self.pre, self.post, self.tensor_pre, self.retain = {}, {}, {}, {}

    def add(self, table, hook):
        handle = RemovableHandle(table)
        table[handle.id] = hook
        return handle


def hooks_of(node):
    """The node's hooks, made on first use."""
    if node._hooks is None:
        node._hooks = NodeHooks()
    return node._hooks


class RemovableHandle:
    """What ``register_hook`` returns: ``handle.remove()`` takes the hook away."""

    _ids = itertools.count()

    def __init__(self, table):
        self.id = next(RemovableHandle._ids)
        self._table = table

    def remove(self):
        self._table.pop(self.id, None)


def grad_tensor(grad):
    """A gradient as a tensor, whatever form the engine carries it in (for hooks)."""
    from ..tensor import Tensor

    return grad if isinstance(grad, Tensor) else Tensor._wrap(grad)


def run_tensor_hooks(hooks, grad):
    """Call the hooks registered on one tensor, in order; one that returns a value
    replaces the gradient (an array again, unless the backward is being recorded)."""
    for hook in list(hooks.values()):
        ownership.outsiders_run()  # the hook may keep the gradient, or return one it holds
        result = hook(grad_tensor(grad))
        if result is not None:
            _check_hook_result(hook, result, grad)
            grad = result if grad_mode._enabled else result._array
    return grad


def _check_hook_result(hook, result, grad):
    """A hook may replace the gradient only by a tensor of the same shape (PyTorch's errors)."""
    from ..tensor import Tensor

    if not isinstance(result, Tensor):
        raise TypeError(f"expected Variable, but hook returned '{type(result).__name__}'")
    if result.shape != grad.shape:
        name = getattr(hook, "__name__", type(hook).__name__)
        raise RuntimeError(f"hook '{name}' has changed the size of value")


# ---------------------------------------------------------------- recording


def should_record(*inputs):
    """Whether an operation on ``inputs`` must record a node in the graph.

    PyTorch's rule: record when grad mode is on and at least one input is a tensor
    that requires grad. The result then requires grad too; that is how
    ``requires_grad`` spreads from the leaves to everything computed from them.
    """
    # BEGIN SOLUTION 1.1
    if not grad_mode._enabled:
        return False
    for x in inputs:
        if getattr(x, "requires_grad", False):
            return True
    return False
    # END SOLUTION


def gradient_edge(x):
    """The edge along which the gradient for input ``x`` travels: ``(node, output_nr)``.

    - a result of an operation: its ``grad_fn``, at the output it came from;
    - a leaf that requires grad: its ``AccumulateGrad`` node (one per leaf, shared by
      every operation that uses it, so gradients from all uses meet there);
    - anything else (a constant, a Python number): ``(None, 0)``, no gradient needed.
    """
    # BEGIN SOLUTION 1.2
    grad_fn = getattr(x, "grad_fn", None)
    if grad_fn is not None:
        return (grad_fn, x._output_nr)
    if getattr(x, "requires_grad", False):
        return (grad_accumulator(x), 0)
    return (None, 0)
    # END SOLUTION


def grad_accumulator(leaf):
    """The leaf's ``AccumulateGrad`` node, created on first use and then shared.

    The leaf refers to it weakly (the graph keeps it alive), as in PyTorch: once no
    graph uses it, a later operation makes a fresh one. A view made under ``no_grad``
    requires grad only through its base, and has none (None: its gradients go nowhere).
    """
    if leaf._base is not None and "_made_in_no_grad" in leaf.__dict__ and leaf._base.requires_grad:
        return None
    ref = leaf._accumulator
    node = ref() if ref is not None else None
    if node is None:
        node = AccumulateGrad(leaf)
        leaf._accumulator = weakref.ref(node)
    return node


def record(out, node, *inputs):
    """Make ``node`` the ``grad_fn`` of ``out``, with one edge per input."""
    n = len(inputs)
    if n == 1:  # nearly every operation has one input or two: no list to build for them
        node.next_functions = (gradient_edge(inputs[0]),)
    elif n == 2:
        node.next_functions = (gradient_edge(inputs[0]), gradient_edge(inputs[1]))
    else:
        node.next_functions = tuple([gradient_edge(x) for x in inputs])
    node._seq = next(_sequence)
    node._hooks = None
    array = out._array
    node._shape, node._dtype = array.shape, array.dtype
    out.grad_fn, out._requires_grad = node, True
    return out


# ---------------------------------------------------------------- accumulation


def accumulate_grad(variable, grad, owned=False):
    """Add ``grad`` into ``variable.grad``: the only place a leaf's gradient is written.

    The first gradient becomes ``.grad``. Later ones are added to it in place, so it must
    be an array of the leaf's own: the engine may hand one array to several places, and
    a broadcast view cannot be written to. ``owned`` says that nobody else holds
    ``grad`` (see ``ownership``): then it is kept as it is, saving a copy, as in PyTorch.
    """
    from ..tensor import Tensor

    # BEGIN SOLUTION 2.2
    if variable._grad is None:
        if isinstance(grad, Tensor):  # create_graph=True: a copy that is recorded (CopyBackwards)
            variable._grad = Tensor._wrap(np.empty_like(grad._array)).copy_(grad)
        elif owned:
            variable._grad = Tensor._wrap(grad)
        else:
            variable._grad = Tensor._wrap(np.array(grad, dtype=variable._array.dtype))
        return
    # END SOLUTION
    add_to_grad(variable, grad)


def add_to_grad(variable, grad):
    """Gradients add up across backward calls, until someone zeroes or clears ``.grad``."""
    from ..tensor import Tensor

    # BEGIN SOLUTION 4.2
    if isinstance(grad, Tensor) or variable._grad.requires_grad:  # keep the graph: out of place
        variable._grad = variable._grad + grad
    else:
        np.add(variable._grad._array, grad, out=variable._grad._array, casting="unsafe")
    # END SOLUTION
