"""Chapter 4's guarded expressions, by step (what they are for: ``steps/__init__.py``)."""

GUARDED = {
    "4.1": ("gradient._array.astype(output._array.dtype",),
    "4.2": ("variable._grad + grad", "np.add(variable._grad._array, grad, out="),
    "4.3": ("tensor._array[...] = 0",),
    "4.4": ("value.release()",),
    "4.5": ("dx y + x dy", "dA B + A dB", "dx / y - x dy / y**2", "tangent_self * other", "self_ * tangent_other",
            "tangent_self / other", "tangent_other * self_ / (other * other)", "tangent_self @ mat2",
            "self_ @ tangent_mat2", "tangent * (exponent * _power(self_, exponent - 1))",
            r"-x\,\dot y / y^2", r"n x^{n-1} \dot x", r"(a'b + ab')\varepsilon", "1/x_2 & -x_1/x_2^2",
            "$1/y$ changes like $-1/y^2$", "$1/y$ 的变化率是 $-1/y^2$", "the tangent of the product is the product rule",
            "乘积的切向量自动就是乘积法则"),
    "4.6": ("seed.view(-1)[i] = 1", "and you get $e_i^T J$, row $i$", "得到 $e_i^T J$，即第 $i$ 行"),
    "4.7": ("tangent.view(-1)[j] = 1", "forward mode gives $J e_j$, column $j$", "前向模式就给出 $J e_j$，即第 $j$ 列"),
    "4.8": ("grad.squeeze(dim)", "grad.shape[:dim] + (1,) + grad.shape[dim:]", "inverse[source] = axis",
            "np.swapaxes(grad, dim0, dim1)", "grad.transpose(dim0, dim1)"),
    "C4": ("self.tangent * other.value + self.value * other.tangent", "np.cos(self.value) * self.tangent",
           "value * self.tangent", "self.tangent + other.tangent", r"since $2 \cdot 2 + 3 = 7$",
           r"因为 $2 \cdot 2 + 3 = 7$"),
}
