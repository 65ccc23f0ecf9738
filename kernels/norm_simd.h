/* dnnl_kernels — norm_simd.h: the row kernels layer_norm and l2_norm share (row statistics, row
 * output, strided groups), written once and compiled at every level by simd_instantiate.h from
 * norm_common.h (no include guard); layer_norm_simd.h and l2_norm_simd.h build their rows on them.
 *
 * The canonical order (see norm_common.h) is defined on 16 lanes; an ISA with W lanes holds one 16-lane
 * "virtual vector" in K = 16/W registers, so every ISA adds the same numbers in the same order.
 * No multiply is fused into an add (dnnlk__vf_nofuse), since SSE4.1 cannot fuse. At the scalar
 * level (one lane) the same code is the canonical order written element by element. */

/* ---- row statistics and row output, shared by layer_norm (center: 1) and l2_norm (center: 0) ---- */

/* One W-lane register slice of a canonical chunk: the 8 values of each lane at p + 16·v
 * elements; layer_norm: d = x − m, q = d², l2_norm: q = x²; each tree added into its lane. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__norm_slice)(const char *p, int dt, int center, dnnlk__vf vm,
                                                             dnnlk__vf *accd, dnnlk__vf *accq) {
    const size_t es = dt == dnnlk_f32 ? 4 : 2;
#define DNNLK__NORM_V(v)                                                       \
    dnnlk__vf d##v = dnnlk__vf_load_dt(p + 16 * v * es, dt), q##v; \
    if (center) d##v = dnnlk__vf_sub(d##v, vm);                               \
    q##v = dnnlk__vf_mul(d##v, d##v);                                         \
    dnnlk__vf_nofuse(q##v);
    DNNLK__NORM_V(0) DNNLK__NORM_V(1) DNNLK__NORM_V(2) DNNLK__NORM_V(3)
    DNNLK__NORM_V(4) DNNLK__NORM_V(5) DNNLK__NORM_V(6) DNNLK__NORM_V(7)
#undef DNNLK__NORM_V
    if (center)
        *accd = dnnlk__vf_add(*accd, dnnlk__vf_add(dnnlk__vf_add(dnnlk__vf_add(d0, d1), dnnlk__vf_add(d2, d3)),
                                                   dnnlk__vf_add(dnnlk__vf_add(d4, d5), dnnlk__vf_add(d6, d7))));
    *accq = dnnlk__vf_add(*accq, dnnlk__vf_add(dnnlk__vf_add(dnnlk__vf_add(q0, q1), dnnlk__vf_add(q2, q3)),
                                               dnnlk__vf_add(dnnlk__vf_add(q4, q5), dnnlk__vf_add(q6, q7))));
}

/* The 16 lanes of one chunk, in 16/W register slices. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__norm_chunk)(const char *p, int dt, int center, dnnlk__vf vm,
                                                             dnnlk__vf *d, dnnlk__vf *q) {
    const size_t es = dt == dnnlk_f32 ? 4 : 2;
    int k;
    for (k = 0; k < 16 / DNNLK__VF_N; k++)
        DNNLK__SFX(dnnlk__norm_slice)(p + (size_t)(k * DNNLK__VF_N) * es, dt, center, vm, d + k, q + k);
}

/* The last partial chunk as f32, padded with `pad` (the shift m, so d = m − m = +0 there, as the
 * canonical order's padding; 0 for l2). */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__norm_tail)(const char *p, int dt, int64_t left, float pad,
                                                            float *buf) {
    int64_t k;
    for (k = 0; k < DNNLK__NORM_CHUNK; k++) buf[k] = k < left ? dnnlk__norm_ld(p + k * (dt == dnnlk_f32 ? 4 : 2), dt) : pad;
}

/* A row being written with a row's m, r, s: y = ((x − m) − r)·s [·w] [+ b] (layer_norm) or x·s
 * (l2_norm). */
typedef struct DNNLK__SFX(dnnlk__norm_out) {
    const char *x;
    char *y;
    const float *w, *b;
    dnnlk__vf vm, vr, vs;
} DNNLK__SFX(dnnlk__norm_out);

