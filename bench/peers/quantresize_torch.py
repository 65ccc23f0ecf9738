"""PyTorch peers of the quantresize group: torch.quantize_per_tensor / quantize_per_channel
(qint8, axis 0), .dequantize(), and F.interpolate x2 nearest and bilinear (align_corners=False,
i.e. half_pixel) on [8,64,128,128], bicubic x2 of it, and bilinear antialias=True x0.5 of
[8,64,256,256]. Case names match bench/bench_quantresize.h."""
from peer_common import selected, best_time, emit

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
    for n in (1, 2):
        torch.set_num_threads(n)
        emit("quantize per-tensor", n, "torch", best_time(lambda: torch.quantize_per_tensor(x, 0.3, 1, torch.qint8)), R * C)
        emit("quantize per-channel", n, "torch",
             best_time(lambda: torch.quantize_per_channel(x, scales, zps, 0, torch.qint8)), R * C)
        emit("dequantize per-tensor", n, "torch", best_time(lambda: qt.dequantize()), R * C)
        emit("dequantize per-channel", n, "torch", best_time(lambda: qc.dequantize()), R * C)
        out = 8 * 64 * 256 * 256
        emit("resize nearest x2 NCHW", n, "torch",
             best_time(lambda: F.interpolate(img, scale_factor=2, mode="nearest")), out)
        emit("resize linear x2 NCHW", n, "torch",
             best_time(lambda: F.interpolate(img, scale_factor=2, mode="bilinear", align_corners=False)), out)
        emit("resize bicubic x2 NCHW", n, "torch",
             best_time(lambda: F.interpolate(img, scale_factor=2, mode="bicubic", align_corners=False)), out)
        emit("resize bilinear antialias x0.5 NCHW", n, "torch",
             best_time(lambda: F.interpolate(big, scale_factor=0.5, mode="bilinear", align_corners=False, antialias=True)),
             8 * 64 * 128 * 128)
