/* dnnl_kernels — vmath.h: f32 vector math shared by the math ops (exp, erf, erfc, tanh, and the
 * two gelu forms), written once in vmath_simd.h and compiled for the scalar path and for SSE4.1,
 * AVX2 and AVX-512.
 *
 * Internal API, for kernel bodies: inside a SIMD body of ISA n, call DNNLK__SFX(dnnlk__vm_exp)(v)
 * and so on on dnnlk__vf values; scalar code calls dnnlk__vm_exp_scalar(float) etc.
 *
 * Accuracy (measured by tests/test_mathops.c against double-precision references): exp within
 * 1 ulp; erf, gelu (erf form, and tanh form) within 2 ulp over every float; erfc and tanh within
 * 2 ulp. Subnormal results are rounded once (FTZ, when the caller sets it, flushes them).
 *
 * FMA: AVX2 and AVX-512 evaluate with fused multiply-adds (faster, and exact products for free);
 * SSE4.1 and the scalar path use separate multiply and add, and Dekker's split where an exact
 * product is needed. AVX2 and AVX-512 give identical bits; SSE4.1/scalar can differ from them in
 * the last bit (both are within the bounds above).
 *
 * Coefficients: fitted by tools/fit_vmath.py (numpy; weighted least squares refined by Lawson's
 * minimax iteration, coefficients rounded to float one at a time with the rest refitted). Rerun it
 * to reproduce the tables below. */
#ifndef DNNLK_VMATH_H
#define DNNLK_VMATH_H

#include "cpu.h"

/* exp(r) = 1 + r + r^2 q(r) on |r| <= ln2/2: q's coefficients (c2..c6); rel. error 2^-28.3 */
static const float dnnlk__vm_exp_c[] = {0.4999999403953552f, 0.1666652113199234f, 0.04166825860738754f,
                                        0.00836866907775402f, 0.0013821362517774105f};
/* erf(x) = x + x Q(x^2) on |x| <= 1; rel. error 2^-30 */
static const float dnnlk__vm_erf_c[] = {0.12837916612625122f, -0.3761262893676758f, 0.1128363162279129f,
                                        -0.026856491342186928f, 0.005195774137973785f, -0.000811715261079371f,
                                        8.6190142610576e-05f, -2.1569151158473687e-06f};
/* gelu(x) = x (1/2 + x R(x^2)) on |x| <= 0.5: R = erf(x/sqrt2)/(2x); rel. error 2^-25.1 (the
 * rounding of R(0) = 1/sqrt(2 pi); it enters the result scaled by at most 1/2) */
static const float dnnlk__vm_gelu_c[] = {0.3989422917366028f, -0.06649260967969894f, 0.010044417344033718f,
                                         -0.001977507956326008f, 0.0037164180539548397f, -0.005757208913564682f};
/* tanh(x) = x + x^3 T(x^2) on |x| <= 0.9; rel. error 2^-32 */
static const float dnnlk__vm_tanh_c[] = {-0.3333333134651184f, 0.13333259522914886f, -0.053958866745233536f,
                                         0.02181122824549675f, -0.008659746497869492f, 0.003164586378261447f,
                                         -0.0008999663987196982f, 0.0001376331056235358f};
/* Tails, 4 intervals each, columns = intervals; rows: s, o (v = a s - o in [-1, 1]), c0 hi, c0 lo,
 * c1..c9 of a degree-9 polynomial in v.
 * gelu: M(a) = a Phi(-a) exp(a^2/2), gelu(-a) = -exp(-a^2/2) M(a); intervals [0.5, 1.5, 3.25, 7,
 * 14.5]; rel. errors 2^-30.4, -30.1, -27.3, -27.9. */
