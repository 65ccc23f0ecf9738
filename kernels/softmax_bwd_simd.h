/* dnnl_kernels — softmax_bwd_simd.h: softmax / log_softmax backward body (no include guard; see
 * softmax.h). A row of K elements along the axis, two passes: the sum (softmax: of diff_dst * dst,
 * log_softmax: of diff_dst), then the output. Rows whose three operands are f32 with unit stride
 * are read in place; others go through stack buffers in chunks of DNNLK__SM_CHUNK. */

/* f64 accumulators as in softmax_simd.h: element i of a row adds into slot i % 16 on every level,
 * DNNLK__SMB_DPF f64 vectors per f32 vector, DNNLK__SMB_NACC of them the 16 slots. */
#define DNNLK__SMB_DPF (DNNLK__VF_N / DNNLK__VD_N)
#define DNNLK__SMB_NACC (16 / DNNLK__VD_N)

static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__smb_dadd)(dnnlk__vd *a, dnnlk__vf v) {
    a[0] = dnnlk__vd_add(a[0], dnnlk__vd_from_vf(v, 0));
    if (DNNLK__SMB_DPF > 1) a[1] = dnnlk__vd_add(a[1], dnnlk__vd_from_vf(v, 1));
}

/* v with lanes k.. set to -0, the neutral element of the sums (x + -0 = x for every x, zeros too):
 * a row's tail adds nothing, so the slots hold the same bits whatever the lane count. */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__smb_pad)(dnnlk__vf v, size_t k) {
    float t[DNNLK__VF_N];
    size_t i;
    dnnlk__vf_storeu(t, v);
    for (i = k; i < DNNLK__VF_N; i++) t[i] = -0.0f;
    return dnnlk__vf_loadu(t);
}

/* Adds one vector (k live lanes) at position slot j (0 <= j < 16 / VF_N): softmax the exact
 * product g * y as hi + lo (two_prod: the same on every level), hi into acc and lo into accl (lo
 * taken as 0 where it is not finite: where hi is infinite or NaN, an infinite or NaN product is
 * its own sum, as PyTorch's; and where Dekker's split overflows, operands beyond 2^115 without
 * FMA: the low part is dropped there, the only case where levels may differ);
 * log_softmax g alone into acc. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__smb_acc)(dnnlk__vd *acc, dnnlk__vd *accl, dnnlk__vf g, dnnlk__vf y,
                                                          size_t k, int j, int log) {
    if (log) {
        if (k < DNNLK__VF_N) g = DNNLK__SFX(dnnlk__smb_pad)(g, k);
        DNNLK__SFX(dnnlk__smb_dadd)(acc + DNNLK__SMB_DPF * j, g);
    } else {
        dnnlk__vf lo, hi = DNNLK__SFX(dnnlk__vm_two_prod)(g, y, &lo);
        lo = dnnlk__vf_blend(dnnlk__vf_cmplt(DNNLK__SFX(dnnlk__vm_abs)(lo), dnnlk__vf_set1(INFINITY)), lo,
                             dnnlk__vf_zero());
        if (k < DNNLK__VF_N) {
            hi = DNNLK__SFX(dnnlk__smb_pad)(hi, k);
            lo = DNNLK__SFX(dnnlk__smb_pad)(lo, k);
        }
        DNNLK__SFX(dnnlk__smb_dadd)(acc + DNNLK__SMB_DPF * j, hi);
        DNNLK__SFX(dnnlk__smb_dadd)(accl + DNNLK__SMB_DPF * j, lo);
    }
}

/* The sums over n elements of g (diff_dst) and y (dst), both f32 with unit stride; n is a
 * multiple of 16 unless this is the row's last piece (the slots follow the position). */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__smb_sum)(const float *g, const float *y, size_t n, dnnlk__vd *acc,
                                                          dnnlk__vd *accl, int log) {
    size_t i = 0;
    int j;
    for (; i + 16 <= n; i += 16)
        for (j = 0; j < 16 / DNNLK__VF_N; j++)
            DNNLK__SFX(dnnlk__smb_acc)(acc, accl, dnnlk__vf_loadu(g + i + j * DNNLK__VF_N),
                                       log ? dnnlk__vf_zero() : dnnlk__vf_loadu(y + i + j * DNNLK__VF_N), DNNLK__VF_N,
                                       j, log);
    for (j = 0; i < n; i += DNNLK__VF_N, j++) {
        size_t k = n - i < DNNLK__VF_N ? n - i : DNNLK__VF_N;
        DNNLK__SFX(dnnlk__smb_acc)(acc, accl, dnnlk__vf_loadu_n(g + i, k),
                                   log ? dnnlk__vf_zero() : dnnlk__vf_loadu_n(y + i, k), k, j, log);
    }
}

