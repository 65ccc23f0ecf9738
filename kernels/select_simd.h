/* dnnl_kernels — select_simd.h: the select row kernels, one body compiled at every level (the
 * scalar one included) by simd_instantiate.h (no include guard). Entry:
 * DNNLK__SFX(dnnlk__select_rows)(blk).
 *
 * Elements are moved as lanes of es = 1, 2, 4 or 8 bytes of the layer's byte vectors (dnnlk__vb,
 * DNNLK__VB_N bytes). The cond bytes of a vector are turned into a lane selection by
 * dnnlk__vb_cond_elem (one cond byte per lane: W = DNNLK__VB_N / es of them), which drives a blend.
 * Operands that are scalars along the row are broadcast once. Rows the vector paths do not take
 * (strided, or a cond that is neither contiguous nor constant along the row) go element by
 * element. */

/* Strided rows, element by element. es is a constant at each call site, so the memcpy is one move. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__select_strided_es)(const dnnlk__select_blk *k, int es, int64_t ds,
                                                                 int64_t cs, int64_t as, int64_t bs) {
    int64_t r, i;
    for (r = 0; r < k->rows; r++) {
        char *d = k->d + r * k->dp;
        const unsigned char *c = k->c + r * k->cp;
        const char *a = k->a + r * k->ap, *b = k->b + r * k->bp;
        for (i = 0; i < k->n; i++) memcpy(d + i * ds, c[i * cs] ? a + i * as : b + i * bs, (size_t)es);
    }
}

static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__select_strided)(const dnnlk__select_blk *k) {
    switch (k->es) {
    case 1: DNNLK__SFX(dnnlk__select_strided_es)(k, 1, k->ds, k->cs, k->as, k->bs); break;
    case 2: DNNLK__SFX(dnnlk__select_strided_es)(k, 2, k->ds, k->cs, k->as, k->bs); break;
    case 4: DNNLK__SFX(dnnlk__select_strided_es)(k, 4, k->ds, k->cs, k->as, k->bs); break;
    case 8: DNNLK__SFX(dnnlk__select_strided_es)(k, 8, k->ds, k->cs, k->as, k->bs); break;
    default: break;
    }
}

static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__select_store)(void *p, dnnlk__vb v, int nt) {
    if (nt) dnnlk__vb_stream(p, v);
    else dnnlk__vb_storeu(p, v);
}

/* n < W elements (or up to an alignment boundary) of a contiguous-cond row: masked vector
 * accesses where the level has them, else element by element. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__select_part)(char *d, const unsigned char *c, const char *a,
                                                           const char *b, int64_t n, int es, int ka, int kb,
                                                           dnnlk__vb va, dnnlk__vb vb) {
    if (DNNLK__VEC_MASKED_BYTES) {
        dnnlk__vmask_vb m = dnnlk__vb_cond_n_elem(c, (size_t)n, es);
        dnnlk__vb x = ka ? dnnlk__vb_loadu_n_elem(a, (size_t)n, es) : va;
        dnnlk__vb y = kb ? dnnlk__vb_loadu_n_elem(b, (size_t)n, es) : vb;
        dnnlk__vb_storeu_n_elem(d, dnnlk__vb_blend_elem(m, x, y, es), (size_t)n, es);
    } else {
        int64_t i;
        (void)va, (void)vb;
        for (i = 0; i < n; i++)
            memcpy(d + i * es, c[i] ? a + (ka ? i * es : 0) : b + (kb ? i * es : 0), (size_t)es);
    }
}

/* One row, cond contiguous; ka/kb: 1 = contiguous, 0 = scalar along the row. With nt, the head
 * up to a vector boundary of d is done apart so the streaming stores are aligned. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__select_row)(char *d, const unsigned char *c, const char *a,
                                                          const char *b, int64_t n, int es, int ka, int kb, int nt) {
    const int64_t W = DNNLK__VB_N / es;
    dnnlk__vb va = dnnlk__vb_set1_elem(a, es), vb = dnnlk__vb_set1_elem(b, es);
    int64_t i = 0;
#define DNNLK__SEL_STEP(j)                                                                                   \
    DNNLK__SFX(dnnlk__select_store)                                                                            \
    (d + (j) * es,                                                                                           \
     dnnlk__vb_blend_elem(dnnlk__vb_cond_elem(c + (j), es), ka ? dnnlk__vb_loadu(a + (j) * es) : va,         \
                          kb ? dnnlk__vb_loadu(b + (j) * es) : vb, es),                                      \
     nt)
    if (nt) {
        int64_t h = (int64_t)(((uintptr_t)0 - (uintptr_t)d) & (DNNLK__VB_N - 1)) / es;
        if (h > n) h = n;
        if (h) DNNLK__SFX(dnnlk__select_part)(d, c, a, b, h, es, ka, kb, va, vb);
        i = h;
    }
    for (; i + 4 * W <= n; i += 4 * W) {
        DNNLK__SEL_STEP(i);
        DNNLK__SEL_STEP(i + W);
        DNNLK__SEL_STEP(i + 2 * W);
        DNNLK__SEL_STEP(i + 3 * W);
    }
    for (; i + W <= n; i += W) DNNLK__SEL_STEP(i);
#undef DNNLK__SEL_STEP
    if (i < n) DNNLK__SFX(dnnlk__select_part)(d + i * es, c + i, a + (ka ? i * es : 0), b + (kb ? i * es : 0), n - i,
                                          es, ka, kb, va, vb);
}

/* One row whose cond is constant along it: copy a contiguous source, or fill with a scalar. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__select_copy)(char *d, const char *s, int64_t n, int es, int ks,
                                                           int nt) {
    const int64_t W = DNNLK__VB_N / es;
    dnnlk__vb v;
    int64_t i = 0;
    if (ks && d == s) return; /* in-place: nothing to move */
    if (ks && !nt) {
        memcpy(d, s, (size_t)(n * es));
        return;
    }
    v = dnnlk__vb_set1_elem(s, es);
    if (nt) {
        int64_t h = (int64_t)(((uintptr_t)0 - (uintptr_t)d) & (DNNLK__VB_N - 1)) / es;
        if (h > n) h = n;
        if (ks) memmove(d, s, (size_t)(h * es));
        else
            for (; i < h; i++) memcpy(d + i * es, s, (size_t)es);
        i = h;
    }
