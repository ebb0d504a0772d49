"""Inputs drawn at random for the checks (``see.rng``): a graded run draws new ones the
learner never saw, so only code that computes the right thing passes, not code that
recognises the checks' usual inputs."""
import numpy as np


def values(rng, shape):
    """A float32 array of ``shape`` holding multiples of 0.5 between -3 and 3: easy to read."""
    return (rng.integers(-6, 7, size=shape) / 2).astype(np.float32)


def shape(rng, most_dims=3, most_size=4):
    """A random shape of 1 to ``most_dims`` dimensions."""
    return tuple(int(n) for n in rng.integers(1, most_size + 1, size=rng.integers(1, most_dims + 1)))


def broadcast_source(rng, target):
    """A shape that broadcasts to ``target``: some leading dimensions dropped, some sizes made 1."""
    dropped = int(rng.integers(0, len(target) + 1))
    return tuple(1 if rng.random() < 0.4 else n for n in target[dropped:])
