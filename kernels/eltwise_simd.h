/* dnnl_kernels — eltwise_simd.h: the erf / gelu kernel body (no include guard; see eltwise.h),
 * compiled at every level, the scalar one included. */


static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__elt_apply)(dnnlk__vf x, int op) {
    if (op == DNNLK__ELT_ERF) return DNNLK__SFX(dnnlk__vm_erf)(x);
    if (op == DNNLK__ELT_GELU_ERF) return DNNLK__SFX(dnnlk__vm_gelu_erf)(x);
    return DNNLK__SFX(dnnlk__vm_gelu_tanh)(x);
}

/* Two vectors per iteration: two independent chains cover the FMA / permute latency (four measured
 * no faster, and gelu_erf spilled more: its tables and constants nearly fill the registers). */
#define DNNLK__ELT_STEP(i, STORE)                                                                 \
    do {                                                                                          \
        dnnlk__vf a0 = dnnlk__vf_loadu(x + (i)), a1 = dnnlk__vf_loadu(x + (i) + DNNLK__VF_N);      \
        a0 = DNNLK__SFX(dnnlk__elt_apply)(a0, op);                                               \
        a1 = DNNLK__SFX(dnnlk__elt_apply)(a1, op);                                               \
        STORE(y + (i), a0);                                                                       \
        STORE(y + (i) + DNNLK__VF_N, a1);                                                         \
    } while (0)

/* y[i] = op(x[i]) over contiguous f32; x == y allowed. nt: stream the aligned body of y, and
 * request x DNNLK_ELT_PF_BYTES ahead into L2 (from DRAM with streaming stores the hardware
 * prefetchers alone left a single thread's time near compute + memory instead of the larger of
 * the two; an L1 prefetch would hold a fill buffer the streaming stores need). */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__elt_f32)(const float *x, float *y, size_t n, int op, int nt) {
    size_t i = 0;
    if (nt) {
        size_t head = (size_t)((64 - ((uintptr_t)y & 63)) & 63) / sizeof(float);
        if ((uintptr_t)y % sizeof(float) == 0 && head < n) {
            /* up to 15 elements to the line boundary: several vectors below AVX-512 */
            for (i = 0; i < head; i += DNNLK__VF_N) {
                size_t m = head - i < DNNLK__VF_N ? head - i : DNNLK__VF_N;
                dnnlk__vf_storeu_n(y + i, DNNLK__SFX(dnnlk__elt_apply)(dnnlk__vf_loadu_n(x + i, m), op), m);
            }
            for (i = head; i + 2 * DNNLK__VF_N <= n; i += 2 * DNNLK__VF_N) {
                dnnlk__vec_prefetch_l2((const char *)(x + i) + DNNLK_ELT_PF_BYTES, 2 * DNNLK__VF_N * sizeof(float));
                DNNLK__ELT_STEP(i, dnnlk__vf_stream);
            }
        }
    }
    for (; i + 2 * DNNLK__VF_N <= n; i += 2 * DNNLK__VF_N) DNNLK__ELT_STEP(i, dnnlk__vf_storeu);
    for (; i < n; i += DNNLK__VF_N) {
        size_t m = n - i < DNNLK__VF_N ? n - i : DNNLK__VF_N;
        if (m == DNNLK__VF_N) dnnlk__vf_storeu(y + i, DNNLK__SFX(dnnlk__elt_apply)(dnnlk__vf_loadu(x + i), op));
        else dnnlk__vf_storeu_n(y + i, DNNLK__SFX(dnnlk__elt_apply)(dnnlk__vf_loadu_n(x + i, m), op), m);
    }
}
#undef DNNLK__ELT_STEP

