/* dnnl_kernels — resize_simd.h: the body of resize.h, compiled once per level (the scalar one
 * included) by simd_instantiate.h, on the vector layer (no include guard). Each lane does exactly
 * the element code's arithmetic (dnnlk__resize_linear_at; products kept unfused by
 * dnnlk__vf_nofuse), so every level gives its bits; heads and tails of rows, and layouts no vector
 * path takes, use the element code itself.
 *
 * Along a resized innermost axis (f32, contiguous), the N outputs of a vector read source indices
 * that are non-decreasing; when they span fewer than N elements (always, when upscaling), one
 * window load at the first index and an in-register permute fetch them. Otherwise a gather. */


static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__resize_lerp_v)(dnnlk__vf a, dnnlk__vf w0, dnnlk__vf b, dnnlk__vf w1) {
    dnnlk__vf p = dnnlk__vf_mul(a, w0), q = dnnlk__vf_mul(b, w1);
    dnnlk__vf_nofuse(p);
    dnnlk__vf_nofuse(q);
    return dnnlk__vf_add(p, q);
}

/* Source window of row p starting at base: N elements, fewer at the row's end (cnt). */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__resize_window)(const float *p, int64_t cnt) {
    return cnt >= DNNLK__VF_N ? dnnlk__vf_loadu(p) : dnnlk__vf_loadu_n(p, (size_t)cnt);
}

/* ---- linear along a resized innermost axis, f32, contiguous source and output rows ---- */

/* Value of one corner row (x-interpolated) for the N columns at table offset t. */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__resize_xval)(const float *rowp, int win, int32_t base,
                                                               dnnlk__vi rel0, dnnlk__vi rel1, int64_t cnt,
                                                               const int32_t *x0, const int32_t *x1,
                                                               dnnlk__vf w0, dnnlk__vf w1) {
    dnnlk__vf a, b;
    if (win) {
        dnnlk__vf w = DNNLK__SFX(dnnlk__resize_window)(rowp + base, cnt);
        a = dnnlk__vf_permute(w, rel0);
        b = dnnlk__vf_permute(w, rel1);
    } else {
        a = dnnlk__vf_gather(rowp, x0);
        b = dnnlk__vf_gather(rowp, x1);
    }
    return DNNLK__SFX(dnnlk__resize_lerp_v)(a, w0, b, w1);
}

static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__resize_linear_x)(const dnnlk__resize_job *j, const dnnlk__resize_row *r,
                                                              int k) {
    const int64_t N = DNNLK__VF_N, in = j->ax[j->n - 1].in;
    const float *src = (const float *)(const void *)r->src;
    float *dst = (float *)(void *)r->dst;
    int64_t c = r->c0, nc = (int64_t)1 << k;
    int stream = j->stream && !((uintptr_t)dst & 3);
    if (stream)
        for (; c < r->c1 && ((uintptr_t)(dst + c) & (uintptr_t)(N * 4 - 1)); c++)
            dst[c] = dnnlk__resize_linear_at(j, r, c);
    for (; c + N <= r->c1; c += N) {
        const int64_t t = c - r->c0;
        const int32_t base = r->x0[t];
        const int win = r->x1[t + N - 1] - base < N;
        const dnnlk__vi vb = dnnlk__vi_set1(base);
        const dnnlk__vi rel0 = dnnlk__vi_sub(dnnlk__vi_loadu(r->x0 + t), vb);
        const dnnlk__vi rel1 = dnnlk__vi_sub(dnnlk__vi_loadu(r->x1 + t), vb);
        const dnnlk__vf w0 = dnnlk__vf_loadu(r->xw0 + t), w1 = dnnlk__vf_loadu(r->xw1 + t);
        const int64_t cnt = in - base;
        dnnlk__vf v;
#define DNNLK__RS_XV(p) DNNLK__SFX(dnnlk__resize_xval)((p), win, base, rel0, rel1, cnt, r->x0 + t, r->x1 + t, w0, w1)
        if (k == 0) {
            v = DNNLK__RS_XV(src);
        } else if (k == 1) {
            dnnlk__vf top = DNNLK__RS_XV(src);
            dnnlk__vf bot = DNNLK__RS_XV((const float *)(const void *)(r->src + r->delta[0]));
            v = DNNLK__SFX(dnnlk__resize_lerp_v)(top, dnnlk__vf_set1(r->w0[0]), bot, dnnlk__vf_set1(r->w1[0]));
        } else {
            dnnlk__vf stack[DNNLK_MAX_NDIMS + 1];
            int64_t q;
            for (q = 0; q < nc; q++) {
                const char *rowp = dnnlk__resize_corner(r, k, q);
                int b;
                v = DNNLK__RS_XV((const float *)(const void *)rowp);
                for (b = 0; (q >> b) & 1; b++)
                    v = DNNLK__SFX(dnnlk__resize_lerp_v)(stack[b], dnnlk__vf_set1(r->w0[b]), v, dnnlk__vf_set1(r->w1[b]));
                stack[b] = v;
            }
            v = stack[k];
        }
#undef DNNLK__RS_XV
        dnnlk__vf_store_dt(dst + c, dnnlk_f32, v, stream);
    }
    for (; c < r->c1; c++) dst[c] = dnnlk__resize_linear_at(j, r, c);
}

