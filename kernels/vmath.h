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
/* tanh(x) = x + x^3 T(x^2) on |x| <= 0.9; rel. error 2^-32 */
static const float dnnlk__vm_tanh_c[] = {-0.3333333134651184f, 0.13333259522914886f, -0.053958866745233536f,
                                         0.02181122824549675f, -0.008659746497869492f, 0.003164586378261447f,
                                         -0.0008999663987196982f, 0.0001376331056235358f};
/* Piecewise tables over a = |x| in [0, 15): 8 intervals, the binary halves of the binades of a + 1
 * (a in [0, .5, 1, 2, 3, 5, 7, 11, 15); the kernels take the index from the bits of a + 1). Columns
 * are intervals; rows: s, o (v = a s - o in [-1, 1]; the first interval has v = 2a exactly), c0 hi,
 * c0 lo (a float pair: a lone float c0 would cost half an ulp), c1..c9. Degree 9 each.
 */
/* erf(a) on [0, 4] (erf rounds to 1 beyond); the first interval fits erf(a) - a, the kernel
 * adds a exactly;
 * rel. errors per interval: -30.1, -29.9, -32.3, -32.8, -36.8, unused, unused, unused. */
static const float dnnlk__vm_erf8[13][8] = {
    {2.0f, 4.0f, 2.0f, 2.0f, 2.0f, 0.0f, 0.0f, 0.0f},
    {0.0f, 3.0f, 3.0f, 5.0f, 7.0f, 0.0f, 0.0f, 0.0f},
    {0.0f, 0.7111556529998779f, 0.9661051630973816f, 0.9995930194854736f, 0.9999992847442627f, 1.0f, 1.0f, 1.0f},
    {0.0f, -1.9346064306091648e-08f, -1.668651172792579e-08f, 2.8627473724895935e-08f, -2.7850788342220767e-08f, 0.0f, 0.0f, 0.0f},
    {0.06418958306312561f, 0.16073276102542877f, 0.05946514382958412f, 0.001089142169803381f, 2.6997154236596543e-06f, 0.0f, 0.0f, 0.0f},
    {6.181707590258156e-08f, -0.03013739548623562f, -0.04459885507822037f, -0.0013614342315122485f, -4.724088285001926e-06f, 0.0f, 0.0f, 0.0f},
    {-0.04701710492372513f, 0.0004186531587038189f, 0.017344022169709206f, 0.0010437601013109088f, 5.286903160595102e-06f, 0.0f, 0.0f, 0.0f},
    {1.054719996318454e-05f, 0.000588635157328099f, -0.0027874598745256662f, -0.0005388451390899718f, -4.2356664380349685e-06f, 0.0f, 0.0f, 0.0f},
    {0.0034842132590711117f, -5.225905988481827e-05f, -0.00046470630331896245f, 0.0001911728031700477f, 2.566317334640189e-06f, 0.0f, 0.0f, 0.0f},
    {9.121056064032018e-05f, -6.591862529603532e-06f, 0.0003020747972186655f, -4.387798617244698e-05f, -1.2054186981913517e-06f, 0.0f, 0.0f, 0.0f},
    {-0.0003207638510502875f, 1.4566114714398282e-06f, -3.673256287584081e-05f, 4.2258452594978735e-06f, 4.5422063976729987e-07f, 0.0f, 0.0f, 0.0f},
    {7.150290912250057e-05f, 5.4607617983037926e-08f, -9.377100468555e-06f, 1.196375364997948e-06f, -1.446690305328957e-07f, 0.0f, 0.0f, 0.0f},
    {-9.372660315420944e-06f, -1.5400875952309434e-07f, 3.0089163374213967e-06f, -4.786790555044718e-07f, 3.0383311866444274e-08f, 0.0f, 0.0f, 0.0f}};
/* gelu: M(a) = a Phi(-a) exp(a^2/2), gelu(-a) = -exp(-a^2/2) M(a), on [0, 14.5]; M(0) = 0 exactly;
 * rel. errors per interval: -32.6, -33.9, -30.6, -34.0, -33.4, -36.7, -34.2, -37.0. */