static const float dnnlk__vm_gelu_tail[13][4] = {
    {2.0f, 1.1428571939468384f, 0.5333333611488342f, 0.2666666805744171f},
    {2.0f, 2.7142856121063232f, 2.7333333492279053f, 2.866666555404663f},
    {0.2615782916545868f, 0.34972840547561646f, 0.38522452116012573f, 0.3955760598182678f},
    {1.745657507434828e-10f, 9.772777032068802e-11f, 1.4341271281637091e-08f, -6.143852093742908e-11f},
    {0.062107153236866f, 0.026574742048978806f, 0.009116891771554947f, 0.0022909706458449364f},
    {-0.0188142079859972f, -0.010066543705761433f, -0.004422550089657307f, -0.0011601188452914357f},
    {0.004627671092748642f, 0.003199951723217964f, 0.0018593311542645097f, 0.0005181590095162392f},
    {-0.0009893999667838216f, -0.000906684435904026f, -0.0007166099385358393f, -0.00021598409512080252f},
    {0.0001903693046187982f, 0.00023572680947836488f, 0.0002592314558569342f, 8.575538959121332e-05f},
    {-3.3578449802007526e-05f, -5.691992919309996e-05f, -8.667843212606385e-05f, -3.1032741389935836e-05f},
    {5.422822141554207e-06f, 1.3014620890317019e-05f, 2.830774428730365e-05f, 1.126237566495547e-05f},
    {-8.9639638645167e-07f, -3.1633098842576146e-06f, -1.1906691725016572e-05f, -6.1022565205348656e-06f},
    {1.7520126505132794e-07f, 6.692675924568903e-07f, 3.8262387533904985e-06f, 2.297350874869153e-06f}};
/* erfc: N(a) = erfc(a) exp(a^2), erfc(a) = exp(-a^2) N(a); intervals [0.5, 1.25, 2.5, 5, 10.1];
 * rel. errors 2^-32.1, -29.7, -27.0, -25.0. */
static const float dnnlk__vm_erfc_tail[13][4] = {
    {2.6666667461395264f, 1.600000023841858f, 0.800000011920929f, 0.3921568691730499f},
    {2.3333332538604736f, 3.0f, 3.0f, 2.9607841968536377f},
    {0.4643115997314453f, 0.2694299817085266f, 0.14558972418308258f, 0.07408816367387772f},
    {1.1431747770629386e-09f, 6.880997549529866e-09f, 1.5305987033364943e-10f, 2.688800959660398e-09f},
    {-0.11843771487474442f, -0.07376044988632202f, -0.04557032138109207f, -0.024602269753813744f},
    {0.02643144130706787f, 0.01880805194377899f, 0.013873005285859108f, 0.008102989755570889f},
    {-0.00532166613265872f, -0.004514686763286591f, -0.004115787800401449f, -0.0026476173661649227f},
    {0.0009853907395154238f, 0.0010281956056132913f, 0.0011923547135666013f, 0.000859204214066267f},
    {-0.00016998309001792222f, -0.00022336409892886877f, -0.0003375209344085306f, -0.0002763881639111787f},
    {2.755864625214599e-05f, 4.643481952371076e-05f, 9.239286737283692e-05f, 8.590483048465103e-05f},
    {-4.279921540728537e-06f, -9.475982551521156e-06f, -2.5169103537336923e-05f, -2.7302134185447358e-05f},
    {6.573131940967869e-07f, 1.972329528143746e-06f, 8.024723683774937e-06f, 1.1300133337499574e-05f},
    {-7.432880977376044e-08f, -2.998967261191865e-07f, -2.0641689388867235e-06f, -3.4999379749933723e-06f}};

/* Function ids of dnnlk__vm_apply. */
#define DNNLK__VM_EXP 0
#define DNNLK__VM_ERF 1
#define DNNLK__VM_ERFC 2
#define DNNLK__VM_TANH 3
#define DNNLK__VM_GELU_ERF 4
#define DNNLK__VM_GELU_TANH 5

