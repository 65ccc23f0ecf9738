/* dnnl_kernels — softmax_simd.h: softmax / log_softmax body (no include guard; see softmax.h).
 * Rows along the axis are processed in chunks of DNNLK__SM_CHUNK elements (a multiple of 16), so a
 * row of any length, dtype or stride goes through the same f32 routines; f32 rows with unit stride
 * are used in place, others are gathered into a stack buffer first. */


/* ---- double accumulators: 16 slots, element i of a row adds into slot i % 16 on every level ----
 * DNNLK__SM_DPF f64 vectors hold one f32 vector (2; 1 at the scalar level), DNNLK__SM_NACC of them
 * the 16 slots, DNNLK__SM_SV f32 vectors. */
#define DNNLK__SM_DPF (DNNLK__VF_N / DNNLK__VD_N)
#define DNNLK__SM_NACC (16 / DNNLK__VD_N)
#define DNNLK__SM_SV (16 / DNNLK__VF_N)

/* v's lanes widened to f64 and added into a[0 .. DNNLK__SM_DPF): lane i into lane i % VD_N of
 * a[i / VD_N]. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__sm_dadd)(dnnlk__vd *a, dnnlk__vf v) {
    a[0] = dnnlk__vd_add(a[0], dnnlk__vd_from_vf(v, 0));
    if (DNNLK__SM_DPF > 1) a[1] = dnnlk__vd_add(a[1], dnnlk__vd_from_vf(v, 1));
}

/* The row paths' sum. Blocks of 32 elements come in pairs (blocks 2k and 2k + 1 of the row): each
 * block's e[j] + e[j + 16] (f32) waits in pend for its pair's, and the two add in f32 before they
 * go into slot j's double: one f32 -> f64 conversion per 64 elements, not per 32 (on Zen 4's
 * AVX-512 the conversions had taken a sixth of the in-cache time, measured), for one more f32
 * rounding per slot term (2 in all, relative 2^-23). A row's last block, if unpaired, goes in
 * alone. held: pend holds a block. */
typedef struct DNNLK__SFX(dnnlk__sm_acc) {
    dnnlk__vd d[DNNLK__SM_NACC];
    dnnlk__vf pend[DNNLK__SM_SV];
    int held;
} DNNLK__SFX(dnnlk__sm_acc);

static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__sm_acc_init)(DNNLK__SFX(dnnlk__sm_acc) *a) {
    int j;
    for (j = 0; j < DNNLK__SM_NACC; j++) a->d[j] = dnnlk__vd_zero();
    for (j = 0; j < DNNLK__SM_SV; j++) a->pend[j] = dnnlk__vf_zero(); /* never read unset; compilers can't tell */
    a->held = 0;
}

/* The 16 slots summed in a fixed order (the same on every level). */
static DNNLK__FORCEINLINE double DNNLK__SFX(dnnlk__sm_acc_sum)(DNNLK__SFX(dnnlk__sm_acc) *a) {
    double s[16];
    int j;
    if (a->held)
        for (j = 0; j < DNNLK__SM_SV; j++) DNNLK__SFX(dnnlk__sm_dadd)(a->d + DNNLK__SM_DPF * j, a->pend[j]);
    a->held = 0;
    for (j = 0; j < DNNLK__SM_NACC; j++) dnnlk__vd_storeu(s + j * DNNLK__VD_N, a->d[j]);
    return dnnlk__sm_sum16(s);
}

static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__sm_acc_add)(dnnlk__vd *a, dnnlk__vd *c, dnnlk__vf v, int j,
                                                             int log) {
    if (log) {
        dnnlk__vmask one = dnnlk__vf_cmpeq(v, dnnlk__vf_set1(1.0f));
        dnnlk__vf n = dnnlk__vf_blend(one, dnnlk__vf_set1(1.0f), dnnlk__vf_zero());
        v = dnnlk__vf_blend(one, dnnlk__vf_zero(), v);
        DNNLK__SFX(dnnlk__sm_dadd)(c + DNNLK__SM_DPF * j, n);
    }
    DNNLK__SFX(dnnlk__sm_dadd)(a + DNNLK__SM_DPF * j, v);
}

/* exp(x - m) with x - m carried exactly as a pair; x - m = -inf gives 0, a NaN difference (x NaN,
 * or inf - inf) gives NaN. */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__sm_exp_diff)(dnnlk__vf x, dnnlk__vf m) {
    dnnlk__vf dl, dh = DNNLK__SFX(dnnlk__vm_two_sum)(x, dnnlk__vf_xor(m, dnnlk__vf_set1(-0.0f)), &dl);
    /* dl is NaN when dh overflowed or is infinite: clamp it (NaN -> -1), exp saturates anyway */
    dl = dnnlk__vf_min(dnnlk__vf_max(dl, dnnlk__vf_set1(-1.0f)), dnnlk__vf_set1(1.0f));
    return DNNLK__SFX(dnnlk__vm_keep_nan)(dh, DNNLK__SFX(dnnlk__vm_exp_hl)(dh, dl));
}

/* A vector of n <= lanes floats from p, the other lanes set to fill. */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__sm_load_fill)(const float *p, size_t n, float fill) {
    float t[DNNLK__VF_N];
    size_t i;
    for (i = 0; i < DNNLK__VF_N; i++) t[i] = fill;
    memcpy(t, p, n * sizeof(float));
    return dnnlk__vf_loadu(t);
}