#define DNNLK__SEL_CSTEP(j) DNNLK__SFX(dnnlk__select_store)(d + (j) * es, ks ? dnnlk__vb_loadu(s + (j) * es) : v, nt)
    for (; i + 4 * W <= n; i += 4 * W) {
        DNNLK__SEL_CSTEP(i);
        DNNLK__SEL_CSTEP(i + W);
        DNNLK__SEL_CSTEP(i + 2 * W);
        DNNLK__SEL_CSTEP(i + 3 * W);
    }
    for (; i + W <= n; i += W) DNNLK__SEL_CSTEP(i);
#undef DNNLK__SEL_CSTEP
    if (ks) memmove(d + i * es, s + i * es, (size_t)((n - i) * es));
    else
        for (; i < n; i++) memcpy(d + i * es, s, (size_t)es);
}

/* Rows with a contiguous cond, specialised on element size, operand kinds and store kind. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__select_rows_cc)(const dnnlk__select_blk *k, int es, int ka, int kb,
                                                              int nt) {
    int64_t r;
    for (r = 0; r < k->rows; r++)
        DNNLK__SFX(dnnlk__select_row)(k->d + r * k->dp, k->c + r * k->cp, k->a + r * k->ap, k->b + r * k->bp, k->n,
                                   es, ka, kb, nt);
}

static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__select_cc)(const dnnlk__select_blk *k, int ka, int kb) {
#define DNNLK__SEL_CASE(ES, KA, KB, NT) \
    case (ES) * 8 + (KA) * 4 + (KB) * 2 + (NT): DNNLK__SFX(dnnlk__select_rows_cc)(k, ES, KA, KB, NT); break;
#define DNNLK__SEL_CASES(ES)                                                                              \
    DNNLK__SEL_CASE(ES, 0, 0, 0) DNNLK__SEL_CASE(ES, 0, 0, 1) DNNLK__SEL_CASE(ES, 0, 1, 0)              \
    DNNLK__SEL_CASE(ES, 0, 1, 1) DNNLK__SEL_CASE(ES, 1, 0, 0) DNNLK__SEL_CASE(ES, 1, 0, 1)              \
    DNNLK__SEL_CASE(ES, 1, 1, 0) DNNLK__SEL_CASE(ES, 1, 1, 1)
    switch (k->es * 8 + ka * 4 + kb * 2 + (k->nt ? 1 : 0)) {
        DNNLK__SEL_CASES(1)
        DNNLK__SEL_CASES(2)
        DNNLK__SEL_CASES(4)
        DNNLK__SEL_CASES(8)
    default: break;
    }
#undef DNNLK__SEL_CASES
#undef DNNLK__SEL_CASE
}

/* Rows whose cond is constant along each row: one copy or fill per row. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__select_rows_c0)(const dnnlk__select_blk *k, int es, int ka, int kb,
                                                              int nt) {
    int64_t r;
    for (r = 0; r < k->rows; r++) {
        char *d = k->d + r * k->dp;
        if (k->c[r * k->cp]) DNNLK__SFX(dnnlk__select_copy)(d, k->a + r * k->ap, k->n, es, ka, nt);
        else DNNLK__SFX(dnnlk__select_copy)(d, k->b + r * k->bp, k->n, es, kb, nt);
    }
}

static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__select_c0)(const dnnlk__select_blk *k, int ka, int kb) {
    int nt = k->nt ? 1 : 0;
    /* Only the chosen source's kind matters per row; specialise on es and nt, pass kinds. */
    switch (k->es * 2 + nt) {
    case 2: DNNLK__SFX(dnnlk__select_rows_c0)(k, 1, ka, kb, 0); break;
    case 3: DNNLK__SFX(dnnlk__select_rows_c0)(k, 1, ka, kb, 1); break;
    case 4: DNNLK__SFX(dnnlk__select_rows_c0)(k, 2, ka, kb, 0); break;
    case 5: DNNLK__SFX(dnnlk__select_rows_c0)(k, 2, ka, kb, 1); break;
    case 8: DNNLK__SFX(dnnlk__select_rows_c0)(k, 4, ka, kb, 0); break;
    case 9: DNNLK__SFX(dnnlk__select_rows_c0)(k, 4, ka, kb, 1); break;
    case 16: DNNLK__SFX(dnnlk__select_rows_c0)(k, 8, ka, kb, 0); break;
    case 17: DNNLK__SFX(dnnlk__select_rows_c0)(k, 8, ka, kb, 1); break;
    default: break;
    }
}

