/* dnnl_kernels — header-only C deep-learning kernels for x86-64 (SSE4.1 / AVX2 / AVX-512) and
 * little-endian aarch64 (NEON), with a scalar path everywhere else.
 *
 * QUICK START
 *   #include "dnnl_kernels.h"      -- the whole install: no library to link, no -m flags
 *                                    (softmax, log_softmax, erf and gelu call libm: link -lm)
 *
 *   Tensors are plain strided views (dnnlk_tensor): data, dtype, ndims, dims[], strides[] in
 *   elements. Every op has dnnlk_<op>_infer(...), which completes the unknown dims and strides
 *   (DNNLK_UNKNOWN) of its outputs, and an execute function that does the same and then computes.
 *   Functions return a dnnlk_status; a bad argument returns a status and writes nothing.
 *
 * API (every public function and its contract in one line; the header named says the rest).
 *   Every execute function also completes dst's unknown dims/strides first, as its _infer does.
 *   base.h       dnnlk_status_str(s)        name of a status      dnnlk_dtype_name(t)   name of a dtype
 *                dnnlk_dtype_size(t)        bytes per element (0 for undef, s4/u4)
 *                dnnlk_dtype_bits(t)        bits per element (4 for s4/u4)
 *                dnnlk_bf16_to_f32(h)  dnnlk_f32_to_bf16(f)  dnnlk_f16_to_f32(h)  dnnlk_f32_to_f16(f)
 *                                           exact widening; narrowing rounds to nearest even, NaN kept
 *   cpu.h        dnnlk_cpu_isa()            best level the CPU and OS support
 *                dnnlk_max_isa()            level in use (after the env, macro and set caps)
 *                dnnlk_set_max_isa(isa)     cap the level for this TU   dnnlk_isa_name(isa)  its name
 *   shape.h      dnnlk_shape_numel(nd, dims, &numel)        element count; invalid_shape on overflow
 *                dnnlk_dense_strides(nd, dims, strides)     row-major dense strides
 *                dnnlk_deduce_strides(nd, dims, strides)    fill DNNLK_UNKNOWN strides (all: dense;
 *                                                           all but one 1: that dim innermost)
 *                dnnlk_broadcast_shapes(na, a, nb, b, &nout, out)  numpy broadcast of two shapes
 *                dnnlk_broadcast_oneway(nfrom, from, nto, to)      success if from broadcasts to to
 *   select.h     dnnlk_select_infer(cond, src0, src1, dst, bcast)
 *                dnnlk_select(cond, src0, src1, dst, bcast, ith, nth)   dst = cond ? src0 : src1, bits
 *                                                           moved; none or numpy broadcast (cond one way)
 *   convert.h    dnnlk_convert_infer(src, dst)
 *                dnnlk_convert(src, dst, ith, nth)          any dtype to any, any strides (also a layout
 *                                           transform); RNE, float->int toward zero saturating, NaN->0
 *   compare.h    dnnlk_compare_infer(op, src0, src1, dst)
 *                dnnlk_compare(op, src0, src1, dst, ith, nth)   boolean eq/ne/lt/le/gt/ge, numpy
 *                                           broadcast, same dtype both sides; NaN false except ne
 *                dnnlk_logical_infer(op, src0, src1, dst)
 *                dnnlk_logical(op, src0, src1, dst, ith, nth)   boolean and/or/xor of nonzero-ness
 *                dnnlk_logical_not_infer(src, dst)  dnnlk_logical_not(src, dst, ith, nth)   boolean !x
 *   rng_engine.h dnnlk_rng_init(rng, alg, seed, offset)     MCG31m1, Philox4x32-10 (2 layouts), MT19937
 *                dnnlk_rng_skip(rng, n)                     jump ahead n outputs
 *   rng_draw.h   dnnlk_rng_u32(rng, dst, n, end, ith, nth)  n raw outputs; end: the state after them
 *                dnnlk_rng_uniform_f32(rng, dst, n, low, high, end, ith, nth)   n floats in [low, high)
 *                dnnlk_rng_bernoulli(rng, dst, n, p, end, ith, nth)   n bits, 1 with probability p
 *   rng_uniform.h dnnlk_rng_uniform_infer(dst)
 *                dnnlk_rng_uniform(dst, low, high, seed, offset, alg, ith, nth)   ByteIR rng_uniform
 *   dropout.h    dnnlk_dropout_mask_bytes(data, noise_nd, noise_dims, &bytes)   the 1-bit mask's size
 *                dnnlk_dropout_fwd_infer(src, dst)  dnnlk_dropout_bwd_infer(diff_dst, diff_src)
 *                dnnlk_dropout_fwd(src, dst, mask, rate, noise_nd, noise_dims, rng_in, rng_out, ith, nth)
 *                                           dst = src * m / (1 - rate), m ~ Bernoulli(1 - rate)
 *                dnnlk_dropout_bwd(diff_dst, mask, diff_src, rate, noise_nd, noise_dims, ith, nth)
 *                                           diff_src = diff_dst * m / (1 - rate)
 *   layer_norm.h dnnlk_layer_norm_infer(src, weight, bias, naxes, axes, eps, eps_outside, dst, mean, inv_std)
 *                dnnlk_layer_norm(src, weight, bias, naxes, axes, eps, eps_outside, dst, mean, inv_std, ith, nth)
 *                                           (x - mean) / sqrt(var + eps) * w + b over trailing axes
 *   l2_norm.h    dnnlk_l2_norm_infer(src, axis, eps, eps_outside, dst)
 *                dnnlk_l2_norm(src, axis, eps, eps_outside, dst, ith, nth)   x / sqrt(max(sum x^2, eps))
 *                dnnlk_l2_norm_bwd_infer(src, diff_dst, axis, eps, eps_outside, diff_src)
 *                dnnlk_l2_norm_bwd(src, diff_dst, axis, eps, eps_outside, diff_src, ith, nth)   r dd - x (sum dd x) r^3
 *   softmax.h    dnnlk_softmax_infer(src, axis, dst)  dnnlk_softmax(src, axis, dst, ith, nth)
 *                dnnlk_log_softmax_infer(src, axis, dst)  dnnlk_log_softmax(src, axis, dst, ith, nth)
 *                                           along one axis, a few ulp; uses libm's log (-lm)
 *                dnnlk_softmax_bwd_infer(dst, diff_dst, axis, diff_src)
 *                dnnlk_softmax_bwd(dst, diff_dst, axis, diff_src, ith, nth)   dst (dd - sum(dd dst))
 *                dnnlk_log_softmax_bwd_infer(dst, diff_dst, axis, diff_src)
 *                dnnlk_log_softmax_bwd(dst, diff_dst, axis, diff_src, ith, nth)   dd - exp(dst) sum(dd)
 *   fused_softmax.h  dnnlk_masked_softmax_dropout_fwd(src, cond, axis, rate, rng_in, rng_out, dst, drop_mask, stats, probs, ith, nth)
 *                dnnlk_masked_softmax_dropout_bwd(src, cond, axis, stats, probs, drop_mask, rate, diff_dst, diff_src, ith, nth)
 *                dnnlk_masked_softmax_dropout_fwd_infer(src, cond, axis, dst)
 *                dnnlk_masked_softmax_dropout_bwd_infer(src, cond, axis, diff_dst, diff_src)
 *                dnnlk_masked_softmax_dropout_stats_size(src, axis, &nfloats)
 *                                           dropout(softmax(cond ? -inf : src)), masks = dnnlk_dropout_fwd's
 *   eltwise.h    dnnlk_erf_infer(src, dst)  dnnlk_erf(src, dst, ith, nth)      erf, within 2 ulp
 *                dnnlk_gelu_infer(src, approx, dst)  dnnlk_gelu(src, approx, dst, ith, nth)
 *                                           exact (erf) or tanh form, within 2 ulp
 *                dnnlk_erf_bwd_infer(src, diff_dst, diff_src)  dnnlk_erf_bwd(src, diff_dst, diff_src, ith, nth)
 *                dnnlk_gelu_bwd_infer(src, diff_dst, approx, diff_src)
 *                dnnlk_gelu_bwd(src, diff_dst, approx, diff_src, ith, nth)   dd gelu'(src), gelu' within 4 ulp
 *   argreduce.h  dnnlk_arg_max_infer(src, axis, keep_dims, values, indices)
 *                dnnlk_arg_max(src, axis, keep_dims, select_last, values, indices, ith, nth)
 *                                           index (and value) of the max; ties: lowest index; NaN wins
 *                dnnlk_arg_min_infer(...)  dnnlk_arg_min(...)   (as arg_max, for the min)
 *                dnnlk_top_k_infer(src, k, axis, values, indices)
 *                dnnlk_top_k_workspace_bytes(k, nth, &bytes)    workspace size (NULL is fine for k <= 512)
 *                dnnlk_top_k(src, k, axis, largest, sorted, values, indices, workspace, ith, nth)
 *                                           first k of a stable sort along axis; NaN is largest
 *   one_hot.h    dnnlk_one_hot_infer(indices, depth, axis, dst)
 *                dnnlk_one_hot(indices, depth, axis, on_value, off_value, dst, ith, nth)
 *                                           on at each index (negatives wrap), off elsewhere
 *   quant.h      dnnlk_quantize_infer(x, scale, zero_point, axis, y)
 *                dnnlk_quantize(x, scale, zero_point, axis, y, ith, nth)
 *                                           s8/u8 = sat(round_half_even(x / scale) + zp), ONNX
 *                dnnlk_dequantize_infer(x, scale, zero_point, axis, y)
 *                dnnlk_dequantize(x, scale, zero_point, axis, y, ith, nth)   (q - zp) * scale
 *                dnnlk_quantize_linear_infer(x, scale, zero_point, axis, block_size, saturate, y)
 *                dnnlk_quantize_linear(x, scale, zero_point, axis, block_size, saturate, y, ith, nth)
 *                dnnlk_dequantize_linear_infer(x, scale, zero_point, axis, block_size, y)
 *                dnnlk_dequantize_linear(x, scale, zero_point, axis, block_size, y, ith, nth)
 *   resize.h     dnnlk_resize_infer(src, desc, dst)  dnnlk_resize(src, desc, dst, ith, nth)
 *                                           ONNX Resize, nearest and N-linear, any axes
 *   layer_norm_bwd.h dnnlk_layer_norm_bwd_infer(src, diff_dst, mean, inv_std, w, naxes, axes, dx, dw, db)
 *                dnnlk_layer_norm_bwd_workspace_bytes(src, naxes, axes, want_dw, want_db, nth, &bytes)
 *                dnnlk_layer_norm_bwd(src, diff_dst, mean, inv_std, w, naxes, axes, eps_outside, dx, dw, db,
 *                                     ws, ws_bytes, ith, nth)
 *                dnnlk_layer_norm_bwd_finish(src, naxes, axes, dw, db, ws, ws_bytes, ith, nth)
 *                                           gradients; dw/db: fixed row blocks, then a finish step
 *   select_bwd.h dnnlk_select_bwd_infer(cond, diff_dst, diff_src0, diff_src1)
 *                dnnlk_select_bwd(cond, diff_dst, diff_src0, diff_src1, ith, nth)
 *                                           diff_dst where taken, summed over broadcast dims
 *   resize_bwd.h dnnlk_resize_bwd_infer(diff_dst, desc, diff_src)
 *                dnnlk_resize_bwd(diff_dst, desc, diff_src, ith, nth)   adjoint of resize, a gather
 *   fused_dropout.h dnnlk_bias_dropout_residual_fwd_infer(src, dst)  dnnlk_bias_dropout_residual_bwd_infer(dd, ds)
 *                dnnlk_bias_dropout_residual_fwd(src, bias, residual, rate, rng_in, rng_out, dst, mask, ith, nth)
 *                                           residual + dropout(src + bias), dropout's mask bits
 *                dnnlk_bias_dropout_residual_bwd_workspace_bytes(diff_dst, want_diff_bias, nth, &bytes)
 *                dnnlk_bias_dropout_residual_bwd(dd, mask, rate, ds, diff_bias, diff_residual, ws, ws_bytes, ith, nth)
 *                dnnlk_bias_dropout_residual_bwd_finish(dd, diff_bias, ws, ws_bytes, ith, nth)
 *                dnnlk_gelu_dropout_fwd_infer(src, approx, dst)
 *                dnnlk_gelu_dropout_fwd(src, approx, rate, rng_in, rng_out, dst, mask, ith, nth)
 *                dnnlk_gelu_dropout_bwd_infer(src, diff_dst, approx, diff_src)
 *                dnnlk_gelu_dropout_bwd(src, diff_dst, mask, approx, rate, diff_src, ith, nth)
 *                                           one pass each way; equal to the unfused calls (f32)
 *   (tests/compile/check_api_index.sh checks that this list and the headers' public functions agree)
 *
 * OPTIONS (define before including)
 *   DNNLK_MAX_ISA 0..3     compile-time cap on the instruction set: 0 scalar, 1 SSE4.1 (NEON on
 *                          aarch64), 2 AVX2, 3 AVX-512 (default). Code above the cap is still
 *                          compiled; it is not run. A number: the preprocessor tests it.
 *   DNNLK_NO_SIMD          compile the scalar code only.
 *   Tuning (bytes): outputs at least this large are written with non-temporal (streaming) stores,
 *   and streaming rows read src this far ahead. Measured on the development machine (4 MiB L2 per
 *   core) where the header named records it; the reason in brief:
 *     DNNLK_SELECT_NT_BYTES   2 MiB   select.h     where streaming broke even (1 thread, f32)
 *     DNNLK_DROPOUT_NT_BYTES  6 MiB   dropout.h    set with the kernel; no measurement recorded
 *     DNNLK_DROPOUT_PF_BYTES  4096    dropout.h    beat 0.5-2 KiB and none, from DRAM
 *     DNNLK_ELT_NT_BYTES      8 MiB   eltwise.h    7% faster at 8 MiB, 15-40% at 15 MiB
 *     DNNLK_ELT_PF_BYTES      4096    eltwise.h    dropout's measured distance
 *     DNNLK_SM_NT_BYTES       16 MiB  softmax.h    set with the kernel; no measurement recorded
 *     DNNLK_NORM_NT_BYTES     2 MiB   norm_common.h (layer_norm, l2_norm, layer_norm_bwd)  loses below ~1 MiB, wins from ~3
 *     DNNLK_ONE_HOT_NT_BYTES  4 MiB   one_hot.h    regular stores win below, tie at 4 MiB
 *     DNNLK_QUANT_NT_BYTES    8 MiB   quant.h      would not stay in L2 anyway
 *     DNNLK_QUANT_PF_BYTES    4096    quant.h      as dropout; one thread's prefetchers fell behind
 *     DNNLK_QUANT_FP8_PF_BYTES 0      quant.h      fp8 quantize rows: off 0.13 ns/element, 4 KiB 0.175
 *     DNNLK_RESIZE_NT_BYTES   8 MiB   resize.h     set with the kernel; no measurement recorded
 *     DNNLK_CONVERT_NT_BYTES  4 MiB   convert.h    convert, compare, logical; off was slower on every row timed
 *     DNNLK_CONVERT_BAND_BYTES 16 KiB convert.h    32-bit transposes through the cache: dst rows in bands
 *                                                  this large (L1); 4 and 64 KiB measured no better
 *   DNNLK_MT_JUMP_MIN 2^23   MT19937 skips of at least this many outputs (parts, offsets) jump by
 *                            polynomials instead of discarding (rng_engine.h): one table costs what a
 *                            discard of 3.7M outputs does (AVX2/AVX-512); same state either way.
 *
 * ISA SELECTION
 *   SIMD variants are compiled inside target regions, so the includer needs no -m flags. At the
 *   first call the best level the CPU and OS support (CPUID + XGETBV) is picked, lowered by the
 *   DNNLK_MAX_ISA environment variable (scalar|sse41|avx2|avx512|neon, read once), by the macro,
 *   and by dnnlk_set_max_isa(). dnnlk_max_isa() tells the level in use, dnnlk_isa_name() names it.
 *   On aarch64 the levels are scalar and neon (level 1, SSE4.1's number and bits; always present).
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
 *   Kernels leave MXCSR as they found it (arg_max / arg_min clear and read its invalid flag while
 *   they scan, then restore it exactly); results do not depend on its rounding mode. f16 and bf16 are
 *   stored as uint16_t and converted with round-to-nearest-even, NaN kept NaN. erf, gelu,
 *   softmax, log_softmax, layer_norm and l2_norm also take f64 (every tensor of the call f64):
 *   long double inside, within 2 ulp (math_f64.h, norm_f64.h).
 *
 * LICENSE: Apache-2.0 (see LICENSE). */
