"""PyTorch's own messages that speak of PyTorch itself (its C++ sources, DistributedDataParallel, its
optimizer's file), word for word: code written for PyTorch prints them, and the tests compare them with
PyTorch's. They live here, out of the files a learner edits, where they would say nothing about the exercise.
"""

DETACH_VIEW_IN_PLACE = (
    "Can't detach views in-place. Use detach() instead. If you are using DistributedDataParallel (DDP) "
    "for training, and gradient_as_bucket_view is set as True, gradients are views of DDP buckets, and "
    "hence detach_() cannot be called on these gradients. To fix this error, please refer to the "
    "Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution."
)
CREATE_GRAPH_CYCLE = (
    "Using backward() with create_graph=True will create a reference cycle between the parameter and its "
    "gradient which can cause a memory leak. We recommend using autograd.grad when creating the graph to avoid "
    "this. If you have to use this function, make sure to reset the .grad fields of your parameters to None "
    "after use to break the cycle and avoid the leak. (Triggered internally at "
    "/__w/pytorch/pytorch/torch/csrc/autograd/engine.cpp:1307.)"
)
T_OF_A_SCALAR = (
    "Tensor.T is deprecated on 0-D tensors. This function is the identity in these cases. (Triggered internally "
    "at /__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:4321.)"
)
T_REVERSING_DIMENSIONS = (
    "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated and it will "
    "throw an error in a future release. Consider `x.mT` to transpose batches of matrices or "
    "`x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a tensor. (Triggered internally "
    "at /__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:4314.)"
)
