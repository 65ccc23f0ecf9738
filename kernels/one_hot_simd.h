/* one_hot_simd.h — the vector writer of one_hot.h, compiled once per level (the scalar one
 * included) by simd_instantiate.h (no include guard).
 *
 * A dense block of rows is one byte stream of off_value elements with one on_value per row: the
 * stream goes out as whole vectors of the off pattern (aligned, so they can be non-temporal), and
 * only the vector that holds a row's hot element is patched. The ragged ends go element by
 * element. dst must be element-aligned (one_hot.h checks), so vector edges fall on element edges.
 *
 * The patch is off ^ a load from a window that holds on ^ off at its middle element and zeros
 * around it, read at the hot element's offset: registers only. Patching through a buffer (stores
 * of off and on, then a vector load of it) stalled each hot vector's load on the stores it
 * overlaps: one_hot s64 depth 1000 wrote 0.80x as fast as a non-temporal fill of zeros, now
 * 0.97-0.99x (tools/onehot_fill_probe.c). */

static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__onehot_put)(char *q, dnnlk__vi v, const int nt) {
    if (nt) dnnlk__vi_stream(q, v);
    else dnnlk__vi_store(q, v);
}

/* off vectors over [q, lim), both vector-aligned: the bulk of the stream, in byte pointers (the
 * element-index form, a multiply per store, ran 15% slower than the fill it should match); one
 * loop per store kind (nt a constant in each). */
static DNNLK__FORCEINLINE char *DNNLK__SFX(dnnlk__onehot_run_k)(char *q, const char *lim, dnnlk__vi v, const int nt) {
    const int64_t VB = DNNLK__VF_N * 4;
    for (; lim - q >= 4 * VB; q += 4 * VB) {
        DNNLK__SFX(dnnlk__onehot_put)(q, v, nt);
        DNNLK__SFX(dnnlk__onehot_put)(q + VB, v, nt);
        DNNLK__SFX(dnnlk__onehot_put)(q + 2 * VB, v, nt);
        DNNLK__SFX(dnnlk__onehot_put)(q + 3 * VB, v, nt);
    }
    for (; q < lim; q += VB) DNNLK__SFX(dnnlk__onehot_put)(q, v, nt);
    return q;
}

static DNNLK__FORCEINLINE char *DNNLK__SFX(dnnlk__onehot_run)(char *q, const char *lim, dnnlk__vi v, int nt) {
    return nt ? DNNLK__SFX(dnnlk__onehot_run_k)(q, lim, v, 1) : DNNLK__SFX(dnnlk__onehot_run_k)(q, lim, v, 0);
}

static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__onehot_emit)(char *p, int64_t nrows, int64_t depth, const int64_t *hot,
                                                           const unsigned char *on, const unsigned char *off, int es,
                                                           int nt) {
    const int64_t VB = DNNLK__VF_N * 4, epv = VB / es, total = nrows * depth;
    unsigned char pat[DNNLK__VF_N * 4], win[2 * DNNLK__VF_N * 4];
    int64_t head, e, r, hpos, i;
    dnnlk__vi offv;
    if (epv == 0) {
        /* elements wider than a vector (the scalar level's 4 bytes against s64/f64): one by one */
        dnnlk__onehot_elems(p, 0, total, depth, hot, on, off, es);
        return;
    }
    head = (int64_t)((VB - (int64_t)((uintptr_t)p % (uintptr_t)VB)) % VB) / es;
    if (head > total) head = total;
    dnnlk__onehot_elems(p, 0, head, depth, hot, on, off, es);
    for (i = 0; i < VB; i++) pat[i] = off[i % es];
    offv = dnnlk__vi_loadu(pat);
    memset(win, 0, sizeof win);
    for (i = 0; i < es; i++) win[VB + i] = (unsigned char)(on[i] ^ off[i]);
    e = head;
    /* The next hot element at or after e (flat element index), INT64_MAX when none is left. */
    r = e / depth;
    if (r < nrows && hot[r] >= 0 && r * depth + hot[r] < e) r++;
    while (r < nrows && hot[r] < 0) r++;
    hpos = r < nrows ? r * depth + hot[r] : INT64_MAX;
    {
        /* Byte pointers from here: q (element e, which moves by whole vectors) walks up to qend;
         * hv is the start of the vector that holds the next hot element, at most qend (hpos <
         * total), or qend once none is left. */
        char *q = p + e * es, *const qend = q + (total - e) / epv * VB;
        for (;;) {
            char *hv = hpos < total ? q + (hpos - e) / epv * VB : qend;
            q = DNNLK__SFX(dnnlk__onehot_run)(q, hv, offv, nt);
            e = (q - p) / es;
            if (q == qend) break;
            {
                dnnlk__vi v = offv;
                while (hpos < e + epv) { /* every hot element of this vector (several when depth < epv) */
                    v = dnnlk__vi_xor(v, dnnlk__vi_loadu(win + VB - (hpos - e) * es));
                    r++;
                    while (r < nrows && hot[r] < 0) r++;
                    hpos = r < nrows ? r * depth + hot[r] : INT64_MAX;
                }
                DNNLK__SFX(dnnlk__onehot_put)(q, v, nt);
                q += VB;
                e += epv;
            }
        }
    }
    dnnlk__onehot_elems(p, e, total, depth, hot, on, off, es);
    if (nt) dnnlk__vec_sfence();
}