static const float dnnlk__vm_gelu8[13][8] = {
    {2.0f, 4.0f, 2.0f, 2.0f, 1.0f, 1.0f, 0.5f, 0.5714285969734192f},
    {0.0f, 3.0f, 3.0f, 5.0f, 4.0f, 6.0f, 4.5f, 7.285714149475098f},
    {0.0f, 0.22517435252666473f, 0.3086709976196289f, 0.35332831740379333f, 0.37764257192611694f, 0.38867589831352234f, 0.39418908953666687f, 0.3965321481227875f},
    {0.0f, -5.7717719492700326e-09f, 2.8378122074457224e-09f, 1.1046981995832539e-08f, -6.745830560817012e-09f, -1.2367639357080407e-08f, 1.0285889473493626e-08f, -8.806425588758771e-10f},
    {0.25f, 0.042476627975702286f, 0.03518687188625336f, 0.01364822592586279f, 0.00921178050339222f, 0.003180947620421648f, 0.002040327526628971f, 0.0006498917355202138f},
    {-0.0997355729341507f, -0.006878312211483717f, -0.009372741915285587f, -0.002873346908017993f, -0.0028761529829353094f, -0.0007235516095533967f, -0.0006497733411379158f, -0.00013067852705717087f},
    {0.03125006705522537f, 0.0008975007222034037f, 0.0020551951602101326f, 0.0005087980534881353f, 0.0007710177451372147f, 0.00014337011089082807f, 0.00018201206694357097f, 2.3224805772770196e-05f},
    {-0.00831183698028326f, -0.0001012263965094462f, -0.00039571989327669144f, -8.044539572438225e-05f, -0.0001877098111435771f, -2.612861862871796e-05f, -4.731671288027428e-05f, -3.84829809263465e-06f},
    {0.001955169253051281f, 1.022558080876479e-05f, 6.901536835357547e-05f, 1.1696824913087767e-05f, 4.259748675394803e-05f, 4.490119408728788e-06f, 1.1690348401316442e-05f, 6.099758138589095e-07f},
    {-0.00041960840462706983f, -9.482474183641898e-07f, -1.1141684808535501e-05f, -1.5870414245000575e-06f, -9.114940439758357e-06f, -7.357790536843822e-07f, -2.7659477837005397e-06f, -9.30727068748638e-08f},
    {8.547937613911927e-05f, 8.325223177507723e-08f, 1.781493210728513e-06f, 1.928301003317756e-07f, 1.8669669543669443e-06f, 1.1466708116358859e-07f, 6.384410085047421e-07f, 1.2311092589811778e-08f},
    {-1.6466046872665174e-05f, -5.273277814410449e-09f, -2.496731212886516e-07f, -2.5337346443166098e-08f, -4.0244307797365764e-07f, -1.8959848802069246e-08f, -1.6234270105996984e-07f, -2.1105099889950907e-09f},
    {2.1860671495232964e-06f, -2.757810646514258e-10f, -8.646394711320227e-09f, 7.684657354900537e-09f, 7.720255013055066e-08f, 3.5893490402116868e-09f, 3.5991508440247344e-08f, 9.910158249581968e-10f}};
/* erfc: N(a) = erfc(a) exp(a^2), erfc(a) = exp(-a^2) N(a), on [0, 10.1];
 * rel. errors per interval: -31.6, -30.7, -31.1, -33.8, -30.1, -30.9, -31.9, unused. */
static const float dnnlk__vm_erfc8[13][8] = {
    {2.0f, 4.0f, 2.0f, 2.0f, 1.0f, 1.0f, 0.6451612710952759f, 0.0f},
    {0.0f, 3.0f, 3.0f, 5.0f, 4.0f, 6.0f, 5.516129016876221f, 0.0f},
    {1.0f, 0.5069376230239868f, 0.32158541679382324f, 0.21080636978149414f, 0.1369994580745697f, 0.09277656674385071f, 0.06554470956325531f, 1.0f},
    {-6.665668017546977e-12f, 2.7269807745256003e-08f, -2.943171262259625e-10f, -5.718214790562115e-09f, -3.892961231155567e-10f, 1.0581343579119107e-09f, 4.054217517257541e-10f, 0.0f},
    {-0.5641895532608032f, -0.09199317544698715f, -0.08181145787239075f, -0.03717367351055145f, -0.0323835052549839f, -0.015060353092849255f, -0.011725124903023243f, 0.0f},
    {0.2499990612268448f, 0.014434883370995522f, 0.019037757068872452f, 0.0062344991602003574f, 0.007465430535376072f, 0.0024144467897713184f, 0.0020839497447013855f, 0.0f},
    {-0.09402147680521011f, -0.0020286557264626026f, -0.004116376396268606f, -0.001000194693915546f, -0.0016811920795589685f, -0.00038245340692810714f, -0.0003680420632008463f, 0.0f},
    {0.031196609139442444f, 0.00026089834864251316f, 0.000836106133647263f, 0.00015419069677591324f, 0.00037037357105873525f, 5.987959957565181e-05f, 6.459729047492146e-05f, 0.0f},
    {-0.00924552883952856f, -3.126364390482195e-05f, -0.0001607650046935305f, -2.2929998522158712e-05f, -7.98786204541102e-05f, -9.25165386433946e-06f, -1.1273800737399142e-05f, 0.0f},
    {0.0023288691882044077f, 3.4942547699756688e-06f, 2.9412261937977746e-05f, 3.2947712043096544e-06f, 1.6845066056703217e-05f, 1.417396674696647e-06f, 1.949791794686462e-06f, 0.0f},
    {-0.00038540971581824124f, -2.224842319265008e-07f, -5.2284526645962615e-06f, -4.528521344582259e-07f, -3.5402924822847126e-06f, -2.3899232814983407e-07f, -3.289716516974295e-07f, 0.0f},
    {-7.3796927608782426e-06f, 3.366050904674012e-08f, 9.34323168166884e-07f, 6.50413340963496e-08f, 7.874768925830722e-07f, 3.4469984200313775e-08f, 6.206904146210945e-08f, 0.0f},
    {1.5153141248447355e-05f, -6.671298535820824e-08f, -1.2214239575314423e-07f, -1.1508483943600822e-08f, -1.4044776719401852e-07f, 5.456150198313026e-09f, -1.3641141549669555e-08f, 0.0f}};

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
#define dnnlk__vi_srli(a, n) ((int32_t)((uint32_t)(a) >> (n)))
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
