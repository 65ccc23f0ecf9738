/* dnnl_kernels — vmath.h: f32 vector math shared by the math ops (exp, erf, erfc, tanh, and the
 * two gelu forms), written once in vmath_simd.h and compiled for the scalar path and for SSE4.1,
 * AVX2 and AVX-512.
 *
 * Internal API, for kernel bodies: inside a SIMD body of ISA n, call DNNLK__SFX(dnnlk__vm_exp)(v)
 * and so on on dnnlk__vf values; scalar code calls dnnlk__vm_exp_scalar(float) etc.
 *
 * Accuracy against double-precision references, in ulp of the correctly rounded f32 result
 * (tests/test_mathops.c: a sample of all floats in `make test`, every float in
 * `make test-exhaustive`): exp <= 1; erf <= 1 (contract 2); gelu, erf form and tanh form, <= 2;
 * tanh <= 1 (contract 2); erfc <= 3 (every float, all ISAs). Both gelu forms keep
 * the left tail (relative accuracy down to the subnormal results). Subnormal results are rounded
 * once (FTZ, when the caller sets it, flushes them); lanes whose result is 0 or that take the other
 * branch do no underflowing arithmetic (no microcode assists without FTZ).
 *
 * FMA: AVX2 and AVX-512 evaluate with fused multiply-adds (faster, and exact products for free);
 * SSE4.1 and the scalar path use separate multiply and add, and Dekker's split where an exact
 * product is needed. AVX2 and AVX-512 give identical bits, SSE4.1 and scalar identical bits, the
 * two groups may differ in the last bit (NaN results: NaN, sign and payload unspecified). gelu_tanh
 * has an FMA-only evaluation (its exp argument's rounding errors recovered by FMAs, see
 * vmath_simd.h) and the double-float one elsewhere: both within 2 ulp, not the same bits.
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
/* tanh(x) = x + x^3 T(x^2) on |x| <= 0.9; rel. error 2^-32 */
static const float dnnlk__vm_tanh_c[] = {-0.3333333134651184f, 0.13333259522914886f, -0.053958866745233536f,
                                         0.02181122824549675f, -0.008659746497869492f, 0.003164586378261447f,
                                         -0.0008999663987196982f, 0.0001376331056235358f};
/* Piecewise tables over a = |x| in [0, 15): 8 intervals, the binary halves of the binades of a + 1
 * (a in [0, .5, 1, 2, 3, 5, 7, 11, 15); the kernels take the index from the exponent and top
 * mantissa bit of 2a + 2). Columns
 * are intervals; rows: s, o (v = a s - o in [-1, 1], -o stored; the first interval has v = 2a exactly), c0 hi,
 * c0 lo (a float pair: a lone float c0 would cost half an ulp), c1..c8. Degree 8 (gelu: 7).
 */
/* erf(a) on [0, 4] (erf rounds to 1 beyond); the first interval fits erf(a) - a, the kernel
 * adds a exactly;
 * rel. errors per interval: -30.1, -29.5, -26.2, -29.0, -33.0, unused, unused, unused. */