static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__elt_rows)(const dnnlk__elt_ctx *c, int64_t begin, int64_t end, int op) {
    dnnlk__loop_iter it;
    char *row[2];
    int64_t n;
    int64_t so = dnnlk__row_stride(&c->plan, 0), si = dnnlk__row_stride(&c->plan, 1);
    int fast = c->in_dt == dnnlk_f32 && c->out_dt == dnnlk_f32 && so == 4 && si == 4;
    dnnlk__iter_init(&it, &c->plan, c->base, begin, end);
    while ((n = dnnlk__iter_next(&it, row)) > 0) {
        if (fast) {
            DNNLK__SFX(dnnlk__elt_f32)((const float *)(const void *)row[1], (float *)(void *)row[0], (size_t)n, op, c->nt);
        } else {
            float buf[DNNLK__ELT_CHUNK];
            int64_t j;
            for (j = 0; j < n; j += DNNLK__ELT_CHUNK) {
                size_t m = (size_t)(n - j < DNNLK__ELT_CHUNK ? n - j : DNNLK__ELT_CHUNK);
                DNNLK__SFX(dnnlk__gather_f32)(buf, row[1] + j * si, si, c->in_dt, m);
                DNNLK__SFX(dnnlk__elt_f32)(buf, buf, m, op, 0);
                DNNLK__SFX(dnnlk__scatter_f32)(row[0] + j * so, so, c->out_dt, buf, m);
            }
        }
    }
    if (c->nt) dnnlk__vec_sfence();
}

static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__elt_part)(const dnnlk__elt_ctx *c, int64_t begin, int64_t end) {
    /* One instance per op, so the polynomial constants stay in registers across the loop. */
    if (c->op == DNNLK__ELT_ERF) DNNLK__SFX(dnnlk__elt_rows)(c, begin, end, DNNLK__ELT_ERF);
    else if (c->op == DNNLK__ELT_GELU_ERF) DNNLK__SFX(dnnlk__elt_rows)(c, begin, end, DNNLK__ELT_GELU_ERF);
    else DNNLK__SFX(dnnlk__elt_rows)(c, begin, end, DNNLK__ELT_GELU_TANH);
}

/* ---- backward: diff_src = diff_dst * f'(src) ---- */

static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__eltb_apply)(dnnlk__vf x, dnnlk__vf g, int op) {
    if (op == DNNLK__ELT_ERF) return dnnlk__vf_mul(g, DNNLK__SFX(dnnlk__vm_erf_bwd)(x));
    if (op == DNNLK__ELT_GELU_ERF) return dnnlk__vf_mul(g, DNNLK__SFX(dnnlk__vm_gelu_erf_bwd)(x));
    return dnnlk__vf_mul(g, DNNLK__SFX(dnnlk__vm_gelu_tanh_bwd)(x));
}

