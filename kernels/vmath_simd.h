/* dnnl_kernels — vmath_simd.h: the f32 vector math body (no include guard; see vmath.h).
 * Instantiated for the scalar path (one lane) and for SSE4.1, AVX2 and AVX-512.
 * Every function takes and returns dnnlk__vf by value and is force-inlined into the calling
 * kernel's entry point of the same ISA. Coefficients: vmath.h, fitted by tools/fit_vmath.py. */

/* What differs by level is asked of the vector layer (vec.h's "vmath" names), never the level
 * itself: DNNLK__VEC_FMA (one rounding per fmadd: the fused formulas below), DNNLK__VEC_PROD_ERR (a
 * product's error in one instruction), and where a 32-entry register table and a masked
 * one-instruction scaling are there (DNNLK__VM_FINE: AVX-512), the finer gelu tables, which pay
 * for their permutes with shorter dependency chains. */
#define DNNLK__VM_FINE (DNNLK__VEC_LUT32 && DNNLK__VEC_SCALEF)

/* hi + lo = a * a exactly (|a| small enough that a * 4097 does not overflow). The product's error
 * in one fused step where the level has it (also where the includer's own flags enable FMA: the
 * compiler may then fuse the products of the split below, which breaks its exactness: gelu_tanh
 * lost 37 ulp in the left tail); Dekker's split into 12-bit halves otherwise. */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__vm_two_prod)(dnnlk__vf a, dnnlk__vf b, dnnlk__vf *lo) {
    dnnlk__vf hi = dnnlk__vf_mul(a, b);
#if DNNLK__VEC_PROD_ERR
    *lo = dnnlk__vf_prod_err(a, b, hi);
#else
    dnnlk__vf split = dnnlk__vf_set1(4097.0f);
    dnnlk__vf ca = dnnlk__vf_mul(a, split), cb = dnnlk__vf_mul(b, split);
    dnnlk__vf ah = dnnlk__vf_sub(ca, dnnlk__vf_sub(ca, a)), bh = dnnlk__vf_sub(cb, dnnlk__vf_sub(cb, b));
    dnnlk__vf al = dnnlk__vf_sub(a, ah), bl = dnnlk__vf_sub(b, bh);
    dnnlk__vf e = dnnlk__vf_sub(dnnlk__vf_mul(ah, bh), hi);
    e = dnnlk__vf_add(e, dnnlk__vf_mul(ah, bl));
    e = dnnlk__vf_add(e, dnnlk__vf_mul(al, bh));
    *lo = dnnlk__vf_add(e, dnnlk__vf_mul(al, bl));
#endif
    return hi;
}

/* s + e = a + b exactly (Knuth's TwoSum: no ordering requirement). */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__vm_two_sum)(dnnlk__vf a, dnnlk__vf b, dnnlk__vf *e) {
    dnnlk__vf s = dnnlk__vf_add(a, b);
    dnnlk__vf bb = dnnlk__vf_sub(s, a);
    *e = dnnlk__vf_add(dnnlk__vf_sub(a, dnnlk__vf_sub(s, bb)), dnnlk__vf_sub(b, bb));
    return s;
}

/* round(h * c) as an integral float, for |h * c| < 2^22: the shifter 1.5 * 2^23 added inside one
 * FMA and taken off again (two instructions for three: multiply and a two-uop round). On the FMA
 * ISAs the exact product is rounded, elsewhere the product is rounded to float first (the same as
 * rounding fl(h * c)), so the two groups may pick neighbouring integers where h * c is within an
 * ulp of a half-integer; either keeps the reduced argument within the polynomials' range. */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__vm_round_mul)(dnnlk__vf h, float c) {
    dnnlk__vf shifter = dnnlk__vf_set1(DNNLK__VM_SHIFTER);
    return dnnlk__vf_sub(dnnlk__vf_fmadd(h, dnnlk__vf_set1(c), shifter), shifter);
}

/* t * 2^k for integral k in [-252, 252], one rounding (subnormal results rounded once). */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__vm_ldexp)(dnnlk__vf t, dnnlk__vf k) {
#if DNNLK__VEC_SCALEF
    return dnnlk__vf_scalef(t, k);
#else
    /* two normal factors 2^(k>>1) 2^(k-(k>>1)): only the second multiply can round */
    dnnlk__vi i = dnnlk__vf_to_vi_trunc(k), i1 = dnnlk__vi_srai(i, 1), i2 = dnnlk__vi_sub(i, i1);
    t = dnnlk__vf_mul(t, dnnlk__vi_as_vf(dnnlk__vi_slli(dnnlk__vi_add(i1, dnnlk__vi_set1(127)), 23)));
    return dnnlk__vf_mul(t, dnnlk__vi_as_vf(dnnlk__vi_slli(dnnlk__vi_add(i2, dnnlk__vi_set1(127)), 23)));
#endif
}

/* c[0] + c[1] r + .. + c[4] r^4 (Horner) */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__vm_poly4)(const float *c, dnnlk__vf r) {
    dnnlk__vf q = dnnlk__vf_fmadd(dnnlk__vf_set1(c[4]), r, dnnlk__vf_set1(c[3]));
    q = dnnlk__vf_fmadd(q, r, dnnlk__vf_set1(c[2]));
    q = dnnlk__vf_fmadd(q, r, dnnlk__vf_set1(c[1]));
    return dnnlk__vf_fmadd(q, r, dnnlk__vf_set1(c[0]));
}

/* mult exp(r) from a reduced argument r (|r| <= ln2/2 and its rounding): exp(r) = 1 + p,
 * p = r + r^2 q(r); mult exp(r) = mult + mult p, one rounding (a caller's factor folded in costs no
 * extra rounding). */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__vm_expm1_poly)(dnnlk__vf r) {
    return dnnlk__vf_fmadd(dnnlk__vf_mul(r, r), DNNLK__SFX(dnnlk__vm_poly4)(dnnlk__vm_exp_c, r), r);
}
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__vm_exp_poly)(dnnlk__vf r, dnnlk__vf mult) {
    dnnlk__vf p = DNNLK__SFX(dnnlk__vm_expm1_poly)(r);
    return dnnlk__vf_fmadd(mult, p, mult);
}