/* ---- the scalar instantiation: the vector names mapped to one float lane ---- */
static DNNLK__FORCEINLINE float dnnlk__sf_bitop(float a, float b, int op) {
    uint32_t x = dnnlk__f32_bits(a), y = dnnlk__f32_bits(b);
    return dnnlk__f32_from_bits(op == 0 ? (x & y) : op == 1 ? (x | y) : (x ^ y));
}
/* Round half to even without the current rounding mode: |x| < 2^23 only matters. */
static DNNLK__FORCEINLINE float dnnlk__sf_round_even(float x) {
    float a = x < 0 ? -x : x, r;
    if (!(a < 8388608.0f)) return x;
    r = (float)(int32_t)a; /* truncation, mode-independent */
    if (a - r > 0.5f || (a - r == 0.5f && ((int32_t)r & 1))) r += 1.0f;
    return x < 0 ? -r : r;
}
static DNNLK__FORCEINLINE int32_t dnnlk__si_to_int(float x) { return (int32_t)x; }

#define DNNLK__ISA 0
#define DNNLK__SFX(name) name##_scalar
#define DNNLK__VF_N 1
#define dnnlk__vf float
#define dnnlk__vi int32_t
#define dnnlk__vmask int
#define dnnlk__vf_set1(x) ((float)(x))
#define dnnlk__vf_zero() 0.0f
#define dnnlk__vf_add(a, b) ((a) + (b))
#define dnnlk__vf_sub(a, b) ((a) - (b))
#define dnnlk__vf_mul(a, b) ((a) * (b))
#define dnnlk__vf_div(a, b) ((a) / (b))
#define dnnlk__vf_fmadd(a, b, c) ((a) * (b) + (c))
#define dnnlk__vf_min(a, b) ((a) < (b) ? (a) : (b))
#define dnnlk__vf_max(a, b) ((a) > (b) ? (a) : (b))
#define dnnlk__vf_and(a, b) dnnlk__sf_bitop((a), (b), 0)
#define dnnlk__vf_or(a, b) dnnlk__sf_bitop((a), (b), 1)
#define dnnlk__vf_xor(a, b) dnnlk__sf_bitop((a), (b), 2)
#define dnnlk__vf_round_even(a) dnnlk__sf_round_even(a)
#define dnnlk__vf_cmplt(a, b) ((a) < (b))
#define dnnlk__vf_cmpge(a, b) ((a) >= (b))
#define dnnlk__vf_cmpunord(a, b) ((a) != (a) || (b) != (b))
#define dnnlk__vf_blend(m, t, f) ((m) ? (t) : (f))
#define dnnlk__vi_set1(x) ((int32_t)(x))
#define dnnlk__vi_add(a, b) ((a) + (b))
#define dnnlk__vi_sub(a, b) ((a) - (b))
#define dnnlk__vi_slli(a, n) ((int32_t)((uint32_t)(a) << (n)))
#define dnnlk__vi_srai(a, n) ((a) >= 0 ? (a) >> (n) : -((-(a) + (1 << (n)) - 1) >> (n)))
#define dnnlk__vf_as_vi(a) ((int32_t)dnnlk__f32_bits(a))
#define dnnlk__vi_as_vf(a) dnnlk__f32_from_bits((uint32_t)(a))
#define dnnlk__vf_to_vi_trunc(a) dnnlk__si_to_int(a)
#include "vmath_simd.h"
#include "vec_end.h"
#undef DNNLK__SFX
#undef DNNLK__ISA

#define DNNLK__SIMD_BODY "vmath_simd.h"
#include "simd_instantiate.h"

/* y[i] = fn(x[i]) (fn: DNNLK__VM_*) for n contiguous floats, x == y allowed, at the dispatched ISA
 * level: the tests' entry to the vector math, and the scalar-side entry for other kernels. */
static inline void dnnlk__vm_apply(int fn, const float *x, float *y, size_t n) {
    switch (dnnlk_max_isa()) {
#if DNNLK__X86
    case dnnlk_isa_avx512: dnnlk__vm_array_avx512(fn, x, y, n); break;
    case dnnlk_isa_avx2: dnnlk__vm_array_avx2(fn, x, y, n); break;
    case dnnlk_isa_sse41: dnnlk__vm_array_sse41(fn, x, y, n); break;
#endif
    default: dnnlk__vm_array_scalar(fn, x, y, n); break;
    }
}

#endif /* DNNLK_VMATH_H */
