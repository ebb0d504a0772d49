# d2l-zh, 自动求导 (autograd): 简单例子、非标量的反向传播、分离计算、Python 控制流, as the Chinese edition runs them.
import torch

x = torch.arange(4.0)
x.requires_grad_(True)  # 等价于 x = torch.arange(4.0, requires_grad=True)
print(x.grad)  # 默认值是 None
y = 2 * torch.dot(x, x)
print(y)
y.backward()
print(x.grad, x.grad == 4 * x)

# 默认情况下梯度会累积, 先清零
x.grad.zero_()
y = x.sum()
y.backward()
print(x.grad)

# 非标量: 只要偏导数之和, 先求和再反向传播
x.grad.zero_()
y = x * x
y.sum().backward()
print(x.grad)

# 分离计算: u 被当作常数
x.grad.zero_()
y = x * x
u = y.detach()
z = u * x
z.sum().backward()
print(x.grad == u)
x.grad.zero_()
y.sum().backward()
print(x.grad == 2 * x)


def f(a):
    b = a * 2
    while b.norm() < 1000:
        b = b * 2
    if b.sum() > 0:
        c = b
    else:
        c = 100 * b
    return c


torch.manual_seed(2)
a = torch.randn(size=(), requires_grad=True)
d = f(a)
d.backward()
print(a.grad == d / a)
