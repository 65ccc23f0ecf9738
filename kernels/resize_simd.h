/* dnnl_kernels — resize_simd.h: the SIMD body of resize.h, compiled once per ISA by
 * simd_instantiate.h (no include guard). Each lane does exactly the scalar path's arithmetic
 * (products kept unfused by dnnlk__vf_nofuse), so every ISA gives the scalar path's bits; heads
 * and tails of rows use the scalar element code itself.
 *
 * Along a resized innermost axis (f32, contiguous), the N outputs of a vector read source indices
 * that are non-decreasing; when they span fewer than N elements (always, when upscaling), one
 * window load at the first index and an in-register permute fetch them. Otherwise a gather. */


static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__rs_lerp)(dnnlk__vf a, dnnlk__vf w0, dnnlk__vf b, dnnlk__vf w1) {
    dnnlk__vf p = dnnlk__vf_mul(a, w0), q = dnnlk__vf_mul(b, w1);
    dnnlk__vf_nofuse(p);
    dnnlk__vf_nofuse(q);
    return dnnlk__vf_add(p, q);
}

/* Lanes of w picked by rel (each in [0, N)). */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__rs_perm)(dnnlk__vf w, dnnlk__vi rel) {
#if DNNLK__ISA == 3
    return _mm512_permutexvar_ps(rel, w);
#elif DNNLK__ISA == 2
    return _mm256_permutevar8x32_ps(w, rel);
#else
    /* byte shuffle: lane l takes bytes 4*rel .. 4*rel+3 */
    __m128i ctl = _mm_add_epi32(_mm_mullo_epi32(rel, _mm_set1_epi32(0x04040404)), _mm_set1_epi32(0x03020100));
    return _mm_castsi128_ps(_mm_shuffle_epi8(_mm_castps_si128(w), ctl));
#endif
}

static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__rs_gather)(const float *p, const int32_t *idx) {
#if DNNLK__ISA == 3
    return _mm512_i32gather_ps(_mm512_loadu_si512((const void *)idx), p, 4);
#elif DNNLK__ISA == 2
    return _mm256_i32gather_ps(p, _mm256_loadu_si256((const __m256i *)(const void *)idx), 4);
#else
    return _mm_setr_ps(p[idx[0]], p[idx[1]], p[idx[2]], p[idx[3]]);
#endif
}

/* Source window of row p starting at base: N elements, fewer at the row's end (cnt). */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__rs_window)(const float *p, int64_t cnt) {
    return cnt >= DNNLK__VF_N ? dnnlk__vf_loadu(p) : dnnlk__vf_loadu_n(p, (size_t)cnt);
}

static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__rs_store_f32)(float *p, dnnlk__vf v, int stream) {
    if (stream) dnnlk__vf_stream(p, v);
    else dnnlk__vf_storeu(p, v);
}

/* ---- linear along a resized innermost axis, f32, contiguous source and output rows ---- */

/* Value of one corner row (x-interpolated) for the N columns at table offset t. */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__rs_xval)(const float *rowp, int win, int32_t base,
                                                               dnnlk__vi rel0, dnnlk__vi rel1, int64_t cnt,
                                                               const int32_t *x0, const int32_t *x1,
                                                               dnnlk__vf w0, dnnlk__vf w1) {
    dnnlk__vf a, b;
    if (win) {
        dnnlk__vf w = DNNLK__SFX(dnnlk__rs_window)(rowp + base, cnt);
        a = DNNLK__SFX(dnnlk__rs_perm)(w, rel0);
        b = DNNLK__SFX(dnnlk__rs_perm)(w, rel1);
    } else {
        a = DNNLK__SFX(dnnlk__rs_gather)(rowp, x0);
        b = DNNLK__SFX(dnnlk__rs_gather)(rowp, x1);
    }
    return DNNLK__SFX(dnnlk__rs_lerp)(a, w0, b, w1);
}