static const float dnnlk__vm_erf8[12][8] = {
    {2.0f, 4.0f, 2.0f, 2.0f, 2.0f, 0.0f, 0.0f, 0.0f},
    {0.0f, -3.0f, -3.0f, -5.0f, -7.0f, 0.0f, 0.0f, 0.0f},
    {0.0f, 0.7111556529998779f, 0.9661051630973816f, 0.9995930194854736f, 0.9999992847442627f, 1.0f, 1.0f, 1.0f},
    {0.0f, -1.9331997336280438e-08f, -1.764262158587826e-08f, 2.876198479384584e-08f, -2.7859025308885066e-08f, 0.0f, 0.0f, 0.0f},
    {0.06418958306312561f, 0.16073276102542877f, 0.059465035796165466f, 0.001089158933609724f, 2.6986504053638782e-06f, 0.0f, 0.0f, 0.0f},
    {5.5455267045090295e-08f, -0.03013739548623562f, -0.04459882527589798f, -0.0013614385388791561f, -4.723825441033114e-06f, 0.0f, 0.0f, 0.0f},
    {-0.04701685160398483f, 0.0004186207370366901f, 0.017345448955893517f, 0.0010435362346470356f, 5.3011208365205675e-06f, 0.0f, 0.0f, 0.0f},
    {7.651825399079826e-06f, 0.0005886333528906107f, -0.0027876112144440413f, -0.0005388236022554338f, -4.236979293636978e-06f, 0.0f, 0.0f, 0.0f},
    {0.003498674836009741f, -5.207349022384733e-05f, -0.00046981536434032023f, 0.00019197954679839313f, 2.515093683541636e-06f, 0.0f, 0.0f, 0.0f},
    {5.4404350521508604e-05f, -6.585281425941503e-06f, 0.0003023201716132462f, -4.391244146972895e-05f, -1.2033195844196598e-06f, 0.0f, 0.0f, 0.0f},
    {-0.00027089237119071186f, 1.1501957715154276e-06f, -2.9944787456770428e-05f, 3.14940302814648e-06f, 5.225559789323597e-07f, 0.0f, 0.0f, 0.0f},
    {3.7252699257805943e-05f, 4.93407839030624e-08f, -9.501063686911948e-06f, 1.2136009672758519e-06f, -1.4571804740626249e-07f, 0.0f, 0.0f, 0.0f}};
/* gelu: M(a) = a Phi(-a) exp(a^2/2), gelu(-a) = -exp(-a^2/2) M(a), on [0, 14.5]; M(0) = 0 exactly;
 * degree 7 (one row less than the others: one permute and one FMA less per vector; degree 6 would
 * reach only 2^-23); rel. errors per interval: -27.6, -31.9, -27.1, -30.5, -26.8, -31.3, -28.2, -34.4. */
static const float dnnlk__vm_gelu8[11][8] = {
    {2.0f, 4.0f, 2.0f, 2.0f, 1.0f, 1.0f, 0.5f, 0.5714285969734192f},
    {0.0f, -3.0f, -3.0f, -5.0f, -4.0f, -6.0f, -4.5f, -7.285714149475098f},
    {0.0f, 0.22517435252666473f, 0.3086709976196289f, 0.35332831740379333f, 0.37764257192611694f, 0.38867589831352234f, 0.39418908953666687f, 0.3965321481227875f},
    {0.0f, -5.720016460486477e-09f, 4.8082853254527436e-09f, 1.1248095788118917e-08f, -3.591661190682771e-09f, -1.2220263911899565e-08f, 1.1560597812376727e-08f, -8.639833293244692e-10f},
    {0.25f, 0.042476627975702286f, 0.03518686816096306f, 0.01364822592586279f, 0.009211774915456772f, 0.0031809473875910044f, 0.0020403251983225346f, 0.0006498916773125529f},
    {-0.09973549842834473f, -0.006878313608467579f, -0.009372802451252937f, -0.0028733527287840843f, -0.002876253565773368f, -0.0007235563243739307f, -0.0006498138536699116f, -0.00013067903637420386f},
    {0.03124859556555748f, 0.0008975007222034037f, 0.002055217046290636f, 0.0005088010802865028f, 0.0007710765930823982f, 0.0001433725847164169f, 0.00018203740182798356f, 2.3225406039273366e-05f},
    {-0.008302091620862484f, -0.00010121968807652593f, -0.00039541261503472924f, -8.041514229262248e-05f, -0.0001872068824013695f, -2.6104984499397688e-05f, -4.711403380497359e-05f, -3.845708761218702e-06f},
    {0.0019250116311013699f, 1.0225691767118406e-05f, 6.898296851431951e-05f, 1.1683770026138518e-05f, 4.242216527927667e-05f, 4.4825260374636855e-06f, 1.1612711205088999e-05f, 6.080669550101447e-07f},
    {-0.00037100003100931644f, -9.588418379280483e-07f, -1.1638157047855202e-05f, -1.6368007891287562e-06f, -9.919739568431396e-06f, -7.736562679383496e-07f, -3.090458903898252e-06f, -9.726340977067593e-08f},
    {4.4401120248949155e-05f, 8.287366171089161e-08f, 1.7873713886729092e-06f, 2.105438312582919e-07f, 2.066324896077276e-06f, 1.236079469890683e-07f, 7.290731787179539e-07f, 1.4667222103526001e-08f}};