#if DNNLK__VEC_FMA
/* mult 2^f (|f| <= 1/2 and its rounding), AVX2's gelu_tanh and the FMA gelu_tanh_bwd: 2^f = 1 + p, p = f ln2 + f^2 Q(f) with ln2 a
 * float pair, f ln2h taken exactly in p's last step, so p rounds once; then mult + mult p. */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__vm_exp2m1_poly)(dnnlk__vf f) {
    const float *c = dnnlk__vm_exp2_c;
    /* Q by Estrin's scheme (one multiply more than Horner, one dependent step fewer: gelu_tanh's
     * loop is bound by its latency, measured) */
    dnnlk__vf f2 = dnnlk__vf_mul(f, f), p;
    dnnlk__vf q = dnnlk__vf_fmadd(f2, dnnlk__vf_fmadd(dnnlk__vf_set1(c[3]), f, dnnlk__vf_set1(c[2])),
                                  dnnlk__vf_fmadd(dnnlk__vf_set1(c[1]), f, dnnlk__vf_set1(c[0])));
    q = dnnlk__vf_fmadd(dnnlk__vf_mul(f2, f2), dnnlk__vf_set1(c[4]), q);
    p = dnnlk__vf_fmadd(f2, q, dnnlk__vf_mul(f, dnnlk__vf_set1(DNNLK__VM_LN2_F_LO)));
    return dnnlk__vf_fmadd(f, dnnlk__vf_set1(DNNLK__VM_LN2_F), p);
}
#endif

/* mult exp(r) 2^k: dnnlk__vm_exp_poly scaled by 2^k, with one more rounding. */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__vm_exp_scale)(dnnlk__vf r, dnnlk__vf mult, dnnlk__vf k) {
    return DNNLK__SFX(dnnlk__vm_ldexp)(DNNLK__SFX(dnnlk__vm_exp_poly)(r, mult), k);
}

/* mult * exp(h + l) * 2^bias for a double-float argument (|l| tiny beside h or beside 1), bias per
 * lane in {0, 48} (a scaled result keeps full precision where exp itself is subnormal). With
 * flush (a constant), lanes with h < thr give exactly 0 without computing anything that underflows (an underflowing multiply
 * costs a microcode assist on x86 without FTZ: softmax rows full of -1e4 masks would crawl); thr
 * is the caller's point where the result rounds to 0. h >= 89 gives +inf; results that are
 * subnormal are rounded once. NaN in h is not propagated (callers blend it back).
 * n = round(h / ln2), r = h - n ln2 (Cody-Waite: ln2 split into a 15-bit head, so n * head is
 * exact, and a tail), then dnnlk__vm_exp_scale.
 * flags (constants): DNNLK__VM_FLUSH as above; DNNLK__VM_BIAS: bias is not 0 (else it is not added:
 * the same bits, one instruction less); DNNLK__VM_BIG: h may exceed 89 (else not clamped).
 * p_out (NULL, or a caller that folds exp's last step into its own): the result is left as
 * e + e p, and e = mult 2^(n + bias) is returned (exact where normal: the caller keeps n + bias
 * in range), p in *p_out. */
#define DNNLK__VM_FLUSH 1
#define DNNLK__VM_BIAS 2
#define DNNLK__VM_BIG 4
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__vm_exp_hlbm)(dnnlk__vf h, dnnlk__vf l, dnnlk__vf bias, dnnlk__vf thr,
                                                                   dnnlk__vf mult, int flags, dnnlk__vf *p_out) {
    dnnlk__vf n, r, p;
    dnnlk__vmask under = dnnlk__vf_cmplt(h, thr);
    int flush = flags & DNNLK__VM_FLUSH;
    if (flush) {
        h = dnnlk__vf_blend(under, dnnlk__vf_zero(), h);
        l = dnnlk__vf_blend(under, dnnlk__vf_zero(), l);
    }
    if ((flags & DNNLK__VM_BIG)) h = dnnlk__vf_min(h, dnnlk__vf_set1(89.0f));
    n = DNNLK__SFX(dnnlk__vm_round_mul)(h, DNNLK__VM_LOG2E);
    r = dnnlk__vf_fmadd(n, dnnlk__vf_set1(-DNNLK__VM_LN2_HI), h); /* exact */
    if (p_out) /* the two small terms first: one rounding of r fewer without FMA */
        r = dnnlk__vf_add(r, dnnlk__vf_fmadd(n, dnnlk__vf_set1(-DNNLK__VM_LN2_LO), l));
    else {
        r = dnnlk__vf_fmadd(n, dnnlk__vf_set1(-DNNLK__VM_LN2_LO), r);
        r = dnnlk__vf_add(r, l);
    }
    if ((flags & DNNLK__VM_BIAS)) n = dnnlk__vf_add(n, bias);
    if (p_out) {
        *p_out = DNNLK__SFX(dnnlk__vm_expm1_poly)(r);
        p = DNNLK__SFX(dnnlk__vm_ldexp)(mult, n);
    } else
        p = DNNLK__SFX(dnnlk__vm_exp_scale)(r, mult, n);
    if (flush) p = dnnlk__vf_blend(under, dnnlk__vf_zero(), p);
    return p;
}

static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__vm_exp_hl)(dnnlk__vf h, dnnlk__vf l) {
    /* exp(-103.98) is half the smallest subnormal: below it the result rounds to 0 */
    return DNNLK__SFX(dnnlk__vm_exp_hlbm)(h, l, dnnlk__vf_zero(), dnnlk__vf_set1(-103.98f), dnnlk__vf_set1(1.0f),
                                          DNNLK__VM_FLUSH | DNNLK__VM_BIG, NULL);
}

static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__vm_keep_nan)(dnnlk__vf x, dnnlk__vf r) {
    return dnnlk__vf_blend(dnnlk__vf_cmpunord(x, x), x, r);
}

/* exp(x), within 1 ulp; NaN in, NaN out. */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__vm_exp)(dnnlk__vf x) {
    return DNNLK__SFX(dnnlk__vm_keep_nan)(x, DNNLK__SFX(dnnlk__vm_exp_hl)(x, dnnlk__vf_zero()));
}

static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__vm_abs)(dnnlk__vf x) {
    return dnnlk__vf_and(x, dnnlk__vi_as_vf(dnnlk__vi_set1(0x7fffffff)));
}

/* x with |x| < 2^-40 replaced by 0, for the argument of a polynomial in x^2: x^2 and x^3 would
 * underflow to subnormals there (slow on x86 without DAZ), and their terms are below 2^-80
 * relative anyway. */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__vm_flush_tiny)(dnnlk__vf x) {
    return dnnlk__vf_blend(dnnlk__vf_cmplt(DNNLK__SFX(dnnlk__vm_abs)(x), dnnlk__vf_set1(9.094947017729282e-13f)),
                           dnnlk__vf_zero(), x);
}