/* ---- nearest along a resized innermost axis, f32, contiguous rows ---- */

/* Columns [c0, c1) of one output row, and of a second one (two: dst2, the same values) from the
 * same registers. half >= 0: the block's table is an x2 upscale (x0[t] = x0[0] + ((t + half) >> 1)),
 * so 2N outputs come from two overlapping N-element windows and one fixed permute each. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__resize_nearest_run)(const dnnlk__resize_job *j, const dnnlk__resize_row *r,
                                                                 float *const dst, float *const dst2, int two,
                                                                 int half) {
    /* locals, so the stores through dst cannot make the compiler reload them */
    const int64_t N = DNNLK__VF_N, in = j->ax[j->n - 1].in, c0 = r->c0, c1 = r->c1;
    const float *const src = (const float *)(const void *)r->src;
    const int32_t *const x0 = r->x0 - c0;
    int64_t c = c0;
    int stream = j->stream && !((uintptr_t)dst & 3);
#define DNNLK__RS_PUT(p, v)                                            \
    do {                                                               \
        dnnlk__vf_store_dt(dst + (p), dnnlk_f32, (v), stream);         \
        if (two) dnnlk__vf_store_dt(dst2 + (p), dnnlk_f32, (v), stream); \
    } while (0)
    if (stream)
        for (; c < c1 && ((uintptr_t)(dst + c) & (uintptr_t)(N * 4 - 1)); c++) {
            dst[c] = src[x0[c]];
            if (two) dst2[c] = src[x0[c]];
        }
    if (half >= 0 && c + 2 * N <= c1) {
        /* output c + k reads source b + ((k + p) >> 1), k in [0, 2N): the same permute of the
         * windows at b and b + N/2 gives the two output vectors */
        const int64_t q = c - c0 + half;
        const int32_t p = (int32_t)(q & 1);
        int64_t b = x0[c0] + (q >> 1);
        /* the second window: at b + N/2 for even N; one lane (the scalar level) is b + p */
        const int64_t h2 = N > 1 ? N / 2 : p;
        int32_t rel[DNNLK__VF_N];
        dnnlk__vi vrel;
        int l;
        for (l = 0; l < N; l++) rel[l] = (l + p) >> 1;
        vrel = dnnlk__vi_loadu(rel);
        for (; c + 2 * N <= c1; c += 2 * N, b += N) {
            dnnlk__vf w0 = DNNLK__SFX(dnnlk__resize_window)(src + b, in - b);
            dnnlk__vf w1 = DNNLK__SFX(dnnlk__resize_window)(src + b + h2, in - b - h2);
            dnnlk__vf v0 = dnnlk__vf_permute(w0, vrel), v1 = dnnlk__vf_permute(w1, vrel);
            DNNLK__RS_PUT(c, v0);
            DNNLK__RS_PUT(c + N, v1);
        }
    }
    for (; c + N <= c1; c += N) {
        const int32_t base = x0[c];
        dnnlk__vf v;
        if (x0[c + N - 1] - base < N) {
            dnnlk__vi rel = dnnlk__vi_sub(dnnlk__vi_loadu(x0 + c), dnnlk__vi_set1(base));
            v = dnnlk__vf_permute(DNNLK__SFX(dnnlk__resize_window)(src + base, in - base), rel);
        } else {
            v = dnnlk__vf_gather(src, x0 + c);
        }
        DNNLK__RS_PUT(c, v);
    }
#undef DNNLK__RS_PUT
    for (; c < c1; c++) {
        dst[c] = src[x0[c]];
        if (two) dst2[c] = src[x0[c]];
    }
}

