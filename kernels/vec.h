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
 *   dnnlk__vq                 the generators' register: DNNLK__VQ_N 64-bit lanes (2, 2, 4, 8), also
 *                             read as 2*DNNLK__VQ_N 32-bit words (the scalar level keeps SSE4.1's
 *                             structure in plain C, so generators give its bits word for word)
 *   dnnlk__vq_part_vi(v, j)   words [j, j + DNNLK__VF_N) of v as a dnnlk__vi (j = 0 where they match)
 *   dnnlk__vq_loadu / storeu / set1_64 / set1_32 / and / or / xor / xor3   whole-register ops
 *   dnnlk__vq_add64 / srli64 / slli64      on 64-bit lanes
 *   dnnlk__vq_add32 / sub32 / srli32 / slli32 / min32_u   on 32-bit words (min unsigned)
 *   dnnlk__vq_mul_even_u32(a, b)   each 64-bit lane: its low word of a times that of b, unsigned
 *   dnnlk__vq_hi_down32(a)    each 64-bit lane's high word copied into its low word
 *   dnnlk__vq_blend_odd32(a, b)    a's even words, b's odd words
 *   dnnlk__vq_pack_lo32(a, b)      a's even words, b's even words in the odd places
 *   dnnlk__vq_unpacklo32 / hi32 / lo64 / hi64   interleaves within each 128-bit chunk
 *   dnnlk__vq_lane0_u32(a)    word 0
 *   dnnlk__vq_cmplt32_bits / cmplt32_u_bits(a, b)   a < b per word (signed / unsigned), word i
 *                             in bit i
 *   dnnlk__vq_cmplt64_u_bits(a, dnnlk__vq_cmplt64_u_rhs(t))   a < t per 64-bit lane, unsigned
 *   DNNLK__VEC_CMP_TO_BITS    1 where compares give bits and bits deposit in one instruction each
 *                             (k-masks, pdep): a body may skip a transpose and interleave bits
 *   dnnlk__u64_deposit(v, m)  the low bits of v at the set bits of m (pdep)
 *   dnnlk__vi_bitselect(m, a, b)   a where m's bits are set, b elsewhere
 *   dnnlk__vi_xor_if_odd(r, t, k)  r ^ k in the lanes where t is odd, r elsewhere
 *   dnnlk__vi_bf16_rne_bits(u)     u + 0x7fff + bit 16 of u: f32 bits rounded to bf16 in the
 *                             high half (no NaN handling)
 *   dnnlk__vf_maskz_bits(b, v)     lane j: v where bit j of b is set, +0 elsewhere;
 *                             _even / _odd: bit 2j / 2j + 1
 *
 * == softmax, norm: f64 lanes ==
 *
 * == quant, resize: s32 lanes narrowed to bytes ==
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
