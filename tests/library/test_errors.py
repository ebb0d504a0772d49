"""PyTorch's errors, word for word: where PyTorch fails, minigrad fails with the same text.

Each text was read from PyTorch 2.13 on this project's machines;
when torch is installed, ``test_torch_says_the_same`` checks them against it again.
"""
import re
import warnings

import pytest

import minigrad as mg
from support.helpers import leaf

SECOND_BACKWARD = (
    "Trying to backward through the graph a second time (or directly access saved tensors after they have already "
    "been freed). Saved intermediate values of the graph are freed when you call .backward() or autograd.grad(). "
    "Specify retain_graph=True if you need to backward through the graph a second time or if you need to access "
    "saved tensors after calling backward."
)
HINT = (
    " Hint: enable anomaly detection to find the operation that failed to compute its gradient, with "
    "torch.autograd.set_detect_anomaly(True, check_nan=False)."
)
NOT_LEAF_FLAG = (
    "you can only change requires_grad flags of leaf variables. If you want to use a computed variable in a subgraph "
    "that doesn't require differentiation use var_no_grad = var.detach()."
)
NON_LEAF_GRAD = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute won't be "
    "populated during autograd.backward(). If you indeed want the .grad field to be populated for a non-leaf Tensor, "
    "use .retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor by mistake, make sure you access "
    "the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 for more information. (Triggered internally "
    "at /__w/pytorch/pytorch/build/aten/src/ATen/core/TensorBody.h:493.)"
)


def raises(error, text):
    return pytest.raises(error, match="^" + re.escape(text) + "$")


# ---------------------------------------------------------------- backward and grad


def test_a_second_backward_through_freed_saved_tensors():
    x = leaf(1.0, 2.0, 3.0)
    y = (x * x).sum()
    y.backward()
    with raises(RuntimeError, SECOND_BACKWARD):
        y.backward()


def test_reading_a_saved_tensor_after_backward_freed_it():
    x = leaf(1.0, 2.0)
    y = x * x
    y.sum().backward()
    with raises(RuntimeError, SECOND_BACKWARD):
        y.grad_fn._saved_self


def test_a_second_grad_through_freed_saved_tensors():
    x = leaf(1.0, 2.0)
    y = (x.exp()).sum()
    mg.autograd.grad(y, x)
    with raises(RuntimeError, SECOND_BACKWARD):
        mg.autograd.grad(y, x)


def test_a_second_backward_through_x_times_2():
    x = leaf(1.0, 2.0)
    y = (x * 2).sum()
    y.backward()
    with raises(RuntimeError, SECOND_BACKWARD):
        y.backward()


def test_an_implicit_gradient_needs_a_scalar():
    x = leaf(1.0, 2.0)
    with raises(RuntimeError, "grad can be implicitly created only for scalar outputs"):
        (x * 2).backward()
    with raises(RuntimeError, "grad can be implicitly created only for scalar outputs"):
        mg.autograd.grad(x * 2, x)


@pytest.mark.parametrize("make", [
    lambda: mg.ones(3).sum(),
    lambda: mg.tensor(2.0),
])
def test_backward_on_a_tensor_that_does_not_require_grad(make):
    with raises(RuntimeError, "element 0 of tensors does not require grad and does not have a grad_fn"):
        make().backward()


def test_backward_on_a_result_computed_under_no_grad():
    x = leaf(1.0, 2.0)
    with mg.no_grad():
        y = (x * 2).sum()
    with raises(RuntimeError, "element 0 of tensors does not require grad and does not have a grad_fn"):
        y.backward()


def test_the_index_of_the_output_that_does_not_require_grad_is_named():
    x = leaf(1.0)
    with raises(RuntimeError, "element 1 of tensors does not require grad and does not have a grad_fn"):
        mg.autograd.backward([x.sum(), mg.ones(1).sum()])


def test_a_gradient_of_the_wrong_shape():
    x = leaf(1.0, 2.0, 3.0)
    with raises(RuntimeError, "Mismatch in shape: grad_output[0] has a shape of torch.Size([2]) and output[0] has a "
                              "shape of torch.Size([3])."):
        (x * 2).backward(mg.ones(2))