/* One output vector: softmax y ((g - sh) - sl), log_softmax g - exp(y) (sh + sl) (s = sh + sl the
 * row's sum as a float pair). */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__smb_out)(dnnlk__vf g, dnnlk__vf y, dnnlk__vf sh, dnnlk__vf sl,
                                                              int log) {
    if (!log) return dnnlk__vf_mul(y, dnnlk__vf_sub(dnnlk__vf_sub(g, sh), sl));
    {
        dnnlk__vf e = DNNLK__SFX(dnnlk__vm_exp)(y);
        return dnnlk__vf_fnmadd(e, sl, dnnlk__vf_fnmadd(e, sh, g));
    }
}

/* nt: o's vectors from its first vector boundary on are streamed (non-temporal), the head and the
 * tail stored plainly. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__smb_outrow)(const float *g, const float *y, float *o, size_t n,
                                                             dnnlk__vf sh, dnnlk__vf sl, int log, int nt) {
    size_t i = 0;
    if (nt && (uintptr_t)o % sizeof(float) == 0) {
        size_t head = (size_t)((sizeof(dnnlk__vf) - ((uintptr_t)o % sizeof(dnnlk__vf))) % sizeof(dnnlk__vf)) / sizeof(float);
        if (head < n) {
            if (head)
                dnnlk__vf_storeu_n(o, DNNLK__SFX(dnnlk__smb_out)(dnnlk__vf_loadu_n(g, head), dnnlk__vf_loadu_n(y, head), sh, sl, log),
                                   head);
            for (i = head; i + DNNLK__VF_N <= n; i += DNNLK__VF_N)
                dnnlk__vf_stream(o + i, DNNLK__SFX(dnnlk__smb_out)(dnnlk__vf_loadu(g + i), dnnlk__vf_loadu(y + i), sh, sl, log));
        }
    }
    for (; i + 2 * DNNLK__VF_N <= n; i += 2 * DNNLK__VF_N) {
        dnnlk__vf a = DNNLK__SFX(dnnlk__smb_out)(dnnlk__vf_loadu(g + i), dnnlk__vf_loadu(y + i), sh, sl, log);
        dnnlk__vf b = DNNLK__SFX(dnnlk__smb_out)(dnnlk__vf_loadu(g + i + DNNLK__VF_N), dnnlk__vf_loadu(y + i + DNNLK__VF_N),
                                                 sh, sl, log);
        dnnlk__vf_storeu(o + i, a);
        dnnlk__vf_storeu(o + i + DNNLK__VF_N, b);
    }
    for (; i < n; i += DNNLK__VF_N) {
        size_t k = n - i < DNNLK__VF_N ? n - i : DNNLK__VF_N;
        dnnlk__vf r = DNNLK__SFX(dnnlk__smb_out)(dnnlk__vf_loadu_n(g + i, k), dnnlk__vf_loadu_n(y + i, k), sh, sl, log);
        if (k == DNNLK__VF_N) dnnlk__vf_storeu(o + i, r);
        else dnnlk__vf_storeu_n(o + i, r, k);
    }
}

/* One row: p[0] diff_src, p[1] dst, p[2] diff_dst, each at byte stride s[op] with dtype dt[op]. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__smb_row)(char *const *p, const int64_t *s, const dnnlk_dtype *dt,
                                                          int64_t K, int log, int nt) {
    float bo[DNNLK__SM_CHUNK], by[DNNLK__SM_CHUNK], bg[DNNLK__SM_CHUNK];
    int dir[3], d;
    dnnlk__vd acc[DNNLK__SMB_NACC], accl[DNNLK__SMB_NACC];
    double sum[16], suml[16], total;
    float sh, sl;
    int64_t j;
    for (d = 0; d < 3; d++) dir[d] = dt[d] == dnnlk_f32 && s[d] == 4;
    for (d = 0; d < DNNLK__SMB_NACC; d++) acc[d] = accl[d] = dnnlk__vd_zero();
    for (j = 0; j < K; j += DNNLK__SM_CHUNK) {
        size_t n = (size_t)(K - j < DNNLK__SM_CHUNK ? K - j : DNNLK__SM_CHUNK);
        const float *y = (const float *)(const void *)(p[1] + j * s[1]), *g = (const float *)(const void *)(p[2] + j * s[2]);
        if (!log && !dir[1]) DNNLK__SFX(dnnlk__gather_f32)(by, p[1] + j * s[1], s[1], dt[1], n), y = by;
        if (!dir[2]) DNNLK__SFX(dnnlk__gather_f32)(bg, p[2] + j * s[2], s[2], dt[2], n), g = bg;
        DNNLK__SFX(dnnlk__smb_sum)(g, y, n, acc, accl, log);
    }
    for (d = 0; d < DNNLK__SMB_NACC; d++) {
        dnnlk__vd_storeu(sum + d * DNNLK__VD_N, acc[d]);
        dnnlk__vd_storeu(suml + d * DNNLK__VD_N, accl[d]);
    }
    total = dnnlk__sm_sum16(sum) + dnnlk__sm_sum16(suml);
    sh = (float)total;
    /* an infinite or NaN sum has no low part */
    sl = sh - sh == 0.0f ? (float)(total - (double)sh) : 0.0f;
    for (j = 0; j < K; j += DNNLK__SM_CHUNK) {
        size_t n = (size_t)(K - j < DNNLK__SM_CHUNK ? K - j : DNNLK__SM_CHUNK);
        const float *y = (const float *)(const void *)(p[1] + j * s[1]), *g = (const float *)(const void *)(p[2] + j * s[2]);
        float *o = dir[0] ? (float *)(void *)(p[0] + j * s[0]) : bo;
        if (!dir[1]) DNNLK__SFX(dnnlk__gather_f32)(by, p[1] + j * s[1], s[1], dt[1], n), y = by;
        if (!dir[2]) DNNLK__SFX(dnnlk__gather_f32)(bg, p[2] + j * s[2], s[2], dt[2], n), g = bg;
        DNNLK__SFX(dnnlk__smb_outrow)(g, y, o, n, dnnlk__vf_set1(sh), dnnlk__vf_set1(sl), log, nt && dir[0]);
        if (!dir[0]) DNNLK__SFX(dnnlk__scatter_f32)(p[0] + j * s[0], s[0], dt[0], bo, n);
    }
}

static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__smb_part)(const dnnlk__smb_ctx *c, int64_t begin, int64_t end) {
    dnnlk__loop_iter it;
    char *row[3], *p[3];
    int64_t n, r, rs[3];
    int d;
    for (d = 0; d < 3; d++) rs[d] = dnnlk__row_stride(&c->plan, d);
    dnnlk__iter_init(&it, &c->plan, c->base, begin, end);
    while ((n = dnnlk__iter_next(&it, row)) > 0)
        for (r = 0; r < n; r++) {
            for (d = 0; d < 3; d++) p[d] = row[d] + r * rs[d];
            if (c->log) DNNLK__SFX(dnnlk__smb_row)(p, c->s, c->dt, c->K, 1, c->nt);
            else DNNLK__SFX(dnnlk__smb_row)(p, c->s, c->dt, c->K, 0, c->nt);
        }
    if (c->nt) dnnlk__vec_sfence();
}

#undef DNNLK__SMB_DPF
#undef DNNLK__SMB_NACC
