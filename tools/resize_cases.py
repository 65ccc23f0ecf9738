#!/usr/bin/env python3
"""Writes tests/resize_cases.h: outputs of PyTorch's F.interpolate (bicubic with align_corners
true/false, bilinear and bicubic with antialias=True) and of onnx.reference's Resize (the modes only
ONNX has: half_pixel_symmetric, tf_crop_and_resize, keep_aspect_ratio_policy, exclude_outside,
cubic_coeff_a, antialias with edge padding) on small inputs, for test_resize.c to compare against.

Run with a Python that has onnx (e.g. /work/main/.venv/bin/python tools/resize_cases.py); it runs
itself again under /usr/bin/python3 (or $TORCH_PYTHON) for the PyTorch values. Each PyTorch case is
also run through onnx.reference with the ONNX attributes the test gives dnnlk_resize, and the
script stops if the two disagree: that checks the mapping (PyTorch's antialias is ONNX's with
exclude_outside = 1; its antialiased bicubic uses a = -0.5). The input of every case is
x[i] = f32(((37 i) mod 101) * 0.1 - 5), row-major, as the test builds it."""
import json
import os
import subprocess
import sys

import numpy as np

# name, source dims, ONNX attributes (mode, coord, ...), scales or sizes over axes (2, 3), and for
# PyTorch cases the F.interpolate call.
TORCH_CASES = [
    ("torch bicubic x2 align_corners=False", [1, 2, 4, 5], dict(mode="cubic", coord="half_pixel", scales=[2.0, 2.0]),
     dict(mode="bicubic", scale_factor=2.0, align_corners=False)),
    ("torch bicubic size 3x4 align_corners=False", [1, 2, 5, 7],
     dict(mode="cubic", coord="pytorch_half_pixel", sizes=[3, 4]), dict(mode="bicubic", size=(3, 4), align_corners=False)),
    ("torch bicubic size 7x9 align_corners=True", [1, 1, 4, 5], dict(mode="cubic", coord="align_corners", sizes=[7, 9]),
     dict(mode="bicubic", size=(7, 9), align_corners=True)),
    ("torch bicubic size 3x4 align_corners=True", [1, 1, 5, 7], dict(mode="cubic", coord="align_corners", sizes=[3, 4]),
     dict(mode="bicubic", size=(3, 4), align_corners=True)),
    ("torch bilinear antialias size 3x4", [1, 2, 7, 9],
     dict(mode="linear", coord="pytorch_half_pixel", sizes=[3, 4], antialias=1, exclude_outside=1),
     dict(mode="bilinear", size=(3, 4), align_corners=False, antialias=True)),
    ("torch bicubic antialias size 3x4", [1, 2, 7, 9],
     dict(mode="cubic", coord="pytorch_half_pixel", sizes=[3, 4], antialias=1, exclude_outside=1, cubic_coeff_a=-0.5),
     dict(mode="bicubic", size=(3, 4), align_corners=False, antialias=True)),
    ("torch bicubic antialias size 3x7 (down, up)", [1, 1, 7, 4],
     dict(mode="cubic", coord="pytorch_half_pixel", sizes=[3, 7], antialias=1, exclude_outside=1, cubic_coeff_a=-0.5),
     dict(mode="bicubic", size=(3, 7), align_corners=False, antialias=True)),
    ("torch bilinear antialias size 2x3 from 11x13", [1, 1, 11, 13],
     dict(mode="linear", coord="pytorch_half_pixel", sizes=[2, 3], antialias=1, exclude_outside=1),
     dict(mode="bilinear", size=(2, 3), align_corners=False, antialias=True)),
]

