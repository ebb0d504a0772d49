# pytorch test/test_autograd.py, the saved-tensors hooks tests: what the pack hook sees for common operations, in order.
import torch

seen = []


def pack(t):
    seen.append(t.tolist() if t.numel() < 4 else tuple(t.shape))
    return t


a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
    p = a * b
    print("mul", seen); seen.clear()
    q = a / b
    print("div", seen); seen.clear()
    r = torch.matmul(a.view(1, 2), b.view(2, 1))
    print("matmul", seen); seen.clear()
    s = a.exp()
    print("exp", seen); seen.clear()
    t = a.pow(2)
    print("pow", seen); seen.clear()
    u = torch.where(a > 1, a, b)
    print("where", seen); seen.clear()
(p.sum() + q.sum() + r.sum() + s.sum() + t.sum() + u.sum()).backward()
print(a.grad, b.grad)
