/* dnnl_kernels — header-only C deep-learning kernels for x86-64 (SSE4.1 / AVX2 / AVX-512), with a
 * scalar path everywhere else.
 *
 * QUICK START
 *   #include "dnnl_kernels.h"      -- the whole install: no library to link, no -m flags
 *                                    (softmax and log_softmax call libm's log: link -lm)
 *
 *   Tensors are plain strided views (dnnlk_tensor): data, dtype, ndims, dims[], strides[] in
 *   elements. Every op has dnnlk_<op>_infer(...), which completes the unknown dims and strides
 *   (DNNLK_UNKNOWN) of its outputs, and an execute function that does the same and then computes.
 *   Functions return a dnnlk_status; a bad argument returns a status and writes nothing.
 *
 * API (every public function, one line each; the header named documents it)
 *   base.h       dnnlk_status_str(s)  dnnlk_dtype_name(t)  dnnlk_dtype_size(t)
 *                dnnlk_bf16_to_f32(h)  dnnlk_f32_to_bf16(f)  dnnlk_f16_to_f32(h)  dnnlk_f32_to_f16(f)
 *   cpu.h        dnnlk_cpu_isa()  dnnlk_max_isa()  dnnlk_set_max_isa(isa)  dnnlk_isa_name(isa)
 *   shape.h      dnnlk_shape_numel(nd, dims, &numel)  dnnlk_dense_strides(nd, dims, strides)
 *                dnnlk_deduce_strides(nd, dims, strides)  dnnlk_broadcast_shapes(na, a, nb, b, &nout, out)
 *                dnnlk_broadcast_oneway(nfrom, from, nto, to)
 *   select.h     dnnlk_select_infer(cond, src0, src1, dst, bcast)
 *                dnnlk_select(cond, src0, src1, dst, bcast, ith, nth)
 *   convert.h    dnnlk_convert_infer(src, dst)  dnnlk_convert(src, dst, ith, nth)
 *   compare.h    dnnlk_compare_infer(op, src0, src1, dst)  dnnlk_compare(op, src0, src1, dst, ith, nth)
 *                dnnlk_logical_infer(op, src0, src1, dst)  dnnlk_logical(op, src0, src1, dst, ith, nth)
 *                dnnlk_logical_not_infer(src, dst)  dnnlk_logical_not(src, dst, ith, nth)
 *   rng_engine.h dnnlk_rng_init(rng, alg, seed, offset)  dnnlk_rng_skip(rng, n)
 *   rng_draw.h   dnnlk_rng_u32(rng, dst, n, end, ith, nth)
 *                dnnlk_rng_uniform_f32(rng, dst, n, low, high, end, ith, nth)
 *                dnnlk_rng_bernoulli(rng, dst, n, p, end, ith, nth)
 *   rng_uniform.h dnnlk_rng_uniform_infer(dst)
 *                dnnlk_rng_uniform(dst, low, high, seed, offset, alg, ith, nth)
 *   dropout.h    dnnlk_dropout_mask_bytes(data, noise_nd, noise_dims, &bytes)
 *                dnnlk_dropout_fwd_infer(src, dst)  dnnlk_dropout_bwd_infer(diff_dst, diff_src)
 *                dnnlk_dropout_fwd(src, dst, mask, rate, noise_nd, noise_dims, rng_in, rng_out, ith, nth)
 *                dnnlk_dropout_bwd(diff_dst, mask, diff_src, rate, noise_nd, noise_dims, ith, nth)
 *   layer_norm.h dnnlk_layer_norm_infer(src, weight, bias, naxes, axes, eps, eps_outside, dst, mean, inv_std)
 *                dnnlk_layer_norm(src, weight, bias, naxes, axes, eps, eps_outside, dst, mean, inv_std, ith, nth)
 *   l2_norm.h    dnnlk_l2_norm_infer(src, axis, eps, eps_outside, dst)
 *                dnnlk_l2_norm(src, axis, eps, eps_outside, dst, ith, nth)
 *   softmax.h    dnnlk_softmax_infer(src, axis, dst)  dnnlk_softmax(src, axis, dst, ith, nth)
 *                dnnlk_log_softmax_infer(src, axis, dst)  dnnlk_log_softmax(src, axis, dst, ith, nth)
 *   eltwise.h    dnnlk_erf_infer(src, dst)  dnnlk_erf(src, dst, ith, nth)
 *                dnnlk_gelu_infer(src, approx, dst)  dnnlk_gelu(src, approx, dst, ith, nth)
 *   argreduce.h  dnnlk_arg_max_infer(src, axis, keep_dims, values, indices)
 *                dnnlk_arg_max(src, axis, keep_dims, select_last, values, indices, ith, nth)
 *                dnnlk_arg_min_infer(...)  dnnlk_arg_min(...)   (as arg_max)
 *                dnnlk_top_k_infer(src, k, axis, values, indices)
 *                dnnlk_top_k_workspace_bytes(k, nth, &bytes)
 *                dnnlk_top_k(src, k, axis, largest, sorted, values, indices, workspace, ith, nth)
 *   one_hot.h    dnnlk_one_hot_infer(indices, depth, axis, dst)
 *                dnnlk_one_hot(indices, depth, axis, on_value, off_value, dst, ith, nth)
 *   quant.h      dnnlk_quantize_infer(x, scale, zero_point, axis, y)
 *                dnnlk_quantize(x, scale, zero_point, axis, y, ith, nth)
 *                dnnlk_dequantize_infer(x, scale, zero_point, axis, y)
 *                dnnlk_dequantize(x, scale, zero_point, axis, y, ith, nth)
 *   resize.h     dnnlk_resize_infer(src, desc, dst)  dnnlk_resize(src, desc, dst, ith, nth)
 *   (tests/compile/check_api_index.sh checks that this list and the headers' public functions agree)
 *
 * OPTIONS (define before including)
 *   DNNLK_MAX_ISA 0..3     compile-time cap on the instruction set: 0 scalar, 1 SSE4.1, 2 AVX2,
 *                          3 AVX-512 (default). Code above the cap is still compiled; it is not run.
 *   DNNLK_NO_SIMD          compile the scalar code only.
 *   Tuning (bytes; defaults measured, see the header named): outputs at least this large are
 *   written with non-temporal (streaming) stores, and streaming rows read src this far ahead.
 *     DNNLK_SELECT_NT_BYTES   2 MiB   select.h
 *     DNNLK_DROPOUT_NT_BYTES  6 MiB   dropout.h
 *     DNNLK_DROPOUT_PF_BYTES  4096    dropout.h
 *     DNNLK_ELT_NT_BYTES      8 MiB   eltwise.h
 *     DNNLK_ELT_PF_BYTES      4096    eltwise.h
 *     DNNLK_SM_NT_BYTES       16 MiB  softmax.h
 *     DNNLK_NORM_NT_BYTES     2 MiB   norm_common.h (layer_norm, l2_norm)
 *     DNNLK_ONE_HOT_NT_BYTES  4 MiB   one_hot.h
 *     DNNLK_QUANT_NT_BYTES    8 MiB   quant.h
 *     DNNLK_QUANT_PF_BYTES    4096    quant.h
 *     DNNLK_RESIZE_NT_BYTES   8 MiB   resize.h
 *
 * ISA SELECTION
 *   SIMD variants are compiled inside target regions, so the includer needs no -m flags. At the
 *   first call the best level the CPU and OS support (CPUID + XGETBV) is picked, lowered by the
 *   DNNLK_MAX_ISA environment variable (scalar|sse41|avx2|avx512, read once), by the macro, and
 *   by dnnlk_set_max_isa(). dnnlk_max_isa() tells the level in use, dnnlk_isa_name() names it.
 *   If the includer's flags already cover the compile-time cap (e.g. -march=native on an AVX-512
 *   machine), the level is fixed at compile time and no detection runs.
 *
 *   Per translation unit: every function is static inline, so each TU that includes this header
 *   has its own copy of the kernels and its own cached choice; dnnlk_set_max_isa() affects the
 *   TU that calls it. Nothing is exported: the header adds no external symbols.
 *
 * THREADING
 *   The library creates no threads and allocates no memory. Execute functions end with (ith, nth):
 *   call once with (0, 1), or once per thread with (i, n) for i in 0..n-1; each part writes a
 *   disjoint share of the outputs and never reads what another part writes. Exact ops (select,
 *   dropout, RNG, one_hot, arg ops, top_k, quantize, nearest resize) give the same bits for every
 *   nth and ISA; floating-point math gives the same bits for every nth. State that an op updates
 *   (an RNG end state) is written by part 0 only, computed from the const input state, so keep the
 *   input and output state objects separate when running parts concurrently.
 *
 * FLOATING POINT
 *   Kernels never change MXCSR; results do not depend on its rounding mode. f16 and bf16 are
 *   stored as uint16_t and converted with round-to-nearest-even, NaN kept NaN.
 *
 * LICENSE: Apache-2.0 (see LICENSE). */
#ifndef DNNL_KERNELS_H
#define DNNL_KERNELS_H

#define DNNLK_VERSION_MAJOR 0
#define DNNLK_VERSION_MINOR 1
#define DNNLK_VERSION_PATCH 0
#define DNNLK_VERSION_STRING "0.1.0"

#include "kernels/base.h"
#include "kernels/cpu.h"
#include "kernels/shape.h"
#include "kernels/loop.h"
#include "kernels/rng_engine.h"
#include "kernels/rng_draw.h"
#include "kernels/rng_uniform.h"
#include "kernels/dropout.h"
#include "kernels/argreduce.h"
#include "kernels/one_hot.h"
#include "kernels/quant.h"
#include "kernels/resize.h"
#include "kernels/select.h"
#include "kernels/convert.h"
#include "kernels/compare.h"
#include "kernels/layer_norm.h"
#include "kernels/l2_norm.h"
#include "kernels/vmath.h"
#include "kernels/eltwise.h"
#include "kernels/softmax.h"

#endif /* DNNL_KERNELS_H */