ONNX_CASES = [
    ("onnx cubic half_pixel_symmetric 0.6/1.7", [1, 1, 5, 7], dict(mode="cubic", coord="half_pixel_symmetric", scales=[0.6, 1.7])),
    ("onnx linear half_pixel_symmetric 1.7/0.6", [1, 2, 5, 7], dict(mode="linear", coord="half_pixel_symmetric", scales=[1.7, 0.6])),
    ("onnx nearest floor half_pixel_symmetric 0.7/2.3", [1, 1, 5, 7],
     dict(mode="nearest", coord="half_pixel_symmetric", nearest="floor", scales=[0.7, 2.3])),
    ("onnx cubic tf_crop_and_resize sizes 4x6", [1, 1, 5, 7],
     dict(mode="cubic", coord="tf_crop_and_resize", sizes=[4, 6], roi=[0.2, -0.1, 0.9, 1.1], extrapolation_value=10.0)),
    ("onnx linear tf_crop_and_resize 0.8/1.5", [1, 2, 5, 7],
     dict(mode="linear", coord="tf_crop_and_resize", scales=[0.8, 1.5], roi=[-0.3, 0.1, 0.6, 0.8], extrapolation_value=-7.5)),
    ("onnx nearest tf_crop_and_resize sizes 3x5", [1, 1, 5, 7],
     dict(mode="nearest", coord="tf_crop_and_resize", nearest="round_prefer_ceil", sizes=[3, 5], roi=[0.1, -0.2, 0.7, 1.3],
          extrapolation_value=3.0)),
    ("onnx linear tf_crop_and_resize one output", [1, 1, 5, 7],
     dict(mode="linear", coord="tf_crop_and_resize", sizes=[1, 1], roi=[0.3, 0.2, 0.6, 0.5])),
    ("onnx cubic not_larger sizes 3x10", [1, 1, 5, 7], dict(mode="cubic", coord="half_pixel", sizes=[3, 10], keep_aspect="not_larger")),
    ("onnx linear not_smaller sizes 3x10", [1, 1, 5, 7], dict(mode="linear", coord="align_corners", sizes=[3, 10], keep_aspect="not_smaller")),
    ("onnx nearest not_larger sizes 9x9", [1, 1, 5, 7], dict(mode="nearest", coord="asymmetric", sizes=[9, 9], keep_aspect="not_larger")),
    ("onnx cubic exclude_outside a=-0.5 asymmetric 2/1.5", [1, 1, 4, 5],
     dict(mode="cubic", coord="asymmetric", scales=[2.0, 1.5], exclude_outside=1, cubic_coeff_a=-0.5)),
    ("onnx linear antialias 0.5/0.6", [1, 2, 8, 9], dict(mode="linear", coord="half_pixel", scales=[0.5, 0.6], antialias=1)),
    ("onnx cubic antialias align_corners 0.45/0.7", [1, 1, 9, 8],
     dict(mode="cubic", coord="align_corners", scales=[0.45, 0.7], antialias=1)),
    ("onnx cubic antialias exclude_outside 0.3/1.4", [1, 1, 11, 5],
     dict(mode="cubic", coord="half_pixel", scales=[0.3, 1.4], antialias=1, exclude_outside=1)),
    ("onnx cubic asymmetric 0.6, one output row", [1, 1, 2, 7], dict(mode="cubic", coord="asymmetric", scales=[0.6, 0.6])),
]


def source(dims):
    n = int(np.prod(dims))
    return np.array([((37 * i) % 101) * 0.1 - 5.0 for i in range(n)], dtype=np.float64).astype(np.float32).reshape(dims)


def torch_values():
    import torch
    import torch.nn.functional as F
    out = []
    for name, dims, _, call in TORCH_CASES:
        y = F.interpolate(torch.from_numpy(source(dims)), **call)
        out.append(dict(version=torch.__version__, dims=list(y.shape), y=[float(v) for v in y.numpy().ravel()]))
    return out


def onnx_values(dims, a):
    from onnx.reference.ops.op_resize import Resize
    x = source(dims)
    kw = dict(mode=a["mode"], coordinate_transformation_mode=a["coord"], axes=[2, 3], antialias=a.get("antialias", 0),
              cubic_coeff_a=a.get("cubic_coeff_a", -0.75), exclude_outside=a.get("exclude_outside", 0),
              extrapolation_value=a.get("extrapolation_value", 0.0),
              keep_aspect_ratio_policy=a.get("keep_aspect", "stretch"), nearest_mode=a.get("nearest", "round_prefer_floor"))
    roi = np.array(a["roi"], dtype=np.float32) if "roi" in a else None
    scales = np.array(a["scales"], dtype=np.float32) if "scales" in a else None
    sizes = np.array(a["sizes"], dtype=np.int64) if "sizes" in a else None
    (y,) = Resize._run(None, x, roi, scales, sizes, **kw)
    return list(y.shape), [float(v) for v in np.asarray(y, dtype=np.float32).ravel()]


def c_str(s):
    return '"' + s.replace('"', '\\"') + '"'


