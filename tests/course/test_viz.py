"""minigrad.viz: the DOT text of a graph, its rendering and fallbacks, and the backward animation.

The DOT tests need no binary. One test renders for real (skipped only when neither
Graphviz's dot nor graphviz-pure is here); the fallback tests hide the renderers.
"""
import contextlib
import re
import sys
import warnings

import numpy as np
import pytest

import minigrad
from conftest import EDITION
from minigrad import viz
from minigrad.autograd.node_call import observe
from minigrad.viz import render
from minigrad.viz.graph import describe

pytestmark = pytest.mark.skipif(EDITION == "learner", reason="pictures need a working autograd")

HAS_RENDERER = bool(render.renderers())


@contextlib.contextmanager
def in_language(language):
    """Messages in ``language`` inside the block, English again after it."""
    minigrad.set_language(language)
    try:
        yield
    finally:
        minigrad.set_language("en")


def course_example():
    """The graph of the course: loss = BCEWithLogits(x @ w + b, y)."""
    x, y = minigrad.ones(5), minigrad.zeros(3)
    w = minigrad.tensor(np.linspace(-1, 1, 15).reshape(5, 3).tolist(), requires_grad=True)
    b = minigrad.tensor([0.1, -0.2, 0.3], requires_grad=True)
    z = minigrad.matmul(x, w) + b
    return minigrad.nn.functional.binary_cross_entropy_with_logits(z, y), w, b


def diamond():
    """x feeds two branches that meet again: loss = exp(2x) . sin(2x)."""
    x = minigrad.tensor([0.5, 1.0], requires_grad=True)
    h = x * 2
    return (h.exp() * h.sin()).sum(), x


def boxes(dot):
    """``{box id: (label, attributes text)}`` of a DOT text."""
    return {m[1]: (m[2], m[3]) for m in re.finditer(r'^    (\w+) \[label="((?:[^"\\]|\\.)*)"(.*)\]$', dot, re.M)}


def ids_of(dot, label):
    """The ids of the boxes whose label's first line is ``label``."""
    return [i for i, (text, _) in boxes(dot).items() if text.split("\\n")[0] == label]


def edges(dot):
    """``[(tail, head, attributes text)]`` in the order the text lists them."""
    return re.findall(r"^    (\w+) -> (\w+)(.*)$", dot, re.M)


def edges_into(dot, head):
    """``[(tail, attributes text)]`` of the edges into box ``head``, in the order listed."""
    return [(t, attrs) for t, h, attrs in edges(dot) if h == head]


def hide_renderers(monkeypatch, tmp_path, graphviz_pure=False):
    """No ``dot`` on PATH; graphviz-pure hidden too unless asked for."""
    monkeypatch.setenv("PATH", str(tmp_path))
    if not graphviz_pure:
        monkeypatch.setattr(render, "find_graphviz_pure", lambda: None)


# ---------------------------------------------------------------- the DOT text


def test_course_example_is_drawn_as_torchviz_draws_it():
    loss, w, b = course_example()
    dot = viz.to_dot(loss, params={"w": w, "b": b})
    [out], [bce], [add], [squeeze], [mm] = (
        ids_of(dot, name) for name in ("()", "BinaryCrossEntropyWithLogitsBackward0", "AddBackward0",
                                       "SqueezeBackward4", "MmBackward0")
    )
    acc_b, acc_w = ids_of(dot, "AccumulateGrad")  # met breadth first: b's before w's
    [leaf_w], [leaf_b] = ids_of(dot, "w"), ids_of(dot, "b")
    assert [(t, h) for t, h, _ in edges(dot)] == [
        (bce, out), (add, bce), (squeeze, add), (leaf_b, acc_b), (acc_b, add), (mm, squeeze),
        (leaf_w, acc_w), (acc_w, mm),
    ]
    labels = boxes(dot)
    assert labels[leaf_w][0] == "w\\n(5, 3)" and labels[leaf_b][0] == "b\\n(3)"
    colours = {i: re.search(r'fillcolor="(\w+)"', attrs)[1] for i, (_, attrs) in labels.items()}
    assert colours[out] == "darkolivegreen1"
    assert {colours[i] for i in (bce, add, squeeze, mm, acc_b, acc_w)} == {"lightgrey"}
    assert colours[leaf_w] == colours[leaf_b] == "lightblue"
    assert dot.isascii()


