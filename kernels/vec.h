/* dnnl_kernels — vec.h: the vector layer, mapped to the level being instantiated.
 *
 * One header per level defines the same names: vec_scalar.h (DNNLK__ISA 0, one lane of plain C
 * types), vec_sse41.h (1), vec_avx2.h (2), vec_avx512.h (3). No include guard: simd_instantiate.h
 * includes this file once per level, inside that level's target region (the scalar level has
 * none), with DNNLK__ISA set, and vec_end.h removes the names again. Kernel bodies use only these
 * names (or, in bodies not yet converted, an `#if DNNLK__ISA` for what one ISA does differently),
 * so each kernel body is written once.
 *
 *   dnnlk__vf / dnnlk__vi     f32 / s32 vector of DNNLK__VF_N lanes (1, 4, 8, 16)
 *   DNNLK__VEC_FMA            1 where dnnlk__vf_fmadd rounds once (AVX2, AVX-512), 0 where it is
 *                             a product then a sum (scalar, SSE4.1): for bodies whose formula
 *                             depends on it, instead of testing the level
 *   DNNLK__VEC_PERMUTE_LUT    1 where an 8-entry float table is read by one register permute
 *   dnnlk__vmask              result of a compare, f32 or s32 (int 0/1 at the scalar level, lane
 *                             vector on SSE/AVX2, k-mask on AVX-512); dnnlk__vmask_and / _or
 *                             combine two
 *   dnnlk__vmask_bits(m)      the compare as an unsigned bit per lane, lane 0 in bit 0
 *   dnnlk__vf_blend(m, t, f)  m ? t : f per lane (dnnlk__vi_blend for s32 lanes)
 *   dnnlk__vf_cmpnle / nge    !(a <= b) / !(a >= b): true where either is NaN too
 *   dnnlk__vi_load_i8(p, sgn) DNNLK__VF_N bytes widened to s32 lanes, sign- or zero-extended
 *   dnnlk__vf_fmadd(a, b, c)  a*b + c: fused on AVX2/AVX-512, mul then add on SSE4.1 and scalar
 *                             (a kernel that must give the same bits on every ISA must not use it)
 *   dnnlk__vf_nofuse(v)       keeps the product in v from being fused into a following add
 *   _n variants               load/store only the first n lanes (0 <= n < lanes), never touching
 *                             memory past them; masked-off lanes load as 0
 *   dnnlk__vf_stream(p, v)    non-temporal store of a whole vector (p aligned to the vector);
 *   dnnlk__vi_stream(p, v)    a plain store at the scalar level; dnnlk__vi_store: aligned store
 *   dnnlk__vec_sfence()       orders the streaming stores before the entry returns (no-op at the
 *                             scalar level)
 *   dnnlk__vec_prefetch_l2(p, bytes)  requests [p, p + bytes) into L2 (no-op at the scalar level)
 *   dnnlk__vf_load_dt / dnnlk__vf_store_dt   a vector of a tensor dtype as f32 lanes (vec_dtype.h,
 *                             written once for every level on the names above)
 *
 * == select: byte and 16-bit lanes ==
 *
 * == rng, dropout: 32x32->64 products, 64-bit lanes, bit packing ==
 *
 * == softmax, norm: f64 lanes ==
 *
 * == quant, resize: s32 lanes narrowed to bytes ==
 *   dnnlk__vb / DNNLK__VB_N   the bytes of four vectors' lanes (4 * DNNLK__VF_N: 4, 16, 32, 64)
 *   dnnlk__vi_pack4_u8(a, b, c, d)  s32 lanes in [-128, 255] of four vectors -> their low bytes, in
 *                             order (a's lanes first)
 *   dnnlk__vi_pack4_sat_i8(a, b, c, d, z, sgn)  s32 -> s16 saturated, + z (int16) saturated, -> s8
 *                             (sgn) or u8 saturated, in order
 *   dnnlk__vb_storeu(p, v) / dnnlk__vb_stream(p, v)  DNNLK__VB_N bytes; stream: non-temporal, p
 *                             aligned to DNNLK__VB_N (a plain store at the scalar level)
 *   dnnlk__vi_store_u8(p, v)  the low byte of each of the DNNLK__VF_N lanes -> DNNLK__VF_N bytes
 *   dnnlk__vf_sub_round_even(a)  a - round_even(a), exactly; +-inf give NaN where DNNLK__VEC_REDUCE
 *                             is 0 and 0 where it is 1 (one vreduceps)
 *   DNNLK__VEC_CHEAP_DIV      1 where a division costs about what a multiplication and a rounding
 *                             test cost (the scalar level), 0 where a vector division costs several
 *                             multiplications: for bodies that multiply by a reciprocal instead
 *   dnnlk__vf_to_vi_round_even(a)  round half to even to s32 whatever MXCSR says; NaN and out of
 *                             range give INT32_MIN
 *   dnnlk__vf_permute(v, idx) lane l is lane idx[l] of v (s32 lanes of idx in [0, DNNLK__VF_N))
 *   dnnlk__vf_gather(p, idx)  lane l is p[idx[l]], idx DNNLK__VF_N int32 in memory
 *
 * == vmath: what the math bodies ask of a level ==
 *
 * Rounding intrinsics take their mode explicitly: kernels never depend on MXCSR's mode. The scalar
 * level gives SSE4.1's bits lane for lane (vec_scalar.h says how). */

#if !defined(DNNLK__ISA)
#error "vec.h is included by simd_instantiate.h with DNNLK__ISA set to 0, 1, 2 or 3"
#elif DNNLK__ISA == 0
#include "vec_scalar.h"
#elif DNNLK__ISA == 1
#include "vec_sse41.h"
#elif DNNLK__ISA == 2
#include "vec_avx2.h"
#elif DNNLK__ISA == 3
#include "vec_avx512.h"
#else
#error "vec.h is included by simd_instantiate.h with DNNLK__ISA set to 0, 1, 2 or 3"
#endif
#include "vec_dtype.h" /* dnnlk__vf_load_dt / dnnlk__vf_store_dt: dtype loads and stores on the above */