/* Running max over n floats from acc; *nan collects whether any of them is NaN (nan NULL, a
 * constant per caller: not looked for; the max may then be any of the others, or NaN). lo (NULL or not,
 * a constant per caller): also the running min, as a vector, into *lo. Lanes past n are filled
 * with -inf for the max alone, and with the chunk's first element when the min is taken too
 * (neutral for both). Each caller keeps the fill it always had: where the max is a zero, a lane
 * filled with -0 rather than -inf can decide its sign, and the row and gathered paths must keep
 * giving the same bits. */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__sm_scan)(const float *x, size_t n, dnnlk__vf acc, unsigned *nan,
                                                               dnnlk__vf *lo) {
    dnnlk__vf a1 = acc, a2 = acc, a3 = acc, b0 = dnnlk__vf_set1(INFINITY), b1 = b0;
    unsigned bad = 0;
    size_t i = 0;
    for (; i + 4 * DNNLK__VF_N <= n; i += 4 * DNNLK__VF_N) {
        dnnlk__vf v0 = dnnlk__vf_loadu(x + i), v1 = dnnlk__vf_loadu(x + i + DNNLK__VF_N);
        dnnlk__vf v2 = dnnlk__vf_loadu(x + i + 2 * DNNLK__VF_N), v3 = dnnlk__vf_loadu(x + i + 3 * DNNLK__VF_N);
        acc = dnnlk__vf_max(acc, v0);
        a1 = dnnlk__vf_max(a1, v1);
        a2 = dnnlk__vf_max(a2, v2);
        a3 = dnnlk__vf_max(a3, v3);
        if (lo) {
            b0 = dnnlk__vf_min(b0, dnnlk__vf_min(v0, v1));
            b1 = dnnlk__vf_min(b1, dnnlk__vf_min(v2, v3));
        }
        if (nan) bad |= dnnlk__vmask_bits(dnnlk__vf_cmpunord(v0, v1)) | dnnlk__vmask_bits(dnnlk__vf_cmpunord(v2, v3));
    }
    for (; i < n; i += DNNLK__VF_N) {
        size_t k = n - i < DNNLK__VF_N ? n - i : DNNLK__VF_N;
        float fill = -INFINITY;
        dnnlk__vf v;
        if (lo) memcpy(&fill, x + i, sizeof fill); /* x may be only 2-byte aligned: memcpy */
        v = k == DNNLK__VF_N ? dnnlk__vf_loadu(x + i) : DNNLK__SFX(dnnlk__sm_load_fill)(x + i, k, fill);
        acc = dnnlk__vf_max(acc, v);
        if (lo) b0 = dnnlk__vf_min(b0, v);
        if (nan) bad |= dnnlk__vmask_bits(dnnlk__vf_cmpunord(v, v));
    }
    if (nan) *nan |= bad;
    if (lo) *lo = dnnlk__vf_min(b0, b1);
    return dnnlk__vf_max(dnnlk__vf_max(acc, a1), dnnlk__vf_max(a2, a3));
}

static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__sm_max)(const float *x, size_t n, dnnlk__vf acc, unsigned *nan) {
    return DNNLK__SFX(dnnlk__sm_scan)(x, n, acc, nan, NULL);
}

/* The max of a whole row and its min (*lo), for dnnlk__sm_fast2sum_ok. */
static DNNLK__FORCEINLINE float DNNLK__SFX(dnnlk__sm_maxmin)(const float *x, size_t n, unsigned *nan, float *lo) {
    dnnlk__vf b, m = DNNLK__SFX(dnnlk__sm_scan)(x, n, dnnlk__vf_set1(-INFINITY), nan, &b);
    *lo = -dnnlk__vf_hmax(dnnlk__vf_xor(b, dnnlk__vf_set1(-0.0f)));
    return dnnlk__vf_hmax(m);
}

/* exp(dh + dl) for dh <= 0, |dl| <= ulp(dh) / 2 (x - m of a clean row as a pair): the exp of
 * vmath.h with the work a softmax does not need left out (no overflow clamp, no caller factor, no
 * NaN blend) and the polynomial 1 + r + r^2 q(r) of vmath.h evaluated by plain Horner (one FMA per
 * coefficient; measured on every row test within the same 4 ulp budget). n = round(dh / ln2),
 * r = (dh - n ln2_hi) + (dl - n ln2_lo): the first difference exact (Cody-Waite), dl folded in
 * with the FMA of the low part. Lanes with dh < -103.98 (exp below half the smallest subnormal)
 * give 0 without underflowing arithmetic (where the level has a one-instruction scalef,
 * DNNLK__VEC_SCALEF: a zero-masked scalef, so n may be anything there, dh outside round_mul's range
 * included; else dh is replaced first and the two power-of-2 products scale); results in the
 * subnormal range are rounded once. live (honoured with DNNLK__VEC_SCALEF only; callers pass
 * dnnlk__vmask_ones() elsewhere): lanes outside this mask give 0 as well, in the same masked
 * scalef. Same bits on AVX2 and AVX-512 (the two factors, each normal, round once like scalef),
 * and on SSE4.1 and the scalar level. near (a constant): the caller knows that no lane has
 * dh < -103.98 (dnnlk__sm_row_mode's DNNLK__SM_NEAR), so the compare and the flush are left out:
 * the same bits, one vector operation fewer with DNNLK__VEC_SCALEF (4 without; a tenth of the
 * in-cache time of softmax's exp pass there, measured). */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__sm_exp)(dnnlk__vf dh, dnnlk__vf dl, dnnlk__vmask live, int near) {
    const float *c = dnnlk__vm_exp_c;
    dnnlk__vf n, r, p, thr = dnnlk__vf_set1(-103.98f);
    dnnlk__vmask keep = live, under = live;
    if (near) {
        /* keep = live: nothing to flush */
    } else if (DNNLK__VEC_SCALEF) {
        keep = dnnlk__vf_cmpnlt_in(live, dh, thr);
    } else {
        under = dnnlk__vf_cmplt(dh, thr);
        dh = dnnlk__vf_blend(under, dnnlk__vf_zero(), dh);
        dl = dnnlk__vf_blend(under, dnnlk__vf_zero(), dl);
    }
    n = DNNLK__SFX(dnnlk__vm_round_mul)(dh, DNNLK__VM_LOG2E);
    r = dnnlk__vf_fmadd(n, dnnlk__vf_set1(-DNNLK__VM_LN2_HI), dh); /* exact */
    r = dnnlk__vf_add(r, dnnlk__vf_fmadd(n, dnnlk__vf_set1(-DNNLK__VM_LN2_LO), dl));
    p = dnnlk__vf_fmadd(dnnlk__vf_set1(c[4]), r, dnnlk__vf_set1(c[3]));
    p = dnnlk__vf_fmadd(p, r, dnnlk__vf_set1(c[2]));
    p = dnnlk__vf_fmadd(p, r, dnnlk__vf_set1(c[1]));
    p = dnnlk__vf_fmadd(p, r, dnnlk__vf_set1(c[0]));
    p = dnnlk__vf_fmadd(p, r, dnnlk__vf_set1(1.0f));
    p = dnnlk__vf_fmadd(p, r, dnnlk__vf_set1(1.0f));
    if (DNNLK__VEC_SCALEF) return dnnlk__vf_maskz_scalef(keep, p, n);
    if (near) return dnnlk__vf_scalef(p, n);
    return dnnlk__vf_blend(under, dnnlk__vf_zero(), dnnlk__vf_scalef(p, n));
}

