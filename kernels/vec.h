/* dnnl_kernels — vec.h: the vector layer, mapped to the level being instantiated.
 *
 * One header per level defines the same names: vec_scalar.h (DNNLK__ISA 0, one lane of plain C
 * types), vec_sse41.h (1), vec_avx2.h (2), vec_avx512.h (3), vec_neon.h (4, aarch64). No include guard: simd_instantiate.h
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
 *   DNNLK__VEC_STREAM_LINES   1 where streaming stores pass through write-combining buffers that
 *                             let a part-written 64-byte line go (x86: SSE4.1, AVX2, AVX-512), so
 *                             a body streams each line whole, its stores back to back; 0 where the
 *                             stream is a plain store (scalar) or a non-temporal pair (NEON)
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
 *   dnnlk__vf_loadu_scan(p)   dnnlk__vf_loadu for a scan streaming from L3 or memory: on AVX-512
 *                             two 256-bit loads joined (on the Zen 4 development host 512-bit
 *                             loads stream slower: arg_max f32 [256,32000] took 0.119-0.122 ns
 *                             an element with them, 0.095-0.101 with this); the plain load
 *                             elsewhere. Not for loops that also write: as every vf_loadu it
 *                             made layer_norm, softmax, log_softmax and erf 3-22% slower. For a
 *                             scan that compares whole vectors into masks (arg_max's compare scan);
 *                             a scan of one max per load takes dnnlk__vs (below). The compare scan
 *                             on dnnlk__vs instead, one compare and movemask per 256 bits, read at
 *                             0.63-0.66 of the bound against 0.86-0.88 (AVX-512; AVX2 0.71-0.73
 *                             against 0.82-0.83)
 *   dnnlk__vf_stream(p, v)    non-temporal store of a whole vector (p aligned to the vector);
 *   dnnlk__vi_stream(p, v)    a plain store at the scalar level; dnnlk__vi_store: aligned store
 *   dnnlk__vec_sfence()       orders the streaming stores before the entry returns (no-op at the
 *                             scalar level)
 *   dnnlk__vec_prefetch_l2(p, bytes)  requests [p, p + bytes) into L2 (no-op at the scalar level)
 *   dnnlk__v32_transpose(d, dp, s, sp, nt)   a DNNLK__VT_N x DNNLK__VT_N tile of 32-bit elements
 *                             (4 at the scalar level, SSE4.1 and NEON, 8 on AVX2, 16 on AVX-512)
 *                             transposed in registers: row j of d (at d + j dp bytes) gets column
 *                             j of s (rows at s + k sp bytes); any alignment, the bits unchanged;
 *                             nt: streaming stores (d and dp aligned to 4 DNNLK__VT_N bytes; plain
 *                             stores at the scalar level)
 *   dnnlk__vb_ziplo_elem / _ziphi_elem(a, b, es)   es = 1, 2 or 4-byte lanes of two dnnlk__vb,
 *                             interleaved: a0 b0 a1 b1 ... from the lower halves of a and b (ziplo),
 *                             from the upper halves (ziphi); in memory order at every level (the
 *                             transposes of 8-, 16- and 64-bit elements are built on them)
 *   dnnlk__vf_load_f16(p)     DNNLK__VF_N f16 as f32 lanes, exactly; a signalling NaN comes out quiet
 *                             (quiet bit set, payload kept) at every level, as F16C gives it
 *                             (dnnlk__vf_load_bf16, a shift, keeps the bits as they are)
 *   dnnlk__vf_pack2_bf16(a, b)  a then b rounded to bf16 as dnnlk__vf_store_bf16 rounds, the
 *                             2 DNNLK__VF_N results in memory order as one dnnlk__vi (store it with
 *                             dnnlk__vi_storeu / dnnlk__vi_stream: a whole vector, where the store of
 *                             one vector's bf16 is half of one); dnnlk__vf_pack2_f16 the same
 *                             for f16, rounded as dnnlk__vf_store_f16 rounds
 *   dnnlk__vf_load_dt / dnnlk__vf_store_dt   a vector of a tensor dtype as f32 lanes (vec_dtype.h,
 *                             written once for every level on the names above)
 *
 * == select: byte and 16-bit lanes ==
 *   dnnlk__vb                 an integer vector of DNNLK__VB_N bytes (8 at the scalar level, in a
 *                             uint64_t, so an 8-byte element fits; 16, 32, 64), seen as lanes of
 *                             es = 1, 2, 4 or 8 bytes by the _elem names, which take es
 *   dnnlk__vb_loadu / _storeu / _stream(p, v)   whole vectors; _stream non-temporal (p aligned
 *                             to the vector; a plain store at the scalar level)
 *   dnnlk__vb_set1_elem(p, es)          the es-byte element at p in every lane
 *   dnnlk__vmask_vb           a selection of es-byte lanes (k-mask on AVX-512, a lane vector
 *                             elsewhere): only for dnnlk__vb_blend_elem with the same es
 *   dnnlk__vb_cond_elem(c, es)          lane j selected where the byte c[j] is nonzero
 *                             (DNNLK__VB_N / es bytes read)
 *   dnnlk__vb_blend_elem(m, t, f, es)   lane j: t where selected, else f
 *   dnnlk__vb_loadu_n_elem / _storeu_n_elem(p, [v,] n, es), dnnlk__vb_cond_n_elem(c, n, es)
 *                             the first n lanes only (n < DNNLK__VB_N / es), never touching
 *                             memory past them; lanes past n load as 0 (cond: not selected)
 *   DNNLK__VEC_MASKED_BYTES   1 where those _n names are single masked instructions (AVX-512),
 *                             0 where they go through a buffer: for a body choosing its tails
 *   dnnlk__vb_permute16(out, in, idx)   16 bytes: out[j] = in[idx[j]] (idx[j] < 16; pshufb)
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
 *   dnnlk__vqmask             the result of dnnlk__vq_cmpeq64 / cmplt64(a, b): a == b / a < b
 *                             (signed) per 64-bit lane, the lanes being the 64-bit elements as
 *                             they lie in memory; only for dnnlk__vqmask_pack8_u8
 *   dnnlk__vqmask_pack8_u8(m0, ..., m7)   eight such masks as 8 DNNLK__VQ_N bytes of 0/1 in order
 *                             (m0's lanes first): one dnnlk__vq (compare's s64 and u64 results)
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
 *   dnnlk__vd                 f64 vector of DNNLK__VD_N lanes (1, 2, 4, 8: half of DNNLK__VF_N,
 *                             one at the scalar level); dnnlk__vd_zero / _add / _storeu
 *   dnnlk__vd_from_vf(v, h)   f32 lanes [h VD_N, (h+1) VD_N) of v as f64, h < VF_N / VD_N
 *   dnnlk__vd_loadu / _set1 / _mul(a, b)   whole f64 vectors (a product is fused into a following
 *                             add wherever FMA is enabled unless passed through dnnlk__vf_nofuse)
 *   dnnlk__vd_gather(p, idx)  lane l is p[idx[l]], idx DNNLK__VD_N int32 in memory
 *   dnnlk__vd_load_f32(p)     DNNLK__VD_N floats at p as f64 lanes (exactly): one converting load, where
 *                             dnnlk__vd_from_vf of a loaded vector's halves also extracts (rows of
 *                             f32 summed in double: resize_bwd's dnnlk__rsb_rowsum, 15% faster there)
 *   dnnlk__vd_load_x2(p, r)   r[k] (k < 4) lane l is p[2l - 1 + k] (reads p[-1 .. 2 DNNLK__VD_N]): the
 *                             four step-2 reads of an x2 upsampling's window, where AVX-512 and AVX2
 *                             load p once and shuffle instead of four dnnlk__vd_load_even
 *   dnnlk__vd_load_even(p)    lane l is p[2l] (reads p[0 .. 2 DNNLK__VD_N - 1]): a gather whose
 *                             indices step by 2, as loads and a shuffle
 *   dnnlk__vd_store_f32(p, v) the DNNLK__VD_N lanes rounded to f32 (to nearest) at p
 *   dnnlk__vf_hmax(v)         max of the lanes as a float (NaN lanes: unspecified)
 *   dnnlk__vf_cmpneq(a, b)    a != b: true where either is NaN too
 *   dnnlk__vf_cmpnlt_in(m, a, b)  !(a < b) (true where either is NaN) in the lanes of m, else false
 *   dnnlk__vmask_ones()       every lane true; dnnlk__vmask_count(m): the number of true lanes
 *   dnnlk__vi_test_in(m, a, b) / dnnlk__vi_cmpgt_in(m, a, b)   (a & b) != 0 / a > b (s32) in the
 *                             lanes of m, else false (one masked compare on AVX-512: a chain of
 *                             them ANDs conditions for free)
 *   DNNLK__VEC_SCALEF         1 where dnnlk__vf_scalef is one instruction for any n; 0 where
 *                             n must be in [-252, 252] (two power-of-2 products)
 *   dnnlk__vf_scalef(p, n)    p * 2^n, n integral, one rounding (subnormal results too);
 *                             dnnlk__vf_maskz_scalef(m, p, n): m ? that : 0 (n anything outside m)
 *   dnnlk__vec_prefetch_l1(p, bytes)  requests [p, p + bytes) into L1 (no-op at the scalar level)
 *
 * == scans: a max that loses no NaN unseen ==
 *   dnnlk__vs                 f32 vector of DNNLK__VS_N lanes for a read-only scan streaming from L3
 *                             or memory: dnnlk__vf, except 256-bit on AVX-512 (on the Zen 4
 *                             development host a max per 256-bit load reads at the bound, one per
 *                             two joined into 512 bits 4-5% below it: tools/scan_probe.c)
 *   dnnlk__vs_load_dt(p, dt)  DNNLK__VS_N f32, bf16 or f16 elements as f32 lanes (vec_dtype.h)
 *   dnnlk__vs_set1 / _storeu  as dnnlk__vf's
 *   dnnlk__vs_max / _min(a, b)  max / min; a NaN operand either comes out in the result (NEON's
 *                             FMAX, the scalar level) or sets the NaN watch's flag (x86: maxps and
 *                             minps raise invalid for a NaN operand, and may return the other one)
 *   dnnlk__vs_any_nle / _any_nlt(a, b)   nonzero where some lane has !(a <= b) / !(a < b), NaN
 *                             included
 *   dnnlk__nanwatch           the watch's state; dnnlk__nanwatch_begin(&w): starts watching and
 *                             returns 1, or returns 0 where it cannot (x86: the caller unmasked the
 *                             invalid exception, so the max would trap: take another path then)
 *   dnnlk__nanwatch_seen(&w)  nonzero if an invalid operation (a NaN through dnnlk__vs_max / _min,
 *                             where the body's only float operations in the watch are those and
 *                             quiet compares) happened since begin or the last seen, which starts
 *                             over; 0 always where the max passes NaN on
 *   dnnlk__nanwatch_end(&w)   the caller's floating-point control and status back, exactly
 *
 * == quant, resize: s32 lanes narrowed to bytes ==
 *   dnnlk__vi_pack4_u8(a, b, c, d)  s32 lanes in [-128, 255] of four vectors -> their low bytes, in
 *                             order (a's lanes first), as the 4 * DNNLK__VF_N bytes of one dnnlk__vi
 *                             (store them with dnnlk__vi_storeu / dnnlk__vi_stream)
 *   dnnlk__vi_pack4_sat_i8(a, b, c, d, z, sgn)  s32 -> s16 saturated, + z (int16) saturated, -> s8
 *                             (sgn) or u8 saturated, in order, packed as above
 *   dnnlk__vi_pack4_u8_sign(a, b, c, d, ua, ub, uc, ud, z, maxc)  per lane min(max(a + z, 0), maxc)
 *                             (a + z and a in [-32768, 32767], maxc in [0, 127]; maxc 255: no
 *                             clamp but the byte's saturation, bits 0..6 of it kept), with bit 7
 *                             set where the lane of ua (ub, ...) has bit 31 set; packed as above
 *                             (a sign-magnitude byte code: fp8; AVX-512 packs the signs like the
 *                             codes and clamps once on the bytes; other levels in vec_dtype.h)
 *   dnnlk__vmask_pack4_u8(a, b, c, d)  four compares' lanes as 0/1 bytes, in order (a's lanes
 *                             first), packed as above (compare's boolean results)
 *   dnnlk__vi_store_u8(p, v)  the low byte of each of the DNNLK__VF_N lanes -> DNNLK__VF_N bytes
 *   dnnlk__vf_sub_round_even(a)  a - round_even(a), exactly; +-inf give NaN where DNNLK__VEC_REDUCE
 *                             is 0 and 0 where it is 1 (one vreduceps)
 *   DNNLK__VEC_CHEAP_DIV      1 where a division costs about what a multiplication and a rounding
 *                             test cost (the scalar level), 0 where a vector division costs several
 *                             multiplications: for bodies that multiply by a reciprocal instead
 *   dnnlk__vf_to_vi_round_even(a)  round half to even to s32 whatever MXCSR says; NaN and out of
 *                             range give INT32_MIN
 *   dnnlk__vf_permute(v, idx) lane l is lane idx[l] of v (s32 lanes of idx in [0, DNNLK__VF_N))
 *   dnnlk__vf_ziplo / _ziphi(a, b)   the 2 DNNLK__VF_N lanes a0 b0 a1 b1 ... (f32 lanes of two
 *                             vectors interleaved, memory order): the first DNNLK__VF_N (ziplo),
 *                             the last (ziphi); at the scalar level a and b themselves
 *   dnnlk__vf_gather(p, idx)  lane l is p[idx[l]], idx DNNLK__VF_N int32 in memory
 *   dnnlk__vperm2, dnnlk__vperm2_index(p)   the lane indices of a two-register permute, prepared
 *                             once for many permutes from DNNLK__VF_N int32 at p, each in
 *                             [0, 2 DNNLK__VF_N)
 *   dnnlk__vi_permute2(a, b, ix)  lane l is lane idx[l] of the 2 DNNLK__VF_N lanes a then b:
 *                             compresses rows of a strided source into whole vectors (convert's
 *                             short rows)
 *
 * == vmath: what the math bodies ask of a level ==
 *   DNNLK__VEC_LUT32          1 where dnnlk__vf_lut32(t, i) reads a 32-entry float table (index
 *                             bits 0..4) by one two-register permute: what makes a 32-interval
 *                             table, fewer polynomial steps on the chain, pay (AVX-512)
 *   (DNNLK__VEC_SCALEF, above: where it is 1, the masked forms' masked-off lanes do no
 *                             arithmetic (no underflow assists); dnnlk__vf_scalef_off(t, k, off),
 *                             that level only, gives -0 where off)
 *   DNNLK__VEC_PROD_ERR       1 where dnnlk__vf_prod_err(a, b, p) = a*b - p in one fused step
 *                             (exact for p = a*b rounded): AVX2, AVX-512, and SSE4.1 and scalar
 *                             when the includer's own flags enable FMA (gcc, clang)
 *   dnnlk__vlut8, dnnlk__vlut8_index(i), dnnlk__vf_lut8(t, ix)   entry i of an 8-float table per
 *                             lane: the s32 index (bits 0..2 count; AVX-512's permute reads bit 3
 *                             too, into an unspecified value) prepared once for several tables
 *   dnnlk__vf_fmsub / fnmadd / fnmsub(a, b, c)   a*b - c, c - a*b, -(a*b) - c, rounded as
 *                             dnnlk__vf_fmadd: once where DNNLK__VEC_FMA, else product and sum
 *   dnnlk__vf_max_neg0(x)     max(-0, x) as maxps: -0 for x < 0 and -0, x otherwise (NaN kept)
 *
 * Rounding intrinsics take their mode explicitly: kernels never depend on MXCSR's mode. The scalar
 * level gives SSE4.1's bits lane for lane (vec_scalar.h says how). */