def test_edges_follow_next_functions_and_skip_none():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = minigrad.tensor([3.0, 4.0], requires_grad=True)
    c = minigrad.tensor([5.0, 6.0])  # needs no grad: its edge is (None, 0)
    out = (y - x) * c
    dot = viz.to_dot(out, params={"x": x, "y": y})
    [sub], [mul] = ids_of(dot, "SubBackward0"), ids_of(dot, "MulBackward0")
    acc_y, acc_x = ids_of(dot, "AccumulateGrad")
    assert edges_into(dot, sub) == [(acc_y, ""), (acc_x, "")]  # next_functions order: self, then other
    assert edges_into(dot, mul) == [(sub, "")]  # c has no box and no edge


def test_repeated_input_gives_two_edges():
    a = minigrad.tensor([1.0, 2.0], requires_grad=True)
    dot = viz.to_dot(a + a)
    [add], [acc] = ids_of(dot, "AddBackward0"), ids_of(dot, "AccumulateGrad")
    assert [(t, h) for t, h, _ in edges(dot)].count((acc, add)) == 2


def test_diamond_has_one_box_per_node():
    loss, x = diamond()
    dot = viz.to_dot(loss, params={"x": x})
    [double] = ids_of(dot, "MulBackward0")[1:]  # the product is met first, then x * 2
    users = [h for t, h, _ in edges(dot) if t == double]
    assert sorted(boxes(dot)[h][0] for h in users) == ["ExpBackward0", "SinBackward0"]
    assert len(ids_of(dot, "AccumulateGrad")) == 1


def test_unnamed_leaves_show_their_shape_and_outputs_can_be_named():
    w = minigrad.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
    loss = w.sum()
    dot = viz.to_dot(loss, params={"loss": loss})
    assert ids_of(dot, "(1, 3)") and ids_of(dot, "loss")
    assert boxes(dot)[ids_of(dot, "loss")[0]][0] == "loss\\n()"


def test_several_outputs_are_drawn_together():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    z = (y * 3).sum()
    dot = viz.to_dot((y, z))
    outputs = [i for i, (_, attrs) in boxes(dot).items() if "darkolivegreen1" in attrs]
    assert [boxes(dot)[i][0] for i in outputs] == ["(2)", "()"]
    assert len(ids_of(dot, "ExpBackward0")) == 1


