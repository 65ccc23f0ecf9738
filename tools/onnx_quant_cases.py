#!/usr/bin/env python3
"""Writes tests/onnx_quant_cases.h: ONNX's reference QuantizeLinear / DequantizeLinear (opset 21,
onnx.reference) on small inputs, for every quantized dtype and granularity the library has, as C
literals that tests/test_quant.c checks dnnlk_quantize_linear / dnnlk_dequantize_linear against.

    .venv/bin/python tools/onnx_quant_cases.py > tests/onnx_quant_cases.h

(needs PyPI's onnx; written with onnx 1.23.2). Inputs come from a fixed seed. Values where ONNX's
reference is not the op's definition are left out, and why is said below:
  - NaN / inf / beyond-int32 x for integer types (numpy's astype(int32) of them is undefined; the
    library's rule, NaN -> zero point and saturation, is tested against the test's own reference);
  - s32 dequantize with |q| or |zp| >= 2^24 (ONNX subtracts in f32, two roundings; the library
    subtracts exactly and rounds once).
"""
import warnings

import numpy as np
import onnx
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator

rng = np.random.default_rng(29)
warnings.simplefilter("error")

DT = {  # name: (TensorProto type, dnnlk dtype, integer range or None for fp8)
    "s8": (TensorProto.INT8, "dnnlk_s8", (-128, 127)),
    "u8": (TensorProto.UINT8, "dnnlk_u8", (0, 255)),
    "s16": (TensorProto.INT16, "dnnlk_s16", (-32768, 32767)),
    "u16": (TensorProto.UINT16, "dnnlk_u16", (0, 65535)),
    "s4": (TensorProto.INT4, "dnnlk_s4", (-8, 7)),
    "u4": (TensorProto.UINT4, "dnnlk_u4", (0, 15)),
    "e4m3": (TensorProto.FLOAT8E4M3FN, "dnnlk_f8_e4m3", None),
    "e5m2": (TensorProto.FLOAT8E5M2, "dnnlk_f8_e5m2", None),
    "s32": (TensorProto.INT32, "dnnlk_s32", (-(1 << 24) + 1, (1 << 24) - 1)),
}


def run(op, inputs, attrs, out_type):
    names = ["x", "s", "z"][: len(inputs)]
    ins = [helper.make_tensor_value_info(n, helper.np_dtype_to_tensor_dtype(a.dtype), a.shape) for n, a in zip(names, inputs)]
    node = helper.make_node(op, names, ["y"], **attrs)
    g = helper.make_graph([node], "g", ins, [helper.make_tensor_value_info("y", out_type, None)])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 21)])
    return ReferenceEvaluator(m).run(None, dict(zip(names, inputs)))[0]


def raw_bytes(a, name):
    """The bytes the library reads or writes: little-endian, s4/u4 two per byte, low nibble first."""
    if name in ("s4", "u4"):
        v = np.asarray(a).astype(np.int8).reshape(-1).astype(np.int64) & 15
        if v.size % 2:
            v = np.append(v, 0)
        return [int(lo | (hi << 4)) for lo, hi in zip(v[0::2], v[1::2])]
    return list(np.ascontiguousarray(a).reshape(-1).view(np.uint8))


def f32_lit(v):
    v = np.float32(v)
    if np.isnan(v):
        return "NAN"
    if np.isinf(v):
        return "INFINITY" if v > 0 else "-INFINITY"
    return "%.9ef" % float(v)  # 9 digits: the float back exactly


cases = []


