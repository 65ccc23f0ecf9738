/* one_hot_simd.h — the vector writer of one_hot.h, compiled once per level (the scalar one
 * included) by simd_instantiate.h (no include guard).
 *
 * A dense block of rows is one byte stream of off_value elements with one on_value per row: the
 * stream goes out as whole vectors of the off pattern (aligned, so they can be non-temporal), and
 * only the vector that holds a row's hot element is patched through a small buffer. The ragged
 * ends go element by element. dst must be element-aligned (one_hot.h checks), so vector edges fall
 * on element edges. */

static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__onehot_store)(char *q, dnnlk__vi v, int nt) {
    if (nt) dnnlk__vi_stream(q, v);
    else dnnlk__vi_store(q, v);
}

static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__onehot_emit)(char *p, int64_t nrows, int64_t depth, const int64_t *hot,
                                                           const unsigned char *on, const unsigned char *off, int es,
                                                           int nt) {
    const int64_t VB = DNNLK__VF_N * 4, epv = VB / es, total = nrows * depth;
    unsigned char pat[DNNLK__VF_N * 4];
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
    e = head;
    /* The next hot element at or after e (flat element index), INT64_MAX when none is left. */
    r = e / depth;
    if (r < nrows && hot[r] >= 0 && r * depth + hot[r] < e) r++;
    while (r < nrows && hot[r] < 0) r++;
    hpos = r < nrows ? r * depth + hot[r] : INT64_MAX;
    while (e + epv <= total) {
        if (e + 4 * epv <= total && hpos >= e + 4 * epv) {
            DNNLK__SFX(dnnlk__onehot_store)(p + e * es, offv, nt);
            DNNLK__SFX(dnnlk__onehot_store)(p + (e + epv) * es, offv, nt);
            DNNLK__SFX(dnnlk__onehot_store)(p + (e + 2 * epv) * es, offv, nt);
            DNNLK__SFX(dnnlk__onehot_store)(p + (e + 3 * epv) * es, offv, nt);
            e += 4 * epv;
        } else if (hpos >= e + epv) {
            DNNLK__SFX(dnnlk__onehot_store)(p + e * es, offv, nt);
            e += epv;
        } else {
            memcpy(pat, &offv, sizeof pat);
            while (hpos < e + epv) {
                memcpy(pat + (hpos - e) * es, on, (size_t)es);
                r++;
                while (r < nrows && hot[r] < 0) r++;
                hpos = r < nrows ? r * depth + hot[r] : INT64_MAX;
            }
            DNNLK__SFX(dnnlk__onehot_store)(p + e * es, dnnlk__vi_loadu(pat), nt);
            e += epv;
        }
    }
    dnnlk__onehot_elems(p, e, total, depth, hot, on, off, es);
    if (nt) dnnlk__vec_sfence();
}
