/* dnnl_kernels — fused_softmax_simd.h: masked softmax + dropout body (no include guard; see
 * fused_softmax.h). It is built from softmax_simd.h's and softmax_bwd_simd.h's helpers of the same
 * level (the same exps, sums and rounding), so with no mask and rate 0 a row's output is
 * dnnlk_softmax's bit for bit, and with dropout it is that output times dropout's factor, one
 * f32 multiply more, as dnnlk_dropout_fwd computes it. */

#define DNNLK__FSM_NACC (16 / DNNLK__VD_N)

/* Drop-mask bits [p, p + 32) of the bit array (bytes past nbytes read as 0: the array is this
 * part's share, never another part's bytes). */
static DNNLK__FORCEINLINE uint32_t DNNLK__SFX(dnnlk__fsm_bits32)(const uint8_t *bits, uint64_t p, size_t nbytes) {
    size_t byte = (size_t)(p >> 3);
    uint64_t w = 0;
    if (byte + 8 <= nbytes) memcpy(&w, bits + byte, 8);
    else if (byte < nbytes) memcpy(&w, bits + byte, nbytes - byte);
    return (uint32_t)(w >> (p & 7));
}

/* t[i] = cond[i * cstr] ? -inf : x[i] for n elements (the bits moved as select moves them). */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__fsm_masked_copy)(float *t, const float *x, const uint8_t *cond,
                                                                  int64_t cstr, size_t n) {
    const float ninf = -INFINITY;
    size_t i = 0;
    if (cstr == 0) { /* one condition for the whole row */
        if (!cond[0]) {
            memcpy(t, x, n * sizeof(float));
            return;
        }
        for (; i < n; i++) t[i] = ninf;
        return;
    }
    if (cstr == 1) {
        const dnnlk__vb vn = dnnlk__vb_set1_elem(&ninf, 4);
        for (; i + DNNLK__VB_N / 4 <= n; i += DNNLK__VB_N / 4)
            dnnlk__vb_storeu(t + i, dnnlk__vb_blend_elem(dnnlk__vb_cond_elem(cond + i, 4), vn, dnnlk__vb_loadu(x + i), 4));
    }
    for (; i < n; i++) t[i] = cond[(int64_t)i * cstr] ? ninf : x[i];
}

/* Whether any of the n condition bytes (byte stride cstr) is 0: asked only of rows whose masked
 * max is -inf, to tell a fully masked row (zeros) from unmasked -inf (NaN, as softmax). */
static DNNLK__FORCEINLINE int DNNLK__SFX(dnnlk__fsm_any_live)(const uint8_t *cond, int64_t cstr, size_t n) {
    size_t i;
    if (!cond) return n > 0;
    for (i = 0; i < n; i++)
        if (!cond[(int64_t)i * cstr]) return 1;
    return 0;
}

