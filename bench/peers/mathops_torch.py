"""PyTorch peer of the mathops bench: softmax, log_softmax, gelu (both approximations) and erf,
f32, at the bench's thread counts. Keys match bench/bench_mathops.h's case names."""
from peer_common import THREADS, selected, best_time, emit

try:
    import torch
except ImportError:
    raise SystemExit(0)

if selected("mathops"):
    torch.manual_seed(0)
    cases = [
        ("softmax 49152x512", (49152, 512), lambda x, y: torch.softmax(x, -1)),
        ("log_softmax 49152x512", (49152, 512), lambda x, y: torch.log_softmax(x, -1)),
        ("softmax 256x32000", (256, 32000), lambda x, y: torch.softmax(x, -1)),
        ("log_softmax 256x32000", (256, 32000), lambda x, y: torch.log_softmax(x, -1)),
        ("gelu_erf 4096x3072", (4096, 3072), lambda x, y: torch.nn.functional.gelu(x)),
        ("gelu_tanh 4096x3072", (4096, 3072), lambda x, y: torch.nn.functional.gelu(x, approximate="tanh")),
        ("erf 4096x3072", (4096, 3072), lambda x, y: torch.erf(x, out=y)),
    ]
    for threads in THREADS:
        torch.set_num_threads(threads)
        for name, shape, fn in cases:
            x = torch.randn(shape) * 3
            y = torch.empty(shape)
            t = best_time(lambda: fn(x, y))
            emit(name, threads, "torch", t, x.numel())