def test_gradients_must_be_tensors_and_one_per_output():
    x = leaf(1.0, 2.0)
    with raises(TypeError, "gradients can be either Tensors or None, but got float"):
        (x * 2).backward([1.0, 2.0])
    with raises(RuntimeError, "got 2 tensors and 1 gradients"):
        mg.autograd.grad([x * 2, x * 3], x, [mg.ones(2)])


def test_grad_refuses_inputs_it_cannot_differentiate():
    x = leaf(1.0, 2.0)
    with raises(RuntimeError, "One of the differentiated Tensors does not require grad"):
        mg.autograd.grad((x * 2).sum(), mg.ones(2))
    with raises(RuntimeError, "`inputs` argument to `grad()` cannot be empty."):
        mg.autograd.grad((x * 2).sum(), [])
    with raises(RuntimeError, "all inputs have to be Tensors or GradientEdges, but got float"):
        mg.autograd.grad((x * 2).sum(), [1.0])


def test_grad_names_an_unused_input():
    x, w = leaf(1.0), leaf(2.0)
    with raises(RuntimeError, "The differentiated Tensor at index 1 appears to not have been used in the graph. "
                              "Set allow_unused=True if this is the desired behavior."):
        mg.autograd.grad((x * 2).sum(), [x, w])
    with raises(ValueError, "Expected allow_unused to be True or not passed when materialize_grads=True, but got: "
                            "allow_unused=False."):
        mg.autograd.grad((x * 2).sum(), [x, w], allow_unused=False, materialize_grads=True)


def test_backward_inputs_may_not_be_empty():
    x = leaf(1.0)
    with raises(RuntimeError, "`inputs` argument to `backward()` cannot be empty."):
        (x * 2).sum().backward(inputs=[])
    with raises(RuntimeError, "can't retain_grad on Tensor that has requires_grad=False"):
        (x * 2).sum().backward(inputs=[mg.ones(1)])


# ---------------------------------------------------------------- requires_grad


def test_integer_tensors_cannot_require_grad_each_with_its_own_text():
    with raises(RuntimeError, "Only Tensors of floating point and complex dtype can require gradients"):
        mg.tensor([1, 2, 3], requires_grad=True)
    with raises(RuntimeError, "Only Tensors of floating point and complex dtype can require gradients"):
        mg.ones(3, dtype=mg.long, requires_grad=True)
    with raises(RuntimeError, "only Tensors of floating point dtype can require gradients"):
        mg.tensor([1, 2]).requires_grad_()
    with raises(RuntimeError, "only Tensors of floating point dtype can require gradients"):
        mg.tensor([True]).requires_grad_()
    t = mg.tensor([1, 2])
    with raises(RuntimeError, "only Tensors of floating point and complex dtype can require gradients"):
        t.requires_grad = True
    t.requires_grad = False  # switching it off is always fine
    assert t.requires_grad_(False) is t


def test_changing_requires_grad_of_a_non_leaf():
    y = leaf(1.0) * 2
    with raises(RuntimeError, NOT_LEAF_FLAG):
        y.requires_grad_(False)
    with raises(RuntimeError, NOT_LEAF_FLAG):
        y.requires_grad = False
    assert y.requires_grad_(True) is y and y.requires_grad  # a no-op, as in PyTorch
    with raises(RuntimeError, "you can only change requires_grad flags of leaf variables."):
        y.requires_grad = True  # the setter refuses even True, with the first sentence only


# ---------------------------------------------------------------- in place


def test_changing_a_saved_non_leaf_names_its_producer_and_versions():
    a = leaf(1.0, 2.0, 3.0)
    b = a * 2
    c = b * b
    b.mul_(3)
    with raises(RuntimeError, "one of the variables needed for gradient computation has been modified by an inplace "
                              "operation: [torch.FloatTensor [3]], which is output 0 of Mul, is at version 1; "
                              "expected version 0 instead." + HINT):
        c.sum().backward()


