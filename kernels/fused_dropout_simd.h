/* dnnl_kernels — fused_dropout_simd.h: the row kernels of bias + dropout + residual and gelu +
 * dropout, forward and backward, written once on the vector layer and compiled at every level by
 * simd_instantiate.h from fused_dropout.h (no include guard). The gelu bodies are eltwise_simd.h's
 * (dnnlk__elt_apply / dnnlk__eltb_apply), so the fused values are dnnlk_gelu's bit for bit.
 *
 * Every kernel walks a range of dense elements 32 at a time: one 32-bit word of keep bits (LSB
 * first, read unaligned from the bit array as dropout_simd.h does) and 32 / DNNLK__VF_N vectors.
 * A keep factor is `scale` where the bit is set and +0 elsewhere, multiplied in (dropout's rule:
 * a dropped NaN stays NaN, a dropped -x gives -0). Products that an add follows pass through
 * dnnlk__vf_nofuse, so no level fuses them and every level gives the unfused composition's bits.
 * Tails (under 32 elements, and the peel to a streaming store's alignment) go through f32
 * buffers and the same 32-element step, so they round exactly as the body does. */

/* How far a streamed row's inputs are prefetched: dropout's measured distance. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__fd_prefetch)(const char *p, size_t bytes) {
    (void)p, (void)bytes; /* the scalar level has no prefetch */
    dnnlk__vec_prefetch_l2(p + DNNLK_DROPOUT_PF_BYTES, bytes);
}

/* Elements of n (size es) before p reaches a vector boundary, where streaming stores can start:
 * all n when p is not even element-aligned (no streaming then). */
static DNNLK__FORCEINLINE int64_t DNNLK__SFX(dnnlk__fd_peel)(const char *p, size_t es, int64_t n) {
    const size_t vb = sizeof(dnnlk__vf);
    int64_t head = (int64_t)(((vb - (uintptr_t)p % vb) % vb) / es);
    if ((uintptr_t)p % es) head = n;
    return head < n ? head : n;
}

/* ---- forward: 32 elements with keep bits w ---- */

/* d = r + (x + b) * keep (b only when has_b: without a bias, x itself, so -0 stays -0). */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__fd_bdr32)(char *d, const char *x, const char *b, const char *r,
                                                         uint32_t w, dnnlk__vf vs, int dt, int has_b, int nt) {
    const size_t es = dt == (int)dnnlk_f32 ? 4 : 2;
    int k;
    for (k = 0; k < 32; k += DNNLK__VF_N) {
        dnnlk__vf v = dnnlk__vf_load_dt(x + (size_t)k * es, dt);
        if (has_b) v = dnnlk__vf_add(v, dnnlk__vf_load_dt(b + (size_t)k * es, dt));
        v = dnnlk__vf_mul(v, dnnlk__vf_maskz_bits(w >> k, vs));
        dnnlk__vf_nofuse(v);
        v = dnnlk__vf_add(dnnlk__vf_load_dt(r + (size_t)k * es, dt), v);
        dnnlk__vf_store_dt(d + (size_t)k * es, dt, v, nt);
    }
}

/* d = gelu(x) * keep. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__fd_gelu32)(char *d, const char *x, uint32_t w, dnnlk__vf vs, int dt,
                                                          int op, int nt) {
    const size_t es = dt == (int)dnnlk_f32 ? 4 : 2;
    int k;
    for (k = 0; k < 32; k += DNNLK__VF_N) {
        dnnlk__vf v = DNNLK__SFX(dnnlk__elt_apply)(dnnlk__vf_load_dt(x + (size_t)k * es, dt), op);
        dnnlk__vf_store_dt(d + (size_t)k * es, dt, dnnlk__vf_mul(v, dnnlk__vf_maskz_bits(w >> k, vs)), nt);
    }
}

/* One 32-element step of the forward; op: DNNLK__FD_BDR, or the gelu form (a constant in every
 * instance, so each instance holds one body). */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__fd_fwd32)(char *d, const char *x, const char *b,
                                                         const char *r, uint32_t w, dnnlk__vf vs, int dt, int has_b,
                                                         int op, int nt) {
    if (op < 0) DNNLK__SFX(dnnlk__fd_bdr32)(d, x, b, r, w, vs, dt, has_b, nt);
    else DNNLK__SFX(dnnlk__fd_gelu32)(d, x, w, vs, dt, op, nt);
}