/* erfc: N(a) = erfc(a) exp(a^2), erfc(a) = exp(-a^2) N(a), on [0, 10.1];
 * rel. errors per interval: -31.9, -30.3, -28.2, -31.6, -27.7, -30.8, -29.3, unused. */
static const float dnnlk__vm_erfc8[12][8] = {
    {2.0f, 4.0f, 2.0f, 2.0f, 1.0f, 1.0f, 0.6451612710952759f, 0.0f},
    {0.0f, -3.0f, -3.0f, -5.0f, -4.0f, -6.0f, -5.516129016876221f, 0.0f},
    {1.0f, 0.5069376230239868f, 0.32158541679382324f, 0.21080636978149414f, 0.1369994580745697f, 0.09277656674385071f, 0.06554470956325531f, 1.0f},
    {-1.291702300676434e-10f, 2.726789283258313e-08f, -3.962665751089389e-10f, -5.721947360370905e-09f, -4.74027095354046e-10f, 1.0563810937114226e-09f, 4.015341115159998e-10f, 0.0f},
    {-0.5641895532608032f, -0.09199317544698715f, -0.08181145042181015f, -0.03717367351055145f, -0.032383501529693604f, -0.015060353092849255f, -0.011725123971700668f, 0.0f},
    {0.24999921023845673f, 0.014434883370995522f, 0.01903776079416275f, 0.0062344991602003574f, 0.007465433329343796f, 0.0024144467897713184f, 0.0020839497447013855f, 0.0f},
    {-0.09402390569448471f, -0.0020286687649786472f, -0.00411646394059062f, -0.0010001972550526261f, -0.001681249588727951f, -0.00038245253381319344f, -0.00036805265699513257f, 0.0f},
    {0.03121248073875904f, 0.0002608983777463436f, 0.0008360901265405118f, 0.00015419036208186299f, 0.00037036085268482566f, 5.987961412756704e-05f, 6.459775613620877e-05f, 0.0f},
    {-0.009299250319600105f, -3.118638778687455e-05f, -0.0001604899443918839f, -2.2915774025022984e-05f, -7.965715485624969e-05f, -9.257275451091118e-06f, -1.124149639508687e-05f, 0.0f},
    {0.0024313684552907944f, 3.493553549560602e-06f, 2.9433382223942317e-05f, 3.2956304494291544e-06f, 1.686387804511469e-05f, 1.4174329407978803e-06f, 1.9484348285914166e-06f, 0.0f},
    {-0.0004965932457707822f, -3.530263654738519e-07f, -5.546692136704223e-06f, -4.759582736824086e-07f, -3.8477669477288146e-06f, -2.2884971428993595e-07f, -3.653626663435716e-07f, 0.0f},
    {5.658726149704307e-05f, 3.450941576943478e-08f, 9.258045565729844e-07f, 6.452179235338917e-08f, 7.786329092596134e-07f, 3.4402130921762364e-08f, 6.299934085518544e-08f, 0.0f}};

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
/* Truncation to int32 as cvttps2dq does it: NaN and out-of-range values give INT32_MIN (a plain
 * cast would be undefined behaviour there). */
static DNNLK__FORCEINLINE int32_t dnnlk__si_to_int(float x) {
    return (x > -2147483648.0f && x < 2147483648.0f) ? (int32_t)x : INT32_MIN;
}

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
#define dnnlk__vi_srli(a, n) ((int32_t)((uint32_t)(a) >> (n)))
#define dnnlk__vi_and(a, b) ((a) & (b))
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
    DNNLK__DISPATCH(dnnlk__vm_array, (fn, x, y, n));
}

#endif /* DNNLK_VMATH_H */
