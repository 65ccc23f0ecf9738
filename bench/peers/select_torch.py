"""PyTorch and numpy peers of the select cases: torch.where (at the bench's thread counts) and np.where (numpy
runs one thread) on the same shapes and dtypes as bench/bench_select.h."""
from peer_common import THREADS, selected, best_time, emit

try:
    import numpy as np
except ImportError:
    raise SystemExit(0)
try:
    import torch
except ImportError:
    torch = None


def cases():
    rng = np.random.default_rng(3)
    n16k, n4m, n64m = 16 << 10, 4 << 20, 64 << 20

    def same(n, dt):
        a = rng.integers(0, 255, n, dtype=np.uint8).astype(dt) if dt != np.float32 else rng.random(n, np.float32)
        b = rng.integers(0, 255, n, dtype=np.uint8).astype(dt) if dt != np.float32 else rng.random(n, np.float32)
        return rng.random(n) < 0.5, a, b

    yield "select f32 16K", "f32", same(n16k, np.float32)
    yield "select f32 4M", "f32", same(n4m, np.float32)
    yield "select f32 64M", "f32", same(n64m, np.float32)
    yield "select bf16 4M", "bf16", same(n4m, np.float32)  # numpy has no bf16: torch only
    yield "select u8 4M", "u8", same(n4m, np.uint8)
    x = rng.random((8, 12, 512, 512), np.float32)
    yield "select masked_fill", "f32", (rng.random((8, 1, 1, 512)) < 0.5, x, np.float32(-1e4))
    a = rng.random((1 << 20, 3), np.float32)
    b = rng.random((1 << 20, 3), np.float32)
    yield "select [1M,3] row cond", "f32", (rng.random((1 << 20, 1)) < 0.5, a, b)


if selected("select"):
    for name, dt, (c, a, b) in cases():
        elems = a.size
        if dt != "bf16":
            t = best_time(lambda: np.where(c, a, b))
            emit(name, 1, "numpy", t, elems)
        if torch is not None:
            tc = torch.from_numpy(np.ascontiguousarray(c))
            ta = torch.from_numpy(np.ascontiguousarray(a))
            tb = torch.from_numpy(np.ascontiguousarray(b)) if isinstance(b, np.ndarray) else torch.tensor(b)
            if dt == "bf16":
                ta, tb = ta.to(torch.bfloat16), tb.to(torch.bfloat16)
            for threads in THREADS:
                torch.set_num_threads(threads)
                t = best_time(lambda: torch.where(tc, ta, tb))
                emit(name, threads, "torch", t, elems)
        del c, a, b
