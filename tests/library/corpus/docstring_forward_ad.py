# PyTorch docstrings of torch.autograd.forward_ad: dual_level, make_dual, unpack_dual and its named tuple.
import torch
import torch.autograd.forward_ad as fwAD

x = torch.tensor([1.0, 2.0, 3.0])
with fwAD.dual_level():
    inp = fwAD.make_dual(x, torch.tensor([1.0, 0.0, 0.0]))
    out = torch.sin(inp) * inp
    unpacked = fwAD.unpack_dual(out)
    print(type(unpacked).__name__, unpacked._fields)
    print(unpacked.primal, unpacked.tangent)
    print(fwAD.unpack_dual(x).tangent)
    try:
        fwAD.make_dual(x, torch.ones(2))
    except RuntimeError as error:
        print("RuntimeError:", error)
print(fwAD.unpack_dual(out).tangent)
