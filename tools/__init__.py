"""The project's build and classroom tools (not part of the minigrad package)."""