def main():
    if "--torch" in sys.argv:
        json.dump(torch_values(), sys.stdout)
        return
    import onnx
    tp = os.environ.get("TORCH_PYTHON", "/usr/bin/python3")
    tv = json.loads(subprocess.run([tp, os.path.abspath(__file__), "--torch"], check=True, capture_output=True, text=True).stdout)
    rows = []
    for (name, dims, a, _), t in zip(TORCH_CASES, tv):
        od, oy = onnx_values(dims, a)
        diff = max(abs(p - q) for p, q in zip(oy, t["y"])) if od == t["dims"] else float("inf")
        if not diff <= 2e-5:
            sys.exit(f"{name}: PyTorch and onnx.reference differ by {diff}: the ONNX attributes do not match the call")
        rows.append((name, dims, a, t["dims"], t["y"]))
    for name, dims, a in ONNX_CASES:
        od, oy = onnx_values(dims, a)
        rows.append((name, dims, a, od, oy))
    modes = dict(nearest="dnnlk_resize_nearest", linear="dnnlk_resize_linear", cubic="dnnlk_resize_cubic")
    coords = dict(half_pixel="dnnlk_resize_half_pixel", pytorch_half_pixel="dnnlk_resize_pytorch_half_pixel",
                  align_corners="dnnlk_resize_align_corners", asymmetric="dnnlk_resize_asymmetric",
                  half_pixel_symmetric="dnnlk_resize_half_pixel_symmetric", tf_crop_and_resize="dnnlk_resize_tf_crop_and_resize")
    rules = dict(round_prefer_floor="dnnlk_resize_round_prefer_floor", round_prefer_ceil="dnnlk_resize_round_prefer_ceil",
                 floor="dnnlk_resize_floor", ceil="dnnlk_resize_ceil")
    aspects = dict(stretch="dnnlk_resize_stretch", not_larger="dnnlk_resize_not_larger", not_smaller="dnnlk_resize_not_smaller")
    out = [f"/* Generated by tools/resize_cases.py (PyTorch {tv[0]['version']}, onnx {onnx.__version__} onnx.reference); do not edit. */",
           "typedef struct resize_case {",
           "    const char *name;",
           "    int64_t in[4], out[4];",
           "    dnnlk_resize_mode mode;",
           "    dnnlk_resize_coord coord;",
           "    dnnlk_resize_nearest_round nearest;",
           "    dnnlk_resize_aspect keep_aspect;",
           "    int use_sizes, antialias, exclude_outside;",
           "    float scales[2];",
           "    int64_t sizes[2];",
           "    float cubic_coeff_a, extrapolation_value;",
           "    int nroi;",
           "    float roi[4];",
           "    int n;",
           "    const float *y;",
           "} resize_case;",
           ""]
    for i, (name, dims, a, od, y) in enumerate(rows):
        out.append(f"static const float resize_case_y{i}[{len(y)}] = {{")
        for k in range(0, len(y), 6):
            out.append("    " + ", ".join(f"{np.float32(v)!r}f".replace("np.float32(", "").replace(")", "") for v in y[k:k + 6]) + ",")
        out.append("};")
    out.append("")
    out.append("static const resize_case resize_cases[] = {")
    for i, (name, dims, a, od, y) in enumerate(rows):
        sc = a.get("scales", [0.0, 0.0])
        sz = a.get("sizes", [0, 0])
        roi = a.get("roi", [0.0, 0.0, 0.0, 0.0])
        out.append(f"    {{{c_str(name)}, {{{', '.join(map(str, dims))}}}, {{{', '.join(map(str, od))}}}, {modes[a['mode']]}, "
                   f"{coords[a['coord']]}, {rules[a.get('nearest', 'round_prefer_floor')]}, {aspects[a.get('keep_aspect', 'stretch')]}, "
                   f"{int('sizes' in a)}, {a.get('antialias', 0)}, {a.get('exclude_outside', 0)}, {{{sc[0]!r}f, {sc[1]!r}f}}, "
                   f"{{{sz[0]}, {sz[1]}}}, {a.get('cubic_coeff_a', -0.75)!r}f, {a.get('extrapolation_value', 0.0)!r}f, "
                   f"{4 if 'roi' in a else 0}, {{{', '.join(repr(float(v)) + 'f' for v in roi)}}}, {len(y)}, resize_case_y{i}}},")
    out.append("};")
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "resize_cases.h")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
    print(f"wrote {path}: {len(rows)} cases")


if __name__ == "__main__":
    main()