/* Short rows, one cond byte per row, d/a/b flat across rows: expand the cond to one byte per
 * element, a chunk at a time, and run the contiguous-cond kernel over the flat chunk. With a dense
 * cond (pitch 1) and rows of at most 16 elements, a 16-byte permute expands 16 elements per step
 * from the bytes of the next 16 rows: lane j of a step starting `off` elements into row r reads
 * row r + (off + j) / n. */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__select_flat)(const dnnlk__select_blk *k, int ka, int kb) {
    unsigned char buf[DNNLK__SELECT_CHUNK];
    unsigned char idx[16][16], adv[16], nxt[16];
    const int64_t n = k->n, total = k->n * k->rows;
    const int es = k->es;
    int64_t p = 0, r = 0, off = 0;
    int fast = k->cp == 1 && n <= 16;
    dnnlk__select_blk sub = *k;
    if (fast) {
        int64_t o, j;
        for (o = 0; o < n; o++) {
            for (j = 0; j < 16; j++) idx[o][j] = (unsigned char)((o + j) / n);
            adv[o] = (unsigned char)((o + 16) / n);
            nxt[o] = (unsigned char)((o + 16) % n);
        }
    }
    sub.rows = 1;
    sub.cs = 1;
    sub.ds = sub.as = sub.bs = es;
    while (p < total) {
        int64_t len = total - p < DNNLK__SELECT_CHUNK ? total - p : DNNLK__SELECT_CHUNK, j = 0;
        if (fast) {
            for (; j + 16 <= len && r + 16 <= k->rows; j += 16) {
                dnnlk__vb_permute16(buf + j, k->c + r, idx[off]);
                r += adv[off];
                off = nxt[off];
            }
        }
        while (j < len) {
            int64_t t = n - off < len - j ? n - off : len - j;
            memset(buf + j, k->c[r * k->cp], (size_t)t);
            j += t;
            off += t;
            if (off == n) off = 0, r++;
        }
        sub.d = k->d + p * es;
        sub.c = buf;
        sub.a = k->a + (ka ? p * es : 0);
        sub.b = k->b + (kb ? p * es : 0);
        sub.n = len;
        DNNLK__SFX(dnnlk__select_cc)(&sub, ka, kb);
        p += len;
    }
}

/* Entry: one block of rows. */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__select_rows)(const dnnlk__select_blk *k) {
    const int64_t es = k->es;
    int ka = k->as == es ? 1 : k->as == 0 ? 0 : -1;
    int kb = k->bs == es ? 1 : k->bs == 0 ? 0 : -1;
    if (k->ds != es || ka < 0 || kb < 0 || (k->cs != 0 && k->cs != 1)) {
        DNNLK__SFX(dnnlk__select_strided)(k);
        return;
    }
    if (k->cs == 1) {
        DNNLK__SFX(dnnlk__select_cc)(k, ka, kb);
    } else if (k->rows > 1 && k->n * es < DNNLK__SELECT_SHORT_ROW_BYTES && k->dp == k->n * es &&
               k->ap == (ka ? k->n * es : 0) && k->bp == (kb ? k->n * es : 0)) {
        DNNLK__SFX(dnnlk__select_flat)(k, ka, kb);
    } else {
        DNNLK__SFX(dnnlk__select_c0)(k, ka, kb);
    }
    if (k->nt) dnnlk__vec_sfence();
}
