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
