"""The operations: one module per kind, each operation with its backward node beside it."""
