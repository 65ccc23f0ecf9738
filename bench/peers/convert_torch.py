"""numpy and PyTorch peers of the convert/compare cases (bench/bench_convert.h), same shapes and dtypes:
numpy astype / transpose().copy() / == / < / logical_and (numpy runs one thread; it has no bf16),
PyTorch .to() / .contiguous(memory_format=torch.channels_last) / torch.eq / torch.lt /
torch.logical_and at the bench's thread counts. Each is
skipped when not installed."""
from peer_common import THREADS, selected, best_time, emit

try:
    import numpy as np
except ImportError:
    raise SystemExit(0)
try:
    import torch
except ImportError:
    torch = None

if selected("convert compare"):
    rng = np.random.default_rng(1)
    big = (rng.standard_normal((4096, 4096)) * 1000).astype(np.float32)
    big2 = (rng.standard_normal((4096, 4096)) * 1000).astype(np.float32)
    nchw = rng.standard_normal((8, 64, 128, 128)).astype(np.float32)
    mask = (rng.random((8, 1, 1, 512)) < 0.5).astype(np.int64)
    ba, bb = rng.random((4096, 4096)) < 0.5, rng.random((4096, 4096)) < 0.5
    out16 = np.empty((4096, 4096), np.float16)
    numpy_cases = [
        ("convert f32->f16", big.size, lambda: out16.__setitem__(Ellipsis, big)),  # astype into a kept buffer
        ("convert NCHW->NHWC", nchw.size, lambda: np.ascontiguousarray(nchw.transpose(0, 2, 3, 1))),
        ("compare mask==0 s64", mask.size, lambda: mask == 0),
        ("compare lt f32", big.size, lambda: big < big2),
        ("logical and bool", ba.size, lambda: np.logical_and(ba, bb)),
    ]
    for name, elems, fn in numpy_cases:
        emit(name, 1, "numpy", best_time(fn), elems)
    if torch is not None:
        tb, tb2, tn, tm, tba, tbb = (torch.from_numpy(a) for a in (big, big2, nchw, mask, ba, bb))
        torch_cases = [
            ("convert f32->bf16", tb.numel(), lambda: tb.to(torch.bfloat16)),
            ("convert f32->f16", tb.numel(), lambda: tb.to(torch.float16)),
            ("convert NCHW->NHWC", tn.numel(), lambda: tn.contiguous(memory_format=torch.channels_last)),
            ("compare mask==0 s64", tm.numel(), lambda: torch.eq(tm, 0)),
            ("compare lt f32", tb.numel(), lambda: torch.lt(tb, tb2)),
            ("logical and bool", tba.numel(), lambda: torch.logical_and(tba, tbb)),
        ]
        for threads in THREADS:
            torch.set_num_threads(threads)
            for name, elems, fn in torch_cases:
                emit(name, threads, "torch", best_time(fn), elems)
