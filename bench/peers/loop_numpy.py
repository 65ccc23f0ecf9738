"""numpy peer of the loop-engine copy cases (np.copyto over the same views)."""
from peer_common import selected, best_time, emit

try:
    import numpy as np
except ImportError:
    raise SystemExit(0)

if selected("loop"):
    cases = [
        ("loop copy dense", np.zeros((4096, 1024), np.float32), np.arange(4096 * 1024, dtype=np.float32).reshape(4096, 1024)),
        ("loop copy row broadcast", np.zeros((4096, 1024), np.float32), np.arange(1024, dtype=np.float32)[None, :]),
        ("loop copy [N,3] of [N,4]", np.zeros((1 << 20, 3), np.float32), np.ones((1 << 20, 4), np.float32)[:, :3]),
    ]
    for name, dst, src in cases:
        t = best_time(lambda: np.copyto(dst, src))
        emit(name, 1, "numpy", t, dst.size)
