/* arg_max, top_k and one_hot on the shapes: LLM logits [256,32000] (arg_max over the
 * vocabulary, top_k with k = 50) and one_hot of 4096 indices with depth 1000. ns/elem counts
 * input elements for arg_max/top_k and output elements for one_hot (PyTorch's one_hot writes s64:
 * the "one_hot s64" row is the like-for-like one). arg_max and top_k read 32 MB and write a few KB:
 * their eff is against the read bound (bench_read_time: reading the same src bytes alone), not a
 * copy, which writes as much as it reads. */

typedef struct bench_argops_ctx {
    dnnlk_tensor src, idx, val;
    int64_t k, depth;
    int which; /* 0 arg_max, 1 top_k, 2 one_hot */
    float on, off;
    int64_t on64, off64;
} bench_argops_ctx;

static inline void bench_argops_part(void *p, int ith, int nth) {
    bench_argops_ctx *c = (bench_argops_ctx *)p;
    dnnlk_tensor i = c->idx, v = c->val;
    dnnlk_status st;
    if (c->which == 0) st = dnnlk_arg_max(&c->src, -1, 0, 0, NULL, &i, ith, nth);
    else if (c->which == 1) st = dnnlk_top_k(&c->src, c->k, -1, 1, 1, &v, &i, NULL, ith, nth);
    else if (c->idx.dtype == dnnlk_s64) st = dnnlk_one_hot(&c->src, c->depth, -1, &c->on64, &c->off64, &i, ith, nth);
    else st = dnnlk_one_hot(&c->src, c->depth, -1, &c->on, &c->off, &i, ith, nth);
    if (st != dnnlk_success) bench_check(0, "argops call");
}

typedef struct bench_argops_naive {
    const float *x;
    int64_t rows, cols;
    int64_t *out;
} bench_argops_naive;

static inline void bench_argops_naive_argmax(void *p, int ith, int nth) {
    bench_argops_naive *c = (bench_argops_naive *)p;
    int64_t r, j;
    (void)ith;
    (void)nth;
    for (r = 0; r < c->rows; r++) {
        const float *x = c->x + r * c->cols;
        float best = x[0];
        int64_t bi = 0;
        for (j = 1; j < c->cols; j++)
            if (x[j] > best) best = x[j], bi = j;
        c->out[r] = bi;
    }
}

typedef struct bench_onehot_naive {
    const int64_t *idx;
    int64_t n, depth;
    float *out;
} bench_onehot_naive;

static inline void bench_argops_naive_onehot(void *p, int ith, int nth) {
    bench_onehot_naive *c = (bench_onehot_naive *)p;
    int64_t r, d;
    (void)ith;
    (void)nth;
    for (r = 0; r < c->n; r++)
        for (d = 0; d < c->depth; d++) c->out[r * c->depth + d] = d == c->idx[r] ? 1.0f : 0.0f;
}

static inline int bench_argops_cmp_desc(const void *a, const void *b) {
    float x = *(const float *)a, y = *(const float *)b;
    return x < y ? 1 : (x > y ? -1 : 0);
}