def test_the_producer_named_is_the_tensors_current_one():
    a = leaf(1.0, 2.0, 3.0)
    b = a * 2
    c = b * b
    b.add_(1)
    with raises(RuntimeError, "one of the variables needed for gradient computation has been modified by an inplace "
                              "operation: [torch.FloatTensor [3]], which is output 0 of Add, is at version 1; "
                              "expected version 0 instead." + HINT):
        c.sum().backward()


def test_changing_a_saved_output():
    a = leaf(1.0, 2.0, 3.0)
    b = a.exp()
    b += 1
    with raises(RuntimeError, "one of the variables needed for gradient computation has been modified by an inplace "
                              "operation: [torch.FloatTensor [3]], which is output 0 of Exp, is at version 1; "
                              "expected version 0 instead." + HINT):
        b.sum().backward()


def test_changing_a_saved_output_of_an_in_place_operation():
    b = leaf(1.0, 2.0) * 1
    b.exp_()
    b.add_(1)
    with raises(RuntimeError, "one of the variables needed for gradient computation has been modified by an inplace "
                              "operation: [torch.FloatTensor [2]], which is output 0 of Exp, is at version 2; "
                              "expected version 1 instead." + HINT):
        b.sum().backward()


def test_changing_a_saved_leaf_has_no_producer():
    a, b = leaf(1.0, 2.0, 3.0), mg.ones(3, dtype=mg.float64)
    c = a * b
    b.add_(1)
    with raises(RuntimeError, "one of the variables needed for gradient computation has been modified by an inplace "
                              "operation: [torch.DoubleTensor [3]] is at version 1; expected version 0 instead."
                              + HINT):
        c.sum().backward()


def test_changing_a_detached_copy_counts_too():
    y = leaf(1.0, 2.0).exp()
    y.detach().zero_()
    with raises(RuntimeError, "one of the variables needed for gradient computation has been modified by an inplace "
                              "operation: [torch.FloatTensor [2]], which is output 0 of Exp, is at version 1; "
                              "expected version 0 instead." + HINT):
        y.sum().backward()


@pytest.mark.parametrize("change", [
    lambda x: x.add_(1),
    lambda x: x.mul_(2),
    lambda x: x.zero_(),
    lambda x: x.__isub__(1),
    lambda x: x.__setitem__(x > 0, 0.0),
])
def test_a_leaf_that_requires_grad_cannot_change_in_place(change):
    x = leaf(1.0, 2.0)
    with raises(RuntimeError, "a leaf Variable that requires grad is being used in an in-place operation."):
        change(x)
    assert x._version == 0


@pytest.mark.parametrize("change", [
    lambda x: x.__setitem__(0, 5.0),
    lambda x: x[1:].mul_(2),
    lambda x: x.view(2).fill_(1.0),
])
def test_a_view_of_a_leaf_that_requires_grad_cannot_change_in_place(change):
    x = leaf(1.0, 2.0)
    with raises(RuntimeError, "a view of a leaf Variable that requires grad is being used in an in-place operation."):
        change(x)


def test_a_view_made_under_no_grad_cannot_change_under_grad_mode():
    x = leaf(1.0, 2.0, 3.0)
    with mg.no_grad():
        v = x[:2]
    with raises(RuntimeError, "A view was created in no_grad mode and is being modified inplace with grad mode "
                              "enabled. Given that this use case is ambiguous and error-prone, it is forbidden. You "
                              "can clarify your code by moving both the view and the inplace either both inside the "
                              "no_grad block (if you don't want the inplace to be tracked) or both outside (if you "
                              "want the inplace to be tracked)."):
        v.mul_(2)


def test_in_place_results_must_fit_the_tensor():
    with raises(RuntimeError, "result type Float can't be cast to the desired output type Long"):
        mg.ones(3, dtype=mg.long).add_(1.5)
    with raises(RuntimeError, "output with shape [3] doesn't match the broadcast shape [2, 3]"):
        mg.ones(3).add_(mg.ones(2, 3))
    with raises(RuntimeError, "unsupported operation: more than one element of the written-to tensor refers to a "
                              "single memory location. Please clone() the tensor before performing the operation."):
        mg.ones(3).expand(2, 3).add_(1)