#if DNNLK__VEC_FMA
/* exp(a b) = exp(r) 2^n, the product a b taken exactly: r = a b - n ln2h in one FMA (n ln2h is
 * exact: 15-bit head, |n| < 2^9), then the tail: two roundings of r, as many as from hi + lo in
 * exp_hlbm, with one instruction less. */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__vm_exp_prod_reduce)(dnnlk__vf a, dnnlk__vf b, dnnlk__vf *n) {
    dnnlk__vf r;
    *n = DNNLK__SFX(dnnlk__vm_round_mul)(dnnlk__vf_mul(a, b), DNNLK__VM_LOG2E);
    r = dnnlk__vf_fmsub(a, b, dnnlk__vf_mul(*n, dnnlk__vf_set1(DNNLK__VM_LN2_HI)));
    return dnnlk__vf_fmadd(*n, dnnlk__vf_set1(-DNNLK__VM_LN2_LO), r);
}
#else
/* The same without FMA: a b as a Dekker pair hi + lo, then exp_hlbm's steps (the same bits as
 * dnnlk__vm_exp_prod's r and n). */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__vm_exp_prod_reduce)(dnnlk__vf a, dnnlk__vf b, dnnlk__vf *n) {
    dnnlk__vf lo, hi = DNNLK__SFX(dnnlk__vm_two_prod)(a, b, &lo), r;
    *n = DNNLK__SFX(dnnlk__vm_round_mul)(hi, DNNLK__VM_LOG2E);
    r = dnnlk__vf_fmadd(*n, dnnlk__vf_set1(-DNNLK__VM_LN2_HI), hi); /* exact */
    r = dnnlk__vf_fmadd(*n, dnnlk__vf_set1(-DNNLK__VM_LN2_LO), r);
    return dnnlk__vf_add(r, lo);
}
#endif

/* mult exp(a b), the product a b (in [-105.2, 0]: no clamp, no flush) taken exactly. */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__vm_exp_prod)(dnnlk__vf a, dnnlk__vf b, dnnlk__vf mult) {
#if DNNLK__VEC_FMA
    dnnlk__vf n, r = DNNLK__SFX(dnnlk__vm_exp_prod_reduce)(a, b, &n);
    return DNNLK__SFX(dnnlk__vm_exp_scale)(r, mult, n);
#else
    dnnlk__vf lo, hi = DNNLK__SFX(dnnlk__vm_two_prod)(a, b, &lo);
    return DNNLK__SFX(dnnlk__vm_exp_hlbm)(hi, lo, dnnlk__vf_zero(), dnnlk__vf_zero(), mult, 0, NULL);
#endif
}

#if DNNLK__VEC_LUT32
#define DNNLK__VM_ROW(k) (cols == 32 ? dnnlk__vf_lut32(t + (k) * 32, idx) : dnnlk__vf_lut8(t + (k) * 8, ix))
#else
#define DNNLK__VM_ROW(k) dnnlk__vf_lut8(t + (k) * 8, ix)
#endif

/* Piecewise polynomial of a vmath.h table at a in [0, 15): interval = exponent and top mantissa
 * bits of a + 1 (one bit for 8 columns, three for 32, AVX-512 only; its rounding can only pick a
 * neighbour at an edge, where both fits hold), read from 2a + 2 (the same rounding, scaled
 * exactly): its bits 22..30 are 256 + the 8-column interval, its bits 20..30 1024 + the 32-column
 * one, so the low bits are the column, and AVX2's and AVX-512's permutes, which read only the low
 * 3, 4 or 5 index bits, need no masking. u = a - c (the table holds -c); f = c0 + u q(u), one
 * rounding. plus_a (a constant): the first interval's polynomial is f(a) - a, and a takes c0's
 * place. neg (a constant): returns -f, negated exactly inside the last step (no extra
 * instruction). */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__vm_tail)(const float *t, int cols, dnnlk__vf a, int plus_a,
                                                               int deg, int neg, dnnlk__vf *c0_out) {
    /* rows: -c, c0, c1..c_deg (cols and deg are constants: 8 columns of degree 7 or 8, or 32
     * of degree 5) */
    dnnlk__vf a2 = dnnlk__vf_fmadd(a, dnnlk__vf_set1(2.0f), dnnlk__vf_set1(2.0f));
    dnnlk__vi idx = dnnlk__vi_srli(dnnlk__vf_as_vi(a2), cols == 32 ? 20 : 22);
    dnnlk__vlut8 ix = dnnlk__vlut8_index(idx);
    dnnlk__vf u = dnnlk__vf_add(a, DNNLK__VM_ROW(0));
    dnnlk__vf q = DNNLK__VM_ROW(1 + deg), c0 = DNNLK__VM_ROW(1);
    /* written out: gcc -O2 keeps a loop of table loads rolled */
    if (deg == 8) q = dnnlk__vf_fmadd(q, u, DNNLK__VM_ROW(8));
    if (deg >= 7) q = dnnlk__vf_fmadd(q, u, DNNLK__VM_ROW(7));
    if (deg >= 7) q = dnnlk__vf_fmadd(q, u, DNNLK__VM_ROW(6));
    q = dnnlk__vf_fmadd(q, u, DNNLK__VM_ROW(5));
    q = dnnlk__vf_fmadd(q, u, DNNLK__VM_ROW(4));
    q = dnnlk__vf_fmadd(q, u, DNNLK__VM_ROW(3));
    q = dnnlk__vf_fmadd(q, u, DNNLK__VM_ROW(2));
    /* plus_a: a, or a/2 (plus_a 2), in the first interval, where c0 = 0 (decided on 2a + 2 as the
     * index). a/2 on the permute ISAs: a times the row after c_deg (1/2 in the first interval, 0
     * elsewhere) plus c0, exact, one permute and one FMA; where a table read is not a permute it
     * costs more than the compare and blend (the same bits either way). */
    if (plus_a == 2 && DNNLK__VEC_PERMUTE_LUT)
        c0 = dnnlk__vf_fmadd(a, DNNLK__VM_ROW(2 + deg), c0);
    else if (plus_a)
        c0 = dnnlk__vf_blend(dnnlk__vf_cmplt(a2, dnnlk__vf_set1(3.0f)),
                             plus_a == 2 ? dnnlk__vf_mul(a, dnnlk__vf_set1(0.5f)) : a, c0);
    if (c0_out) { /* f = c0 + u q unrounded, for a caller that folds it into its own last step */
        *c0_out = c0;
        return dnnlk__vf_mul(q, u);
    }
    return neg ? dnnlk__vf_fnmsub(q, u, c0) : dnnlk__vf_fmadd(q, u, c0);
}
#undef DNNLK__VM_ROW

/* erfc(a) for a in [0, 10.1]: exp(-a^2) N(a), a^2 taken exactly. */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__vm_erfc_tail)(dnnlk__vf a) {
    dnnlk__vf n = DNNLK__SFX(dnnlk__vm_tail)(dnnlk__vm_erfc8[0], 8, a, 0, 8, 0, NULL);
    /* a <= 10.1: -a^2 >= -102.1, no flush needed */
    return DNNLK__SFX(dnnlk__vm_exp_prod)(a, dnnlk__vf_xor(a, dnnlk__vf_set1(-0.0f)), n);
}

