"""Documented-output assertions for chapters 3-6, to move into tests/test_notebooks.py with the chapters."""


@pytest.mark.parametrize("language", ["en", "zh"])
def test_chapter_3_documented_outputs(language, executed):
    texts = outputs(executed("03_no_grad", language))
    assert "True\nFalse\n" in texts  # z = matmul(x, w) + b, then inside no_grad
    assert "True\nTrue\nFalse\n" in texts  # x ** 2 outside and inside no_grad
    assert "False\n" in texts  # z.detach().requires_grad
    requires_grad_ = next(t for t in texts if "SumBackward0" in t)
    assert re.fullmatch(r"False\nTrue\n<SumBackward0 object at 0x[0-9a-f]+>\n", requires_grad_)
    frozen = next(t for t in texts if t.startswith("None torch.Size"))
    assert frozen == "None torch.Size([1, 8])\n"


FIRST_CALL = """First call
tensor([[4., 2., 2., 2., 2.],
        [2., 4., 2., 2., 2.],
        [2., 2., 4., 2., 2.],
        [2., 2., 2., 4., 2.],
        [2., 2., 2., 2., 4.]])

Second call
tensor([[8., 4., 4., 4., 4.],
        [4., 8., 4., 4., 4.],
        [4., 4., 8., 4., 4.],
        [4., 4., 4., 8., 4.],
        [4., 4., 4., 4., 8.]])

Call after zeroing gradients
tensor([[4., 2., 2., 2., 2.],
        [2., 4., 2., 2., 2.],
        [2., 2., 4., 2., 2.],
        [2., 2., 2., 4., 2.],
        [2., 2., 2., 2., 4.]])
"""
DOUBLING = """tensor([  788.9900,  -150.2356, -1115.5402], grad_fn=<MulBackward0>)
tensor([5.1200e+01, 5.1200e+02, 5.1200e-02])
"""


@pytest.mark.parametrize("language", ["en", "zh"])
def test_chapter_4_documented_outputs(language, executed):
    notebook = executed("04_vjp", language)
    texts = outputs(notebook)
    assert DOUBLING in texts
    assert FIRST_CALL in texts
    transposed = next(t for t in texts if t.startswith("First call\ntensor([[4., 2., 2., 2., 2.],\n        [2., 4., 2., 2., 2.],\n        [2., 2., 4., 2., 2.],\n        [2., 2., 2., 4., 2.]])"))
    assert transposed.endswith("RuntimeError: Mismatch in shape: grad_output[0] has a shape of torch.Size([4, 5]) "
                               "and output[0] has a shape of torch.Size([5, 4]).\n")
    losses = [float(m) for t in texts for m in re.findall(r"step +\d+  loss ([0-9.]+)", t)]
    assert len(losses) == 4 and losses[-1] < losses[0] / 10
    assert any("image/png" in o.get("data", {}) for c in notebook.cells if c.cell_type == "code" for o in c.outputs)


@pytest.mark.parametrize("language", ["en", "zh"])
def test_chapter_5_documented_outputs(language, executed):
    texts = outputs(executed("05_function", language))
    exp = next(t for t in texts if t.startswith("tensor([1.0000, 2.7183, 7.3891], grad_fn=<ExpBackward>)"))
    assert re.fullmatch(r"tensor\(\[1\.0000, 2\.7183, 7\.3891\], grad_fn=<ExpBackward>\)\n"
                        r"<torch\.autograd\.function\.ExpBackward object at 0x[0-9a-f]+>\n"
                        r"tensor\(\[1\.0000, 2\.7183, 7\.3891\]\)\n", exp)
    fit = next(t for t in texts if "Result: y =" in t)
    final_loss = float(re.findall(r"^1999 ([0-9.]+)$", fit, re.MULTILINE)[0])
    assert final_loss == 8.94  # what PyTorch prints for the same loop


@pytest.mark.parametrize("language", ["en", "zh"])
def test_chapter_6_documented_outputs(language, executed):
    texts = outputs(executed("06_internals", language))
    assert "tensor([ 4.,  8., 12.]) tensor([ 4.,  8., 12.]) tensor([ 8., 16., 24.])\ntensor([1., 2., 3.])\n" in texts
    assert "True True False\ntensor([[  0.,   1.,   2.],\n        [100.,   4.,   5.]]) 1 1\n" in texts
    inplace = next(t for t in texts if "modified by an inplace operation" in t)
    assert inplace == (
        "0\n1\nRuntimeError: one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [torch.FloatTensor [3]], which is output 0 of Mul, is at version 1; expected version 0 instead. "
        "Hint: enable anomaly detection to find the operation that failed to compute its gradient, with "
        "torch.autograd.set_detect_anomaly(True, check_nan=False).\n")
    leaf = next(t for t in texts if "leaf Variable" in t)
    assert leaf.startswith("RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.\n")