/* o[i] = g[i] f'(x[i]) over contiguous f32 (o may be x or g); nt: the aligned body of o streamed,
 * x and g requested DNNLK_ELT_PF_BYTES ahead into L2 (as the forward). */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__eltb_f32)(const float *x, const float *g, float *o, size_t n, int op,
                                                           int nt) {
    size_t i = 0;
    if (nt && (uintptr_t)o % sizeof(float) == 0) {
        size_t head = (size_t)((64 - ((uintptr_t)o & 63)) & 63) / sizeof(float);
        if (head < n) {
            for (i = 0; i < head; i += DNNLK__VF_N) {
                size_t m = head - i < DNNLK__VF_N ? head - i : DNNLK__VF_N;
                dnnlk__vf_storeu_n(o + i, DNNLK__SFX(dnnlk__eltb_apply)(dnnlk__vf_loadu_n(x + i, m), dnnlk__vf_loadu_n(g + i, m), op), m);
            }
            for (i = head; i + 2 * DNNLK__VF_N <= n; i += 2 * DNNLK__VF_N) {
                dnnlk__vf a0, a1;
                dnnlk__vec_prefetch_l2((const char *)(x + i) + DNNLK_ELT_PF_BYTES, 2 * DNNLK__VF_N * sizeof(float));
                dnnlk__vec_prefetch_l2((const char *)(g + i) + DNNLK_ELT_PF_BYTES, 2 * DNNLK__VF_N * sizeof(float));
                a0 = DNNLK__SFX(dnnlk__eltb_apply)(dnnlk__vf_loadu(x + i), dnnlk__vf_loadu(g + i), op);
                a1 = DNNLK__SFX(dnnlk__eltb_apply)(dnnlk__vf_loadu(x + i + DNNLK__VF_N), dnnlk__vf_loadu(g + i + DNNLK__VF_N), op);
                dnnlk__vf_stream(o + i, a0);
                dnnlk__vf_stream(o + i + DNNLK__VF_N, a1);
            }
        }
    }
    for (; i + 2 * DNNLK__VF_N <= n; i += 2 * DNNLK__VF_N) {
        dnnlk__vf a0 = DNNLK__SFX(dnnlk__eltb_apply)(dnnlk__vf_loadu(x + i), dnnlk__vf_loadu(g + i), op);
        dnnlk__vf a1 = DNNLK__SFX(dnnlk__eltb_apply)(dnnlk__vf_loadu(x + i + DNNLK__VF_N), dnnlk__vf_loadu(g + i + DNNLK__VF_N), op);
        dnnlk__vf_storeu(o + i, a0);
        dnnlk__vf_storeu(o + i + DNNLK__VF_N, a1);
    }
    for (; i < n; i += DNNLK__VF_N) {
        size_t m = n - i < DNNLK__VF_N ? n - i : DNNLK__VF_N;
        dnnlk__vf r = DNNLK__SFX(dnnlk__eltb_apply)(dnnlk__vf_loadu_n(x + i, m), dnnlk__vf_loadu_n(g + i, m), op);
        if (m == DNNLK__VF_N) dnnlk__vf_storeu(o + i, r);
        else dnnlk__vf_storeu_n(o + i, r, m);
    }
}

static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__eltb_rows)(const dnnlk__eltb_ctx *c, int64_t begin, int64_t end,
                                                            int op) {
    dnnlk__loop_iter it;
    char *row[3];
    int64_t n, s[3];
    int d, fast = 1;
    for (d = 0; d < 3; d++) {
        s[d] = dnnlk__row_stride(&c->plan, d);
        fast = fast && c->dt[d] == dnnlk_f32 && s[d] == 4;
    }
    dnnlk__iter_init(&it, &c->plan, c->base, begin, end);
    while ((n = dnnlk__iter_next(&it, row)) > 0) {
        if (fast) {
            DNNLK__SFX(dnnlk__eltb_f32)((const float *)(const void *)row[1], (const float *)(const void *)row[2],
                                        (float *)(void *)row[0], (size_t)n, op, c->nt);
        } else {
            float bx[DNNLK__ELT_CHUNK], bg[DNNLK__ELT_CHUNK];
            int64_t j;
            for (j = 0; j < n; j += DNNLK__ELT_CHUNK) {
                size_t m = (size_t)(n - j < DNNLK__ELT_CHUNK ? n - j : DNNLK__ELT_CHUNK);
                DNNLK__SFX(dnnlk__gather_f32)(bx, row[1] + j * s[1], s[1], c->dt[1], m);
                DNNLK__SFX(dnnlk__gather_f32)(bg, row[2] + j * s[2], s[2], c->dt[2], m);
                DNNLK__SFX(dnnlk__eltb_f32)(bx, bg, bx, m, op, 0);
                DNNLK__SFX(dnnlk__scatter_f32)(row[0] + j * s[0], s[0], c->dt[0], bx, m);
            }
        }
    }
    if (c->nt) dnnlk__vec_sfence();
}

static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__eltb_part)(const dnnlk__eltb_ctx *c, int64_t begin, int64_t end) {
    if (c->op == DNNLK__ELT_ERF) DNNLK__SFX(dnnlk__eltb_rows)(c, begin, end, DNNLK__ELT_ERF);
    else if (c->op == DNNLK__ELT_GELU_ERF) DNNLK__SFX(dnnlk__eltb_rows)(c, begin, end, DNNLK__ELT_GELU_ERF);
    else DNNLK__SFX(dnnlk__eltb_rows)(c, begin, end, DNNLK__ELT_GELU_TANH);
}
