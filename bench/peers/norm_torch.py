"""PyTorch peer of the norm bench cases: F.layer_norm (weight and bias) and F.normalize (p=2),
f32, at the bench's thread counts."""
from peer_common import THREADS, selected, best_time, emit

try:
    import torch
    import torch.nn.functional as F
except ImportError:
    raise SystemExit(0)

if selected("norm"):
    for threads in THREADS:
        torch.set_num_threads(threads)
        for rows, n in ((4096, 768), (2048, 4096)):
            x = torch.rand(rows, n) * 4 - 1.5
            w = torch.ones(n)
            b = torch.zeros(n)
            out = torch.empty_like(x)
            t = best_time(lambda: F.layer_norm(x, (n,), w, b, 1e-5))
            emit(f"layer_norm {rows}x{n}", threads, "torch", t, x.numel())
        x = torch.rand(4096, 768) * 4 - 1.5
        t = best_time(lambda: F.normalize(x, p=2.0, dim=1))
        emit("l2_norm 4096x768", threads, "torch", t, x.numel())