/* exp(x - m) of a clean row (no NaN, m the finite max, so x - m <= 0; sm_rows_f32 also passes rows
 * with a NaN, whose exp is NaN, and finds them from the sum): x - m as an exact pair
 * (nm = -m). mode (a constant, dnnlk__sm_row_mode's flags): DNNLK__SM_F2S: the row passed
 * dnnlk__sm_fast2sum_ok, so Fast2Sum (3 operations) gives the pair exactly, the same as TwoSum (6),
 * wherever the result is not 0; DNNLK__SM_NEAR: sm_exp's near. live: as sm_exp. */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__sm_exp_row)(dnnlk__vf x, dnnlk__vf nm, int mode,
                                                               dnnlk__vmask live) {
    dnnlk__vf dl, dh;
    if (mode & DNNLK__SM_F2S) {
        dh = dnnlk__vf_add(x, nm);
        dl = dnnlk__vf_sub(x, dnnlk__vf_sub(dh, nm));
    } else {
        dh = DNNLK__SFX(dnnlk__vm_two_sum)(x, nm, &dl);
    }
    return DNNLK__SFX(dnnlk__sm_exp)(dh, dl, live, mode & DNNLK__SM_NEAR);
}

/* One block of 32 elements of a clean row (x at a multiple of 32 of its row; odd: its block index
 * there is odd): e[i] = exp(x[i] - m) stored where e is not NULL (e may be x), and e[j] + e[j + 16]
 * (in f32) summed into slot j, j < 16, as sm_acc says, on every level. log: the elements equal to m (their exp is 1) are counted into *cnt instead, and
 * take 0 in the sum (and in e: no log caller keeps e). */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__sm_block)(const float *x, dnnlk__vf m, dnnlk__vf nm, float *e,
                                                           DNNLK__SFX(dnnlk__sm_acc) *acc, size_t *cnt, int log,
                                                           int mode, int odd) {
    int j;
    for (j = 0; j < 16 / DNNLK__VF_N; j++) {
        dnnlk__vf x0 = dnnlk__vf_loadu(x + j * DNNLK__VF_N), x1 = dnnlk__vf_loadu(x + 16 + j * DNNLK__VF_N), e0, e1;
        if (log && DNNLK__VEC_SCALEF) { /* the maxima are counted and left out of the sum by sm_exp's mask */
            dnnlk__vmask l0 = dnnlk__vf_cmpneq(x0, m), l1 = dnnlk__vf_cmpneq(x1, m);
            *cnt += 2 * DNNLK__VF_N - (size_t)dnnlk__vmask_count(l0) - (size_t)dnnlk__vmask_count(l1);
            e0 = DNNLK__SFX(dnnlk__sm_exp_row)(x0, nm, mode, l0);
            e1 = DNNLK__SFX(dnnlk__sm_exp_row)(x1, nm, mode, l1);
        } else {
            e0 = DNNLK__SFX(dnnlk__sm_exp_row)(x0, nm, mode, dnnlk__vmask_ones());
            e1 = DNNLK__SFX(dnnlk__sm_exp_row)(x1, nm, mode, dnnlk__vmask_ones());
            if (log) { /* the maxima are counted and left out of the sum */
                dnnlk__vmask q0 = dnnlk__vf_cmpeq(x0, m), q1 = dnnlk__vf_cmpeq(x1, m);
                *cnt += (size_t)dnnlk__vmask_count(q0) + (size_t)dnnlk__vmask_count(q1);
                e0 = dnnlk__vf_blend(q0, dnnlk__vf_zero(), e0);
                e1 = dnnlk__vf_blend(q1, dnnlk__vf_zero(), e1);
            }
        }
        if (e) {
            dnnlk__vf_storeu(e + j * DNNLK__VF_N, e0);
            dnnlk__vf_storeu(e + 16 + j * DNNLK__VF_N, e1);
        }
        if (odd) DNNLK__SFX(dnnlk__sm_dadd)(acc->d + DNNLK__SM_DPF * j, dnnlk__vf_add(acc->pend[j], dnnlk__vf_add(e0, e1)));
        else acc->pend[j] = dnnlk__vf_add(e0, e1);
    }
    acc->held = !odd;
}