/* 32 elements of f32 buffers, out of line: the one copy of each body that tails and bf16/f16 use
 * (inlining the gelu bodies into every tail and dtype instance quadrupled the compile time). */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__fd_fwd_step_v)(float *d, const float *x, const float *b, const float *r,
                                                            uint32_t w, float scale, int has_b, int op) {
    const dnnlk__vf vs = dnnlk__vf_set1(scale);
    const int f32 = (int)dnnlk_f32;
    if (op < 0) DNNLK__SFX(dnnlk__fd_bdr32)((char *)d, (const char *)x, (const char *)b, (const char *)r, w, vs, f32, has_b, 0);
    else if (op == DNNLK__ELT_GELU_TANH) DNNLK__SFX(dnnlk__fd_gelu32)((char *)d, (const char *)x, w, vs, f32, DNNLK__ELT_GELU_TANH, 0);
    else DNNLK__SFX(dnnlk__fd_gelu32)((char *)d, (const char *)x, w, vs, f32, DNNLK__ELT_GELU_ERF, 0);
}

/* n < 32 elements from element e (bias column col) through f32 buffers. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__fd_fwd_tail)(const dnnlk__fd_job *j, int64_t e, int64_t col, int64_t n,
                                                            uint32_t w, int dt, int has_b, int op) {
    const size_t es = dt == (int)dnnlk_f32 ? 4 : 2;
    float bx[32], bb[32], br[32], bd[32];
    int64_t i;
    memset(bx, 0, sizeof bx), memset(bb, 0, sizeof bb), memset(br, 0, sizeof br);
    for (i = 0; i < n; i++) {
        bx[i] = dnnlk__load_as_f32(j->x + (size_t)(e + i) * es, (dnnlk_dtype)dt);
        if (has_b) bb[i] = dnnlk__load_as_f32(j->bias + (size_t)(col + i) * es, (dnnlk_dtype)dt);
        if (op < 0) br[i] = dnnlk__load_as_f32(j->res + (size_t)(e + i) * es, (dnnlk_dtype)dt);
    }
    DNNLK__SFX(dnnlk__fd_fwd_step_v)(bd, bx, bb, br, w, j->scale, has_b, op);
    for (i = 0; i < n; i++) dnnlk__store_from_f32(j->dst + (size_t)(e + i) * es, (dnnlk_dtype)dt, bd[i]);
}

/* Elements [e, e + n) of one row segment (bias columns from col on); bits: keep bit of element e
 * at position pos. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__fd_fwd_seg)(const dnnlk__fd_job *j, int64_t e, int64_t col, int64_t n,
                                                           const uint8_t *bits, uint64_t pos, size_t nbytes, int dt,
                                                           int has_b, int op) {
    const size_t es = dt == (int)dnnlk_f32 ? 4 : 2;
    const dnnlk__vf vs = dnnlk__vf_set1(j->scale);
    const int nt = j->nt && dt == (int)dnnlk_f32;
    int64_t i = 0;
    if (nt) { /* streaming stores need the vector's alignment: peel up to it */
        int64_t head = DNNLK__SFX(dnnlk__fd_peel)(j->dst + (size_t)e * es, es, n);
        if (head > 0)
            DNNLK__SFX(dnnlk__fd_fwd_tail)(j, e, col, head, (uint32_t)dnnlk__bits_at(bits, pos, nbytes), dt,
                                           has_b, op);
        i = head;
    }
    for (; i + 32 <= n; i += 32) {
        const size_t o = (size_t)(e + i) * es;
        uint32_t w = (uint32_t)dnnlk__bits_at(bits, pos + (uint64_t)i, nbytes);
        if (nt) {
            DNNLK__SFX(dnnlk__fd_prefetch)(j->x + o, 32 * es);
            if (op < 0) DNNLK__SFX(dnnlk__fd_prefetch)(j->res + o, 32 * es);
        }
        DNNLK__SFX(dnnlk__fd_fwd32)(j->dst + o, j->x + o, has_b ? j->bias + (size_t)(col + i) * es : NULL,
                                    op < 0 ? j->res + o : NULL, w, vs, dt, has_b, op, nt);
    }
    if (i < n)
        DNNLK__SFX(dnnlk__fd_fwd_tail)(j, e + i, col + i, n - i, (uint32_t)dnnlk__bits_at(bits, pos + (uint64_t)i, nbytes),
                                       dt, has_b, op);
}

