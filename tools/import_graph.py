"""Which module imports which, read from the source: the package's layers, and the proof they have no cycle.

Every ``import`` counts, at the top of a module or inside a function: a function-level import is a
dependency that waits for its first call, and a cycle through one is still a cycle. Importing
``minigrad.autograd.graph`` from outside ``minigrad.autograd`` also runs ``autograd/__init__.py``
first, so it depends on that package too, as Python loads it.

    python -m tools.import_graph solutions/minigrad OUT.svg   draw the package's layers with graphviz
"""
import ast
import sys
from pathlib import Path

import graphviz


def modules(folder):
    """{dotted name: source path} of every module of the package (or tools folder) ``folder``."""
    folder = Path(folder)
    found = {}
    for path in sorted(folder.rglob("*.py")):
        parts = list(path.relative_to(folder.parent).with_suffix("").parts)
        if "__pycache__" in parts:
            continue
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imports(folder):
    """{module: {module it imports: (line, inside a function)}}, within ``folder``'s own modules."""
    known = modules(folder)
    return {name: _imports_of(name, path, known) for name, path in known.items()}


def _imports_of(name, path, known):
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found = {}
    for node, in_function in _import_nodes(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            base = ".".join(package[: len(package) - node.level + 1] + [node.module or ""]) if node.level else node.module
            targets = [f"{base.rstrip('.')}.{alias.name}" for alias in node.names]
        for target in targets:
            for module in _loaded(target, name, known):
                found.setdefault(module, (node.lineno, in_function))
    return found


def _loaded(target, importer, known):
    """The modules of ``known`` that importing ``target`` from ``importer`` runs: the module itself (or the
    package whose name it is inside), and each enclosing package ``importer`` is not part of."""
    while target and target not in known:
        target = target.rpartition(".")[0]
    if not target or target == importer:
        return []
    parts = target.split(".")
    parents = [".".join(parts[:i]) for i in range(1, len(parts))]
    return [target] + [p for p in parents if p in known and not (importer == p or importer.startswith(p + "."))]


def _import_nodes(tree, in_function=False):
    """Each import statement of ``tree``, and whether it sits inside a function."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node, in_function
        else:
            yield from _import_nodes(node, in_function or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)))


def cycles(graph):
    """Each group of modules that import each other, directly or around a loop (Tarjan's strongly connected
    components of more than one module, or a module importing itself)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(module):
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for other in graph.get(module, ()):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in on_stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            group = []
            while not group or group[-1] != module:
                group.append(stack.pop())
                on_stack.discard(group[-1])
            if len(group) > 1:
                found.append(sorted(group))

    for module in graph:
        if module not in index:
            visit(module)
    return found


def reaches(graph, start, goal):
    """Whether ``start`` imports ``goal``, directly or through other modules."""
    seen, todo = set(), [start]
    while todo:
        module = todo.pop()
        if module == goal:
            return True
        if module not in seen:
            seen.add(module)
            todo.extend(graph.get(module, ()))
    return False


def layers(graph):
    """The modules in layers, bottom first: each module's layer is one above the highest it imports."""
    depth = {}

    def layer(module):
        if module not in depth:
            depth[module] = 0  # a cycle would stop here; ``cycles`` names it
            depth[module] = 1 + max((layer(m) for m in graph[module]), default=-1)
        return depth[module]

    for module in graph:
        layer(module)
    return [sorted(m for m in graph if depth[m] == level) for level in range(max(depth.values(), default=-1) + 1)]


def direct(graph):
    """The graph without the imports another chain already implies (its transitive reduction): what a picture
    needs to show the layers."""
    return {module: {target: how for target, how in targets.items()
                     if not any(reaches(graph, other, target) for other in targets if other != target)}
            for module, targets in graph.items()}


def drawing(graph, title):
    """The graph as a graphviz ``Digraph``: one row per layer, bottom layer at the bottom, an arrow from a
    module to each module it imports that no other of its imports already brings (``direct``)."""
    dot = graphviz.Digraph(graph_attr={"rankdir": "BT", "label": title, "fontsize": "20", "ranksep": "0.6"},
                           node_attr={"shape": "box", "fontsize": "10", "height": "0.25"},
                           edge_attr={"arrowsize": "0.4", "color": "#00000040"})
    for number, row in enumerate(layers(graph)):
        with dot.subgraph(name=f"layer{number}", graph_attr={"rank": "same"}) as same:
            for module in row:
                same.node(module, module.removeprefix("minigrad."))
    for module, targets in direct(graph).items():
        for target in targets:
            dot.edge(target, module, dir="back")
    return dot


if __name__ == "__main__":
    folder, out = Path(sys.argv[1]), Path(sys.argv[2])
    picture = drawing(imports(folder), f"{folder.name}: who imports whom, bottom layer first")
    out.write_bytes(picture.pipe(format=out.suffix.lstrip(".")))