def test_copying_and_assigning_values_that_do_not_fit():
    with raises(RuntimeError, "The size of tensor a (3) must match the size of tensor b (2) at non-singleton "
                              "dimension 0"):
        mg.zeros(3).copy_(mg.ones(2))
    with raises(RuntimeError, "output with shape [3] doesn't match the broadcast shape [2, 3]"):
        mg.zeros(3).copy_(mg.ones(2, 3))
    y = mg.zeros(3)
    with raises(RuntimeError, "The expanded size of the tensor (3) must match the existing size (2) at non-singleton "
                              "dimension 0.  Target sizes: [3].  Tensor sizes: [2]"):
        y[0:3] = mg.ones(2)
    with raises(RuntimeError, "shape mismatch: value tensor of shape [3] cannot be broadcast to indexing result of "
                              "shape [2]"):
        y[mg.tensor([0, 1])] = mg.ones(3)
    with raises(RuntimeError, "fill_ only supports 0-dimension value tensor but got tensor with 1 dimensions."):
        y.fill_(mg.ones(2))


def test_detach_in_place_refuses_views():
    with raises(RuntimeError, "Can't detach views in-place. Use detach() instead. If you are using "
                              "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set as "
                              "True, gradients are views of DDP buckets, and hence detach_() cannot be called on "
                              "these gradients. To fix this error, please refer to the Optimizer.zero_grad() "
                              "function in torch/optim/optimizer.py as the solution."):
        (leaf(1.0, 2.0) * 2)[0].detach_()


# ---------------------------------------------------------------- .grad


def test_the_grad_of_a_non_leaf_warns_at_the_callers_line_and_is_none():
    y = leaf(1.0) * 2
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        line = test_the_grad_of_a_non_leaf_warns_at_the_callers_line_and_is_none.__code__.co_firstlineno + 5
        assert y.grad is None
    assert [str(w.message) for w in caught] == [NON_LEAF_GRAD]
    assert caught[0].category is UserWarning
    assert (caught[0].filename, caught[0].lineno) == (__file__, line)


def test_a_retained_or_leaf_grad_does_not_warn():
    x = leaf(1.0)
    y = x * 2
    y.retain_grad()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert x.grad is None and y.grad is None


@pytest.mark.parametrize("value, name", [(0.0, "float"), (1, "int"), ([1.0], "list")])
def test_assigning_a_grad_that_is_not_a_tensor(value, name):
    x = leaf(1.0)
    with raises(TypeError, f"assigned grad expected to be a Tensor or None but got grad of type {name}"):
        x.grad = value


def test_assigning_a_numpy_array_as_grad_names_its_module():
    import numpy as np

    with raises(TypeError, "assigned grad expected to be a Tensor or None but got grad of type numpy.ndarray"):
        leaf(1.0).grad = np.ones(1)


def test_assigning_a_grad_of_the_wrong_size_or_dtype():
    x = leaf(1.0, 2.0, 3.0)
    with raises(RuntimeError, "attempting to assign a gradient of size '[2]' to a tensor of size '[3]'. Please ensure "
                              "that the gradient and the tensor are the same size"):
        x.grad = mg.ones(2)
    with raises(RuntimeError, "attempting to assign a gradient with dtype 'double' to a tensor with grad_dtype "
                              "'Float'. The gradient must match the tensor's grad_dtype (defaults to the tensor's "
                              "dtype). You can set the tensor's grad_dtype attribute with a specific dtype, or None to "
                              "allow any dtype. Set grad_dtype with caution. Diverging the dtypes of a tensor and its "
                              "gradient may break downstream systems that assume they match."):
        x.grad = mg.ones(3, dtype=mg.float64)
    x.grad = mg.ones(3)
    x.grad = None


# ---------------------------------------------------------------- conversions and shapes


