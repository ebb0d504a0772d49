"""The README's parts that would drift if written by hand, written by ``make build`` from what they describe.

Each part sits between ``<!-- generated: NAME -->`` and ``<!-- end: NAME -->``, in English and in Chinese:

- ``learner-files``: the files that hold a stub, with their steps and length, from the solution regions;
- ``speed``: the ratios to PyTorch of the latest ``bench/bench_autograd.py --save`` run;
- ``core-time``: how long ``make core`` took in the latest ``bench/bench_suite.py`` run.

The picture of the package's layers (``docs/package-layers.svg``) is drawn from the imports
(``import_graph``) by the same build.
"""
import json
import re
from pathlib import Path

from . import editions, import_graph

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
LAYERS = Path("docs", "package-layers.svg")
RESULTS = ROOT / "bench" / "results"
BLOCK = re.compile(r"^(?P<indent>[ \t]*)<!-- generated: (?P<name>[\w-]+) -->\n.*?^(?P=indent)<!-- end: (?P=name) -->",
                   re.DOTALL | re.MULTILINE)
WORKLOADS = {  # the speed table's rows: (the row's name in the bench's results, English, Chinese)
    "W1": ("W1 total", "W1: 1,000 element-wise ops on a shape-(4,) tensor, forward + backward",
           "W1：对形状 (4,) 的张量做 1,000 次逐元素运算，前向加反向"),
    "W2": ("W2", "W2: 50 training steps of a 64 → 128 → 1 MLP", "W2：一个 64 → 128 → 1 的多层感知机（MLP）训练 50 步"),
    "W3": ("W3", "W3: 1024 × 1024 matmul, forward + backward (numpy's BLAS against PyTorch's MKL)",
           "W3：1024 × 1024 矩阵乘法，前向加反向（numpy 的 BLAS 对 PyTorch 的 MKL）"),
    "W6": ("W6", "W6: one training step of a small GPT (2 blocks, 64 wide, 32 tokens, batch 32, AdamW)",
           "W6：一个小型 GPT 的一步训练（2 个块，宽 64，32 个词元，批量 32，AdamW）"),
    "W7": ("W7", "W7: one training step of d2l's LeNet (batch 256 of 28 × 28, SGD)",
           "W7：d2l 的 LeNet 一步训练（批量 256，28 × 28，SGD）"),
}


def learner_files(package):
    """``[(file, [steps])]``: each file of ``package`` holding a solution region, in the order of its first step."""
    return sorted(editions.steps_by_file(package).items(), key=lambda item: editions.ids.order(item[1][0]))


def _learner_files_table(package, language):
    head = ("| file | steps | lines |\n| --- | --- | ---: |" if language == "en"
            else "| 文件 | 步骤 | 行数 |\n| --- | --- | ---: |")
    rows = [f"| `{name}` | {', '.join(steps)} | {len((Path(package) / name).read_text().splitlines())} |"
            for name, steps in learner_files(package)]
    return "\n".join([head, *rows])


def _speed_table(language):
    run = json.loads((RESULTS / "autograd.json").read_text())
    ratios = run["ratios"]
    if language == "en":
        lines = [f"Run {run['date']} on {run['machine']}; ratio = minigrad / PyTorch, with one thread / the default "
                 "threads:", "", "| workload | ratio | target |", "| --- | ---: | ---: |"]
    else:
        lines = [f"{run['date']} 在{run['machine_zh']}上测得；比值 = minigrad / PyTorch，单线程 / 默认线程数：", "",
                 "| 负载 | 比值 | 目标 |", "| --- | ---: | ---: |"]
    for key, (row, english, chinese) in WORKLOADS.items():
        one, default = ratios[row]["1 thread"], ratios[row]["default threads"]
        lines.append(f"| {english if language == 'en' else chinese} | {one:.2f} / {default:.2f} | {run['targets'][key]} |")
    chain = run["W4"]
    lines.append(f"| W4: backward through a {chain['length']:,}-op chain | {chain['minigrad']:.2f} µs per node "
                 f"(PyTorch {chain['torch']:.2f}) | finishes, linear |" if language == "en" else
                 f"| W4：沿一条 {chain['length']:,} 次运算的链做反向传播 | 每个节点 {chain['minigrad']:.2f} µs"
                 f"（PyTorch {chain['torch']:.2f}） | 能完成，线性时间 |")
    return "\n".join(lines)


def _core_time(language):
    run = json.loads((RESULTS / "suite.json").read_text())
    if language == "en":
        return f"`make core` took {run['make core']:.0f} s in the latest `bench/bench_suite.py` run ({run['date']})."
    return f"最近一次 `bench/bench_suite.py`（{run['date']}）中 `make core` 用时 {run['make core']:.0f} 秒。"


def part(name, package):
    """The text of the generated part ``name`` (``learner-files``, ``speed-zh``, ...)."""
    language = "zh" if name.endswith("-zh") else "en"
    kind = name.removesuffix("-zh")
    if kind == "learner-files":
        return _learner_files_table(package, language)
    if kind == "speed":
        return _speed_table(language)
    if kind == "core-time":
        return _core_time(language)
    raise ValueError(f"README.md: no generated part is called {name}")


def rendered(text, package):
    """``text`` (the README) with every generated part written afresh."""
    def write(found):
        indent, name = found["indent"], found["name"]
        lines = [indent + line if line else line for line in part(name, package).splitlines()]
        return "\n".join([f"{indent}<!-- generated: {name} -->", *lines, f"{indent}<!-- end: {name} -->"])

    return BLOCK.sub(write, text)


def layers_picture(package):
    """The package's layers, drawn by graphviz as SVG."""
    graph = import_graph.imports(package)
    return import_graph.drawing(graph, "minigrad: each module above the modules it imports").pipe(format="svg")


def pictured_imports(svg_text):
    """What a layers picture shows: its modules and its arrows, by graphviz's titles (not its coordinates,
    which depend on graphviz's version)."""
    return sorted(re.findall(r"<title>(.*?)</title>", svg_text))