/* erf(x) within 2 ulp (1 measured): a piecewise polynomial of |x| (clamped at 4, where erf rounds
 * to 1), sign put back; erf(+-inf) = +-1, NaN in, NaN out. */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__vm_erf)(dnnlk__vf x) {
    dnnlk__vf sign = dnnlk__vf_set1(-0.0f);
    dnnlk__vf a = dnnlk__vf_min(DNNLK__SFX(dnnlk__vm_abs)(x), dnnlk__vf_set1(4.0f));
    dnnlk__vf r = dnnlk__vf_or(DNNLK__SFX(dnnlk__vm_tail)(dnnlk__vm_erf8[0], 8, a, 1, 8, 0, NULL), dnnlk__vf_and(x, sign));
    return DNNLK__SFX(dnnlk__vm_keep_nan)(x, r);
}

/* erfc(x), relative accuracy kept in the right tail: exp(-a^2) N(a) for x >= 0, 2 minus that for
 * x < 0; erfc(-inf) = 2, erfc(+inf) = 0; x >= 10.1 gives 0 (computed on a benign argument). */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__vm_erfc)(dnnlk__vf x) {
    dnnlk__vf a = DNNLK__SFX(dnnlk__vm_abs)(x);
    dnnlk__vmask zero = dnnlk__vf_cmpge(a, dnnlk__vf_set1(10.1f)); /* erfc(10.06) is half the smallest subnormal */
    dnnlk__vf t = DNNLK__SFX(dnnlk__vm_erfc_tail)(dnnlk__vf_blend(zero, dnnlk__vf_set1(1.0f), a));
    t = dnnlk__vf_blend(zero, dnnlk__vf_zero(), t);
    return DNNLK__SFX(dnnlk__vm_keep_nan)(x, dnnlk__vf_blend(dnnlk__vf_cmplt(x, dnnlk__vf_zero()), dnnlk__vf_sub(dnnlk__vf_set1(2.0f), t), t));
}

/* tanh(x): x + x^3 T(x^2) for |x| < 0.9, else sign(x) (1 - 2/(exp(2|x|) + 1)). */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__vm_tanh)(dnnlk__vf x) {
    const float *c = dnnlk__vm_tanh_c;
    dnnlk__vf a = DNNLK__SFX(dnnlk__vm_abs)(x);
    dnnlk__vf ac = dnnlk__vf_min(a, dnnlk__vf_set1(10.0f));
    dnnlk__vf e = DNNLK__SFX(dnnlk__vm_exp_hl)(dnnlk__vf_add(ac, ac), dnnlk__vf_zero());
    dnnlk__vf big = dnnlk__vf_sub(dnnlk__vf_set1(1.0f), dnnlk__vf_div(dnnlk__vf_set1(2.0f), dnnlk__vf_add(e, dnnlk__vf_set1(1.0f))));
    dnnlk__vf xs = DNNLK__SFX(dnnlk__vm_flush_tiny)(dnnlk__vf_min(dnnlk__vf_max(x, dnnlk__vf_set1(-1.0f)), dnnlk__vf_set1(1.0f)));
    dnnlk__vf t = dnnlk__vf_mul(xs, xs);
    dnnlk__vf q = dnnlk__vf_fmadd(dnnlk__vf_set1(c[7]), t, dnnlk__vf_set1(c[6]));
    q = dnnlk__vf_fmadd(q, t, dnnlk__vf_set1(c[5]));
    q = dnnlk__vf_fmadd(q, t, dnnlk__vf_set1(c[4]));
    q = dnnlk__vf_fmadd(q, t, dnnlk__vf_set1(c[3]));
    q = dnnlk__vf_fmadd(q, t, dnnlk__vf_set1(c[2]));
    q = dnnlk__vf_fmadd(q, t, dnnlk__vf_set1(c[1]));
    q = dnnlk__vf_fmadd(q, t, dnnlk__vf_set1(c[0]));
    big = dnnlk__vf_or(big, dnnlk__vf_and(x, dnnlk__vf_set1(-0.0f)));
    return DNNLK__SFX(dnnlk__vm_keep_nan)(
        x, dnnlk__vf_blend(dnnlk__vf_cmplt(a, dnnlk__vf_set1(0.9f)), dnnlk__vf_fmadd(dnnlk__vf_mul(xs, t), q, x), big));
}

