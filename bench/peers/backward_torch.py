"""PyTorch peers of the backward group: torch.ops.aten.native_layer_norm_backward ([4096,768] f32,
weight and bias, all three gradients) and upsample_bilinear2d_backward (diff_dst [4,32,128,128] to
[4,32,64,64], align_corners=False), at the bench's thread counts. Case names match bench/bench_backward.h;
elements counted: diff_dst's."""
from peer_common import THREADS, selected, best_time, emit

try:
    import torch
except ImportError:
    raise SystemExit(0)

if selected("backward"):
    for threads in THREADS:
        torch.set_num_threads(threads)
        rows, n = 4096, 768
        x = torch.rand(rows, n) * 4 - 1.5
        dy = torch.rand(rows, n) * 2 - 1
        w = torch.ones(n)
        b = torch.zeros(n)
        _, mean, rstd = torch.ops.aten.native_layer_norm(x, [n], w, b, 1e-5)
        t = best_time(lambda: torch.ops.aten.native_layer_norm_backward(dy, x, [n], mean, rstd, w, b,
                                                                         [True, True, True]))
        emit("layer_norm_bwd 4096x768", threads, "torch", t, x.numel())
        g = torch.rand(4, 32, 128, 128) - 0.5
        t = best_time(lambda: torch.ops.aten.upsample_bilinear2d_backward(g, [128, 128], [4, 32, 64, 64], False,
                                                                          None, None))
        emit("resize_bwd linear x2 NCHW", threads, "torch", t, g.numel())