static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__rs_linear_x)(const dnnlk__resize_job *j, const dnnlk__resize_row *r,
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
#define DNNLK__RS_XV(p) DNNLK__SFX(dnnlk__rs_xval)((p), win, base, rel0, rel1, cnt, r->x0 + t, r->x1 + t, w0, w1)
        if (k == 0) {
            v = DNNLK__RS_XV(src);
        } else if (k == 1) {
            dnnlk__vf top = DNNLK__RS_XV(src);
            dnnlk__vf bot = DNNLK__RS_XV((const float *)(const void *)(r->src + r->delta[0]));
            v = DNNLK__SFX(dnnlk__rs_lerp)(top, dnnlk__vf_set1(r->w0[0]), bot, dnnlk__vf_set1(r->w1[0]));
        } else {
            dnnlk__vf stack[DNNLK_MAX_NDIMS + 1];
            int64_t q;
            for (q = 0; q < nc; q++) {
                const char *rowp = dnnlk__resize_corner(r, k, q);
                int b;
                v = DNNLK__RS_XV((const float *)(const void *)rowp);
                for (b = 0; (q >> b) & 1; b++)
                    v = DNNLK__SFX(dnnlk__rs_lerp)(stack[b], dnnlk__vf_set1(r->w0[b]), v, dnnlk__vf_set1(r->w1[b]));
                stack[b] = v;
            }
            v = stack[k];
        }
#undef DNNLK__RS_XV
        DNNLK__SFX(dnnlk__rs_store_f32)(dst + c, v, stream);
    }
    for (; c < r->c1; c++) dst[c] = dnnlk__resize_linear_at(j, r, c);
}

/* ---- nearest along a resized innermost axis, f32, contiguous rows ---- */

/* Columns [c0, c1) of one output row, and of a second one (two: dst2, the same values) from the
 * same registers. half >= 0: the block's table is an x2 upscale (x0[t] = x0[0] + ((t + half) >> 1)),
 * so 2N outputs come from two overlapping N-element windows and one fixed permute each. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__rs_nearest_run)(const dnnlk__resize_job *j, const dnnlk__resize_row *r,
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
        DNNLK__SFX(dnnlk__rs_store_f32)(dst + (p), (v), stream);       \
        if (two) DNNLK__SFX(dnnlk__rs_store_f32)(dst2 + (p), (v), stream); \
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
        int32_t rel[DNNLK__VF_N];
        dnnlk__vi vrel;
        int l;
        for (l = 0; l < N; l++) rel[l] = (l + p) >> 1;
        vrel = dnnlk__vi_loadu(rel);
        for (; c + 2 * N <= c1; c += 2 * N, b += N) {
            dnnlk__vf w0 = DNNLK__SFX(dnnlk__rs_window)(src + b, in - b);
            dnnlk__vf w1 = DNNLK__SFX(dnnlk__rs_window)(src + b + N / 2, in - b - N / 2);
            dnnlk__vf v0 = DNNLK__SFX(dnnlk__rs_perm)(w0, vrel), v1 = DNNLK__SFX(dnnlk__rs_perm)(w1, vrel);
            DNNLK__RS_PUT(c, v0);
            DNNLK__RS_PUT(c + N, v1);
        }
    }
    for (; c + N <= c1; c += N) {
        const int32_t base = x0[c];
        dnnlk__vf v;
        if (x0[c + N - 1] - base < N) {
            dnnlk__vi rel = dnnlk__vi_sub(dnnlk__vi_loadu(x0 + c), dnnlk__vi_set1(base));
            v = DNNLK__SFX(dnnlk__rs_perm)(DNNLK__SFX(dnnlk__rs_window)(src + base, in - base), rel);
        } else {
            v = DNNLK__SFX(dnnlk__rs_gather)(src, x0 + c);
        }
        DNNLK__RS_PUT(c, v);
    }
#undef DNNLK__RS_PUT
    for (; c < c1; c++) {
        dst[c] = src[x0[c]];
        if (two) dst2[c] = src[x0[c]];
    }
}

static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__rs_nearest_x)(const dnnlk__resize_job *j, const dnnlk__resize_row *r) {
    float *const dst = (float *)(void *)r->dst, *const dst2 = (float *)(void *)r->dst2;
    const uintptr_t vmask = (uintptr_t)(DNNLK__VF_N * 4 - 1);
    /* two rows share the aligned head only when they are equally aligned */
    if (dst2 && !(((uintptr_t)dst ^ (uintptr_t)dst2) & vmask)) {
        if (r->half >= 0) DNNLK__SFX(dnnlk__rs_nearest_run)(j, r, dst, dst2, 1, r->half);
        else DNNLK__SFX(dnnlk__rs_nearest_run)(j, r, dst, dst2, 1, -1);
        return;
    }
    if (r->half >= 0) DNNLK__SFX(dnnlk__rs_nearest_run)(j, r, dst, dst, 0, r->half);
    else DNNLK__SFX(dnnlk__rs_nearest_run)(j, r, dst, dst, 0, -1);
    if (dst2) {
        if (r->half >= 0) DNNLK__SFX(dnnlk__rs_nearest_run)(j, r, dst2, dst2, 0, r->half);
        else DNNLK__SFX(dnnlk__rs_nearest_run)(j, r, dst2, dst2, 0, -1);
    }
}

/* ---- linear with the innermost axis not resized (NHWC-style): vectors over channels ---- */