/* With nt: the count of floats before y's first 64-byte boundary (stored plainly, a vector at a
 * time: up to 15, more than an SSE4.1 or AVX2 vector); nt cleared where streaming cannot apply. */
static DNNLK__FORCEINLINE size_t DNNLK__SFX(dnnlk__sm_nt_head)(const float *y, size_t n, int *nt) {
    size_t head = (size_t)((64 - ((uintptr_t)y & 63)) & 63) / sizeof(float);
    if (!*nt) return 0;
    if ((uintptr_t)y % sizeof(float) != 0 || head >= n) {
        *nt = 0;
        return 0;
    }
    return head;
}

/* The output of a clean row from src: log_softmax (x - a) - b, a + b = m + log(sum) as a float
 * pair (x - a is exact where it cancels (Sterbenz), so the result is rounded about once; x = -inf
 * gives -inf); softmax e * a, a = 1 / sum (e may be y). */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__sm_out_op)(dnnlk__vf v, dnnlk__vf a, dnnlk__vf b, int log) {
    return log ? dnnlk__vf_sub(dnnlk__vf_sub(v, a), b) : dnnlk__vf_mul(v, a);
}

/* n elements of that output, src (x or the exps) to y; nt: stream where y is 64-byte aligned. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__sm_output)(const float *src, size_t n, float a, float b, float *y,
                                                            int nt, int log) {
    dnnlk__vf va = dnnlk__vf_set1(a), vb = dnnlk__vf_set1(b);
    size_t head = DNNLK__SFX(dnnlk__sm_nt_head)(y, n, &nt), i;
    for (i = 0; i < head; i += DNNLK__VF_N) {
        size_t m = head - i < DNNLK__VF_N ? head - i : DNNLK__VF_N;
        dnnlk__vf_storeu_n(y + i, DNNLK__SFX(dnnlk__sm_out_op)(dnnlk__vf_loadu_n(src + i, m), va, vb, log), m);
    }
    i = head;
    for (; i + 2 * DNNLK__VF_N <= n; i += 2 * DNNLK__VF_N) {
        dnnlk__vf v0 = DNNLK__SFX(dnnlk__sm_out_op)(dnnlk__vf_loadu(src + i), va, vb, log);
        dnnlk__vf v1 = DNNLK__SFX(dnnlk__sm_out_op)(dnnlk__vf_loadu(src + i + DNNLK__VF_N), va, vb, log);
        dnnlk__vf_store_dt(y + i, dnnlk_f32, v0, nt);
        dnnlk__vf_store_dt(y + i + DNNLK__VF_N, dnnlk_f32, v1, nt);
    }
    for (; i < n; i += DNNLK__VF_N) {
        size_t m = n - i < DNNLK__VF_N ? n - i : DNNLK__VF_N;
        if (m == DNNLK__VF_N) {
            dnnlk__vf_storeu(y + i, DNNLK__SFX(dnnlk__sm_out_op)(dnnlk__vf_loadu(src + i), va, vb, log));
        } else {
            dnnlk__vf_storeu_n(y + i, DNNLK__SFX(dnnlk__sm_out_op)(dnnlk__vf_loadu_n(src + i, m), va, vb, log), m);
        }
    }
}

/* A row's output, pending: sm_rows_f32 runs it inside the next row's exp pass, whose arithmetic
 * then hides its stores (non-temporal ones to DRAM above all); as sm_output's arguments. */
typedef struct DNNLK__SFX(dnnlk__sm_pend) {
    const float *src;
    float *y;
    float a, b;
    int nt;
} DNNLK__SFX(dnnlk__sm_pend);

/* 32 elements of a pending output (y 64-byte aligned where nt). */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__sm_out_block)(const float *src, float *y, dnnlk__vf a, dnnlk__vf b,
                                                               int log, int nt) {
    int j;
    for (j = 0; j < 32 / DNNLK__VF_N; j++)
        dnnlk__vf_store_dt(y + j * DNNLK__VF_N, dnnlk_f32,
                           DNNLK__SFX(dnnlk__sm_out_op)(dnnlk__vf_loadu(src + j * DNNLK__VF_N), a, b, log), nt);
}

/* The blocks of n floats at x (x at a multiple of 32 of its row; the last block padded with -inf,
 * whose exp is 0); e as in sm_block. pf: where the next row probably is (or NULL): this pass is
 * compute-bound, so it fetches that row meanwhile (into L1 when it fits, else L2), and the next
 * row's first pass does not wait on memory. mode: see sm_exp_row. o (NULL, or with pf only): the
 * previous row's output, n elements, done here block by block beside this row's. */
#define DNNLK__SM_STEP(mode, prefetch, odd)                                                                         \
    {                                                                                                               \
        prefetch;                                                                                                   \
        if (osrc) DNNLK__SFX(dnnlk__sm_out_block)(osrc + i, oy + i, oa, ob, log, ont);                              \
        DNNLK__SFX(dnnlk__sm_block)(x + i, m, nm, e ? e + i : NULL, acc, cnt, log, mode, odd);                     \
        i += 32;                                                                                                    \
    }