/* Elements [e0, e1) of the job, cut at row ends when there is a bias. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__fd_fwd_range)(const dnnlk__fd_job *j, int64_t e0, int64_t e1,
                                                             const uint8_t *bits, uint64_t pos0, size_t nbytes, int dt,
                                                             int has_b, int op) {
    int64_t e = e0;
    while (e < e1) {
        int64_t col = has_b ? e % j->cols : 0, n = e1 - e;
        if (has_b && n > j->cols - col) n = j->cols - col;
        DNNLK__SFX(dnnlk__fd_fwd_seg)(j, e, col, n, bits, pos0 + (uint64_t)(e - e0), nbytes, dt, has_b, op);
        e += n;
    }
}

/* bf16 / f16: 32 elements at a time through the f32 buffers of the tails (one rounding at the
 * store, as the f32 path computes; widening in place would need a body per dtype). */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__fd_fwd_half)(const dnnlk__fd_job *j, int64_t e0, int64_t e1,
                                                            const uint8_t *bits, size_t nbytes) {
    const int has_b = j->op < 0 && j->bias != NULL;
    int64_t e = e0;
    while (e < e1) {
        int64_t col = has_b ? e % j->cols : 0, n = e1 - e;
        if (has_b && n > j->cols - col) n = j->cols - col;
        if (n > 32) n = 32;
        DNNLK__SFX(dnnlk__fd_fwd_tail)(j, e, col, n, (uint32_t)dnnlk__bits_at(bits, (uint64_t)(e - e0), nbytes),
                                       j->dt, has_b, j->op);
        e += n;
    }
}

/* Forward entry: elements [e0, e1), keep bits from bits (bit 0 is element e0's), nbytes long.
 * f32 has instances of its own (the common case, constants folded); bf16 and f16 share one. */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__fd_fwd_v)(const dnnlk__fd_job *j, int64_t e0, int64_t e1,
                                                       const uint8_t *bits, size_t nbytes) {
    const int f32 = j->dt == (int)dnnlk_f32;
    if (j->op < 0) {
        if (f32 && j->bias) DNNLK__SFX(dnnlk__fd_fwd_range)(j, e0, e1, bits, 0, nbytes, (int)dnnlk_f32, 1, DNNLK__FD_BDR);
        else if (f32) DNNLK__SFX(dnnlk__fd_fwd_range)(j, e0, e1, bits, 0, nbytes, (int)dnnlk_f32, 0, DNNLK__FD_BDR);
        else DNNLK__SFX(dnnlk__fd_fwd_half)(j, e0, e1, bits, nbytes);
    } else if (!f32) {
        DNNLK__SFX(dnnlk__fd_fwd_half)(j, e0, e1, bits, nbytes);
    } else if (j->op == DNNLK__ELT_GELU_TANH) {
        DNNLK__SFX(dnnlk__fd_fwd_range)(j, e0, e1, bits, 0, nbytes, (int)dnnlk_f32, 0, DNNLK__ELT_GELU_TANH);
    } else {
        DNNLK__SFX(dnnlk__fd_fwd_range)(j, e0, e1, bits, 0, nbytes, (int)dnnlk_f32, 0, DNNLK__ELT_GELU_ERF);
    }
}

/* ---- backward ---- */

/* diff_src = dd * keep; diff_residual (when given) = dd's bits; acc (when given) += diff_src as
 * stored, column by column. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__fd_bdrb32)(char *ds, char *dres, float *acc, const char *dd,
                                                          uint32_t w, dnnlk__vf vs, int dt, int nt) {
    const size_t es = dt == (int)dnnlk_f32 ? 4 : 2;
    int k;
    if (dres) memcpy(dres, dd, 32 * es);
    for (k = 0; k < 32; k += DNNLK__VF_N) {
        dnnlk__vf v = dnnlk__vf_mul(dnnlk__vf_load_dt(dd + (size_t)k * es, dt), dnnlk__vf_maskz_bits(w >> k, vs));
        dnnlk__vf_nofuse(v);
        dnnlk__vf_store_dt(ds + (size_t)k * es, dt, v, nt);
        if (acc) {
            if (dt != (int)dnnlk_f32) v = dnnlk__vf_load_dt(ds + (size_t)k * es, dt); /* as rounded */
            dnnlk__vf_storeu(acc + k, dnnlk__vf_add(dnnlk__vf_loadu(acc + k), v));
        }
    }
}

