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
 * OPTIONS (define before including)
 *   DNNLK_MAX_ISA 0..3     compile-time cap on the instruction set: 0 scalar, 1 SSE4.1, 2 AVX2,
 *                          3 AVX-512 (default). Code above the cap is still compiled; it is not run.
 *   DNNLK_NO_SIMD          compile the scalar code only.
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
#include "kernels/norm.h"
#include "kernels/vmath.h"
#include "kernels/eltwise.h"
#include "kernels/softmax.h"

#endif /* DNNL_KERNELS_H */
