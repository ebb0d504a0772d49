"""Chapter 3's hints, shown one at a time by ``minigrad.hint(step)``: the idea, then the shape of the answer
(the last hint, sealed, says the answer in words). Catalogue messages: each is said in the learner's language."""
from ...messages import N_

HINTS = {
    "3.1": (
        N_("Entering the block switches recording off; leaving it must give back the mode it found, not "
           "simply switch recording on: blocks nest, and an exception may leave one early."),
        N_("__enter__ remembers the current mode on the object, then switches it off. __exit__ puts back what "
           "was remembered; Python calls it on an exception too."),
    ),
    "3.2": (
        N_("detach() gives the same numbers without the history: a new tensor that shares the memory and the "
           "version counter, with no grad_fn and no requires_grad."),
        N_("What the new tensor shares with self: the very same array (no copy), and the version counter, so "
           "that an in-place change through either one is seen by both. What it does not have: a history."),
    ),
    "3.3": (
        N_("requires_grad_() flips the flag of a leaf. A non-leaf's flag follows from its history, and only "
           "floating point tensors can have gradients."),
        N_("Three cases: a non-leaf (it has a grad_fn), to which True changes nothing and False is an error; "
           "a request on a tensor that is not floating point, an error; otherwise set the flag. Return the "
           "tensor itself, so calls can be chained."),
    ),
    "3.4": (
        N_("enable_grad is no_grad's mirror: inside the block operations record again, even within a no_grad "
           "block; leaving it gives back whatever mode it found, which may well be off."),
        N_("__enter__ remembers the mode it finds on the object, then switches recording on. __exit__ puts back "
           "what was remembered, on an exception too, and returns nothing so the exception goes on."),
    ),
    "3.5": (
        N_("set_grad_enabled(mode) does its work when it is called, like any function: `with` only adds the "
           "promise to give the old mode back at the end of the block."),
        N_("The constructor refuses a mode that is not a bool (PyTorch's TypeError), remembers the mode in force, "
           "then switches to the new one, in that order. __enter__ has nothing left to do; __exit__ puts back what "
           "the constructor remembered."),
    ),
    "C3": (
        N_("A decorated function runs each call inside a block of the mode; a decorated generator runs inside the "
           "mode only while it works, and gives the caller's mode back each time it hands out a value."),
        N_("For a function: a fresh context per call (_clone), so recursive calls do not share what they "
           "remember. For a generator: a loop that resumes it (send first, or throw what the caller threw) "
           "inside a fresh context, stops on StopIteration with its value, yields the result outside the "
           "context, and closes the generator inside one when the caller closes."),
    ),
}