/* 32 elements of the output: y = (e * va) * (bit ? vs : 0), drop = 0: e * va; b the 32 bits; pv
 * (NULL or not, a constant per caller): the softmax output e * va stored there too. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__fsm_out_block)(const float *e, float *y, float *pv, dnnlk__vf va,
                                                                dnnlk__vf vs, uint32_t b, int drop, int nt) {
    int k;
    for (k = 0; k < 32; k += DNNLK__VF_N) {
        dnnlk__vf v = dnnlk__vf_mul(dnnlk__vf_loadu(e + k), va);
        if (pv) dnnlk__vf_store_dt(pv + k, dnnlk_f32, v, nt);
        if (drop) v = dnnlk__vf_mul(v, dnnlk__vf_maskz_bits(b >> k, vs));
        dnnlk__vf_store_dt(y + k, dnnlk_f32, v, nt);
    }
}

/* y[i] = (e[i] * inv) * (keep ? scale : 0) for n elements (drop = 0: e[i] * inv alone, as softmax
 * with dropout's rate-0 copy); bits at positions pos.. of the mask share; pv (or NULL): the
 * softmax output e[i] * inv too. nt: streaming stores from y's first 64-byte boundary on (y and
 * pv then 4-byte aligned, at the same offset from a 64-byte boundary, else plain stores). */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__fsm_out)(const float *e, size_t n, float inv, const uint8_t *bits,
                                                          uint64_t pos, size_t nbytes, float scale, int drop, float *y,
                                                          float *pv, int nt) {
    const dnnlk__vf va = dnnlk__vf_set1(inv), vs = dnnlk__vf_set1(scale);
    size_t i = 0, head = 0;
    if (nt) {
        head = (size_t)((64 - ((uintptr_t)y & 63)) & 63) / sizeof(float);
        if ((uintptr_t)y % sizeof(float) != 0 || head >= n || (pv && (((uintptr_t)pv ^ (uintptr_t)y) & 63))) nt = 0, head = 0;
    }
    for (;;) {
        for (; i < head; i++) {
            float v = e[i] * inv;
            if (pv) pv[i] = v;
            if (drop) v *= ((DNNLK__SFX(dnnlk__fsm_bits32)(bits, pos + i, nbytes) & 1u) ? scale : 0.0f);
            y[i] = v;
        }
        if (head == n) break;
        for (; i + 32 <= n; i += 32) {
            uint32_t b = drop ? DNNLK__SFX(dnnlk__fsm_bits32)(bits, pos + i, nbytes) : 0;
            if (pv) DNNLK__SFX(dnnlk__fsm_out_block)(e + i, y + i, pv + i, va, vs, b, drop, nt);
            else DNNLK__SFX(dnnlk__fsm_out_block)(e + i, y + i, NULL, va, vs, b, drop, nt);
        }
        head = n; /* the tail, element by element */
    }
}

/* A row's output, pending: written block by block inside the next row's exp pass, whose
 * arithmetic then hides its stores (non-temporal ones to DRAM above all), as softmax's rows do.
 * Arguments as fsm_out's; nt only where y is 64-byte aligned. */
typedef struct DNNLK__SFX(dnnlk__fsm_pend) {
    const float *e;
    float *y, *p; /* p: the probabilities' row, or NULL */
    float inv;
    uint64_t pos;
    int nt;
} DNNLK__SFX(dnnlk__fsm_pend);

/* The exps and sum of a clean row of n <= DNNLK__FSM_BUF elements (softmax's sm_block, the same
 * bits as dnnlk_softmax), e[i] = exp(x[i] - m) (e may be x), with the pending output o (or NULL)
 * done block by block beside it; pf: the next row, prefetched (or NULL). */
#define DNNLK__FSM_STEP(f2s, prefetch, odd)                                                                         \
    {                                                                                                               \
        prefetch;                                                                                                   \
        if (o) DNNLK__SFX(dnnlk__fsm_out_block)(o->e + i, o->y + i, o->p ? o->p + i : NULL, oa, vs,                 \
                                                 drop ? DNNLK__SFX(dnnlk__fsm_bits32)(bits, o->pos + i, nbytes) : 0, drop, ont); \
        DNNLK__SFX(dnnlk__sm_block)(x + i, m, nm, e + i, acc, &cnt, 0, f2s, odd);                                   \
        i += 32;                                                                                                    \
    }
#define DNNLK__FSM_LOOP(f2s, prefetch) DNNLK__SM_PAIRS(DNNLK__FSM_STEP, f2s, prefetch)
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__fsm_expsum)(const float *x, size_t n, dnnlk__vf m, float *e,
                                                             DNNLK__SFX(dnnlk__sm_acc) *acc, const char *pf, int f2s,
                                                             const DNNLK__SFX(dnnlk__fsm_pend) *o, const uint8_t *bits,
                                                             size_t nbytes, float scale, int drop) {
    const dnnlk__vf nm = dnnlk__vf_xor(m, dnnlk__vf_set1(-0.0f)), vs = dnnlk__vf_set1(scale);
    const dnnlk__vf oa = dnnlk__vf_set1(o ? o->inv : 0.0f);
    int ont = o ? o->nt : 0;
    size_t i = 0, cnt = 0;
    if (!pf && f2s) DNNLK__FSM_LOOP(1, (void)0)
    else if (!pf) DNNLK__FSM_LOOP(0, (void)0)
    else if (f2s) DNNLK__FSM_LOOP(1, dnnlk__vec_prefetch_l1(pf + 4 * i, 128))
    else DNNLK__FSM_LOOP(0, dnnlk__vec_prefetch_l1(pf + 4 * i, 128))
    if (o) DNNLK__SFX(dnnlk__fsm_out)(o->e + i, n - i, o->inv, bits, o->pos + i, nbytes, scale, drop, o->y + i,
                                      o->p ? o->p + i : NULL, 0);
    if (i < n) {
        float t[32];
        size_t k;
        for (k = 0; k < 32; k++) t[k] = -INFINITY;
        memcpy(t, x + i, (n - i) * sizeof(float));
        DNNLK__SFX(dnnlk__sm_block)(t, m, nm, t, acc, &cnt, 0, 0, (int)(i & 32));
        memcpy(e + i, t, (n - i) * sizeof(float));
    }
}
#undef DNNLK__FSM_LOOP
#undef DNNLK__FSM_STEP