/* The output formula on one vector of x (w + i and b + i: nl weights and biases, read only where
 * present; nl is DNNLK__VF_N, a constant, except in the heads and tails): every element, the heads,
 * tails and strided groups included, goes through these operations in this order. */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__norm_formula)(const DNNLK__SFX(dnnlk__norm_out) *a, dnnlk__vf u,
                                                                    const float *w, const float *b, int64_t i,
                                                                    int64_t nl, int center, int has_w, int has_b) {
#define DNNLK__NORM_LD(p) (nl == DNNLK__VF_N ? dnnlk__vf_loadu(p) : dnnlk__vf_loadu_n((p), (size_t)nl))
    if (center) u = dnnlk__vf_sub(dnnlk__vf_sub(u, a->vm), a->vr);
    u = dnnlk__vf_mul(u, a->vs);
    if (has_w) u = dnnlk__vf_mul(u, DNNLK__NORM_LD(w + i));
    if (has_b) {
        dnnlk__vf_nofuse(u);
        u = dnnlk__vf_add(u, DNNLK__NORM_LD(b + i));
    }
#undef DNNLK__NORM_LD
    return u;
}

/* Elements [i, i + cnt), cnt < DNNLK__VF_N: the heads and tails of the vector loop, as one partial
 * vector (f32 straight from and to the row, half types through a buffer). Kept out of line: one
 * copy serves every row variant. */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__norm_out_part)(const DNNLK__SFX(dnnlk__norm_out) *a, int64_t i,
                                                            int64_t cnt, int dt, int center, int has_w, int has_b) {
    const size_t es = dt == dnnlk_f32 ? 4 : 2;
    float buf[DNNLK__VF_N] = {0}; /* only cnt lanes are read, but gcc 12 -O2 cannot see that
                                   * through a masked load (-Wmaybe-uninitialized) */
    dnnlk__vf u;
    int64_t k;
    if (dt == dnnlk_f32) {
        u = dnnlk__vf_loadu_n((const float *)(const void *)(a->x + (size_t)i * 4), (size_t)cnt);
    } else {
        for (k = 0; k < cnt; k++) buf[k] = dnnlk__norm_ld(a->x + (size_t)(i + k) * es, dt);
        u = dnnlk__vf_loadu_n(buf, (size_t)cnt);
    }
    u = DNNLK__SFX(dnnlk__norm_formula)(a, u, a->w, a->b, i, cnt, center, has_w, has_b);
    if (dt == dnnlk_f32) {
        dnnlk__vf_storeu_n((float *)(void *)(a->y + (size_t)i * 4), u, (size_t)cnt);
    } else {
        dnnlk__vf_storeu(buf, u);
        for (k = 0; k < cnt; k++) dnnlk__store_from_f32(a->y + (size_t)(i + k) * es, (dnnlk_dtype)dt, buf[k]);
    }
}

/* Starts writing row (x, y) of n elements; returns the element where its vector loop starts. nt:
 * f32 output streamed past the caches (y 4-byte aligned), so the head up to a vector boundary
 * is written apart. w and b: layer_norm's (contiguous; unused when absent). */
static DNNLK__FORCEINLINE int64_t DNNLK__SFX(dnnlk__norm_out_begin)(DNNLK__SFX(dnnlk__norm_out) *a, const char *x,
                                                                    char *y, int64_t n, const dnnlk__norm_row *o,
                                                                    const float *w, const float *b, int dt,
                                                                    int center, int has_w, int has_b, int nt) {
    int64_t h = 0;
    a->x = x;
    a->y = y;
    a->w = w;
    a->b = b;
    a->vm = dnnlk__vf_set1(o->m);
    a->vr = dnnlk__vf_set1(o->r);
    a->vs = dnnlk__vf_set1(o->s);
    if (nt) {
        h = (int64_t)((0u - (unsigned)(uintptr_t)y) & (DNNLK__VF_N * 4 - 1)) / 4;
        if (h > n) h = n;
        if (h > 0) DNNLK__SFX(dnnlk__norm_out_part)(a, 0, h, dt, center, has_w, has_b);
    }
    return h;
}