def test_item_needs_one_element():
    with raises(RuntimeError, "a Tensor with 3 elements cannot be converted to Scalar"):
        mg.ones(3).item()
    with raises(RuntimeError, "a Tensor with 0 elements cannot be converted to Scalar"):
        mg.ones(0).item()


def test_numpy_refuses_a_tensor_that_requires_grad():
    text = "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead."
    with raises(RuntimeError, text):
        leaf(1.0).numpy()
    with raises(RuntimeError, text):
        (leaf(1.0) * 2).numpy()
    assert leaf(1.0).detach().numpy().tolist() == [1.0]


@pytest.mark.parametrize("a, b, dim", [((2, 3), (2, 4), 1), ((3,), (2, 4), 1), ((5, 3, 2), (4, 2), 1),
                                       ((2, 3), (4,), 1)])
def test_shapes_that_do_not_broadcast(a, b, dim):
    text = f"The size of tensor a ({a[-1] if a[-1] != b[-1] else a[-2]}) must match the size of tensor b " \
           f"({b[-1] if a[-1] != b[-1] else b[-2]}) at non-singleton dimension {dim}"
    for op in (lambda x, y: x + y, lambda x, y: x * y, lambda x, y: x > y):
        with raises(RuntimeError, text):
            op(mg.ones(*a), mg.ones(*b))


@pytest.mark.parametrize("a, b, text", [
    ((2, 3), (4, 2), "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x2)"),
    ((2, 3), (4,), "size mismatch, got input (2), mat (2x3), vec (4)"),
    ((3,), (4, 2), "mat1 and mat2 shapes cannot be multiplied (1x3 and 4x2)"),
    ((3,), (4,), "inconsistent tensor size, expected tensor [3] and src [4] to have the same number of elements, but "
                 "got 3 and 4 elements respectively"),
    ((), (4,), "both arguments to matmul need to be at least 1D, but they are 0D and 1D"),
])
def test_matmul_shapes_that_do_not_fit(a, b, text):
    with raises(RuntimeError, text):
        mg.ones(*a) @ mg.ones(*b)


def test_expand_names_the_dimension_that_clashes():
    with raises(RuntimeError, "The expanded size of the tensor (4) must match the existing size (2) at non-singleton "
                              "dimension 0.  Target sizes: [4, 3].  Tensor sizes: [2, 3]"):
        mg.ones(2, 3).expand(4, 3)
    with raises(RuntimeError, "expand(torch.FloatTensor{[2, 3]}, size=[3]): the number of sizes provided (1) must be "
                              "greater or equal to the number of dimensions in the tensor (2)"):
        mg.ones(2, 3).expand(3)


# ---------------------------------------------------------------- custom Functions and hooks