/* The masked row's max, the min of its other elements (for sm_fast2sum_ok: a masked -inf gives an
 * exp of 0 with either sum, so it need not cost the row Fast2Sum) and whether it holds a NaN;
 * src: x itself, or t with the masked copy (unit-stride conds: copied, scanned in one pass). */
static DNNLK__FORCEINLINE float DNNLK__SFX(dnnlk__fsm_scan)(const float *x, const uint8_t *cond, int64_t cstr, float *t,
                                                            size_t k, unsigned *nan, float *lo, const float **src) {
    *src = x;
    if (cond && cstr == 0 && !cond[0]) cond = NULL; /* one condition for the row, false */
    if (cond && cstr == 1) {
        const dnnlk__vf ninf = dnnlk__vf_set1(-INFINITY), pinf = dnnlk__vf_set1(INFINITY);
        dnnlk__vf vmx = ninf, vlo = pinf;
        unsigned bad = 0;
        float mx, l;
        size_t i = 0;
        for (; i + DNNLK__VF_N <= k; i += DNNLK__VF_N) {
            dnnlk__vmask live = dnnlk__vi_cmpeq(dnnlk__vi_load_i8(cond + i, 0), dnnlk__vi_set1(0));
            dnnlk__vf v = dnnlk__vf_loadu(x + i), m = dnnlk__vf_blend(live, v, ninf);
            dnnlk__vf_storeu(t + i, m);
            vmx = dnnlk__vf_max(vmx, m);
            vlo = dnnlk__vf_min(vlo, dnnlk__vf_blend(live, v, pinf));
            bad |= dnnlk__vmask_bits(dnnlk__vf_cmpunord(m, m));
        }
        mx = dnnlk__vf_hmax(vmx);
        l = -dnnlk__vf_hmax(dnnlk__vf_xor(vlo, dnnlk__vf_set1(-0.0f)));
        for (; i < k; i++) {
            float v = cond[i] ? -INFINITY : x[i];
            t[i] = v;
            if (v != v) bad = 1;
            if (v > mx) mx = v;
            if (!cond[i] && x[i] < l) l = x[i];
        }
        *nan |= bad;
        *lo = l;
        *src = t;
        return mx;
    }
    if (cond) DNNLK__SFX(dnnlk__fsm_masked_copy)(t, x, cond, cstr, k), *src = t;
    return DNNLK__SFX(dnnlk__sm_maxmin)(*src, k, nan, lo);
}