#define DNNLK__SM_LOOP(mode, prefetch) DNNLK__SM_PAIRS(DNNLK__SM_STEP, mode, prefetch)
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__sm_expsum)(const float *x, size_t n, dnnlk__vf m, float *e,
                                                            DNNLK__SFX(dnnlk__sm_acc) *acc, size_t *cnt, int log,
                                                            const char *pf,
                                                            int mode, const DNNLK__SFX(dnnlk__sm_pend) *o) {
    dnnlk__vf nm = dnnlk__vf_xor(m, dnnlk__vf_set1(-0.0f));
    dnnlk__vf oa = dnnlk__vf_set1(o ? o->a : 0.0f), ob = dnnlk__vf_set1(o ? o->b : 0.0f);
    const float *osrc = o ? o->src : NULL; /* o's fields apart: the loop's stores cannot change them */
    float *oy = o ? o->y : NULL;
    int ont = o ? o->nt : 0;
    size_t i = 0;
    if (!pf) DNNLK__SM_LOOP(0, (void)0)
    else if (mode == (DNNLK__SM_F2S | DNNLK__SM_NEAR) && n <= 4096)
        DNNLK__SM_LOOP(DNNLK__SM_F2S | DNNLK__SM_NEAR, dnnlk__vec_prefetch_l1(pf + 4 * i, 128))
    else if (mode == (DNNLK__SM_F2S | DNNLK__SM_NEAR))
        DNNLK__SM_LOOP(DNNLK__SM_F2S | DNNLK__SM_NEAR, dnnlk__vec_prefetch_l2(pf + 4 * i, 128))
    else if ((mode & DNNLK__SM_F2S) && n <= 4096) DNNLK__SM_LOOP(DNNLK__SM_F2S, dnnlk__vec_prefetch_l1(pf + 4 * i, 128))
    else if (mode & DNNLK__SM_F2S) DNNLK__SM_LOOP(DNNLK__SM_F2S, dnnlk__vec_prefetch_l2(pf + 4 * i, 128))
    else if (n <= 4096) DNNLK__SM_LOOP(0, dnnlk__vec_prefetch_l1(pf + 4 * i, 128))
    else DNNLK__SM_LOOP(0, dnnlk__vec_prefetch_l2(pf + 4 * i, 128))
    if (o) DNNLK__SFX(dnnlk__sm_output)(o->src + i, n - i, o->a, o->b, o->y + i, o->nt, log);
    if (i < n) {
        float t[32];
        size_t k;
        for (k = 0; k < 32; k++) t[k] = -INFINITY;
        memcpy(t, x + i, (n - i) * sizeof(float));
        DNNLK__SFX(dnnlk__sm_block)(t, m, nm, t, acc, cnt, log, 0, (int)(i & 32));
        if (e) memcpy(e + i, t, (n - i) * sizeof(float));
    }
}
#undef DNNLK__SM_LOOP
#undef DNNLK__SM_STEP

/* softmax from x again (rows whose exps have no f32 buffer): exp(x - m) * inv; nt as sm_output. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__sm_expout)(const float *x, size_t n, dnnlk__vf m, float inv, float *y,
                                                            int nt) {
    dnnlk__vf nm = dnnlk__vf_xor(m, dnnlk__vf_set1(-0.0f)), s = dnnlk__vf_set1(inv);
    size_t head = DNNLK__SFX(dnnlk__sm_nt_head)(y, n, &nt), i;
    for (i = 0; i < head; i += DNNLK__VF_N) {
        size_t k = head - i < DNNLK__VF_N ? head - i : DNNLK__VF_N;
        /* the padding lanes hold m: a harmless exp(0) */
        dnnlk__vf v = DNNLK__SFX(dnnlk__sm_load_fill)(x + i, k, dnnlk__vf_hmax(m));
        dnnlk__vf_storeu_n(y + i, dnnlk__vf_mul(DNNLK__SFX(dnnlk__sm_exp_row)(v, nm, 0, dnnlk__vmask_ones()), s), k);
    }
    i = head;
    for (; i + DNNLK__VF_N <= n; i += DNNLK__VF_N) {
        dnnlk__vf v = DNNLK__SFX(dnnlk__sm_exp_row)(dnnlk__vf_loadu(x + i), nm, 0, dnnlk__vmask_ones());
        dnnlk__vf_store_dt(y + i, dnnlk_f32, dnnlk__vf_mul(v, s), nt);
    }
    if (i < n) {
        dnnlk__vf v = DNNLK__SFX(dnnlk__sm_load_fill)(x + i, n - i, dnnlk__vf_hmax(m));
        dnnlk__vf_storeu_n(y + i, dnnlk__vf_mul(DNNLK__SFX(dnnlk__sm_exp_row)(v, nm, 0, dnnlk__vmask_ones()), s), n - i);
    }
}