/* diff_src = gelu'(x) (dd * keep), eltwise_simd.h's product. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__fd_gelub32)(char *ds, const char *x, const char *dd, uint32_t w,
                                                           dnnlk__vf vs, int dt, int op, int nt) {
    const size_t es = dt == (int)dnnlk_f32 ? 4 : 2;
    int k;
    for (k = 0; k < 32; k += DNNLK__VF_N) {
        dnnlk__vf g = dnnlk__vf_mul(dnnlk__vf_load_dt(dd + (size_t)k * es, dt), dnnlk__vf_maskz_bits(w >> k, vs));
        dnnlk__vf_nofuse(g);
        dnnlk__vf_store_dt(ds + (size_t)k * es, dt,
                           DNNLK__SFX(dnnlk__eltb_apply)(dnnlk__vf_load_dt(x + (size_t)k * es, dt), g, op), nt);
    }
}

/* 32 elements of f32 buffers, out of line (see dnnlk__fd_fwd_step_v): diff_src from diff_dst dd
 * and, for gelu, x. */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__fd_bwd_step_v)(float *ds, const float *x, const float *dd, uint32_t w,
                                                            float scale, int op) {
    const dnnlk__vf vs = dnnlk__vf_set1(scale);
    const int f32 = (int)dnnlk_f32;
    if (op < 0) DNNLK__SFX(dnnlk__fd_bdrb32)((char *)ds, NULL, NULL, (const char *)dd, w, vs, f32, 0);
    else if (op == DNNLK__ELT_GELU_TANH)
        DNNLK__SFX(dnnlk__fd_gelub32)((char *)ds, (const char *)x, (const char *)dd, w, vs, f32, DNNLK__ELT_GELU_TANH, 0);
    else DNNLK__SFX(dnnlk__fd_gelub32)((char *)ds, (const char *)x, (const char *)dd, w, vs, f32, DNNLK__ELT_GELU_ERF, 0);
}

/* n < 32 elements from e through f32 buffers (acc: the columns' partials, or NULL). */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__fd_bwd_tail)(const dnnlk__fd_job *j, int64_t e, int64_t n, float *acc,
                                                            uint32_t w, int dt, int op) {
    const size_t es = dt == (int)dnnlk_f32 ? 4 : 2;
    float bx[32], bdd[32], bds[32], ba[32];
    int64_t i;
    memset(bx, 0, sizeof bx), memset(bdd, 0, sizeof bdd), memset(ba, 0, sizeof ba);
    for (i = 0; i < n; i++) {
        bdd[i] = dnnlk__load_as_f32(j->dd + (size_t)(e + i) * es, (dnnlk_dtype)dt);
        if (op >= 0) bx[i] = dnnlk__load_as_f32(j->x + (size_t)(e + i) * es, (dnnlk_dtype)dt);
    }
    if (op < 0 && j->dres) memcpy(j->dres + (size_t)e * es, j->dd + (size_t)e * es, (size_t)n * es);
    DNNLK__SFX(dnnlk__fd_bwd_step_v)(bds, bx, bdd, w, j->scale, op);
    for (i = 0; i < n; i++) {
        dnnlk__store_from_f32(j->ds + (size_t)(e + i) * es, (dnnlk_dtype)dt, bds[i]);
        if (acc) acc[i] += dnnlk__load_as_f32(j->ds + (size_t)(e + i) * es, (dnnlk_dtype)dt);
    }
}

