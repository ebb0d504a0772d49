"""Chapter 6's hints, shown one at a time by ``minigrad.hint(step)``: the idea, then the shape of the answer
(the last hint, sealed, says the answer in words). Catalogue messages: each is said in the learner's language."""
from ...messages import N_

HINTS = {
    "6.1": (
        N_("A non-leaf's gradient passes through and is forgotten; retain_grad() asks its node to keep a "
           "copy in .grad while backward runs."),
        N_("Refuse a tensor that does not require grad (PyTorch's message). A leaf, or a tensor already "
           "retaining, needs nothing. Otherwise its grad_fn's hooks must learn, under the tensor's output number, "
           "which tensor to give the gradient to, without keeping that tensor alive; then the tensor is marked as "
           "retaining."),
    ),
    "6.2": (
        N_("A hook is called with a tensor's gradient when it is computed, and what it returns (if anything) "
           "replaces that gradient. register_hook returns a handle that can remove it."),
        N_("A leaf keeps its hooks in its own dict; a non-leaf's go to its grad_fn's tensor pre-hooks, under "
           "its output number. add_hook stores a hook in a dict and returns the handle. Refuse a tensor that "
           "does not require grad."),
    ),
    "6.3": (
        N_("A handle knows one table and one id: removing takes out that entry and nothing else. A hook that is "
           "gone already leaves nothing to do, and the others keep their order."),
        N_("remove(): take the handle's own entry out of the very table it knows, not out of a copy (a dict keeps "
           "the order of the rest), and do nothing when that entry is gone already. __exit__ lets "
           "`with tensor.register_hook(f):` remove the hook when the block ends."),
    ),
    "6.4": (
        N_("Inside saved_tensors_hooks(pack, unpack), a node that saves a tensor keeps pack(tensor) instead, and "
           "backward gets its tensor back from unpack(what pack returned). With blocks nested, the innermost wins."),
        N_("At save time: if any pair of hooks is in effect, take the last (innermost) one, call pack on the "
           "tensor and keep the result with its unpack hook (_pack). _pack replaces the tensor by a Packed and "
           "the array by the packed marker. At use: call the unpack hook on the kept value, refuse anything but a tensor. "
           "register_hooks does the same for one saved tensor, after PyTorch's two refusals."),
    ),
    "6.5": (
        N_("PyTorch's message names the tensor (type and shape), the node that produced it, and the two "
           "versions: the one saved and the one now."),
        N_("Read the dtype and shape from the saved array, the producer from the saved tensor's grad_fn (or "
           "the node passed in, when only the array was kept), and the versions from the counter and from "
           "what was saved. A leaf has no producer: that clause is left out."),
    ),
    "6.6": (
        N_("One counter per piece of memory: a tensor, its views and its detach() copies share one list. Each "
           "write into that memory adds one, and a saved tensor compares the count now with the count it saw."),
        N_("A view takes its input's counter itself (not a copy); each write of an in-place operation, and each "
           "item assignment that records nothing, counts one change; a saved result written into a tensor follows "
           "that tensor's counter from its version now; unpacking a saved tensor raises 6.5's error when the "
           "counter has moved since it was saved."),
    ),
    "C6": (
        N_("One hook per tensor collects the gradients of the pass in progress; the first to arrive also asks "
           "the engine to call something at the end of the pass (queue_callback), which hands them all to fn."),
        N_("Keep a dict position -> gradient for the pass. Each tensor's hook stores its gradient; the first one "
           "of a pass queues the end-of-pass callback, and in mode \"any\" calls fn with its own gradient. At the "
           "end: in mode \"all\", call fn with one entry per tensor (None where nothing arrived); empty the dict "
           "for the next pass. The handle removes every tensor's hook."),
    ),
}