/* Rows of K f32 elements with unit stride in and out (ri, ro: byte strides between row starts),
 * the same bits as sm_row. The passes of neighbouring rows are interleaved: a row's output pass
 * runs inside the next row's exp pass (the stores to DRAM behind that pass's arithmetic), and the
 * next row's max is taken between a row's sum and that, so the latencies that a row's passes wait
 * on (its max reduction before the exps, the sum's reduction and division before the output:
 * about 150 cycles, a quarter of a 512-element row's work) overlap other work. softmax rows of up
 * to DNNLK__SM_EBUF elements keep their exps in one of two stack buffers, in turns. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__sm_rows_f32)(const char *x0, int64_t ri, char *y0, int64_t ro,
                                                              int64_t nrows, int64_t K, int log, int nt) {
    float buf[2][DNNLK__SM_EBUF];
    size_t k = (size_t)K;
    float lo, lonext = 0.0f, mx = DNNLK__SFX(dnnlk__sm_maxmin)((const float *)(const void *)x0, k, NULL, &lo);
    DNNLK__SFX(dnnlk__sm_pend) pend, *pp = NULL;
    int64_t r, j;
    for (r = 0; r < nrows; r++) {
        const float *x = (const float *)(const void *)(x0 + r * ri);
        float *y = (float *)(void *)(y0 + r * ro), *e = NULL, inv = 0.0f, ch = 0.0f, cl = 0.0f, mnext = 0.0f;
        int bad = mx != mx || mx == INFINITY || mx == -INFINITY;
        dnnlk__vf vm = dnnlk__vf_set1(mx);
        /* a pending output with unaligned streaming stores (a y not 64-byte aligned) goes alone */
        if (pp && (bad || (pp->nt && ((uintptr_t)pp->y & 63) != 0))) {
            DNNLK__SFX(dnnlk__sm_output)(pp->src, k, pp->a, pp->b, pp->y, pp->nt, log);
            pp = NULL;
        }
        if (!bad) {
            DNNLK__SFX(dnnlk__sm_acc) acc;
            size_t cnt = 0;
            double sum;
            DNNLK__SFX(dnnlk__sm_acc_init)(&acc);
            if (!log) e = K <= DNNLK__SM_EBUF ? buf[r & 1] : y;
            DNNLK__SFX(dnnlk__sm_expsum)(x, k, vm, e, &acc, &cnt, log, x0 + (r + 1) * ri, dnnlk__sm_row_mode(mx, lo),
                                         pp);
            sum = DNNLK__SFX(dnnlk__sm_acc_sum)(&acc);
            /* a NaN in the row is found here, not by a compare of every element in the max pass
             * (3% of log_softmax's time): its exp is NaN on every level (no mask or flush takes a
             * NaN), and so is its slot's sum; a clean row's sum is finite */
            bad = sum != sum;
            pp = NULL; /* the pending output went out inside sm_expsum */
            if (!bad) {
                if (!log) inv = (float)(1.0 / sum);
                else dnnlk__sm_logpair(mx, dnnlk__sm_logsum((double)cnt, sum), &ch, &cl);
                pend.src = log ? x : e;
                pend.y = y;
                pend.a = log ? ch : inv;
                pend.b = cl;
                pend.nt = nt && (log || e != y); /* exps kept in y are scaled in place */
                pp = &pend;
            }
        }
        if (bad) /* PyTorch: a NaN, a +inf, or nothing but -inf makes the whole row NaN */
            for (j = 0; j < K; j++) dnnlk__store_from_f32((char *)(void *)(y + j), dnnlk_f32, NAN);
        if (r + 1 < nrows)
            mnext = DNNLK__SFX(dnnlk__sm_maxmin)((const float *)(const void *)(x0 + (r + 1) * ri), k, NULL, &lonext);
        mx = mnext;
        lo = lonext;
    }
    if (pp) DNNLK__SFX(dnnlk__sm_output)(pp->src, k, pp->a, pp->b, pp->y, pp->nt, log);
}

/* One row of K elements in any other layout: x at byte stride sx (dtype dx), y at byte stride sy
 * (dtype dy), in chunks of DNNLK__SM_CHUNK (gathered into a stack buffer unless f32 with unit
 * stride). The same three passes and arithmetic as sm_rows_f32 (the same bits: the exp is
 * elementwise and the order of the sum depends only on the position), except that softmax computes
 * the exps again for the output instead of keeping them. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__sm_row)(const char *x, int64_t sx, dnnlk_dtype dx, char *y, int64_t sy,
                                                         dnnlk_dtype dy, int64_t K, int log) {
    float buf[DNNLK__SM_CHUNK];
    int din = dx == dnnlk_f32 && sx == 4, dout = dy == dnnlk_f32 && sy == 4;
    dnnlk__vf vm = dnnlk__vf_set1(-INFINITY);
    DNNLK__SFX(dnnlk__sm_acc) acc;
    size_t cnt = 0;
    double sum;
    float mx, inv = 0.0f, ch = 0.0f, cl = 0.0f;
    unsigned nan = 0;
    int64_t j;
    for (j = 0; j < K; j += DNNLK__SM_CHUNK) {
        size_t n = (size_t)(K - j < DNNLK__SM_CHUNK ? K - j : DNNLK__SM_CHUNK);
        const float *p = (const float *)(const void *)(x + j * sx);
        if (!din) DNNLK__SFX(dnnlk__gather_f32)(buf, x + j * sx, sx, dx, n), p = buf;
        vm = DNNLK__SFX(dnnlk__sm_max)(p, n, vm, &nan);
    }
    mx = dnnlk__vf_hmax(vm);
    if (nan || mx == INFINITY || mx == -INFINITY) {
        /* PyTorch: a NaN, a +inf, or nothing but -inf makes the whole row NaN */
        for (j = 0; j < K; j++) dnnlk__store_from_f32(y + j * sy, dy, NAN);
        return;
    }
    vm = dnnlk__vf_set1(mx);
    DNNLK__SFX(dnnlk__sm_acc_init)(&acc);
    for (j = 0; j < K; j += DNNLK__SM_CHUNK) {
        size_t n = (size_t)(K - j < DNNLK__SM_CHUNK ? K - j : DNNLK__SM_CHUNK);
        const float *p = (const float *)(const void *)(x + j * sx);
        if (!din) DNNLK__SFX(dnnlk__gather_f32)(buf, x + j * sx, sx, dx, n), p = buf;
        DNNLK__SFX(dnnlk__sm_expsum)(p, n, vm, NULL, &acc, &cnt, log, NULL, 0, NULL);
    }
    sum = DNNLK__SFX(dnnlk__sm_acc_sum)(&acc);
    if (!log) inv = (float)(1.0 / sum);
    else dnnlk__sm_logpair(mx, dnnlk__sm_logsum((double)cnt, sum), &ch, &cl);
    for (j = 0; j < K; j += DNNLK__SM_CHUNK) {
        size_t n = (size_t)(K - j < DNNLK__SM_CHUNK ? K - j : DNNLK__SM_CHUNK);
        const float *p = (const float *)(const void *)(x + j * sx);
        float *q = dout ? (float *)(void *)(y + j * 4) : buf;
        if (!din) DNNLK__SFX(dnnlk__gather_f32)(buf, x + j * sx, sx, dx, n), p = buf;
        if (log) DNNLK__SFX(dnnlk__sm_output)(p, n, ch, cl, q, 0, 1);
        else DNNLK__SFX(dnnlk__sm_expout)(p, n, vm, inv, q, 0);
        if (!dout) DNNLK__SFX(dnnlk__scatter_f32)(y + j * sy, sy, dy, buf, n);
    }
}

