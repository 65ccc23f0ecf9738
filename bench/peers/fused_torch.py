"""PyTorch peer of the fused bench (masked softmax + dropout): the sequence PyTorch runs,
x.masked_fill(mask, -inf).softmax(-1) then F.dropout(p=0.1) forward, and native_dropout_backward
then _softmax_backward_data backward, [8,12,512,512] f32 with a [8,1,1,512] boolean mask, 1 and 2
threads. The forward number is shown against every engine's row."""
from peer_common import THREADS, selected, best_time, emit

try:
    import torch
    import torch.nn.functional as F
except ImportError:
    raise SystemExit(0)

if selected("fused"):
    shape = (8, 12, 512, 512)
    name = "x".join(str(d) for d in shape)
    n = 8 * 12 * 512 * 512
    x = torch.randn(shape)
    mask = torch.zeros((8, 1, 1, 512), dtype=torch.bool)
    mask[..., 448:] = True
    g = torch.randn(shape)
    p = x.masked_fill(mask, float("-inf")).softmax(-1)
    keep = torch.rand(shape) > 0.1
    for th in THREADS:
        torch.set_num_threads(th)
        t = best_time(lambda: F.dropout(x.masked_fill(mask, float("-inf")).softmax(-1), p=0.1, training=True))
        for eng in ("mcg31", "philox", "mt19937"):
            emit(f"fused masked_softmax_dropout fwd f32 {name} {eng}", th, "torch", t, n)
        t = best_time(lambda: torch._softmax_backward_data(
            torch.ops.aten.native_dropout_backward(g, keep, 1.0 / 0.9), p, -1, torch.float32))
        emit(f"fused masked_softmax_dropout bwd f32 {name}", th, "torch", t, n)
