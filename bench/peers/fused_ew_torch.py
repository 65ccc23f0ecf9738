"""PyTorch peer of the fused_ew bench: the unfused sequences a PyTorch training step runs, f32,
rate 0.1, at the bench's thread counts. bias + dropout + residual [4096,768]: x + bias, F.dropout, + residual;
backward: native_dropout_backward and the bias gradient's column sum (the residual's gradient is
diff_dst itself). gelu + dropout [4096,3072]: F.gelu, F.dropout; backward: native_dropout_backward
then gelu_backward. Each forward number is shown against every engine's row."""
from peer_common import THREADS, selected, best_time, emit

try:
    import torch
    import torch.nn.functional as F
except ImportError:
    raise SystemExit(0)

if selected("fused_ew"):
    torch.manual_seed(0)
    for gelu, (rows, cols) in ((0, (4096, 768)), (1, (4096, 3072))):
        name = f"{rows}x{cols}"
        n = rows * cols
        op = "gelu_dropout" if gelu else "bias_dropout_residual"
        x = torch.randn(rows, cols)
        bias = torch.randn(cols)
        res = torch.randn(rows, cols)
        g = torch.randn(rows, cols)
        mask = torch.rand(rows, cols) > 0.1
        for th in THREADS:
            torch.set_num_threads(th)
            if gelu:
                fwd = lambda: F.dropout(F.gelu(x), p=0.1, training=True)
                def bwd():
                    d = torch.ops.aten.native_dropout_backward(g, mask, 1.0 / 0.9)
                    return torch.ops.aten.gelu_backward(d, x)
            else:
                fwd = lambda: res + F.dropout(x + bias, p=0.1, training=True)
                def bwd():
                    d = torch.ops.aten.native_dropout_backward(g, mask, 1.0 / 0.9)
                    return d, d.sum(0)
            t = best_time(fwd)
            for eng in ("mcg31", "philox", "mt19937"):
                emit(f"{op} fwd f32 {name} {eng}", th, "torch", t, n)
            emit(f"{op} bwd f32 {name}", th, "torch", best_time(bwd), n)