static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__rs_load)(const char *p, dnnlk_dtype t) {
    if (t == dnnlk_f32) return dnnlk__vf_loadu((const float *)(const void *)p);
    if (t == dnnlk_bf16) return dnnlk__vf_load_bf16((const uint16_t *)(const void *)p);
    if (t == dnnlk_f16) return dnnlk__vf_load_f16((const uint16_t *)(const void *)p);
    return dnnlk__vi_to_vf(dnnlk__vi_load_i8(p, 0));
}

static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__rs_store)(char *p, dnnlk_dtype t, dnnlk__vf v, int stream) {
    if (t == dnnlk_f32) {
        DNNLK__SFX(dnnlk__rs_store_f32)((float *)(void *)p, v, stream);
    } else if (t == dnnlk_bf16) {
        dnnlk__vf_store_bf16((uint16_t *)(void *)p, v);
    } else if (t == dnnlk_f16) {
        dnnlk__vf_store_f16((uint16_t *)(void *)p, v);
    } else {
        v = dnnlk__vf_round_even(v);
        v = dnnlk__vf_min(dnnlk__vf_max(v, dnnlk__vf_zero()), dnnlk__vf_set1(255.0f));
        DNNLK__SFX(dnnlk__q8_store1)(p, dnnlk__vf_to_vi_trunc(v));
    }
}

static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__rs_linear_c)(const dnnlk__resize_job *j, const dnnlk__resize_row *r,
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
            v = DNNLK__SFX(dnnlk__rs_load)(r->src + c * es, dt);
        } else if (k == 1) {
            v = DNNLK__SFX(dnnlk__rs_lerp)(DNNLK__SFX(dnnlk__rs_load)(r->src + c * es, dt), dnnlk__vf_set1(r->w0[0]),
                                           DNNLK__SFX(dnnlk__rs_load)(r->src + r->delta[0] + c * es, dt),
                                           dnnlk__vf_set1(r->w1[0]));
        } else {
            dnnlk__vf stack[DNNLK_MAX_NDIMS + 1];
            int64_t q;
            for (q = 0; q < nc; q++) {
                const char *rowp = dnnlk__resize_corner(r, k, q);
                int b;
                v = DNNLK__SFX(dnnlk__rs_load)(rowp + c * es, dt);
                for (b = 0; (q >> b) & 1; b++)
                    v = DNNLK__SFX(dnnlk__rs_lerp)(stack[b], dnnlk__vf_set1(r->w0[b]), v, dnnlk__vf_set1(r->w1[b]));
                stack[b] = v;
            }
            v = stack[k];
        }
        DNNLK__SFX(dnnlk__rs_store)(r->dst + c * es, dt, v, stream);
    }
    for (; c < r->c1; c++) dnnlk__resize_store(r->dst + c * es, dt, dnnlk__resize_linear_at(j, r, c));
}

/* ---- one row: pick the path ---- */

static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__resize_row)(const dnnlk__resize_job *j, const dnnlk__resize_row *r) {
    const dnnlk__resize_axis *ia = &j->ax[j->n - 1];
    if (ia->os == 1 && ia->is == 1) {
        if (ia->resized && j->dt == dnnlk_f32) {
            if (!j->linear) DNNLK__SFX(dnnlk__rs_nearest_x)(j, r);
            else if (r->k == 0) DNNLK__SFX(dnnlk__rs_linear_x)(j, r, 0);
            else if (r->k == 1) DNNLK__SFX(dnnlk__rs_linear_x)(j, r, 1);
            else DNNLK__SFX(dnnlk__rs_linear_x)(j, r, r->k);
            return;
        }
        if (!ia->resized) {
            if (!j->linear) {
                memcpy(r->dst + r->c0 * j->es, r->src + r->c0 * j->es, (size_t)((r->c1 - r->c0) * j->es));
                return;
            }
#define DNNLK__RS_C(DT)                                                    \
    do {                                                                   \
        if (r->k == 1) DNNLK__SFX(dnnlk__rs_linear_c)(j, r, DT, 1);        \
        else if (r->k == 2) DNNLK__SFX(dnnlk__rs_linear_c)(j, r, DT, 2);   \
        else DNNLK__SFX(dnnlk__rs_linear_c)(j, r, DT, r->k);               \
    } while (0)
            switch (j->dt) {
            case dnnlk_f32: DNNLK__RS_C(dnnlk_f32); break;
            case dnnlk_bf16: DNNLK__RS_C(dnnlk_bf16); break;
            case dnnlk_f16: DNNLK__RS_C(dnnlk_f16); break;
            default: DNNLK__RS_C(dnnlk_u8); break;
            }
#undef DNNLK__RS_C
            return;
        }
    }
    dnnlk__resize_row_scalar(j, r);
}