/* A row that softmax does not compute: zeros where every element is masked, else (NaN, +inf, only
 * -inf) NaN as dnnlk_softmax, which dropout keeps NaN. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__fsm_special)(float *y, float *pv, size_t k, int zero, float *st) {
    size_t j;
    if (zero) memset(y, 0, k * sizeof(float));
    else
        for (j = 0; j < k; j++) y[j] = NAN;
    if (pv) memcpy(pv, y, k * sizeof(float));
    if (st) st[0] = zero ? -INFINITY : NAN, st[1] = zero ? 0.0f : NAN;
}

/* One row longer than DNNLK__FSM_BUF: in chunks, the exps kept in y, scaled in place. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__fsm_long_row)(const float *x, const uint8_t *cond, int64_t cstr,
                                                               float *y, float *pv, size_t k, const uint8_t *bits, uint64_t pos,
                                                               size_t nbytes, float scale, int drop, float *st) {
    float t[DNNLK__FSM_BUF];
    DNNLK__SFX(dnnlk__sm_acc) acc;
    dnnlk__vf vm = dnnlk__vf_set1(-INFINITY);
    size_t cnt = 0, j;
    unsigned nan = 0;
    float mx, inv;
    DNNLK__SFX(dnnlk__sm_acc_init)(&acc);
    for (j = 0; j < k; j += DNNLK__FSM_BUF) {
        size_t n = k - j < DNNLK__FSM_BUF ? k - j : DNNLK__FSM_BUF;
        const float *p = x + j;
        if (cond) DNNLK__SFX(dnnlk__fsm_masked_copy)(t, x + j, cond + (int64_t)j * cstr, cstr, n), p = t;
        vm = DNNLK__SFX(dnnlk__sm_max)(p, n, vm, &nan);
    }
    mx = dnnlk__vf_hmax(vm);
    if (nan || mx == INFINITY || mx == -INFINITY) {
        int live = nan || mx == INFINITY || DNNLK__SFX(dnnlk__fsm_any_live)(cond, cstr, k);
        DNNLK__SFX(dnnlk__fsm_special)(y, pv, k, !live, st);
        return;
    }
    vm = dnnlk__vf_set1(mx);
    for (j = 0; j < k; j += DNNLK__FSM_BUF) {
        size_t n = k - j < DNNLK__FSM_BUF ? k - j : DNNLK__FSM_BUF;
        const float *p = x + j;
        if (cond) DNNLK__SFX(dnnlk__fsm_masked_copy)(t, x + j, cond + (int64_t)j * cstr, cstr, n), p = t;
        DNNLK__SFX(dnnlk__sm_expsum)(p, n, vm, y + j, &acc, &cnt, 0, NULL, 0, NULL);
    }
    inv = (float)(1.0 / DNNLK__SFX(dnnlk__sm_acc_sum)(&acc));
    DNNLK__SFX(dnnlk__fsm_out)(y, k, inv, bits, pos, nbytes, scale, drop, y, pv, 0); /* in place: plain stores */
    if (st) st[0] = mx, st[1] = inv;
}