/* The full vectors from element i up to `end`; returns where they stopped. */
static DNNLK__FORCEINLINE int64_t DNNLK__SFX(dnnlk__norm_out_run)(const DNNLK__SFX(dnnlk__norm_out) *a, int64_t i,
                                                                  int64_t end, int dt, int center, int has_w,
                                                                  int has_b, int nt) {
    const size_t es = dt == dnnlk_f32 ? 4 : 2;
    for (; i + DNNLK__VF_N <= end; i += DNNLK__VF_N) {
        dnnlk__vf u = DNNLK__SFX(dnnlk__norm_formula)(a, dnnlk__vf_load_dt(a->x + (size_t)i * es, dt), a->w, a->b, i,
                                                      DNNLK__VF_N, center, has_w, has_b);
        dnnlk__vf_store_dt(a->y + (size_t)i * es, dt, u, nt);
    }
    return i;
}

/* The rest of the row from element i: full vectors, then the tail. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__norm_out_end)(const DNNLK__SFX(dnnlk__norm_out) *a, int64_t i,
                                                              int64_t n, int dt, int center, int has_w, int has_b,
                                                              int nt) {
    i = DNNLK__SFX(dnnlk__norm_out_run)(a, i, n, dt, center, has_w, has_b, nt);
    if (i < n) DNNLK__SFX(dnnlk__norm_out_part)(a, i, n - i, dt, center, has_w, has_b);
}

/* A whole row written alone. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__norm_apply)(const char *x, char *y, int64_t n, const dnnlk__norm_row *o,
                                                             const float *w, const float *b, int dt, int center,
                                                             int has_w, int has_b, int nt) {
    DNNLK__SFX(dnnlk__norm_out) a;
    int64_t i = DNNLK__SFX(dnnlk__norm_out_begin)(&a, x, y, n, o, w, b, dt, center, has_w, has_b, nt);
    DNNLK__SFX(dnnlk__norm_out_end)(&a, i, n, dt, center, has_w, has_b, nt);
}

/* Lane sums of d = x − m and d² (layer_norm; l2_norm: of x² only, into lq) over a contiguous
 * row, in the canonical order. With `out` (NULL or not, a constant after inlining), another row of
 * the same length is written in the same loop, a chunk at a time from its element oi: reading
 * one row while writing the other keeps the read and the write streams busy together (measured
 * from memory, median of 15 interleaved rounds: a read pass and a write pass in turn per row ran
 * 12-26% slower, the same compute, on layer_norm [4096, 768] and [2048, 4096] and l2_norm
 * [4096, 768], one and two threads). */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__norm_stats)(const char *x, int64_t n, float m, float *ld, float *lq,
                                                             const DNNLK__SFX(dnnlk__norm_out) *out, int64_t oi,
                                                             int dt, int center, int has_w, int has_b, int nt) {
    const size_t es = dt == dnnlk_f32 ? 4 : 2;
    dnnlk__vf vm = dnnlk__vf_set1(m), d[16 / DNNLK__VF_N], q[16 / DNNLK__VF_N];
    int64_t i = 0;
    int k;
    for (k = 0; k < 16 / DNNLK__VF_N; k++) d[k] = q[k] = dnnlk__vf_zero();
    for (; i + DNNLK__NORM_CHUNK <= n; i += DNNLK__NORM_CHUNK) {
        DNNLK__SFX(dnnlk__norm_chunk)(x + (size_t)i * es, dt, center, vm, d, q);
        if (out && oi + DNNLK__NORM_CHUNK <= n)
            oi = DNNLK__SFX(dnnlk__norm_out_run)(out, oi, oi + DNNLK__NORM_CHUNK, dt, center, has_w, has_b, nt);
    }
    if (out) DNNLK__SFX(dnnlk__norm_out_end)(out, oi, n, dt, center, has_w, has_b, nt);
    if (i < n) {
        float buf[DNNLK__NORM_CHUNK];
        DNNLK__SFX(dnnlk__norm_tail)(x + (size_t)i * es, dt, n - i, m, buf);
        DNNLK__SFX(dnnlk__norm_chunk)((const char *)buf, dnnlk_f32, center, vm, d, q);
    }
    for (k = 0; k < 16 / DNNLK__VF_N; k++) {
        if (center) dnnlk__vf_storeu(ld + k * DNNLK__VF_N, d[k]);
        dnnlk__vf_storeu(lq + k * DNNLK__VF_N, q[k]);
    }
}