static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__resize_nearest_x)(const dnnlk__resize_job *j, const dnnlk__resize_row *r) {
    float *const dst = (float *)(void *)r->dst, *const dst2 = (float *)(void *)r->dst2;
    const uintptr_t vmask = (uintptr_t)(DNNLK__VF_N * 4 - 1);
    /* two rows share the aligned head only when they are equally aligned */
    if (dst2 && !(((uintptr_t)dst ^ (uintptr_t)dst2) & vmask)) {
        if (r->half >= 0) DNNLK__SFX(dnnlk__resize_nearest_run)(j, r, dst, dst2, 1, r->half);
        else DNNLK__SFX(dnnlk__resize_nearest_run)(j, r, dst, dst2, 1, -1);
        return;
    }
    if (r->half >= 0) DNNLK__SFX(dnnlk__resize_nearest_run)(j, r, dst, dst, 0, r->half);
    else DNNLK__SFX(dnnlk__resize_nearest_run)(j, r, dst, dst, 0, -1);
    if (dst2) {
        if (r->half >= 0) DNNLK__SFX(dnnlk__resize_nearest_run)(j, r, dst2, dst2, 0, r->half);
        else DNNLK__SFX(dnnlk__resize_nearest_run)(j, r, dst2, dst2, 0, -1);
    }
}

/* ---- linear with the innermost axis not resized (NHWC-style): vectors over channels ---- */

static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__resize_store_v)(char *p, dnnlk_dtype t, dnnlk__vf v, int stream) {
    if (t != dnnlk_u8 && t != dnnlk_s8) {
        dnnlk__vf_store_dt(p, t, v, stream);
    } else { /* as dnnlk__resize_store: round half to even, saturate (NaN: max gives the low bound,
              * replaced by 0 for s8) */
        const float lo = t == dnnlk_u8 ? 0.0f : -128.0f, hi = t == dnnlk_u8 ? 255.0f : 127.0f;
        dnnlk__vf r = dnnlk__vf_round_even(v);
        r = dnnlk__vf_min(dnnlk__vf_max(r, dnnlk__vf_set1(lo)), dnnlk__vf_set1(hi));
        if (t == dnnlk_s8) r = dnnlk__vf_blend(dnnlk__vf_cmpneq(v, v), dnnlk__vf_zero(), r);
        dnnlk__vi_store_u8(p, dnnlk__vf_to_vi_trunc(r));
    }
}

static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__resize_linear_c)(const dnnlk__resize_job *j, const dnnlk__resize_row *r,
                                                              dnnlk_dtype dt, int k) {
    const int64_t N = DNNLK__VF_N, es = (int64_t)dnnlk_dtype_size(dt);
    int64_t c = r->c0, nc = (int64_t)1 << k;
    int stream = dt == dnnlk_f32 && j->stream && !((uintptr_t)r->dst & 3);
    if (stream)
        for (; c < r->c1 && ((uintptr_t)(r->dst + c * es) & (uintptr_t)(N * 4 - 1)); c++)
            dnnlk__resize_store(r->dst + c * es, dt, dnnlk__resize_linear_at(j, r, c));
    for (; c + N <= r->c1; c += N) {
        dnnlk__vf v;
        if (k == 0) {
            v = dnnlk__vf_load_dt(r->src + c * es, dt);
        } else if (k == 1) {
            v = DNNLK__SFX(dnnlk__resize_lerp_v)(dnnlk__vf_load_dt(r->src + c * es, dt), dnnlk__vf_set1(r->w0[0]),
                                           dnnlk__vf_load_dt(r->src + r->delta[0] + c * es, dt),
                                           dnnlk__vf_set1(r->w1[0]));
        } else {
            dnnlk__vf stack[DNNLK_MAX_NDIMS + 1];
            int64_t q;
            for (q = 0; q < nc; q++) {
                const char *rowp = dnnlk__resize_corner(r, k, q);
                int b;
                v = dnnlk__vf_load_dt(rowp + c * es, dt);
                for (b = 0; (q >> b) & 1; b++)
                    v = DNNLK__SFX(dnnlk__resize_lerp_v)(stack[b], dnnlk__vf_set1(r->w0[b]), v, dnnlk__vf_set1(r->w1[b]));
                stack[b] = v;
            }
            v = stack[k];
        }
        DNNLK__SFX(dnnlk__resize_store_v)(r->dst + c * es, dt, v, stream);
    }
    for (; c < r->c1; c++) dnnlk__resize_store(r->dst + c * es, dt, dnnlk__resize_linear_at(j, r, c));
}

/* ---- one row: pick the path ---- */

