"""The public names of the operations: ``torch.<name>`` and ``Tensor.<name>``.

Each operation says its names where it is defined, with ``@public``: ``torch.exp(x)``,
``x.exp()`` and ``x.__add__`` then all are the very function the module defines (no
wrapper, so each operation stays one call deep). ``minigrad/__init__.py`` gathers them
once every operation module is imported. Adding an operation touches its own module only.
"""
TORCH = {}  # torch.<name> -> function
METHODS = {}  # Tensor.<name> -> function
PROPERTIES = {}  # Tensor.<name> -> getter (``x.T``)


def public(torch="", methods="", properties=""):
    """Declare the decorated function as ``torch.<name>`` for each of the space-separated
    ``torch`` names, as ``Tensor.<name>`` for each of ``methods``, as a property for each of
    ``properties``. Returns the function unchanged."""

    def declare(function):
        for table, names in ((TORCH, torch), (METHODS, methods), (PROPERTIES, properties)):
            for name in names.split():
                if name in table and table[name] is not function:
                    raise ValueError(f"{name} is declared twice: {table[name].__qualname__} and {function.__qualname__}")
                table[name] = function
        return function

    return declare


def attach(tensor_class):
    """Give ``tensor_class`` every declared method and property."""
    for name, function in METHODS.items():
        setattr(tensor_class, name, function)
    for name, getter in PROPERTIES.items():
        setattr(tensor_class, name, property(getter))