def scale_shape(shape, gran, axis, block):
    if gran == "tensor":
        return ()
    if gran == "axis":
        return (shape[axis],)
    s = list(shape)
    s[axis] = -(-shape[axis] // block)
    return tuple(s)


def add(name, q, gran, shape, axis=1, block=0, saturate=1, dequant=0, zp=True):
    tp, cname, rng_ = DT[q]
    npdt = helper.tensor_dtype_to_np_dtype(tp)
    sshape = scale_shape(shape, gran, axis, block)
    scale = np.exp2(rng.uniform(-4, 2, size=sshape)).astype(np.float32)
    if rng_ is None:
        z = np.zeros(sshape, dtype=np.float32).astype(npdt) if zp else None
    else:
        lo, hi = rng_
        z = rng.integers(max(lo, -100), min(hi, 100) + 1, size=sshape).astype(npdt) if zp else None
    attrs = {"axis": axis}
    if not dequant:
        attrs["output_dtype"] = tp  # without a zero point ONNX's default is u8
    if block:
        attrs["block_size"] = block
    if dequant:
        if rng_ is None:
            codes = rng.integers(0, 256, size=shape).astype(np.uint8)
            x = codes.view(npdt)
        else:
            x = rng.integers(rng_[0], rng_[1] + 1, size=shape).astype(npdt)
        ins = [x, scale] + ([z] if zp else [])
        y = run("DequantizeLinear", ins, attrs, TensorProto.FLOAT)
        cases.append(dict(name=name, dq=1, q=q, shape=shape, sshape=sshape, axis=axis, block=block, sat=1,
                          x=None, qbytes=raw_bytes(x, q), scale=scale, zbytes=raw_bytes(z, q) if zp else None, y=y))
        return
    if not saturate:
        attrs["saturate"] = 0
    # x: values / scale spread past the range, ties (k + 0.5) * scale, zeros; fp8: NaN, inf, tiny
    n = int(np.prod(shape))
    sc = np.broadcast_to(ref_expand(scale, shape, gran, axis, block), shape).reshape(-1)
    span = 1.3 * (rng_[1] - rng_[0]) if rng_ else 600.0
    x = (rng.uniform(-span, span, size=n) * sc).astype(np.float32)
    k = rng.integers(0, n, size=n // 4)
    x[k] = ((rng.integers(-40, 40, size=k.size) + 0.5) * sc[k]).astype(np.float32)
    x[rng.integers(0, n)] = 0.0
    if rng_ is None:
        x[0], x[1], x[2], x[3] = np.nan, np.inf, -np.inf, 1e-3 * sc[3]
        x[4] = 2e5 * sc[4]
    x = x.reshape(shape)
    ins = [x, scale] + ([z] if zp else [])
    try:
        y = run("QuantizeLinear", ins, attrs, tp)
    except RuntimeWarning:
        print(name, x, scale, z)
        raise
    cases.append(dict(name=name, dq=0, q=q, shape=shape, sshape=sshape, axis=axis, block=block, sat=saturate,
                      x=x, qbytes=raw_bytes(y, q), scale=scale, zbytes=raw_bytes(z, q) if zp else None, y=None))


def ref_expand(scale, shape, gran, axis, block):
    if gran == "tensor":
        return scale
    if gran == "axis":
        d = [1] * len(shape)
        d[axis] = shape[axis]
        return scale.reshape(d)
    return np.repeat(scale, block, axis=axis).take(range(shape[axis]), axis=axis)


for q in ["s8", "u8", "s16", "u16", "s4", "u4", "e4m3", "e5m2"]:
    for dq in (0, 1):
        add("%s %s per-tensor" % ("dq" if dq else "q", q), q, "tensor", (3, 7), dequant=dq)
        add("%s %s per-axis 1" % ("dq" if dq else "q", q), q, "axis", (3, 7), axis=1, dequant=dq)
        add("%s %s per-axis 0 no zp" % ("dq" if dq else "q", q), q, "axis", (4, 5), axis=0, dequant=dq, zp=False)
        add("%s %s blocked axis 1, 4 (rem 2)" % ("dq" if dq else "q", q), q, "blocked", (3, 10), axis=1, block=4, dequant=dq)
        add("%s %s blocked axis 0, 3 (rem 1)" % ("dq" if dq else "q", q), q, "blocked", (7, 3), axis=0, block=3, dequant=dq)
        add("%s %s blocked axis 2, 16" % ("dq" if dq else "q", q), q, "blocked", (2, 3, 40), axis=2, block=16, dequant=dq)
    if q in ("e4m3", "e5m2"):
        add("q %s per-tensor saturate 0" % q, q, "tensor", (3, 7), saturate=0)
        add("q %s blocked saturate 0" % q, q, "blocked", (3, 10), axis=1, block=4, saturate=0)
add("dq s32 per-tensor", "s32", "tensor", (3, 7), dequant=1)
add("dq s32 blocked axis 1, 4", "s32", "blocked", (3, 10), axis=1, block=4, dequant=1)


def arr(typ, name, vals, per_line=8):
    vals = list(vals)
    body = ",\n    ".join(", ".join(vals[i:i + per_line]) for i in range(0, len(vals), per_line))
    return "static const %s %s[%d] = {\n    %s};\n" % (typ, name, max(1, len(vals)), body or "0")


out = ["/* Generated by tools/onnx_quant_cases.py from onnx %s's reference QuantizeLinear /" % onnx.__version__,
       " * DequantizeLinear (opset 21); do not edit. Quantized values are raw bytes (s4/u4 packed, low",
       " * nibble first; s16/u16/s32 little-endian). */",
       "#ifndef ONNX_QUANT_CASES_H", "#define ONNX_QUANT_CASES_H", ""]
rows = []
for i, c in enumerate(cases):
    p = "oq%d_" % i
    out.append(arr("float", p + "scale", [f32_lit(v) for v in c["scale"].reshape(-1)]))
    out.append(arr("uint8_t", p + "q", ["0x%02x" % b for b in c["qbytes"]], 12))
    if c["zbytes"] is not None:
        out.append(arr("uint8_t", p + "z", ["0x%02x" % b for b in c["zbytes"]], 12))
    if c["dq"]:
        out.append(arr("float", p + "y", [f32_lit(v) for v in c["y"].reshape(-1)]))
    else:
        out.append(arr("float", p + "x", [f32_lit(v) for v in c["x"].reshape(-1)]))
    dims = ", ".join(str(d) for d in c["shape"])
    sd = ", ".join(str(d) for d in c["sshape"]) or "0"
    rows.append('    {"%s", %d, %s, %d, %d, %d, %d, {%s}, %d, {%s}, %s, %s, %s, %s},' % (
        c["name"], c["dq"], DT[c["q"]][1], c["axis"], c["block"], c["sat"], len(c["shape"]), dims, len(c["sshape"]), sd,
        p + "scale", p + "q", (p + "z") if c["zbytes"] is not None else "NULL", (p + "y") if c["dq"] else (p + "x")))
out.append("typedef struct onnx_qcase {")
out.append("    const char *name;")
out.append("    int dequant;")
out.append("    dnnlk_dtype qt;")
out.append("    int axis, block, saturate, ndims;")
out.append("    int64_t dims[3];")
out.append("    int sndims;")
out.append("    int64_t sdims[3];")
out.append("    const float *scale;")
out.append("    const uint8_t *q, *zp; /* quantize: expected output; dequantize: input */")
out.append("    const float *f;        /* quantize: x; dequantize: expected y */")
out.append("} onnx_qcase;")
out.append("")
out.append("static const onnx_qcase onnx_qcases[] = {")
out.extend(rows)
out.append("};")
out.append("")
out.append("#endif")
print("\n".join(out))