/* gelu(x) = x Phi(x), exact form, from the left tail g = gelu(-a) = -exp(-a^2/2) M(a) (a = |x|,
 * -a^2/2 taken exactly as a (-a/2)): x < 0 gives g, x >= 0 gives x + g (gelu(x) - gelu(-x) = x),
 * both as max(-0, x) + g, so no cancellation-prone 1 - Phi, no division, one formula for all x.
 * M from the 8-interval table; where DNNLK__VM_FINE (AVX-512) from the 32-interval one (four
 * operations fewer, not the same bits as AVX2). M's first interval (a < 1/2, c = 0, where M(a) = a/2 - a^2/sqrt(2 pi)
 * + ...) is a/2 + u q (dnnlk__vm_tail's plus_a 2; AVX-512's first interval is a < 1/8, c = 0, as
 * a q(a)): a q would round q and then a q, two roundings of M's size beside exp's (2.46 ulp
 * there, real-valued, on SSE4.1). The last steps, by what the level has:
 * DNNLK__VEC_FMA (AVX2 and AVX-512): -M (negated inside its last step) folded into exp's last
 * step, mult + mult p.
 * no FMA (SSE4.1 and scalar: the two roundings of M and of M exp(r) alone came to 2.10 ulp):
 * M = c0 + t (t = u q) is not rounded, M exp(r) = c0 + (c0 p + (t + t p)), so only the last add
 * rounds at the result's size; the result is -(that) 2^n, g = -0 - it.
 * |x| >= 14.5 (the result rounds to -0 or x): g = -0 with no underflowing arithmetic. AVX-512
 * masks those lanes off in exp's scaling (their values, however wild, reach nothing); elsewhere a
 * is clamped there and M replaced by 0 before the scaling (AVX2: -M by -0, so g = -0 * p + -0 =
 * -0, exp's p = exp(r) - 1 > 0 at a = 14.5, r = 0.23). gelu(-inf) = -0, gelu(+inf) = +inf.
 * max(-0, x) keeps a NaN x (x86 max returns its second operand for a NaN or two zeros, so +0
 * stays +0). */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__vm_gelu_erf)(dnnlk__vf x) {
    dnnlk__vf a = DNNLK__SFX(dnnlk__vm_abs)(x), g;
    dnnlk__vmask big = dnnlk__vf_cmpge(a, dnnlk__vf_set1(14.5f));
#if DNNLK__VM_FINE
    dnnlk__vf nm = DNNLK__SFX(dnnlk__vm_tail)(dnnlk__vm_gelu32[0], 32, a, 0, 5, 1, NULL), n;
    /* -a^2/2 >= -105.125 in the lanes kept: only a sliver underflows */
    dnnlk__vf r = DNNLK__SFX(dnnlk__vm_exp_prod_reduce)(a, dnnlk__vf_mul(a, dnnlk__vf_set1(-0.5f)), &n);
    g = dnnlk__vf_scalef_off(DNNLK__SFX(dnnlk__vm_exp_poly)(r, nm), n, big);
    return dnnlk__vf_add(dnnlk__vf_max_neg0(x), g);
#elif DNNLK__VEC_FMA
    dnnlk__vf ac = dnnlk__vf_min(a, dnnlk__vf_set1(14.5f));
    dnnlk__vf nm = DNNLK__SFX(dnnlk__vm_tail)(dnnlk__vm_gelu8[0], 8, ac, 2, 7, 1, NULL);
    nm = dnnlk__vf_blend(big, dnnlk__vf_set1(-0.0f), nm);
    g = DNNLK__SFX(dnnlk__vm_exp_prod)(ac, dnnlk__vf_mul(ac, dnnlk__vf_set1(-0.5f)), nm);
    return dnnlk__vf_add(dnnlk__vf_max_neg0(x), g);
#else
    dnnlk__vf ac = dnnlk__vf_min(a, dnnlk__vf_set1(14.5f)), c0, n, p, m;
    dnnlk__vf t = DNNLK__SFX(dnnlk__vm_tail)(dnnlk__vm_gelu8[0], 8, ac, 2, 7, 0, &c0);
    p = DNNLK__SFX(dnnlk__vm_expm1_poly)(DNNLK__SFX(dnnlk__vm_exp_prod_reduce)(ac, dnnlk__vf_mul(ac, dnnlk__vf_set1(-0.5f)), &n));
    m = dnnlk__vf_add(c0, dnnlk__vf_fmadd(c0, p, dnnlk__vf_fmadd(t, p, t))); /* M exp(r) */
    m = dnnlk__vf_blend(big, dnnlk__vf_zero(), m);
    g = DNNLK__SFX(dnnlk__vm_ldexp)(m, n); /* -gelu(-a) */
    return dnnlk__vf_sub(dnnlk__vf_max_neg0(x), g);
#endif
}

/* t + s + t p for t, s >= 0 (s a power of 2 or 0, |p| < 1/2): the denominator 1 + exp(-2z) of
 * every gelu_tanh below, as (scale) s + T (1 + p) with exp(-2z)'s polynomial p left unapplied.
 * Rounding t + t p first and then adding s rounds twice at the denominator's size where both
 * terms count (1 + e for e in [2^24, 2^25) is a tie every time, e = 1 + p near x = 0): up to 2.45
 * ulp in the result, real-valued. Here t + s is an exact pair (Fast2Sum, the larger first), and t p
 * and the pair's low part are summed below its last bit, so one rounding counts. */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__vm_gelu_tanh_den)(dnnlk__vf t, dnnlk__vf p, dnnlk__vf s) {
    dnnlk__vf hi = dnnlk__vf_add(t, s);
    dnnlk__vf lo = dnnlk__vf_sub(dnnlk__vf_min(t, s), dnnlk__vf_sub(hi, dnnlk__vf_max(t, s)));
    return dnnlk__vf_add(hi, dnnlk__vf_fmadd(t, p, lo));
}

#if DNNLK__VEC_FMA
/* gelu, tanh approximation, FMA ISAs: 0.5x(1 + tanh(z)) = x / (1 + exp(-2z)) with
 * 2z = x (k1 + k2 x^2), k1 = 2 sqrt(2/pi), k2 = 0.044715 k1.
 * The exp argument needs ~32 bits in the left tail (gelu ~ x exp(2z), |2z| up to 113: an error d
 * in 2z is a relative error d in the result), but only its rounding errors have to be carried.
 * It is taken in units of ln2 (k1 and k2 carry the factor log2(e); AVX-512: of ln2/32), so the
 * Cody-Waite steps vanish: exp(-2z) = 2^(-a w) (a: x or its clamp), w = k1 + k2 s (s = a^2) in
 * one FMA (see dnnlk__vm_gelu_tanh_w for its error term wl). The product a w is never rounded:
 * its nearest integer and the remainder are one FMA each, the remainder less a wl one more. AVX2
 * then takes 2^f - 1 by dnnlk__vm_exp2m1_poly, AVX-512 by a table and a shorter polynomial, and
 * both form 1 + exp(-2z) by dnnlk__vm_gelu_tanh_den. */

/* w + wl = (k1 + k2 a^2) in units of ln2 / scale (scale a power of 2, so every step below only
 * scales: written for scale 1), wl carrying every rounding error: k1's head is a
 * multiple of 2^-19, hence of ulp(w) for every w < 32, so w - k1h is exact and the FMA's rounding
 * error is k2h s - (w - k1h), one more FMA; the error of s (exact by FMA) and the constants' tails
 * are summed beside it, so wl is ready three steps after w (the loop is latency-bound). */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__vm_gelu_tanh_w)(dnnlk__vf a, float scale, dnnlk__vf *wl) {
    /* k1 = 2 sqrt(2/pi) log2(e), k1h = 1207020 / 2^19; k2 = 0.044715 k1 */
    const float k1h = 2.3022079467773438f * scale, k1l = 2.513669699055754e-07f * scale;
    const float k2h = 0.10294324159622192f * scale, k2l = -2.016198541454628e-09f * scale;
    dnnlk__vf s = dnnlk__vf_mul(a, a), sl = dnnlk__vf_fmsub(a, a, s);
    dnnlk__vf w = dnnlk__vf_fmadd(dnnlk__vf_set1(k2h), s, dnnlk__vf_set1(k1h));
    dnnlk__vf tails = dnnlk__vf_fmadd(dnnlk__vf_set1(k2h), sl, dnnlk__vf_fmadd(dnnlk__vf_set1(k2l), s, dnnlk__vf_set1(k1l)));
    *wl = dnnlk__vf_add(dnnlk__vf_fmsub(dnnlk__vf_set1(k2h), s, dnnlk__vf_sub(w, dnnlk__vf_set1(k1h))), tails);
    return w;
}

