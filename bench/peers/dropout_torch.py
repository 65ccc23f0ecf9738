"""PyTorch peer of the dropout bench: F.dropout (training) forward and native_dropout_backward, rate 0.1,
f32 and bf16, at the bench's thread counts. The forward number is shown against every engine's row."""
from peer_common import THREADS, selected, best_time, emit

try:
    import torch
    import torch.nn.functional as F
except ImportError:
    raise SystemExit(0)

if selected("dropout"):
    for shape in ((8, 512, 768), (8, 12, 512, 512)):
        name = "x".join(str(d) for d in shape)
        n = 1
        for d in shape:
            n *= d
        for dt, dn in ((torch.float32, "f32"), (torch.bfloat16, "bf16")):
            x = torch.randn(shape).to(dt)
            g = torch.randn(shape).to(dt)
            mask = torch.rand(shape) > 0.1
            for th in THREADS:
                torch.set_num_threads(th)
                t = best_time(lambda: F.dropout(x, p=0.1, training=True))
                for eng in ("mcg31", "philox", "mt19937"):
                    emit(f"dropout fwd {dn} {name} {eng}", th, "torch", t, n)
                t = best_time(lambda: torch.ops.aten.native_dropout_backward(g, mask, 1.0 / 0.9))
                emit(f"dropout bwd {dn} {name}", th, "torch", t, n)