static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__resize_row)(const dnnlk__resize_job *j, const dnnlk__resize_row *r) {
    const dnnlk__resize_axis *ia = &j->ax[j->n - 1];
    if (ia->os == 1 && ia->is == 1) {
        if (ia->resized && j->dt == dnnlk_f32) {
            if (!j->linear) DNNLK__SFX(dnnlk__resize_nearest_x)(j, r);
            else if (r->k == 0) DNNLK__SFX(dnnlk__resize_linear_x)(j, r, 0);
            else if (r->k == 1) DNNLK__SFX(dnnlk__resize_linear_x)(j, r, 1);
            else DNNLK__SFX(dnnlk__resize_linear_x)(j, r, r->k);
            return;
        }
        if (!ia->resized) {
            if (!j->linear) {
                memcpy(r->dst + r->c0 * j->es, r->src + r->c0 * j->es, (size_t)((r->c1 - r->c0) * j->es));
                return;
            }
#define DNNLK__RS_C(DT)                                                    \
    do {                                                                   \
        if (r->k == 1) DNNLK__SFX(dnnlk__resize_linear_c)(j, r, DT, 1);        \
        else if (r->k == 2) DNNLK__SFX(dnnlk__resize_linear_c)(j, r, DT, 2);   \
        else DNNLK__SFX(dnnlk__resize_linear_c)(j, r, DT, r->k);               \
    } while (0)
            switch (j->dt) {
            case dnnlk_f32: DNNLK__RS_C(dnnlk_f32); break;
            case dnnlk_bf16: DNNLK__RS_C(dnnlk_bf16); break;
            case dnnlk_f16: DNNLK__RS_C(dnnlk_f16); break;
            case dnnlk_s8: DNNLK__RS_C(dnnlk_s8); break;
            case dnnlk_u8: DNNLK__RS_C(dnnlk_u8); break;
            default: dnnlk__resize_row_any(j, r); break;
            }
#undef DNNLK__RS_C
            return;
        }
    }
    dnnlk__resize_row_any(j, r);
}

/* Orders a part's streaming stores before dnnlk_resize returns. */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__resize_fence)(void) { dnnlk__vec_sfence(); }


/* ---- the general path (cubic, antialias, tf_crop_and_resize, f64): one row ---- */

/* The innermost axis kept (NHWC-style): vectors over its columns, each lane dnnlk__resize_tap_at's
 * sums over the outer levels' taps. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__resize_trow_c)(const dnnlk__resize_job *j, const dnnlk__resize_trow *r,
                                                              dnnlk_dtype dt) {
    const int64_t N = DNNLK__VF_N, es = (int64_t)dnnlk_dtype_size(dt);
    int64_t c = r->c0;
    int stream = dt == dnnlk_f32 && j->stream && !((uintptr_t)r->dst & 3);
    if (stream)
        for (; c < r->c1 && ((uintptr_t)(r->dst + c * es) & (uintptr_t)(N * 4 - 1)); c++) dnnlk__resize_tap_put_one(j, r, c);
    for (; c + N <= r->c1; c += N) {
        dnnlk__vf part[DNNLK_MAX_NDIMS], v, p;
        int dig[DNNLK_MAX_NDIMS], b;
        for (b = 0; b < r->k; b++) dig[b] = 0;
        for (;;) {
            v = dnnlk__vf_load_dt(dnnlk__resize_trow_src(r, dig) + c * es, dt);
            for (b = 0; b < r->k; b++) {
                p = dnnlk__vf_mul(v, dnnlk__vf_set1(r->w[b][dig[b]]));
                dnnlk__vf_nofuse(p);
                part[b] = dig[b] ? dnnlk__vf_add(part[b], p) : p;
                if (dig[b] + 1 < r->m[b]) break;
                v = part[b];
            }
            if (b == r->k) break;
            dnnlk__resize_trow_step(dig, b);
        }
        DNNLK__SFX(dnnlk__resize_store_v)(r->dst + c * es, dt, v, stream);
    }
    for (; c < r->c1; c++) dnnlk__resize_tap_put_one(j, r, c);
}

static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__resize_trow)(const dnnlk__resize_job *j, const dnnlk__resize_trow *r) {
    const dnnlk__resize_axis *ia = &j->ax[j->n - 1];
    if (!r->mi && ia->is == 1 && ia->os == 1 && j->mode != dnnlk_resize_nearest) {
        switch (j->dt) {
        case dnnlk_f32: DNNLK__SFX(dnnlk__resize_trow_c)(j, r, dnnlk_f32); return;
        case dnnlk_bf16: DNNLK__SFX(dnnlk__resize_trow_c)(j, r, dnnlk_bf16); return;
        case dnnlk_f16: DNNLK__SFX(dnnlk__resize_trow_c)(j, r, dnnlk_f16); return;
        case dnnlk_u8: DNNLK__SFX(dnnlk__resize_trow_c)(j, r, dnnlk_u8); return;
        case dnnlk_s8: DNNLK__SFX(dnnlk__resize_trow_c)(j, r, dnnlk_s8); return;
        default: break;
        }
    }
    dnnlk__resize_trow_any(j, r);
}

/* ---- the general path along a resized contiguous inner axis, f32: separable passes ---- */