#if DNNLK__VM_FINE
/* DNNLK__VM_FINE (AVX-512): the exponent in units of ln2/32 (the w constants scaled by 32, exactly), so the
 * polynomial is short: exp(-2z) = 2^(-x w), x w = (N + r) / 32 with N = round(x w) (t = shifter +
 * N, one FMA) and r = x w - N (one FMA, exact, and x wl); N = 32 k + j, and j is t's low 5 bits,
 * which the permute reads as they are. Then exp(-2z) = 2^-k P, P = T (1 + p), p = tau + p(r): T =
 * 2^(-j/32) rounded and tau its rounding error (vmath.h's 32-entry table; tau rides in p's first
 * FMA at no cost), p(r) = 2^(-r/32) - 1 of degree 3 (|r| / 32 <= 1/64), three dependent steps
 * after r (2^f by dnnlk__vm_exp2m1_poly takes six: the loop is bound by its latency).
 * x / (1 + e) = 2^k x / (2^k + P) for every lane, the denominator by dnnlk__vm_gelu_tanh_den
 * (P itself never rounded), 2^k dropped where k < -60 (below P's last bit): one formula, no lane
 * classes to blend, and no overflow (the far left tail has k down to about -155, and only 2^k,
 * which vanishes, is formed). k is never formed as an integer:
 * vscalefps scales by the floor of its second operand, so N / 32 (= t / 32 - shifter / 32,
 * exact) serves. The last scaling rounds subnormal results once; it is masked off where x < -10.8
 * (the result rounds to 0, -inf included), so those lanes give -0 with no underflowing
 * arithmetic, whatever the values they carry. Lanes x > 5.25 (the result rounds to x, +inf
 * included) take x, put back after the scaling, so x needs no clamp (one step less on the chain;
 * those lanes' overflows and NaNs reach nothing). NaN x: NaN through every step. */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__vm_gelu_tanh)(dnnlk__vf x) {
    const float *c = dnnlk__vm_exp2_32_c;
    dnnlk__vf one = dnnlk__vf_set1(1.0f), shifter = dnnlk__vf_set1(DNNLK__VM_SHIFTER);
    dnnlk__vf wl, w = DNNLK__SFX(dnnlk__vm_gelu_tanh_w)(x, 32.0f, &wl);
    dnnlk__vf t = dnnlk__vf_fmadd(x, w, shifter), n = dnnlk__vf_sub(t, shifter);
    dnnlk__vf k = dnnlk__vf_fmadd(t, dnnlk__vf_set1(1.0f / 32), dnnlk__vf_set1(-DNNLK__VM_SHIFTER / 32)); /* N / 32 */
    dnnlk__vf r = dnnlk__vf_fmadd(x, wl, dnnlk__vf_fmsub(x, w, n));
    dnnlk__vi j = dnnlk__vf_as_vi(t);
    dnnlk__vf T = dnnlk__vf_lut32(dnnlk__vm_exp2_32[0], j);
    dnnlk__vf p = dnnlk__vf_fmadd(dnnlk__vf_mul(r, r), dnnlk__vf_fmadd(dnnlk__vf_set1(c[2]), r, dnnlk__vf_set1(c[1])),
                                  dnnlk__vf_fmadd(r, dnnlk__vf_set1(c[0]), dnnlk__vf_lut32(dnnlk__vm_exp2_32[1], j)));
    dnnlk__vf s = dnnlk__vf_maskz_scalef(dnnlk__vf_cmpgt(k, dnnlk__vf_set1(-60.0f)), one, k);
    dnnlk__vf d = DNNLK__SFX(dnnlk__vm_gelu_tanh_den)(T, p, s);
    return dnnlk__vf_blend(dnnlk__vf_cmpgt(x, dnnlk__vf_set1(5.25f)), x,
                           dnnlk__vf_scalef_off(dnnlk__vf_div(x, d), k, dnnlk__vf_cmplt(x, dnnlk__vf_set1(-10.8f))));
}
#else
/* FMA without DNNLK__VM_FINE (AVX2: no 32-entry permute, no masked scaling), by lanes: x >= -5.25:
 * x / (1 + exp(-2z)), x clamped at 5.25 for the exp (exp(-2z) < 2^-25 there, so 1 + exp(-2z) = 1
 * and the result is x, +inf included), the denominator 1 + 2^n (1 + p) by dnnlk__vm_gelu_tanh_den
 * (|n| <= 27: 2^n exact); x < -5.25 (1 + exp(-2z) = exp(-2z) to 2^-27): x exp(2z) as e + e p, e =
 * x 2^n (exact, except that a subnormal result rounds twice: 0.71 ulp and 0.5); x < -10.8 (the
 * result rounds to 0, -inf included): -0 out, with no underflowing arithmetic: the factor x is
 * made -0 there (a clamped at 11). NaN: the clamps give it a benign argument, x / (...) = NaN. */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__vm_gelu_tanh)(dnnlk__vf x) {
    dnnlk__vmask far = dnnlk__vf_cmplt(x, dnnlk__vf_set1(-5.25f)), dead = dnnlk__vf_cmplt(x, dnnlk__vf_set1(-10.8f));
    /* the exp argument is -(a (w + wl)): a = x for the near lanes (-2z), a = -x for the far ones (2z) */
    dnnlk__vf a = dnnlk__vf_blend(far, dnnlk__vf_min(dnnlk__vf_xor(x, dnnlk__vf_set1(-0.0f)), dnnlk__vf_set1(11.0f)),
                                  dnnlk__vf_min(x, dnnlk__vf_set1(5.25f)));
    dnnlk__vf mult = dnnlk__vf_blend(far, dnnlk__vf_blend(dead, dnnlk__vf_set1(-0.0f), x), dnnlk__vf_set1(1.0f));
    dnnlk__vf wl, w = DNNLK__SFX(dnnlk__vm_gelu_tanh_w)(a, 1.0f, &wl);
    dnnlk__vf shifter = dnnlk__vf_set1(DNNLK__VM_SHIFTER), one = dnnlk__vf_set1(1.0f), n, f, e, p, d;
    n = dnnlk__vf_sub(dnnlk__vf_fnmadd(a, w, shifter), shifter); /* round(-(a w)), as round_mul */
    f = dnnlk__vf_fnmadd(a, wl, dnnlk__vf_fnmsub(a, w, n));
    p = DNNLK__SFX(dnnlk__vm_exp2m1_poly)(f);
    e = DNNLK__SFX(dnnlk__vm_ldexp)(mult, n); /* near: 2^n; far: x 2^n (exact unless subnormal) */
    d = DNNLK__SFX(dnnlk__vm_gelu_tanh_den)(e, p, one); /* near: 1 + exp(-2z) */
    e = dnnlk__vf_fmadd(e, p, e);                        /* far: x exp(2z) */
    /* far lanes are negative: the sign makes the dead lanes' -0 * p + -0 (+0 when p < 0) -0 */
    return dnnlk__vf_blend(far, dnnlk__vf_or(e, dnnlk__vf_set1(-0.0f)), dnnlk__vf_div(x, d));
}
#endif
#else
/* gelu, tanh approximation: 0.5x(1 + tanh(z)) = x / (1 + exp(-2z)), 2z = x (k1 + k2 x^2) with
 * k1 = 2 sqrt(2/pi), k2 = 0.044715 k1. 2z is carried as a float pair (its rounding would cost
 * |2z| 2^-24 relative in the left tail, where gelu ~ x exp(2z)). Where -2z > 80 (x < -9.3) the
 * denominator is exp(-2z) alone (1 is below its last bit), so gelu = x exp(2z), with exp(2z)
 * computed scaled by 2^48: no overflow, full precision down to the subnormal results. Elsewhere
 * the denominator 1 + 2^n (1 + p) is dnnlk__vm_gelu_tanh_den's.
 * x < -16 gives -0 (the true value is below the smallest subnormal). */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__vm_gelu_tanh)(dnnlk__vf x) {
    const float k1h = 1.5957691669464111f, k1l = -4.534068054340423e-08f;
    const float k2h = 0.07135481387376785f, k2l = 2.3988324659995897e-09f;
    dnnlk__vf xc = dnnlk__vf_min(dnnlk__vf_max(x, dnnlk__vf_set1(-16.0f)), dnnlk__vf_set1(16.0f));
    dnnlk__vf xf = DNNLK__SFX(dnnlk__vm_flush_tiny)(xc); /* 2z = 0 there: gelu = x/2 to 2^-40 */
    dnnlk__vf ul, uh = DNNLK__SFX(dnnlk__vm_two_prod)(xf, xf, &ul);
    dnnlk__vf pl, ph = DNNLK__SFX(dnnlk__vm_two_prod)(dnnlk__vf_set1(k2h), uh, &pl);
    dnnlk__vf wl, wh, yl, yh, e, p, d, far, flip, sign = dnnlk__vf_set1(-0.0f), one = dnnlk__vf_set1(1.0f);
    dnnlk__vmask mfar;
    pl = dnnlk__vf_fmadd(dnnlk__vf_set1(k2h), ul, pl);
    pl = dnnlk__vf_fmadd(dnnlk__vf_set1(k2l), uh, pl);
    wh = DNNLK__SFX(dnnlk__vm_two_sum)(dnnlk__vf_set1(k1h), ph, &wl);
    wl = dnnlk__vf_add(wl, dnnlk__vf_add(pl, dnnlk__vf_set1(k1l)));
    yh = DNNLK__SFX(dnnlk__vm_two_prod)(xf, wh, &yl); /* 2z = yh + yl */
    yl = dnnlk__vf_fmadd(xf, wl, yl);
    mfar = dnnlk__vf_cmplt(yh, dnnlk__vf_set1(-80.0f));
    flip = dnnlk__vf_blend(mfar, dnnlk__vf_zero(), sign); /* near: exp(-2z); far: exp(2z) 2^48 */
    /* thresholds where the result rounds to 0: exp(-2z) below 2^-25 leaves 1 + exp(-2z) = 1 for
     * the near lanes; x exp(2z) below 2^-150 with |x| <= 16 for the far ones */
    e = DNNLK__SFX(dnnlk__vm_exp_hlbm)(dnnlk__vf_xor(yh, flip), dnnlk__vf_xor(yl, flip),
                                       dnnlk__vf_blend(mfar, dnnlk__vf_set1(48.0f), dnnlk__vf_zero()),
                                       dnnlk__vf_blend(mfar, dnnlk__vf_set1(-106.8f), dnnlk__vf_set1(-18.0f)),
                                       dnnlk__vf_blend(mfar, xc, dnnlk__vf_set1(1.0f)),
                                       DNNLK__VM_FLUSH | DNNLK__VM_BIAS, &p); /* e + e p: near exp(-2z), far x exp(2z) 2^48 */
    d = DNNLK__SFX(dnnlk__vm_gelu_tanh_den)(e, p, one); /* near: 1 + exp(-2z) */
    far = dnnlk__vf_mul(dnnlk__vf_fmadd(e, p, e), dnnlk__vf_set1(3.5527136788005009e-15f)); /* 2^-48 */
    far = dnnlk__vf_blend(dnnlk__vf_cmplt(x, dnnlk__vf_set1(-16.0f)), sign, far);
    return DNNLK__SFX(dnnlk__vm_keep_nan)(x, dnnlk__vf_blend(mfar, far, dnnlk__vf_div(x, d)));
}