/* nrows rows of K elements, f32 with unit stride in and out: xs[j] (src), cs[j] (NULL: no mask;
 * else the row's condition bytes at byte stride cstr), ys[j] (dst); row j's drop-mask bits at
 * positions pos + j K of bits (nbytes bytes readable); st (NULL or 2 floats per row): each row's
 * max and 1/sum for the backward. pf: the row after the last (prefetched; or NULL). Rows that fit
 * DNNLK__FSM_BUF run as softmax's (sm_rows_f32): a row's output inside the next row's exp pass,
 * the masked rows and exps in two stack buffers in turns. */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__fsm_fwd_rows)(const float *const *xs, const uint8_t *const *cs,
                                                            int64_t cstr, float *const *ys, float *const *ps,
                                                            int64_t nrows, int64_t K,
                                                            const uint8_t *bits, uint64_t pos, size_t nbytes,
                                                            float scale, int drop, float *st, int nt, const float *pf) {
    float t[2][DNNLK__FSM_BUF];
    size_t k = (size_t)K;
    int64_t r;
    DNNLK__SFX(dnnlk__fsm_pend) pend, *pp = NULL;
    if (k > DNNLK__FSM_BUF) {
        for (r = 0; r < nrows; r++)
            DNNLK__SFX(dnnlk__fsm_long_row)(xs[r], cs[r], cstr, ys[r], ps[r], k, bits, pos + (uint64_t)(r * K), nbytes, scale,
                                           drop, st ? st + 2 * r : NULL);
        return;
    }
    for (r = 0; r < nrows; r++) {
        DNNLK__SFX(dnnlk__sm_acc) acc;
        const float *src;
        float *e = t[r & 1], lo = 0.0f, mx, inv;
        unsigned nan = 0;
        mx = DNNLK__SFX(dnnlk__fsm_scan)(xs[r], cs[r], cstr, e, k, &nan, &lo, &src);
        if (nan || mx == INFINITY || mx == -INFINITY) {
            int live = nan || mx == INFINITY || DNNLK__SFX(dnnlk__fsm_any_live)(cs[r], cstr, k);
            if (pp) DNNLK__SFX(dnnlk__fsm_out)(pp->e, k, pp->inv, bits, pp->pos, nbytes, scale, drop, pp->y, pp->p, pp->nt);
            pp = NULL; /* its buffer is the next row's */
            DNNLK__SFX(dnnlk__fsm_special)(ys[r], ps[r], k, live == 0, st ? st + 2 * r : NULL);
            continue;
        }
        DNNLK__SFX(dnnlk__sm_acc_init)(&acc);
        DNNLK__SFX(dnnlk__fsm_expsum)(src, k, dnnlk__vf_set1(mx), e, &acc,
                                      (const char *)(r + 1 < nrows ? xs[r + 1] : pf), dnnlk__sm_fast2sum_ok(mx, lo), pp,
                                      bits, nbytes, scale, drop);
        inv = (float)(1.0 / DNNLK__SFX(dnnlk__sm_acc_sum)(&acc));
        if (st) st[2 * r] = mx, st[2 * r + 1] = inv;
        pend.e = e;
        pend.y = ys[r];
        pend.p = ps[r];
        pend.inv = inv;
        pend.pos = pos + (uint64_t)(r * K);
        pend.nt = nt && ((uintptr_t)ys[r] & 63) == 0 && (!ps[r] || ((uintptr_t)ps[r] & 63) == 0);
        pp = &pend;
    }
    if (pp) DNNLK__SFX(dnnlk__fsm_out)(pp->e, k, pp->inv, bits, pp->pos, nbytes, scale, drop, pp->y, pp->p, pp->nt);
}

/* p[i] for n elements: the forward's softmax output recomputed from x, cond, the max and 1/sum
 * (bit for bit: the same exp, elementwise, and the same multiply). */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__fsm_p)(const float *x, const uint8_t *cond, int64_t cstr, size_t n,
                                                        float mx, float inv, float *p) {
    const dnnlk__vf nm = dnnlk__vf_set1(-mx), va = dnnlk__vf_set1(inv);
    const float *src = x;
    size_t i;
    if (cond) DNNLK__SFX(dnnlk__fsm_masked_copy)(p, x, cond, cstr, n), src = p;
    for (i = 0; i < n; i += DNNLK__VF_N) {
        size_t m = n - i < DNNLK__VF_N ? n - i : DNNLK__VF_N;
        dnnlk__vf v = m == DNNLK__VF_N ? dnnlk__vf_loadu(src + i) : DNNLK__SFX(dnnlk__sm_load_fill)(src + i, m, -INFINITY);
        v = dnnlk__vf_mul(DNNLK__SFX(dnnlk__sm_exp_row)(v, nm, 0, dnnlk__vmask_ones()), va);
        if (m == DNNLK__VF_N) dnnlk__vf_storeu(p + i, v);
        else dnnlk__vf_storeu_n(p + i, v, m);
    }
}

/* g = dropout_bwd(dy) for n elements from mask position pos: dy[i] * (keep ? scale : 0), one
 * multiply; drop = 0: dy itself (dropout's rate-0 copy). Returns where g is. */
static DNNLK__FORCEINLINE const float *DNNLK__SFX(dnnlk__fsm_g)(const float *dy, size_t n, const uint8_t *bits,
                                                                uint64_t pos, size_t nbytes, float scale, int drop,
                                                                float *g) {
    const dnnlk__vf vs = dnnlk__vf_set1(scale);
    size_t i;
    int k;
    if (!drop) return dy;
    for (i = 0; i + 32 <= n; i += 32) {
        uint32_t b = DNNLK__SFX(dnnlk__fsm_bits32)(bits, pos + i, nbytes);
        for (k = 0; k < 32; k += DNNLK__VF_N)
            dnnlk__vf_storeu(g + i + k, dnnlk__vf_mul(dnnlk__vf_loadu(dy + i + k), dnnlk__vf_maskz_bits(b >> k, vs)));
    }
    for (; i < n; i++) g[i] = dy[i] * ((DNNLK__SFX(dnnlk__fsm_bits32)(bits, pos + i, nbytes) & 1u) ? scale : 0.0f);
    return g;
}