static inline void bench_argops(void) {
    const int64_t rows = 256, cols = 32000, n = rows * cols;
    int64_t dims[2] = {rows, cols}, kdims[2] = {rows, 50}, r, j, nth;
    float *x;
    int64_t *idx, *ref;
    float *vals;
    uint64_t s = 12345;
    bench_argops_ctx c;
    bench_argops_naive nv;
    char note[160];
    if (!bench_selected("argops")) return;
    x = (float *)bench_alloc((size_t)n * 4);
    idx = (int64_t *)bench_alloc((size_t)rows * 50 * 8);
    ref = (int64_t *)bench_alloc((size_t)rows * 8);
    vals = (float *)bench_alloc((size_t)rows * 50 * 4);
    for (j = 0; j < n; j++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        x[j] = (float)(s >> 40) * (1.0f / 16777216.0f) * 20.0f - 10.0f;
    }
    memset(&c, 0, sizeof c);
    c.src = bench_dense_tensor(x, dnnlk_f32, 2, dims);

    /* arg_max */
    {
        int64_t odim = rows;
        c.which = 0;
        c.idx = bench_dense_tensor(idx, dnnlk_s64, 1, &odim);
        nv.x = x;
        nv.rows = rows;
        nv.cols = cols;
        nv.out = ref;
        bench_argops_naive_argmax(&nv, 0, 1);
        bench_argops_part(&c, 0, 1);
        bench_check(memcmp(idx, ref, (size_t)rows * 8) == 0, "arg_max f32 [256,32000]");
        for (nth = bench_threads_first(); nth; nth = bench_threads_next(nth)) {
            double t = bench_time(bench_argops_part, &c, (int)nth), bytes = (double)n * 4 + rows * 8;
            double ct = bench_read_time(x, (size_t)n * 4, (int)nth), naive = nth == 1 ? bench_time(bench_argops_naive_argmax, &nv, 1) : 0;
            note[0] = 0;
            bench_peer_note(note, sizeof note, "arg_max f32", (int)nth, 1e9 * t / (double)n);
            bench_row("arg_max f32", "256x32000 axis -1", "f32", (int)nth, (double)n, bytes, t, ct, naive, note);
        }
    }

    /* top_k, k = 50, sorted */
    {
        int ok = 1;
        float *row = (float *)malloc((size_t)cols * 4);
        c.which = 1;
        c.k = 50;
        c.idx = bench_dense_tensor(idx, dnnlk_s64, 2, kdims);
        c.val = bench_dense_tensor(vals, dnnlk_f32, 2, kdims);
        bench_argops_part(&c, 0, 1);
        for (r = 0; r < rows && ok; r++) {
            memcpy(row, x + r * cols, (size_t)cols * 4);
            qsort(row, (size_t)cols, 4, bench_argops_cmp_desc);
            for (j = 0; j < 50; j++)
                if (vals[r * 50 + j] != row[j] || x[r * cols + idx[r * 50 + j]] != row[j]) ok = 0;
        }
        free(row);
        bench_check(ok, "top_k f32 [256,32000] k=50");
        for (nth = bench_threads_first(); nth; nth = bench_threads_next(nth)) {
            double t = bench_time(bench_argops_part, &c, (int)nth), bytes = (double)n * 4 + rows * 50 * 12;
            double ct = bench_read_time(x, (size_t)n * 4, (int)nth);
            note[0] = 0;
            bench_peer_note(note, sizeof note, "top_k k=50 f32", (int)nth, 1e9 * t / (double)n);
            bench_row("top_k k=50 f32", "256x32000 axis -1", "f32", (int)nth, (double)n, bytes, t, ct, 0, note);
        }
    }

    /* one_hot: 4096 indices, depth 1000 */
    {
        const int64_t ni = 4096, depth = 1000, no = ni * depth;
        int64_t *ind = (int64_t *)bench_alloc((size_t)ni * 8), odims[2] = {ni, depth};
        void *out = bench_alloc((size_t)no * 8);
        float *nout = (float *)bench_alloc((size_t)no * 4);
        bench_onehot_naive on;
        int pass;
        for (j = 0; j < ni; j++) {
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            ind[j] = (int64_t)((s >> 33) % (uint64_t)depth);
        }
        c.which = 2;
        c.depth = depth;
        c.src = bench_dense_tensor(ind, dnnlk_s64, 1, &ni);
        c.on = 1.0f;
        c.off = 0.0f;
        c.on64 = 1;
        c.off64 = 0;
        on.idx = ind;
        on.n = ni;
        on.depth = depth;
        on.out = nout;
        bench_argops_naive_onehot(&on, 0, 1);
        for (pass = 0; pass < 2; pass++) {
            dnnlk_dtype dt = pass ? dnnlk_s64 : dnnlk_f32;
            const char *name = pass ? "one_hot s64" : "one_hot f32";
            int ok = 1;
            c.idx = bench_dense_tensor(out, dt, 2, odims);
            memset(out, 0x55, (size_t)no * 8);
            bench_argops_part(&c, 0, 1);
            for (j = 0; j < no && ok; j++)
                ok = pass ? ((const int64_t *)out)[j] == (int64_t)nout[j] : ((const float *)out)[j] == nout[j];
            bench_check(ok, name);
            for (nth = bench_threads_first(); nth; nth = bench_threads_next(nth)) {
                double t = bench_time(bench_argops_part, &c, (int)nth), bytes = (double)no * (pass ? 8 : 4) + ni * 8;
                double ct = bench_copy_time((size_t)bytes, (int)nth);
                double naive = (nth == 1 && !pass) ? bench_time(bench_argops_naive_onehot, &on, 1) : 0;
                note[0] = 0;
                bench_peer_note(note, sizeof note, name, (int)nth, 1e9 * t / (double)no);
                /* write-only: the bound is a non-temporal fill of the output bytes */
                snprintf(note + strlen(note), sizeof note - strlen(note), "%sNT fill %.2fx", note[0] ? ", " : "",
                         bench_fill_time((size_t)no * (pass ? 8 : 4), (int)nth, 0) / t);
                bench_row(name, "4096 idx, depth 1000", pass ? "s64" : "f32", (int)nth, (double)no, bytes, t, ct, naive, note);
            }
        }
        free(ind);
        free(out);
        free(nout);
    }
    free(x);
    free(idx);
    free(ref);
    free(vals);
}