/* Inner-axis pass of one source row over the block's columns: h[c - c0] is dnnlk__resize_tap_at's
 * inner value (w_0 x_0 + w_1 x_1 + ... in tap order, unfused). The taps of N columns span a window
 * of the source row when it holds fewer than N elements (upscaling, mild downscaling): one load
 * and a permute per tap; else gathers. This: columns [c, c + N) of h. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__resize_hvec_m)(const dnnlk__resize_job *j, const dnnlk__resize_trow *r,
                                                              const float *src, float *h, const int64_t c, const int mi) {
    const int64_t N = DNNLK__VF_N, in = j->ax[j->n - 1].in, cb = r->cb, t = c - r->c0;
    /* the tables in locals: the store to h (a may-alias vector type) would make them reloads */
    const int32_t *const xi = r->xi;
    const float *const xw = r->xw;
    const int32_t *xl = xi + (int64_t)(mi - 1) * cb + t;
    /* indices run monotonically along the columns (either way: a roi may flip an axis) */
    const int32_t lo = xi[t] < xi[t + N - 1] ? xi[t] : xi[t + N - 1];
    const int32_t hi = xl[0] > xl[N - 1] ? xl[0] : xl[N - 1];
    dnnlk__vf acc = dnnlk__vf_zero(), p; /* (set by tap 0 on either branch) */
    int i;
    if (hi - lo < N) {
        const dnnlk__vi vlo = dnnlk__vi_set1(lo);
        const dnnlk__vf win = DNNLK__SFX(dnnlk__resize_window)(src + lo, in - lo);
        acc = dnnlk__vf_mul(dnnlk__vf_permute(win, dnnlk__vi_sub(dnnlk__vi_loadu(xi + t), vlo)), dnnlk__vf_loadu(xw + t));
        dnnlk__vf_nofuse(acc);
        for (i = 1; i < mi; i++) {
            p = dnnlk__vf_mul(dnnlk__vf_permute(win, dnnlk__vi_sub(dnnlk__vi_loadu(xi + i * cb + t), vlo)),
                              dnnlk__vf_loadu(xw + i * cb + t));
            dnnlk__vf_nofuse(p);
            acc = dnnlk__vf_add(acc, p);
        }
    } else {
        for (i = 0; i < mi; i++) {
            const int32_t *xt = xi + i * cb + t;
            dnnlk__vf x;
#if DNNLK__VEC_LUT32
            /* one tap's N indices within 32 elements (a downscale to 1/2 and milder): a
             * two-register permute of the 32 source elements from the lowest (gathers are
             * slow on some x86 cores) */
            const int32_t tlo = xt[0] < xt[N - 1] ? xt[0] : xt[N - 1], thi = xt[0] > xt[N - 1] ? xt[0] : xt[N - 1];
            if (thi - tlo < 32 && tlo + 32 <= in)
                x = dnnlk__vf_lut32(src + tlo, dnnlk__vi_sub(dnnlk__vi_loadu(xt), dnnlk__vi_set1(tlo)));
            else
#endif
                x = dnnlk__vf_gather(src, xt);
            p = dnnlk__vf_mul(x, dnnlk__vf_loadu(xw + i * cb + t));
            dnnlk__vf_nofuse(p);
            acc = i ? dnnlk__vf_add(acc, p) : p;
        }
    }
    dnnlk__vf_storeu(h + t, acc);
}

/* Columns [c, c1) of h, by vectors. A remainder shorter than a vector is one vector overlapping
 * columns before c (computed again: the same values) or, in a stretch shorter than a vector,
 * after c1 within the block (the caller writes them again, the same values): each column's
 * value depends on its column only, whichever path computes it. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__resize_hcols_m)(const dnnlk__resize_job *j, const dnnlk__resize_trow *r,
                                                                const float *src, float *h, int64_t c, const int64_t c1,
                                                                const int mi) {
    const int64_t N = DNNLK__VF_N, c0 = r->c0, cb = r->cb;
    if (c1 - c >= N) {
        for (; c + N <= c1; c += N) DNNLK__SFX(dnnlk__resize_hvec_m)(j, r, src, h, c, mi);
        if (c < c1) DNNLK__SFX(dnnlk__resize_hvec_m)(j, r, src, h, c1 - N, mi);
        return;
    }
    if (c < c1 && c1 - N >= c0) {
        DNNLK__SFX(dnnlk__resize_hvec_m)(j, r, src, h, c1 - N, mi);
        return;
    }
    if (c < c1 && c + N <= r->c1) {
        DNNLK__SFX(dnnlk__resize_hvec_m)(j, r, src, h, c, mi);
        return;
    }
    for (; c < c1; c++) { /* a block narrower than a vector */
        const int64_t t = c - c0;
        float v = src[r->xi[t]] * r->xw[t];
        int i;
        DNNLK__NOFUSE(v);
        for (i = 1; i < mi; i++) {
            float p = src[r->xi[i * cb + t]] * r->xw[i * cb + t];
            DNNLK__NOFUSE(p);
            v = v + p;
        }
        h[t] = v;
    }
}

