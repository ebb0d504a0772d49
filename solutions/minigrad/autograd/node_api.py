"""What PyTorch's nodes offer besides their backward: the base class of ``Node``.

A ``grad_fn`` in PyTorch can be inspected (``_saved_self``, ``_raw_saved_self``,
``metadata``), called on gradients, and given hooks. None of that is needed to compute
gradients, so it lives here, and ``graph.py`` keeps the node as the course teaches it.
"""
from ..hooks import add_hook, hooks_of
from ..tensor import Tensor
from . import grad_mode
from .saved_tensor import SavedTensor


class NodeAPI:
    """PyTorch's inspection and hook interface of a node (``Node`` inherits it)."""

    __slots__ = ()
    saved_names = ()  # the names behind ``_saved_<name>``, in the order of ``_saved``

    def name(self):
        """The node's name; nodes PyTorch writes in C++ by hand answer with their C++ name."""
        kind = type(self).__name__
        return _CPP_NAMES.get(kind, kind)

    def __repr__(self):
        return f"<{type(self).__name__} object at {id(self):#x}>"

    @property
    def metadata(self):
        if getattr(self, "_metadata", None) is None:
            self._metadata = {}
        return self._metadata

    @property
    def requires_grad(self):
        return True

    def _output_meta(self, nr):
        """The shape and dtype of output ``nr``; ``_shape`` and ``_dtype`` are output 0's,
        and nodes with several outputs of their own shapes override this."""
        return self._shape, self._dtype

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
        return add_hook(hooks_of(self).post, hook)

    def register_prehook(self, hook):
        """Call ``hook(grad_outputs)`` before this node's backward; it may replace them."""
        return add_hook(hooks_of(self).pre, hook)


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


def grad_tensor(grad):
    """A gradient as a tensor, whatever form the engine carries it in (for hooks)."""
    return grad if isinstance(grad, Tensor) else Tensor._wrap(grad)


_CPP_NAMES = {kind: "torch::autograd::" + kind for kind in ("AccumulateGrad", "CopySlices", "Error", "GraphRoot")}