#if !defined(DNNLK__ISA)
#error "vec.h is included by simd_instantiate.h with DNNLK__ISA set to 0, 1, 2, 3 or 4"
#elif DNNLK__ISA == 0
#include "vec_scalar.h"
#elif DNNLK__ISA == 1
#include "vec_sse41.h"
#elif DNNLK__ISA == 2
#include "vec_avx2.h"
#elif DNNLK__ISA == 3
#include "vec_avx512.h"
#elif DNNLK__ISA == 4
#include "vec_neon.h"
#else
#error "vec.h is included by simd_instantiate.h with DNNLK__ISA set to 0, 1, 2, 3 or 4"
#endif
/* The scan vector, where the level has no width of its own: dnnlk__vf. */
#ifndef DNNLK__VS_N
#define DNNLK__VS_N DNNLK__VF_N
#define dnnlk__vs dnnlk__vf
#define dnnlk__vs_loadu(p) dnnlk__vf_loadu(p)
#define dnnlk__vs_load_bf16(p) dnnlk__vf_load_bf16(p)
#define dnnlk__vs_load_f16(p) dnnlk__vf_load_f16(p)
#define dnnlk__vs_set1(x) dnnlk__vf_set1(x)
#define dnnlk__vs_storeu(p, v) dnnlk__vf_storeu((p), (v))
#endif
/* The NaN watch: MXCSR's invalid flag on the x86 levels (cpu.h); nothing to watch on the scalar
 * level and NEON, whose scan max passes NaN on. */
#if DNNLK__ISA >= 1 && DNNLK__ISA <= 3
#define dnnlk__nanwatch dnnlk__mxcsr_watch
#define dnnlk__nanwatch_begin dnnlk__mxcsr_watch_begin
#define dnnlk__nanwatch_seen dnnlk__mxcsr_watch_seen
#define dnnlk__nanwatch_end dnnlk__mxcsr_watch_end
#else
#define dnnlk__nanwatch int
#define dnnlk__nanwatch_begin(w) ((void)(w), 1)
#define dnnlk__nanwatch_seen(w) ((void)(w), 0)
#define dnnlk__nanwatch_end(w) ((void)(w))
#endif
#include "vec_dtype.h" /* dnnlk__vf_load_dt / dnnlk__vf_store_dt: dtype loads and stores on the above */
