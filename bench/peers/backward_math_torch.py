"""PyTorch peer of the backward bench: aten._softmax_backward_data and aten.gelu_backward (both
approximations), f32, at the bench's thread counts. Keys match bench/bench_backward.h's case names."""
from peer_common import THREADS, selected, best_time, emit

try:
    import torch
except ImportError:
    raise SystemExit(0)

if selected("backward"):
    torch.manual_seed(0)
    cases = [
        ("softmax_bwd 49152x512", (49152, 512),
         lambda a, g: torch.ops.aten._softmax_backward_data(g, a, -1, torch.float32)),
        ("gelu_erf_bwd 4096x3072", (4096, 3072), lambda a, g: torch.ops.aten.gelu_backward(g, a)),
        ("gelu_tanh_bwd 4096x3072", (4096, 3072), lambda a, g: torch.ops.aten.gelu_backward(g, a, approximate="tanh")),
    ]
    for threads in THREADS:
        torch.set_num_threads(threads)
        for name, shape, fn in cases:
            a = torch.randn(shape) * 3
            if name.startswith("softmax"):
                a = torch.softmax(a, -1)
            g = torch.rand(shape) * 2 - 1
            t = best_time(lambda: fn(a, g))
            emit(name, threads, "torch", t, a.numel())
