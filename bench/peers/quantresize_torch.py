"""PyTorch peers of the quantresize group: torch.quantize_per_tensor / quantize_per_channel
(qint8, axis 0), .dequantize(), and F.interpolate x2 nearest and bilinear (align_corners=False,
i.e. half_pixel) on [8,64,128,128], bicubic x2 of it, and bilinear antialias=True x0.5 of
[8,64,256,256]. Case names match bench/bench_quantresize.h."""
from peer_common import THREADS, selected, best_time, emit

try:
    import torch
    import torch.nn.functional as F
except ImportError:
    raise SystemExit(0)

if selected("quantresize"):
    R = C = 4096
    x = (torch.arange(R * C, dtype=torch.float32) % 10007 * 0.01 - 50.0).reshape(R, C)
    scales = 0.25 + 0.001 * (torch.arange(R, dtype=torch.float64) % 100)
    zps = torch.arange(R, dtype=torch.int64) % 7 - 3
    qt = torch.quantize_per_tensor(x, 0.3, 1, torch.qint8)
    qc = torch.quantize_per_channel(x, scales, zps, 0, torch.qint8)
    img = torch.rand(8, 64, 128, 128)
    big = torch.rand(8, 64, 256, 256)
    q4 = torch.randint(0, 256, (R, C // 2), dtype=torch.uint8)
    s4 = (0.25 + 0.001 * (torch.arange(R * C // 32) % 100)).to(torch.float16).reshape(R, C // 32)
    q8 = torch.randint(-128, 128, (R, C), dtype=torch.int8)
    s8b = (0.25 + 0.001 * (torch.arange(R * C // 128) % 100)).float().reshape(R, C // 128)
    for n in THREADS:
        torch.set_num_threads(n)
        emit("quantize per-tensor", n, "torch", best_time(lambda: torch.quantize_per_tensor(x, 0.3, 1, torch.qint8)), R * C)
        emit("quantize per-channel", n, "torch",
             best_time(lambda: torch.quantize_per_channel(x, scales, zps, 0, torch.qint8)), R * C)
        emit("dequantize per-tensor", n, "torch", best_time(lambda: qt.dequantize()), R * C)
        emit("dequantize per-channel", n, "torch", best_time(lambda: qc.dequantize()), R * C)
        out = 8 * 64 * 256 * 256
        emit("resize nearest x2 NCHW", n, "torch",
             best_time(lambda: F.interpolate(img, scale_factor=2, mode="nearest")), out)
        # issue #29 rows. torch 1.13 has no fp8 dtype: no peer for "quantize fp8 e4m3". u4 blocked 32
        # has no torch dtype either: the peer unpacks the nibbles (& 15, >> 4, interleaved) and
        # multiplies by the f16 scales per block of 32 in f32 -- the same result, in torch ops. s8
        # blocked 128: int8 -> f32 times the scale per block of 128 (torch's per-channel qtensor
        # has one scale per row, not per block).
        emit("dequantize u4 blocked 32", n, "torch", best_time(lambda: torch.stack(
            ((q4 & 15), (q4 >> 4)), dim=2).reshape(R, C // 32, 32).float().mul_(s4.float().unsqueeze(2)).reshape(R, C)), R * C)
        emit("dequantize s8 blocked 128", n, "torch", best_time(
            lambda: q8.float().reshape(R, C // 128, 128).mul_(s8b.unsqueeze(2)).reshape(R, C)), R * C)
        emit("resize linear x2 NCHW", n, "torch",
             best_time(lambda: F.interpolate(img, scale_factor=2, mode="bilinear", align_corners=False)), out)
        emit("resize bicubic x2 NCHW", n, "torch",
             best_time(lambda: F.interpolate(img, scale_factor=2, mode="bicubic", align_corners=False)), out)
        emit("resize bilinear antialias x0.5 NCHW", n, "torch",
             best_time(lambda: F.interpolate(big, scale_factor=0.5, mode="bilinear", align_corners=False, antialias=True)),
             8 * 64 * 128 * 128)