/* The output of one vector of the column path: softmax exp(x - m) * inv, log_softmax (x - m) - ls with x - m and ls
 * as pairs (one rounding in effect). */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__sm_out)(dnnlk__vf x, dnnlk__vf m, dnnlk__vf inv_or_lsh,
                                                             dnnlk__vf lsl, int log) {
    if (!log) return dnnlk__vf_mul(DNNLK__SFX(dnnlk__sm_exp_diff)(x, m), inv_or_lsh); /* NaN-safe: columns */
    {
        dnnlk__vf dl, dh = DNNLK__SFX(dnnlk__vm_two_sum)(x, dnnlk__vf_xor(m, dnnlk__vf_set1(-0.0f)), &dl);
        dnnlk__vf c = dnnlk__vf_sub(dl, lsl);
        c = dnnlk__vf_min(dnnlk__vf_max(c, dnnlk__vf_set1(-1.0f)), dnnlk__vf_set1(1.0f)); /* NaN (dh infinite) -> -1 */
        return dnnlk__vf_add(dnnlk__vf_sub(dh, inv_or_lsh), c);
    }
}

/* Columns: ncols adjacent rows (unit stride between their starts, in and out), each of K elements
 * at byte strides sx / sy: the lanes run across rows, so an outer axis with contiguous inner rows is
 * vectorized like a contiguous one. Per column the sum is sequential in k (lane-independent, so the
 * bits do not depend on how columns are grouped). */
#define DNNLK__SM_COLV 4 /* vectors of columns per block */
/* n <= lanes elements of dtype dt at p (unit stride) as f32 lanes, and back: whole vectors with the
 * layer's dtype loads and stores (each call with its dtype a constant), a partial one f32 masked or
 * half-precision an element at a time. The branches keep the order they had: the row paths
 * compiled into the same entry measured 4% slower on clang's AVX-512 code with them reordered. */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__sm_ld)(const char *p, dnnlk_dtype dt, size_t n) {
    if (dt == dnnlk_f32)
        return n == DNNLK__VF_N ? dnnlk__vf_load_dt(p, dnnlk_f32) : dnnlk__vf_loadu_n((const float *)(const void *)p, n);
    if (n == DNNLK__VF_N && dt == dnnlk_bf16) return dnnlk__vf_load_dt(p, dnnlk_bf16);
    if (n == DNNLK__VF_N && dt == dnnlk_f16) return dnnlk__vf_load_dt(p, dnnlk_f16);
    {
        float t[DNNLK__VF_N] = {0};
        size_t i;
        for (i = 0; i < n; i++) t[i] = dnnlk__load_as_f32(p + 2 * i, dt);
        return dnnlk__vf_loadu(t);
    }
}
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__sm_st)(char *p, dnnlk_dtype dt, dnnlk__vf v, size_t n) {
    if (dt == dnnlk_f32) {
        if (n == DNNLK__VF_N) dnnlk__vf_store_dt(p, dnnlk_f32, v, 0);
        else dnnlk__vf_storeu_n((float *)(void *)p, v, n);
    } else if (n == DNNLK__VF_N && dt == dnnlk_bf16) {
        dnnlk__vf_store_dt(p, dnnlk_bf16, v, 0);
    } else if (n == DNNLK__VF_N && dt == dnnlk_f16) {
        dnnlk__vf_store_dt(p, dnnlk_f16, v, 0);
    } else {
        float t[DNNLK__VF_N];
        size_t i;
        dnnlk__vf_storeu(t, v);
        for (i = 0; i < n; i++) dnnlk__store_from_f32(p + 2 * i, dt, t[i]);
    }
}