/* One backward row: dx = p (g - sum(g p)), softmax_bwd_simd.h's sum and output on p and g = the
 * dropout backward of dy, in L1 (chunks of DNNLK__FSM_BUF; longer rows make them again for the
 * output pass). pr: the saved probabilities' row; NULL: p recomputed from x, cond and st (the
 * forward's max and 1/sum; max -inf: a fully masked row, dx = 0; NaN: a NaN row, dx NaN). */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__fsm_bwd_row)(const float *x, const uint8_t *cond, int64_t cstr,
                                                           const float *pr, const float *dy, float *dx, int64_t K,
                                                           const uint8_t *bits, uint64_t pos, size_t nbytes,
                                                           float scale, int drop, const float *st, int nt) {
    float p[DNNLK__FSM_BUF], g[DNNLK__FSM_BUF];
    const float *gp = dy, *pp = pr;
    dnnlk__vd acc[DNNLK__FSM_NACC], accl[DNNLK__FSM_NACC];
    double sum[16], suml[16], total;
    float mx = pr ? 0.0f : st[0], inv = pr ? 0.0f : st[1], sh, sl;
    size_t k = (size_t)K, j;
    int d;
    if (mx == -INFINITY) {
        memset(dx, 0, k * sizeof(float));
        return;
    }
    if (mx != mx) {
        for (j = 0; j < k; j++) dx[j] = NAN;
        return;
    }
    for (d = 0; d < DNNLK__FSM_NACC; d++) acc[d] = accl[d] = dnnlk__vd_zero();
    for (j = 0; j < k; j += DNNLK__FSM_BUF) {
        size_t n = k - j < DNNLK__FSM_BUF ? k - j : DNNLK__FSM_BUF;
        if (pr) pp = pr + j;
        else DNNLK__SFX(dnnlk__fsm_p)(x + j, cond ? cond + (int64_t)j * cstr : NULL, cstr, n, mx, inv, p), pp = p;
        gp = DNNLK__SFX(dnnlk__fsm_g)(dy + j, n, bits, pos + j, nbytes, scale, drop, g);
        DNNLK__SFX(dnnlk__smb_sum)(gp, pp, n, acc, accl, 0);
        if (k <= DNNLK__FSM_BUF) break;
    }
    for (d = 0; d < DNNLK__FSM_NACC; d++) {
        dnnlk__vd_storeu(sum + d * DNNLK__VD_N, acc[d]);
        dnnlk__vd_storeu(suml + d * DNNLK__VD_N, accl[d]);
    }
    total = dnnlk__sm_sum16(sum) + dnnlk__sm_sum16(suml);
    sh = (float)total;
    sl = sh - sh == 0.0f ? (float)(total - (double)sh) : 0.0f; /* an infinite or NaN sum has no low part */
    for (j = 0; j < k; j += DNNLK__FSM_BUF) {
        size_t n = k - j < DNNLK__FSM_BUF ? k - j : DNNLK__FSM_BUF;
        if (k > DNNLK__FSM_BUF) {
            if (pr) pp = pr + j;
            else DNNLK__SFX(dnnlk__fsm_p)(x + j, cond ? cond + (int64_t)j * cstr : NULL, cstr, n, mx, inv, p), pp = p;
            gp = DNNLK__SFX(dnnlk__fsm_g)(dy + j, n, bits, pos + j, nbytes, scale, drop, g);
        }
        DNNLK__SFX(dnnlk__smb_outrow)(gp, pp, dx + j, n, dnnlk__vf_set1(sh), dnnlk__vf_set1(sl), 0, nt);
    }
}

/* Orders the streaming stores before the entry returns. */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__fsm_fence)(void) { dnnlk__vec_sfence(); }

#undef DNNLK__FSM_NACC