#ifndef DNNL_KERNELS_H
#define DNNL_KERNELS_H

/* The version: these three lines are its one source. The pkg-config file and the CMake package
 * (`make install`, CMakeLists.txt) read them from here; tests/compile/check_version.sh checks that
 * every installed form says the same. */
#define DNNLK_VERSION_MAJOR 0
#define DNNLK_VERSION_MINOR 1
#define DNNLK_VERSION_PATCH 0
#define DNNLK__VERSION_STR2(x) #x
#define DNNLK__VERSION_STR(x) DNNLK__VERSION_STR2(x)
#define DNNLK_VERSION_STRING                                                                      \
    DNNLK__VERSION_STR(DNNLK_VERSION_MAJOR) "." DNNLK__VERSION_STR(DNNLK_VERSION_MINOR) "."         \
        DNNLK__VERSION_STR(DNNLK_VERSION_PATCH)

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
#include "kernels/layer_norm_bwd.h"
#include "kernels/select_bwd.h"
#include "kernels/resize_bwd.h"
#include "kernels/fused_softmax.h"
#include "kernels/fused_dropout.h"
#include "kernels/math_f64.h" /* f64 paths (included by the op headers above too) */
#include "kernels/norm_f64.h"

#endif /* DNNL_KERNELS_H */