class _Square(mg.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * 2 * x


def test_a_custom_function_that_returns_too_few_gradients():
    class Short(mg.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            return a + b

        @staticmethod
        def backward(ctx, grad):
            return grad

    with raises(RuntimeError, "function ShortBackward returned an incorrect number of gradients (expected 2, got 1)"):
        Short.apply(leaf(1.0), leaf(2.0)).sum().backward()


def test_a_custom_function_without_backward():
    class NoBackward(mg.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 2

    with raises(NotImplementedError, "You must implement either the backward or vjp method for your custom "
                                     "autograd.Function to use it with backward mode AD."):
        NoBackward.apply(leaf(1.0)).sum().backward()


def test_saved_tensors_of_a_custom_function_after_backward():
    y = _Square.apply(leaf(1.0, 2.0))
    y.sum().backward()
    with raises(RuntimeError, SECOND_BACKWARD):
        y.grad_fn.saved_tensors


def test_differentiating_a_once_differentiable_backward_twice():
    class Cube(mg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        @mg.autograd.function.once_differentiable
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return grad * 3 * x * x

    x = leaf(1.0, 2.0)
    (g,) = mg.autograd.grad(Cube.apply(x), x, mg.ones(2, requires_grad=True), create_graph=True)
    with raises(RuntimeError, "trying to differentiate twice a function that was marked with @once_differentiable"):
        g.sum().backward()


def test_hooks_need_a_tensor_that_requires_grad():
    with raises(RuntimeError, "cannot register a hook on a tensor that doesn't require gradient"):
        mg.ones(1).register_hook(print)
    with raises(RuntimeError, "can't retain_grad on Tensor that has requires_grad=False"):
        mg.ones(1).retain_grad()


@pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")  # the NaN is the point
def test_anomaly_mode_names_the_node_that_made_nan():
    x = leaf(0.0, 1.0)
    with pytest.warns(UserWarning, match="Anomaly Detection has been enabled"):
        with mg.autograd.detect_anomaly():
            y = (x.sqrt() * 0).sum()
            with raises(RuntimeError, "Function 'SqrtBackward0' returned nan values in its 0th output."):
                y.backward()
    assert not mg.is_anomaly_enabled()
    with mg.autograd.set_detect_anomaly(True, check_nan=False):
        (x.sqrt() * 0).sum().backward()  # no NaN check
    assert not mg.is_anomaly_enabled()


def test_set_grad_enabled_needs_a_bool():
    with raises(TypeError, "set_grad_enabled(): argument 'enabled' (position 1) must be bool, not function"):
        mg.set_grad_enabled(lambda: None)


# ---------------------------------------------------------------- against PyTorch itself


def _failure(lib, action):
    try:
        action(lib)
    except (RuntimeError, TypeError, ValueError, NotImplementedError) as error:
        return type(error).__name__, str(error)
    return None


ACTIONS = {
    "second backward": lambda t: [(y := (t.ones(2, requires_grad=True).exp()).sum()).backward(), y.backward()],
    "implicit non-scalar": lambda t: (t.ones(2, requires_grad=True) * 2).backward(),
    "no grad_fn": lambda t: t.ones(2).sum().backward(),
    "wrong gradient shape": lambda t: (t.ones(3, requires_grad=True) * 2).backward(t.ones(2)),
    "int requires_grad": lambda t: t.tensor([1, 2], requires_grad=True),
    "int requires_grad_": lambda t: t.tensor([1, 2]).requires_grad_(),
    "non-leaf flag": lambda t: (t.ones(2, requires_grad=True) * 2).requires_grad_(False),
    "leaf in place": lambda t: t.ones(2, requires_grad=True).add_(1),
    "view of leaf in place": lambda t: t.ones(2, requires_grad=True).__setitem__(0, 1.0),
    "saved output changed": lambda t: [(b := t.ones(2, requires_grad=True).exp()), b.add_(1), b.sum().backward()],
    "grad = 0.": lambda t: setattr(t.ones(2, requires_grad=True), "grad", 0.0),
    "grad of wrong size": lambda t: setattr(t.ones(3, requires_grad=True), "grad", t.ones(2)),
    "item": lambda t: t.ones(3).item(),
    "numpy": lambda t: t.ones(2, requires_grad=True).numpy(),
    "broadcast": lambda t: t.ones(2, 3) + t.ones(2, 4),
    "mm": lambda t: t.ones(2, 3) @ t.ones(4, 2),
    "unused input": lambda t: t.autograd.grad((t.ones(1, requires_grad=True) * 2).sum(),
                                              [t.ones(1, requires_grad=True)]),
    "in-place dtype": lambda t: t.ones(2, dtype=t.long).mul_(0.5),
}


@pytest.mark.parametrize("name", list(ACTIONS))
def test_torch_says_the_same(name):
    torch = pytest.importorskip("torch")
    expected = _failure(torch, ACTIONS[name])
    assert expected is not None
    assert _failure(mg, ACTIONS[name]) == expected


def test_numpy_reads_a_leaf_that_requires_grad_only_under_no_grad(lib):
    x = lib.ones(3, requires_grad=True)
    with lib.no_grad():
        assert x.numpy().tolist() == [1.0, 1.0, 1.0]
    with pytest.raises(RuntimeError, match=re.escape("Can't call numpy() on Tensor that requires grad. "
                                                     "Use tensor.detach().numpy() instead.")):
        x.numpy()