def test_custom_function_is_labelled_with_its_node_name():
    class Exp(minigrad.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            result = x.exp()
            ctx.save_for_backward(result)
            return result

        @staticmethod
        def backward(ctx, grad):
            (result,) = ctx.saved_tensors
            return grad * result

    x = minigrad.tensor([1.0], requires_grad=True)
    assert ids_of(viz.to_dot(Exp.apply(x)), "ExpBackward")


def test_show_values_writes_data_and_grad_of_small_tensors():
    loss, w, b = course_example()
    loss.backward()
    dot = viz.to_dot(loss, params={"w": w, "b": b}, show_values=True)
    label_b = boxes(dot)[ids_of(dot, "b")[0]][0]
    assert label_b == f"b\\n(3)\\ndata: [ 0.1000, -0.2000,  0.3000]\\ngrad: {describe(b.grad)}"
    assert boxes(dot)[ids_of(dot, "()")[0]][0] == "()\\ndata: " + describe(loss)
    big = minigrad.ones(20, requires_grad=True)
    label_big = boxes(viz.to_dot(big.sum(), show_values=True))
    assert "(20)\\ngrad: None" in [text for text, _ in label_big.values()]  # no data line when big


def test_show_saved_draws_saved_tensors_and_lists_attributes():
    loss, w, b = course_example()
    dot = viz.to_dot(loss, params={"w": w, "b": b}, show_saved=True)
    [mm], [squeeze], [add] = ids_of(dot, "MmBackward0"), ids_of(dot, "SqueezeBackward4"), ids_of(dot, "AddBackward0")
    saved = {boxes(dot)[t][0]: attrs for t, attrs in edges_into(dot, mm) if t.startswith("saved")}
    assert saved == {"self\\n(1, 5)": ' [dir="none"]', "mat2\\n(5, 3)": ' [dir="none"]'}
    assert all('fillcolor="orange"' in boxes(dot)[i][1] for i in boxes(dot) if i.startswith("saved"))
    assert boxes(dot)[squeeze][0] == "SqueezeBackward4\\ndim: 0\\nself_sym_sizes: (1, 3)"
    assert boxes(dot)[add][0] == "AddBackward0\\nalpha: 1"
    loss.backward()  # frees the saved tensors: the picture says so instead of failing
    after = viz.to_dot(loss, show_saved=True)
    assert boxes(after)[ids_of(after, "MmBackward0")[0]][0] == "MmBackward0\\nself: [freed]\\nmat2: [freed]"


def test_dot_text_is_the_same_on_every_run():
    texts = {viz.to_dot(course_example()[0], show_saved=True) for _ in range(3)}
    assert len(texts) == 1


def test_labels_are_quoted():
    x = minigrad.tensor([1.0], requires_grad=True)
    dot = viz.to_dot(x.exp(), params={'say "hi"\\': x})
    assert r'label="say \"hi\"\\\n(1)"' in dot


def test_a_deep_graph_needs_no_recursion():
    x = minigrad.tensor([1.0], requires_grad=True)
    y = x
    for _ in range(3000):
        y = y + 1
    assert viz.to_dot(y).count("AddBackward0") == 3000


# ---------------------------------------------------------------- rendering and its fallbacks


@pytest.mark.skipif(not HAS_RENDERER, reason="neither Graphviz's dot nor graphviz-pure is installed")
def test_draw_renders_svg_with_the_node_names():
    loss, w, b = course_example()
    picture = viz.draw(loss, params={"w": w, "b": b})
    svg = picture._repr_svg_()
    for name in ("BinaryCrossEntropyWithLogitsBackward0", "AddBackward0", "SqueezeBackward4", "MmBackward0"):
        assert f">{name}<" in svg
    bundle = picture._repr_mimebundle_()
    assert bundle["image/svg+xml"] == svg and bundle["text/plain"] == picture.source


def test_graphviz_pure_is_used_without_dot(monkeypatch, tmp_path):
    assert render.find_graphviz_pure() is not None, "the test extra installs graphviz-pure"
    hide_renderers(monkeypatch, tmp_path, graphviz_pure=True)
    svg = viz.draw(course_example()[0]).svg()
    assert "graphviz-pure" in svg and ">MmBackward0<" in svg


def test_without_any_renderer_the_dot_text_and_a_hint_are_shown(monkeypatch, tmp_path):
    hide_renderers(monkeypatch, tmp_path)
    picture = viz.draw(course_example()[0])
    assert picture._repr_svg_() is None
    bundle = picture._repr_mimebundle_()
    assert "image/svg+xml" not in bundle
    assert "<pre>digraph {" in bundle["text/html"] and "MmBackward0" in bundle["text/html"]
    for hint in ("apt-get install graphviz", "pip install graphviz-pure", "To see the picture"):
        assert hint in bundle["text/html"] and hint in bundle["text/plain"]
    assert "请安装" not in bundle["text/plain"]  # the English edition shows no Chinese
    with pytest.raises(RuntimeError, match="cannot draw"):
        picture.save(tmp_path / "graph.svg")
    with in_language("zh"):
        chinese = viz.draw(course_example()[0])._repr_mimebundle_()["text/plain"]
    assert "请安装 Graphviz" in chinese and "To see" not in chinese


def test_a_failing_dot_falls_back_without_raising(monkeypatch, tmp_path):
    broken = tmp_path / "dot"
    broken.write_text("#!/bin/sh\necho broken >&2\nexit 3\n")
    broken.chmod(0o755)
    hide_renderers(monkeypatch, tmp_path)
    bundle = viz.draw(course_example()[0])._repr_mimebundle_()
    assert "failed" in bundle["text/html"] and "<pre>digraph {" in bundle["text/html"]


def test_without_the_graphviz_package_the_text_is_shown(monkeypatch):
    monkeypatch.setitem(sys.modules, "graphviz", None)
    bundle = viz.draw(course_example()[0])._repr_mimebundle_()
    assert "pip install graphviz" in bundle["text/html"] and "<pre>digraph {" in bundle["text/html"]


# ---------------------------------------------------------------- backward, step by step


def test_frames_follow_the_engines_order_on_a_diamond():
    loss, x = diamond()
    frames = viz.backward_steps(loss, params={"x": x}, retain_graph=True)
    seen = []
    with observe(lambda node, grads_in, grads_out: seen.append(type(node).__name__)):
        loss.backward()
    assert frames.order == seen
    assert len(frames) == len(seen) and seen[0] == "GraphRoot"


def test_last_frame_shows_the_leaf_gradient():
    loss, x = diamond()
    frames = viz.backward_steps(loss, params={"x": x})
    [acc] = frames.graph.leaf_boxes
    np.testing.assert_array_equal(frames.leaf_grads(-1)[acc], x.grad._array)
    last = frames.dot(-1)
    assert boxes(last)[ids_of(last, "x")[0]][0] == "x\\n(2)\\ngrad: " + describe(x.grad)
    first = frames.dot(0)
    assert boxes(first)[ids_of(first, "x")[0]][0] == "x\\n(2)\\ngrad: None"


def test_each_frame_marks_its_node_and_the_gradients_so_far():
    loss, w, b = course_example()
    frames = viz.backward_steps(loss, params={"w": w, "b": b})
    assert frames.order == ["GraphRoot", "BinaryCrossEntropyWithLogitsBackward0", "AddBackward0",
                            "AccumulateGrad", "SqueezeBackward4", "MmBackward0", "AccumulateGrad"]
    dot = frames.dot(2)  # AddBackward0 has run
    [add] = ids_of(dot, "AddBackward0")
    assert 'color="red", penwidth="3"' in boxes(dot)[add][1]
    assert dot.count('color="red", penwidth="3"') == 1
    sent = [attrs for _, attrs in edges_into(dot, add)]
    assert len(sent) == 2 and all('color="red"' in attrs for attrs in sent)  # both of its gradients
    [(_, seed)] = edges_into(dot, ids_of(dot, "()")[0])
    assert seed == ' [label="1.0000"]'  # sent at step 0, no longer the newest
    [(_, into_mm)] = edges_into(dot, ids_of(dot, "MmBackward0")[0])
    assert re.fullmatch(r' \[label="[ \\n]+"\]', into_mm)  # still to come: blank, but as big
    assert "step 2 of 6: AddBackward0" in dot


def test_gradient_and_retain_graph_are_passed_to_backward():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    frames = viz.backward_steps(y, gradient=minigrad.tensor([1.0, 10.0]), retain_graph=True)
    assert 'label="[ 1.0000, 10.0000]"' in frames.dot(0)
    np.testing.assert_array_equal(x.grad._array, [3.0, 30.0])
    y.backward(minigrad.tensor([1.0, 1.0]))  # the graph was kept


@pytest.mark.skipif(not HAS_RENDERER, reason="neither Graphviz's dot nor graphviz-pure is installed")
def test_frames_are_saved_as_svg_files(tmp_path):
    loss, x = diamond()
    frames = viz.backward_steps(loss, params={"x": x})
    paths = frames.save(tmp_path / "frames")
    assert [p.name for p in paths] == [f"step_{k:03d}.svg" for k in range(len(frames))]
    assert "<svg" in paths[-1].read_text()


def test_frames_show_a_slider_or_else_every_frame(monkeypatch, tmp_path):
    hide_renderers(monkeypatch, tmp_path)  # keeps this test fast; rendering is tested above
    frames = viz.backward_steps(diamond()[0])
    pytest.importorskip("ipywidgets")
    live = frames._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in live
    # what a saved notebook shows where the slider cannot run: the last frame, and the order, not "VBox(...)"
    assert live["text/html"] == frames[-1].html()
    assert live["text/plain"] == "backward in 7 steps: " + " -> ".join(frames.order) and "VBox" not in live["text/plain"]
    monkeypatch.setitem(sys.modules, "ipywidgets", None)
    bundle = frames._repr_mimebundle_()
    assert "<pre>digraph {" in bundle["text/html"] and "GraphRoot -> " in bundle["text/plain"]


# ---------------------------------------------------------------- in the learner's language


def test_frames_and_boxes_speak_the_learners_language():
    loss, x = diamond()
    frames = viz.backward_steps(loss, params={"x": x}, show_saved=True)
    with in_language("zh"):
        first, after = frames.dot(0), viz.to_dot(loss, show_saved=True)  # backward has freed what was saved
        values = viz.to_dot(x * 2, show_values=True)
    assert 'label="第 0 步（共 6 步）：GraphRoot"' in first and "step" not in first
    assert "x\\n(2)\\n梯度：None" in first and "[已释放]" in after
    assert "数据：[0.5000, 1.0000]" in values
    assert "step 0 of 6: GraphRoot" in frames.dot(0) and "grad: None" in frames.dot(0)


def test_a_box_with_chinese_gets_its_size_from_its_text():
    loss, x = diamond()
    with in_language("zh"):
        dot = viz.backward_steps(loss, params={"x": x}).dot(0)
    label, attrs = boxes(dot)[ids_of(dot, "x")[0]]
    width = float(re.search(r'width="([0-9.]+)"', attrs)[1])
    assert width * 72 >= 6 * len("grad: [") + 16  # two columns for each Chinese character at least
    assert viz.graph.columns("梯度：None") == 10 and viz.graph.columns("grad: None") == 10


@pytest.mark.parametrize("renderer", ["dot", "graphviz-pure"])
def test_chinese_labels_are_drawn_inside_their_boxes_by_both_renderers(renderer, monkeypatch, tmp_path):
    program = render.renderers()[0] if renderer == "dot" else render.find_graphviz_pure()
    if renderer == "dot" and not program.endswith("/dot"):
        pytest.skip("Graphviz's dot is not installed")
    loss, x = diamond()
    with in_language("zh"):
        frame = viz.backward_steps(loss, params={"x": x}).dot(0)
    with render.dot_binary(program):
        import graphviz

        svg = graphviz.pipe_string("dot", "svg", frame, encoding="utf-8", quiet=True)
    assert ">第 0 步（共 6 步）：GraphRoot<" in svg
    [leaf] = [g for g in re.findall(r'<g id="node\d+" class="node">(.*?)</g>', svg, re.S) if "梯度：None" in g]
    xs = [float(point.split(",")[0]) for point in re.search(r'points="([^"]+)"', leaf)[1].split()]
    assert max(xs) - min(xs) >= 6 * viz.graph.columns("梯度：None")  # 10 pt Courier: 6 pt a column


@pytest.mark.parametrize("language, words", [("en", ["sin(3x): training loss", "training step", "loss (log scale)"]),
                                             ("zh", ["sin(3x)：训练损失", "训练步数", "损失（对数坐标）"])])
def test_plots_are_titled_in_the_learners_language_as_text(language, words):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a glyph missing from matplotlib's fonts would warn
        with in_language(language):
            svg = viz.plot_losses([1.0, 0.5, 0.1], "sin(3x)").svg()
    texts = re.findall(r"<text[^>]*>([^<]*)</text>", svg)
    assert all(word in texts for word in words), texts
    curves = viz.plot_curves(np.arange(3.0), {"sin(x)": np.sin(np.arange(3.0)), "a + b P3(c + d x)": np.zeros(3)})
    assert {"sin(x)", "a + b P3(c + d x)"} <= set(re.findall(r"<text[^>]*>([^<]*)</text>", curves.svg()))