/* x_0 w_0 + x_1 w_1 (+ x_2 w_2 + x_3 w_3: m 2 or 4), unfused, in tap order: one vector of either
 * pass from its taps already loaded. */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__resize_vvec)(const dnnlk__vf *x, const dnnlk__vf *w, const int m) {
    dnnlk__vf acc = dnnlk__vf_mul(x[0], w[0]), p = dnnlk__vf_mul(x[1], w[1]);
    dnnlk__vf_nofuse(acc);
    dnnlk__vf_nofuse(p);
    acc = dnnlk__vf_add(acc, p);
    if (m == 4) {
        p = dnnlk__vf_mul(x[2], w[2]);
        dnnlk__vf_nofuse(p);
        acc = dnnlk__vf_add(acc, p);
        p = dnnlk__vf_mul(x[3], w[3]);
        dnnlk__vf_nofuse(p);
        acc = dnnlk__vf_add(acc, p);
    }
    return acc;
}

/* One phase of the periodic run at N consecutive groups: mi (2 or 4, a constant) unaligned loads
 * of the source from p, times the phase's weights, summed in tap order, unfused. */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__resize_hphase)(const float *p, const dnnlk__vf *w, const int mi) {
    dnnlk__vf x[4];
    x[0] = dnnlk__vf_loadu(p);
    x[1] = dnnlk__vf_loadu(p + 1);
    if (mi == 4) {
        x[2] = dnnlk__vf_loadu(p + 2);
        x[3] = dnnlk__vf_loadu(p + 3);
    }
    return DNNLK__SFX(dnnlk__resize_vvec)(x, w, mi);
}

/* The periodic run of the table (r->ps, r->pa, r->pn: an integer upscale) in the source's terms:
 * phase p's value at N consecutive groups is the sum over its taps of a plain load of N
 * consecutive source elements times one weight (no index tables, no permutes: the loads are
 * unaligned), the same products summed in the same order as dnnlk__resize_hcols_m's; the ps
 * phase vectors are then interleaved into ps N consecutive columns. ps and mi are constants
 * (2 or 4), so the loops are straight code. Returns the columns done: the whole run, or none
 * when it is shorter than a vector of groups. */
static DNNLK__FORCEINLINE int64_t DNNLK__SFX(dnnlk__resize_hperiod_m)(const dnnlk__resize_trow *r, const float *src,
                                                                     float *h, const int mi, const int ps) {
    const int64_t N = DNNLK__VF_N, cb = r->cb, pn = r->pn;
    const int32_t *xi = r->xi + r->pa;
    const float *xw = r->xw + r->pa;
    dnnlk__vf w[4][4]; /* ps phases of mi taps */
    const float *sp[4];
    float *const h0 = h + r->pa, *hp;
    int64_t g, gn;
    int p, i;
    if (pn < N) return 0;
    for (p = 0; p < ps; p++) {
        sp[p] = src + xi[p];
        for (i = 0; i < mi; i++) w[p][i] = dnnlk__vf_set1(xw[i * cb + p]);
    }
    /* the last vector of groups ends at the run's end, overlapping the one before (the same
     * values written again) */
    if (ps == 2 && sp[1] == sp[0] + 1) {
        /* phase 1's taps start one element after phase 0's (an x2 upscale's run from an even
         * column): mi + 1 loads serve both phases, not 2 mi. The loads pass through
         * dnnlk__vf_nofuse so the compiler keeps them in registers rather than folding each
         * use back into a multiply's memory operand (which loads again, split over two lines). */
        for (g = 0; g < pn; g = gn) {
            dnnlk__vf x[5], p0, p1;
            gn = g + N + N <= pn || g + N == pn ? g + N : pn - N;
            hp = h0 + g * 2;
            x[0] = dnnlk__vf_loadu(sp[0] + g);
            x[1] = dnnlk__vf_loadu(sp[0] + g + 1);
            x[2] = dnnlk__vf_loadu(sp[0] + g + 2);
            dnnlk__vf_nofuse(x[1]);
            dnnlk__vf_nofuse(x[2]);
            if (mi == 4) {
                x[3] = dnnlk__vf_loadu(sp[0] + g + 3);
                x[4] = dnnlk__vf_loadu(sp[0] + g + 4);
                dnnlk__vf_nofuse(x[3]);
            }
            p0 = DNNLK__SFX(dnnlk__resize_vvec)(x, w[0], mi);
            p1 = DNNLK__SFX(dnnlk__resize_vvec)(x + 1, w[1], mi);
            dnnlk__vf_storeu(hp, dnnlk__vf_ziplo(p0, p1));
            dnnlk__vf_storeu(hp + N, dnnlk__vf_ziphi(p0, p1));
        }
        return pn * 2;
    }
    for (g = 0; g < pn; g = gn) {
        gn = g + N + N <= pn || g + N == pn ? g + N : pn - N;
        hp = h0 + g * ps;
        const dnnlk__vf p0 = DNNLK__SFX(dnnlk__resize_hphase)(sp[0] + g, w[0], mi);
        const dnnlk__vf p1 = DNNLK__SFX(dnnlk__resize_hphase)(sp[1] + g, w[1], mi);
        if (ps == 2) {
            dnnlk__vf_storeu(hp, dnnlk__vf_ziplo(p0, p1));
            dnnlk__vf_storeu(hp + N, dnnlk__vf_ziphi(p0, p1));
        } else { /* zip(zip(p0, p2), zip(p1, p3)): p0 p1 p2 p3 per group */
            const dnnlk__vf p2 = DNNLK__SFX(dnnlk__resize_hphase)(sp[2] + g, w[2], mi);
            const dnnlk__vf p3 = DNNLK__SFX(dnnlk__resize_hphase)(sp[3] + g, w[3], mi);
            const dnnlk__vf al = dnnlk__vf_ziplo(p0, p2), ah = dnnlk__vf_ziphi(p0, p2);
            const dnnlk__vf bl = dnnlk__vf_ziplo(p1, p3), bh = dnnlk__vf_ziphi(p1, p3);
            dnnlk__vf_storeu(hp, dnnlk__vf_ziplo(al, bl));
            dnnlk__vf_storeu(hp + N, dnnlk__vf_ziphi(al, bl));
            dnnlk__vf_storeu(hp + 2 * N, dnnlk__vf_ziplo(ah, bh));
            dnnlk__vf_storeu(hp + 3 * N, dnnlk__vf_ziphi(ah, bh));
        }
    }
    return pn * ps;
}