#endif

/* ---- derivatives (the backward kernels of eltwise.h) ----
 * gelu'(x) from g(a) = gelu'(-a), a = |x|: x < 0 gives g, x >= 0 gives 1 - g (gelu(x) - gelu(-x) = x,
 * so gelu'(x) + gelu'(-x) = 1): the left tail keeps its relative accuracy, and 1 - g, in
 * [0.5, 1.13], does not cancel. g = E(a) F(a) with E an exp taken exactly (its argument's rounding
 * would cost its size in relative error) and F a piecewise polynomial of vmath.h whose zero (near
 * a = 0.752, where gelu' changes sign) is the centre of its interval, so F keeps its relative
 * accuracy through it. NaN gives NaN; +-inf give NaN, as PyTorch's gelu_backward (x times a
 * vanishing density, inf * 0). */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__vm_bwd_finish)(dnnlk__vf x, dnnlk__vf g) {
    dnnlk__vf r = dnnlk__vf_blend(dnnlk__vf_cmplt(x, dnnlk__vf_zero()), g, dnnlk__vf_sub(dnnlk__vf_set1(1.0f), g));
    r = dnnlk__vf_blend(dnnlk__vf_cmpeq(DNNLK__SFX(dnnlk__vm_abs)(x), dnnlk__vf_set1(INFINITY)), dnnlk__vf_set1(NAN), r);
    return DNNLK__SFX(dnnlk__vm_keep_nan)(x, r);
}

/* Exact form: E = exp(-a^2/2) (the product a (-a/2) exact, as gelu's), F = D(a) = Phi(-a) exp(a^2/2)
 * - a/sqrt(2 pi). a is clamped at 14.75, where g rounds to 0. */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__vm_gelu_erf_bwd)(dnnlk__vf x) {
    dnnlk__vf a = dnnlk__vf_min(DNNLK__SFX(dnnlk__vm_abs)(x), dnnlk__vf_set1(14.75f));
    dnnlk__vf d = DNNLK__SFX(dnnlk__vm_tail)(dnnlk__vm_gelu_d8[0], 8, a, 0, 8, 0, NULL);
    return DNNLK__SFX(dnnlk__vm_bwd_finish)(x, DNNLK__SFX(dnnlk__vm_exp_prod)(a, dnnlk__vf_mul(a, dnnlk__vf_set1(-0.5f)), d));
}