/* ---- groups whose elements are not contiguous (a strided or broadcast operand): the same
 * canonical order and the same formula, the elements gathered into buffers and scattered back
 * (one copy per level, not inlined: dtype and operands vary at run time here) ---- */

/* Lane sums of a group walked by `inner` from base (operand 0: x), as dnnlk__norm_stats: each
 * chunk of 128 gathered as f32, padded with m (l2_norm: 0). ld: unused when !center. */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__norm_stats_strided)(const dnnlk__loop *inner, void *const *base,
                                                                  int64_t n, int dt, int center, float m, float *ld,
                                                                  float *lq) {
    dnnlk__norm_stream st;
    char *p[4];
    float buf[DNNLK__NORM_CHUNK];
    dnnlk__vf vm = dnnlk__vf_set1(m), d[16 / DNNLK__VF_N], q[16 / DNNLK__VF_N];
    int64_t i, k;
    for (k = 0; k < 16 / DNNLK__VF_N; k++) d[k] = q[k] = dnnlk__vf_zero();
    dnnlk__norm_stream_init(&st, inner, base, 0);
    for (i = 0; i < n; i += DNNLK__NORM_CHUNK) {
        for (k = 0; k < DNNLK__NORM_CHUNK; k++) {
            buf[k] = m;
            if (i + k < n) {
                dnnlk__norm_stream_next(&st, p);
                buf[k] = dnnlk__norm_ld(p[0], dt);
            }
        }
        DNNLK__SFX(dnnlk__norm_chunk)((const char *)buf, dnnlk_f32, center, vm, d, q);
    }
    for (k = 0; k < 16 / DNNLK__VF_N; k++) {
        if (center) dnnlk__vf_storeu(ld + k * DNNLK__VF_N, d[k]);
        dnnlk__vf_storeu(lq + k * DNNLK__VF_N, q[k]);
    }
}

/* Writes a group walked by `inner` from base (operands x, y, then layer_norm's w, b) with o. */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__norm_out_strided)(const dnnlk__loop *inner, void *const *base,
                                                                int64_t n, int dt, const dnnlk__norm_row *o,
                                                                int center, int has_w, int has_b) {
    DNNLK__SFX(dnnlk__norm_out) a;
    dnnlk__norm_stream st;
    char *p[4], *yp[DNNLK__VF_N];
    float xb[DNNLK__VF_N], wb[DNNLK__VF_N], bb[DNNLK__VF_N];
    int64_t i, k;
    a.x = NULL;
    a.y = NULL;
    a.w = a.b = NULL;
    a.vm = dnnlk__vf_set1(o->m);
    a.vr = dnnlk__vf_set1(o->r);
    a.vs = dnnlk__vf_set1(o->s);
    dnnlk__norm_stream_init(&st, inner, base, 0);
    for (i = 0; i < n; i += DNNLK__VF_N) {
        int64_t cnt = n - i < DNNLK__VF_N ? n - i : DNNLK__VF_N;
        dnnlk__vf u;
        for (k = 0; k < DNNLK__VF_N; k++) {
            xb[k] = wb[k] = bb[k] = 0;
            yp[k] = NULL;
            if (k < cnt) {
                dnnlk__norm_stream_next(&st, p);
                xb[k] = dnnlk__norm_ld(p[0], dt);
                yp[k] = p[1];
                if (has_w) memcpy(&wb[k], p[2], 4);
                if (has_b) memcpy(&bb[k], p[3], 4);
            }
        }
        u = DNNLK__SFX(dnnlk__norm_formula)(&a, dnnlk__vf_loadu(xb), wb, bb, 0, DNNLK__VF_N, center, has_w,
                                            has_b);
        dnnlk__vf_storeu(xb, u);
        for (k = 0; k < cnt; k++) dnnlk__store_from_f32(yp[k], (dnnlk_dtype)dt, xb[k]);
    }
}
