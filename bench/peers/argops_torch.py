"""PyTorch (and numpy) peers of the argops cases: torch.argmax / np.argmax over the vocabulary of
[256,32000] f32 logits, torch.topk(k=50, sorted), and F.one_hot of 4096 indices with depth 1000
(PyTorch writes s64; its time is reported against both our f32 and s64 rows, per output element)."""
from peer_common import THREADS, selected, best_time, emit

if selected("argops"):
    try:
        import numpy as np
    except ImportError:
        np = None
    try:
        import torch
        import torch.nn.functional as F
    except ImportError:
        torch = None

    rows, cols = 256, 32000
    if np is not None:
        x = (np.random.default_rng(1).random((rows, cols), dtype=np.float32) * 20 - 10).astype(np.float32)
        t = best_time(lambda: np.argmax(x, axis=-1))
        emit("arg_max f32", 1, "numpy", t, rows * cols)
    if torch is not None:
        xt = torch.rand(rows, cols, dtype=torch.float32) * 20 - 10
        idx = torch.randint(0, 1000, (4096,), dtype=torch.int64)
        for n in THREADS:
            torch.set_num_threads(n)
            t = best_time(lambda: torch.argmax(xt, dim=-1))
            emit("arg_max f32", n, "torch", t, rows * cols)
            t = best_time(lambda: torch.topk(xt, 50, dim=-1, largest=True, sorted=True))
            emit("top_k k=50 f32", n, "torch", t, rows * cols)
            t = best_time(lambda: F.one_hot(idx, 1000))
            emit("one_hot f32", n, "torch(s64)", t, 4096 * 1000)
            emit("one_hot s64", n, "torch", t, 4096 * 1000)