/* tanh form, gelu = x s(Y) with s the logistic function and Y = x (k1 + k2 x^2) (k1 = 2 sqrt(2/pi),
 * k2 = 0.044715 k1): E = exp(-Y(a)) with Y's rounding errors carried (as the forward: in units of
 * ln2 by FMAs on the FMA levels, as a float pair elsewhere), F = H(a) = (1 + E - a Y'(a)) /
 * (1 + E)^2. a is clamped at 11.25, where g rounds to 0. */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__vm_gelu_tanh_bwd)(dnnlk__vf x) {
    dnnlk__vf a = dnnlk__vf_min(DNNLK__SFX(dnnlk__vm_abs)(x), dnnlk__vf_set1(11.25f));
    dnnlk__vf h = DNNLK__SFX(dnnlk__vm_tail)(dnnlk__vm_gelu_h8[0], 8, a, 0, 8, 0, NULL);
#if DNNLK__VEC_FMA
    /* Y in units of ln2 as the forward's FMA form: w + wl = (k1 + k2 a^2) / ln2, exp(-Y) =
     * 2^(n + f), n = round(-(a w)), f = -(a w) - n - a wl (the product a w never rounded), then
     * g = H 2^n (1 + p) with p = 2^f - 1: 2^n scales exactly (a subnormal g rounds twice) */
    dnnlk__vf wl, w = DNNLK__SFX(dnnlk__vm_gelu_tanh_w)(a, 1.0f, &wl), shifter = dnnlk__vf_set1(DNNLK__VM_SHIFTER);
    dnnlk__vf n = dnnlk__vf_sub(dnnlk__vf_fnmadd(a, w, shifter), shifter);
    dnnlk__vf f = dnnlk__vf_fnmadd(a, wl, dnnlk__vf_fnmsub(a, w, n));
    dnnlk__vf e = DNNLK__SFX(dnnlk__vm_ldexp)(h, n);
    return DNNLK__SFX(dnnlk__vm_bwd_finish)(x, dnnlk__vf_fmadd(e, DNNLK__SFX(dnnlk__vm_exp2m1_poly)(f), e));
#else
    const float k1h = 1.5957691669464111f, k1l = -4.534068054340423e-08f;
    const float k2h = 0.07135481387376785f, k2l = 2.3988324659995897e-09f;
    dnnlk__vf ul, uh = DNNLK__SFX(dnnlk__vm_two_prod)(a, a, &ul);
    dnnlk__vf pl, ph = DNNLK__SFX(dnnlk__vm_two_prod)(dnnlk__vf_set1(k2h), uh, &pl);
    dnnlk__vf wl, wh, yl, yh, sign = dnnlk__vf_set1(-0.0f);
    pl = dnnlk__vf_fmadd(dnnlk__vf_set1(k2h), ul, pl);
    pl = dnnlk__vf_fmadd(dnnlk__vf_set1(k2l), uh, pl);
    wh = DNNLK__SFX(dnnlk__vm_two_sum)(dnnlk__vf_set1(k1h), ph, &wl);
    wl = dnnlk__vf_add(wl, dnnlk__vf_add(pl, dnnlk__vf_set1(k1l)));
    yh = DNNLK__SFX(dnnlk__vm_two_prod)(a, wh, &yl); /* Y = yh + yl */
    yl = dnnlk__vf_fmadd(a, wl, yl);
    return DNNLK__SFX(dnnlk__vm_bwd_finish)(
        x, DNNLK__SFX(dnnlk__vm_exp_hlbm)(dnnlk__vf_xor(yh, sign), dnnlk__vf_xor(yl, sign), dnnlk__vf_zero(),
                                          dnnlk__vf_zero(), h, 0, NULL));
#endif
}

/* erf'(x) = 2/sqrt(pi) exp(-x^2), x^2 taken exactly; |x| clamped at 10.5 (the result rounds to 0
 * beyond 10.06); erf'(+-inf) = 0, NaN gives NaN. */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__vm_erf_bwd)(dnnlk__vf x) {
    dnnlk__vf a = dnnlk__vf_min(DNNLK__SFX(dnnlk__vm_abs)(x), dnnlk__vf_set1(10.5f));
    dnnlk__vf r = DNNLK__SFX(dnnlk__vm_exp_prod)(a, dnnlk__vf_xor(a, dnnlk__vf_set1(-0.0f)),
                                                 dnnlk__vf_set1(1.1283791670955126f));
    return DNNLK__SFX(dnnlk__vm_keep_nan)(x, r);
}

/* y[i] = fn(x[i]) over contiguous arrays (x == y allowed): the array entry point that tests and
 * other kernels' scalar-side code can call through dnnlk__vm_apply. */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__vm_fn)(dnnlk__vf x, int fn) {
    switch (fn) {
    case DNNLK__VM_EXP: return DNNLK__SFX(dnnlk__vm_exp)(x);
    case DNNLK__VM_ERF: return DNNLK__SFX(dnnlk__vm_erf)(x);
    case DNNLK__VM_ERFC: return DNNLK__SFX(dnnlk__vm_erfc)(x);
    case DNNLK__VM_TANH: return DNNLK__SFX(dnnlk__vm_tanh)(x);
    case DNNLK__VM_GELU_ERF: return DNNLK__SFX(dnnlk__vm_gelu_erf)(x);
    case DNNLK__VM_ERF_BWD: return DNNLK__SFX(dnnlk__vm_erf_bwd)(x);
    case DNNLK__VM_GELU_ERF_BWD: return DNNLK__SFX(dnnlk__vm_gelu_erf_bwd)(x);
    case DNNLK__VM_GELU_TANH_BWD: return DNNLK__SFX(dnnlk__vm_gelu_tanh_bwd)(x);
    default: return DNNLK__SFX(dnnlk__vm_gelu_tanh)(x);
    }
}

static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__vm_array)(int fn, const float *x, float *y, size_t n) {
    size_t i;
    for (i = 0; i + DNNLK__VF_N <= n; i += DNNLK__VF_N)
        dnnlk__vf_storeu(y + i, DNNLK__SFX(dnnlk__vm_fn)(dnnlk__vf_loadu(x + i), fn));
    if (i < n) dnnlk__vf_storeu_n(y + i, DNNLK__SFX(dnnlk__vm_fn)(dnnlk__vf_loadu_n(x + i, n - i), fn), n - i);
}
#undef DNNLK__VM_FINE