/* Inner pass of one source row: the columns before the periodic run, the run, the rest. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__resize_hpass_m)(const dnnlk__resize_job *j, const dnnlk__resize_trow *r,
                                                                const char *row, float *h, const int mi) {
    const float *src = (const float *)(const void *)row;
    int64_t c = r->c0, done;
    if ((r->ps == 2 || r->ps == 4) && (mi == 2 || mi == 4)) {
        DNNLK__SFX(dnnlk__resize_hcols_m)(j, r, src, h, c, r->c0 + r->pa, mi);
        if (mi == 4) done = r->ps == 2 ? DNNLK__SFX(dnnlk__resize_hperiod_m)(r, src, h, 4, 2)
                                       : DNNLK__SFX(dnnlk__resize_hperiod_m)(r, src, h, 4, 4);
        else done = r->ps == 2 ? DNNLK__SFX(dnnlk__resize_hperiod_m)(r, src, h, 2, 2)
                               : DNNLK__SFX(dnnlk__resize_hperiod_m)(r, src, h, 2, 4);
        c = r->c0 + r->pa + done;
    }
    DNNLK__SFX(dnnlk__resize_hcols_m)(j, r, src, h, c, r->c1, mi);
}

/* Outer pass, one column: w_0 h_0[t] + w_1 h_1[t] + ... (unfused, in tap order), the one outer
 * level of dnnlk__resize_tap_at. */
static DNNLK__FORCEINLINE float DNNLK__SFX(dnnlk__resize_vcol)(const float *const *h, const float *w, const int m,
                                                             const int64_t t) {
    float v = h[0][t] * w[0];
    int i;
    DNNLK__NOFUSE(v);
    for (i = 1; i < m; i++) {
        float p = h[i][t] * w[i];
        DNNLK__NOFUSE(p);
        v = v + p;
    }
    return v;
}