/* Elements [e, e + n), bits of the whole mask (element e at bit e); acc: partials of the segment's
 * first column, or NULL. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__fd_bwd_seg)(const dnnlk__fd_job *j, int64_t e, int64_t n, float *acc,
                                                           int dt, int op) {
    const size_t es = dt == (int)dnnlk_f32 ? 4 : 2;
    const dnnlk__vf vs = dnnlk__vf_set1(j->scale);
    const int nt = j->nt && dt == (int)dnnlk_f32;
    int64_t i = 0;
    if (nt) {
        int64_t head = DNNLK__SFX(dnnlk__fd_peel)(j->ds + (size_t)e * es, es, n);
        if (head > 0)
            DNNLK__SFX(dnnlk__fd_bwd_tail)(j, e, head, acc, (uint32_t)dnnlk__bits_at(j->mask, (uint64_t)e, j->nbytes),
                                           dt, op);
        i = head;
    }
    for (; i + 32 <= n; i += 32) {
        const size_t o = (size_t)(e + i) * es;
        uint32_t w = (uint32_t)dnnlk__bits_at(j->mask, (uint64_t)(e + i), j->nbytes);
        if (nt) {
            DNNLK__SFX(dnnlk__fd_prefetch)(j->dd + o, 32 * es);
            if (op >= 0) DNNLK__SFX(dnnlk__fd_prefetch)(j->x + o, 32 * es);
        }
        if (op < 0)
            DNNLK__SFX(dnnlk__fd_bdrb32)(j->ds + o, j->dres ? j->dres + o : NULL, acc ? acc + i : NULL, j->dd + o, w,
                                         vs, dt, nt);
        else DNNLK__SFX(dnnlk__fd_gelub32)(j->ds + o, j->x + o, j->dd + o, w, vs, dt, op, nt);
    }
    if (i < n)
        DNNLK__SFX(dnnlk__fd_bwd_tail)(j, e + i, n - i, acc ? acc + i : NULL,
                                       (uint32_t)dnnlk__bits_at(j->mask, (uint64_t)(e + i), j->nbytes), dt, op);
}

/* Elements [e0, e1); with acc (bias backward: whole rows), row by row into the row's partials. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__fd_bwd_range)(const dnnlk__fd_job *j, int64_t e0, int64_t e1, float *acc,
                                                             int dt, int op) {
    int64_t e;
    if (!acc) {
        DNNLK__SFX(dnnlk__fd_bwd_seg)(j, e0, e1 - e0, NULL, dt, op);
        return;
    }
    for (e = e0; e < e1; e += j->cols) DNNLK__SFX(dnnlk__fd_bwd_seg)(j, e, j->cols, acc, dt, op);
}

/* bf16 / f16 backward: 32 elements at a time through the tails' f32 buffers (row by row with
 * acc, each row's partials from its first column). */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__fd_bwd_half)(const dnnlk__fd_job *j, int64_t e0, int64_t e1, float *acc) {
    int64_t e = e0;
    while (e < e1) {
        int64_t col = acc ? e % j->cols : 0, n = e1 - e;
        if (acc && n > j->cols - col) n = j->cols - col;
        if (n > 32) n = 32;
        DNNLK__SFX(dnnlk__fd_bwd_tail)(j, e, n, acc ? acc + col : NULL,
                                       (uint32_t)dnnlk__bits_at(j->mask, (uint64_t)e, j->nbytes), j->dt, j->op);
        e += n;
    }
}

/* Backward entry: elements [e0, e1); acc: the block's column partials (bias backward), or NULL. */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__fd_bwd_v)(const dnnlk__fd_job *j, int64_t e0, int64_t e1, float *acc) {
    const int f32 = j->dt == (int)dnnlk_f32;
    if (!f32) DNNLK__SFX(dnnlk__fd_bwd_half)(j, e0, e1, acc);
    else if (j->op < 0) DNNLK__SFX(dnnlk__fd_bwd_range)(j, e0, e1, acc, (int)dnnlk_f32, DNNLK__FD_BDR);
    else if (j->op == DNNLK__ELT_GELU_TANH) DNNLK__SFX(dnnlk__fd_bwd_range)(j, e0, e1, NULL, (int)dnnlk_f32, DNNLK__ELT_GELU_TANH);
    else DNNLK__SFX(dnnlk__fd_bwd_range)(j, e0, e1, NULL, (int)dnnlk_f32, DNNLK__ELT_GELU_ERF);
}