static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__sm_cols)(const char *x, int64_t sx, dnnlk_dtype dx, char *y, int64_t sy,
                                                          dnnlk_dtype dy, int64_t K, int64_t ncols, int log) {
    size_t ex = dnnlk_dtype_size(dx), ey = dnnlk_dtype_size(dy);
    int64_t c, k;
    for (c = 0; c < ncols; c += DNNLK__SM_COLV * DNNLK__VF_N) {
        size_t w = (size_t)(ncols - c < DNNLK__SM_COLV * DNNLK__VF_N ? ncols - c : DNNLK__SM_COLV * DNNLK__VF_N);
        size_t nv = (w + DNNLK__VF_N - 1) / DNNLK__VF_N, lanes[DNNLK__SM_COLV], v, h;
        dnnlk__vf m[DNNLK__SM_COLV], va[DNNLK__SM_COLV], vb[DNNLK__SM_COLV];
        dnnlk__vd acc[DNNLK__SM_DPF * DNNLK__SM_COLV], cnt[DNNLK__SM_DPF * DNNLK__SM_COLV];
        double sums[DNNLK__SM_COLV * DNNLK__VF_N], cnts[DNNLK__SM_COLV * DNNLK__VF_N];
        float fa[DNNLK__SM_COLV * DNNLK__VF_N], fb[DNNLK__SM_COLV * DNNLK__VF_N];
        const char *xc = x + c * (int64_t)ex;
        char *yc = y + c * (int64_t)ey;
        for (v = 0; v < nv; v++) {
            lanes[v] = w - v * DNNLK__VF_N < DNNLK__VF_N ? w - v * DNNLK__VF_N : DNNLK__VF_N;
            m[v] = dnnlk__vf_set1(-INFINITY);
            for (h = 0; h < DNNLK__SM_DPF; h++) acc[DNNLK__SM_DPF * v + h] = cnt[DNNLK__SM_DPF * v + h] = dnnlk__vd_zero();
        }
        for (k = 0; k < K; k++)
            for (v = 0; v < nv; v++)
                m[v] = dnnlk__vf_max(m[v], DNNLK__SFX(dnnlk__sm_ld)(xc + k * sx + (int64_t)(v * DNNLK__VF_N * ex), dx, lanes[v]));
        for (k = 0; k < K; k++)
            for (v = 0; v < nv; v++) {
                dnnlk__vf e = DNNLK__SFX(dnnlk__sm_exp_diff)(
                    DNNLK__SFX(dnnlk__sm_ld)(xc + k * sx + (int64_t)(v * DNNLK__VF_N * ex), dx, lanes[v]), m[v]);
                DNNLK__SFX(dnnlk__sm_acc_add)(acc, cnt, e, (int)v, log);
            }
        for (v = 0; v < nv; v++)
            for (h = 0; h < DNNLK__SM_DPF; h++) {
                dnnlk__vd_storeu(sums + v * DNNLK__VF_N + h * DNNLK__VD_N, acc[DNNLK__SM_DPF * v + h]);
                dnnlk__vd_storeu(cnts + v * DNNLK__VF_N + h * DNNLK__VD_N, cnt[DNNLK__SM_DPF * v + h]);
            }
        for (v = 0; v < nv * DNNLK__VF_N; v++) {
            if (!log) {
                fa[v] = (float)(1.0 / sums[v]);
                fb[v] = 0.0f;
            } else {
                double ls = dnnlk__sm_logsum(cnts[v], sums[v]);
                fa[v] = (float)ls;
                fb[v] = (float)(ls - (double)fa[v]);
            }
        }
        for (v = 0; v < nv; v++) {
            va[v] = dnnlk__vf_loadu(fa + v * DNNLK__VF_N);
            vb[v] = dnnlk__vf_loadu(fb + v * DNNLK__VF_N);
        }
        for (k = 0; k < K; k++)
            for (v = 0; v < nv; v++) {
                dnnlk__vf xv = DNNLK__SFX(dnnlk__sm_ld)(xc + k * sx + (int64_t)(v * DNNLK__VF_N * ex), dx, lanes[v]);
                DNNLK__SFX(dnnlk__sm_st)(yc + k * sy + (int64_t)(v * DNNLK__VF_N * ey), dy,
                                         DNNLK__SFX(dnnlk__sm_out)(xv, m[v], va[v], vb[v], log), lanes[v]);
            }
    }
}

static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__sm_part)(const dnnlk__sm_ctx *c, int64_t begin, int64_t end) {
    dnnlk__loop_iter it;
    char *row[2];
    int64_t n, r;
    int64_t ro = dnnlk__row_stride(&c->plan, 0), ri = dnnlk__row_stride(&c->plan, 1);
    int64_t ey = (int64_t)dnnlk_dtype_size(c->out_dt), ex = (int64_t)dnnlk_dtype_size(c->in_dt);
    int rows_contig = c->sx == ex && c->sy == ey;
    int cols = !rows_contig && ro == ey && ri == ex;
    dnnlk__iter_init(&it, &c->plan, c->base, begin, end);
    while ((n = dnnlk__iter_next(&it, row)) > 0) {
        if (cols) {
            DNNLK__SFX(dnnlk__sm_cols)(row[1], c->sx, c->in_dt, row[0], c->sy, c->out_dt, c->K, n, c->log);
            continue;
        }
        if (c->in_dt == dnnlk_f32 && c->out_dt == dnnlk_f32 && c->sx == 4 && c->sy == 4) {
            /* log a constant in each copy: the exp pass's loop then holds only its own op's steps */
            DNNLK__SFX(dnnlk__sm_rows_f32)(row[1], ri, row[0], ro, n, c->K, c->log, c->nt);
            continue;
        }
        for (r = 0; r < n; r++)
            DNNLK__SFX(dnnlk__sm_row)(row[1] + r * ri, c->sx, c->in_dt, row[0] + r * ro, c->sy, c->out_dt, c->K, c->log);
    }
    if (c->nt) dnnlk__vec_sfence();
}

#undef DNNLK__SM_DPF
#undef DNNLK__SM_NACC
#undef DNNLK__SM_SV
#undef DNNLK__SM_COLV