/* Outer pass: output column c = dnnlk__resize_vcol of the rows h at c - c0; columns outside the
 * roi take extrapolation_value. two: a second output row dst2 (as equally aligned as r->dst, no
 * roi) from the same rows h with the weights w2, from the same loads (an x2 upscale's output
 * rows 2k + 1 and 2k + 2 read the same source rows). */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__resize_vpass_m)(const dnnlk__resize_job *j, const dnnlk__resize_trow *r,
                                                                const float *const *h, const float *w, const int m,
                                                                float *const dst2, const float *const w2,
                                                                const int two) {
    const int64_t N = DNNLK__VF_N, c0 = r->c0, c1 = r->c1;
    float *const dst = (float *)(void *)r->dst;
    int64_t c = c0;
    int stream = j->stream && !((uintptr_t)dst & 3) && !r->xout;
    if (stream)
        for (; c < c1 && ((uintptr_t)(dst + c) & (uintptr_t)(N * 4 - 1)); c++) {
            dst[c] = DNNLK__SFX(dnnlk__resize_vcol)(h, w, m, c - c0);
            if (two) dst2[c] = DNNLK__SFX(dnnlk__resize_vcol)(h, w2, m, c - c0);
        }
    if (!r->xout && (m == 2 || m == 4)) {
        /* the rows and weights in locals: the stores (may-alias vector types) would otherwise make
         * the compiler reload them from h and w every vector */
        const float *const h0 = h[0], *const h1 = h[1], *const h2 = h[m > 2 ? 2 : 0], *const h3 = h[m > 2 ? 3 : 0];
        dnnlk__vf wa[4], wb[4], x[4];
        int i;
        for (i = 0; i < m; i++) {
            wa[i] = dnnlk__vf_set1(w[i]);
            wb[i] = dnnlk__vf_set1(two ? w2[i] : w[i]);
        }
        for (; c + N <= c1; c += N) {
            const int64_t t = c - c0;
            x[0] = dnnlk__vf_loadu(h0 + t);
            x[1] = dnnlk__vf_loadu(h1 + t);
            if (m == 4) {
                x[2] = dnnlk__vf_loadu(h2 + t);
                x[3] = dnnlk__vf_loadu(h3 + t);
            }
            dnnlk__vf_store_dt(dst + c, dnnlk_f32, DNNLK__SFX(dnnlk__resize_vvec)(x, wa, m), stream);
            if (two) dnnlk__vf_store_dt(dst2 + c, dnnlk_f32, DNNLK__SFX(dnnlk__resize_vvec)(x, wb, m), stream);
        }
    } else if (!r->xout) {
        for (; c + N <= c1; c += N) {
            const int64_t t = c - c0;
            dnnlk__vf acc = dnnlk__vf_mul(dnnlk__vf_loadu(h[0] + t), dnnlk__vf_set1(w[0])), p;
            int i;
            dnnlk__vf_nofuse(acc);
            for (i = 1; i < m; i++) {
                p = dnnlk__vf_mul(dnnlk__vf_loadu(h[i] + t), dnnlk__vf_set1(w[i]));
                dnnlk__vf_nofuse(p);
                acc = dnnlk__vf_add(acc, p);
            }
            dnnlk__vf_store_dt(dst + c, dnnlk_f32, acc, stream);
        }
    }
    for (; c < c1; c++) {
        const float v = DNNLK__SFX(dnnlk__resize_vcol)(h, w, m, c - c0);
        if (r->xout && r->xout[c - c0]) memcpy(dst + c, j->extrap, 4);
        else dst[c] = v;
        if (two) dst2[c] = DNNLK__SFX(dnnlk__resize_vcol)(h, w2, m, c - c0);
    }
}

/* The passes with the common tap counts as constants (2: linear, 4: cubic, x0.5 antialiased
 * linear), so their loops unroll. */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__resize_hpass)(const dnnlk__resize_job *j, const dnnlk__resize_trow *r,
                                                           const char *row, float *h) {
    if (r->mi == 4) DNNLK__SFX(dnnlk__resize_hpass_m)(j, r, row, h, 4);
    else if (r->mi == 2) DNNLK__SFX(dnnlk__resize_hpass_m)(j, r, row, h, 2);
    else DNNLK__SFX(dnnlk__resize_hpass_m)(j, r, row, h, r->mi);
}

/* dst2 non-NULL: a second output row, weights w2 (see dnnlk__resize_vpass_m; m 2 or 4). */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__resize_vpass)(const dnnlk__resize_job *j, const dnnlk__resize_trow *r,
                                                           const float *const *h, const float *w, int m,
                                                           float *dst2, const float *w2) {
    if (dst2) {
        if (m == 4) DNNLK__SFX(dnnlk__resize_vpass_m)(j, r, h, w, 4, dst2, w2, 1);
        else DNNLK__SFX(dnnlk__resize_vpass_m)(j, r, h, w, 2, dst2, w2, 1);
    } else if (m == 4) {
        DNNLK__SFX(dnnlk__resize_vpass_m)(j, r, h, w, 4, NULL, NULL, 0);
    } else if (m == 2) {
        DNNLK__SFX(dnnlk__resize_vpass_m)(j, r, h, w, 2, NULL, NULL, 0);
    } else {
        DNNLK__SFX(dnnlk__resize_vpass_m)(j, r, h, w, m, NULL, NULL, 0);
    }
}
