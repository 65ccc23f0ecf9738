/* The loop engine on a copy: how much a plan and its row iteration cost over a plain memcpy.
 * Cases: a dense copy (coalesces to one row), a row-broadcast copy (src [1,D] -> dst [N,D]) and a
 * short-row copy out of a padded source ([N,3] from rows of 4), which cannot coalesce. */

typedef struct bench_loop_ctx {
    dnnlk__loop plan;
    void *base[2];
} bench_loop_ctx;

static inline void bench_loop_copy_part(void *p, int ith, int nth) {
    bench_loop_ctx *c = (bench_loop_ctx *)p;
    dnnlk__loop_iter it;
    char *row[2];
    int64_t b, e, n, rows, r;
    size_t es = (size_t)c->plan.esize[0];
    int64_t dp = dnnlk__row_pitch(&c->plan, 0), sp = dnnlk__row_pitch(&c->plan, 1);
    int contig = dnnlk__row_kind(&c->plan, 1) == dnnlk__row_contig;
    int64_t ss = dnnlk__row_stride(&c->plan, 1);
    dnnlk__part_range(c->plan.total, ith, nth, 16, &b, &e);
    dnnlk__iter_init(&it, &c->plan, c->base, b, e);
    while ((n = dnnlk__iter_next_block(&it, row, &rows)) > 0) {
        for (r = 0; r < rows; r++) {
            char *d = row[0] + r * dp, *s = row[1] + r * sp;
            if (contig) {
                memcpy(d, s, (size_t)n * es);
            } else {
                int64_t i;
                for (i = 0; i < n; i++) memcpy(d + i * (int64_t)es, s + i * ss, es);
            }
        }
    }
}

static inline void bench_loop_case(const char *name, int64_t rows, int64_t cols, int64_t src_row_stride,
                                   int64_t src_rows) {
    int64_t dims[2] = {rows, cols};
    int64_t dst_strides[2] = {cols, 1}, src_strides[2] = {src_row_stride, 1};
    const int64_t *strides[2] = {dst_strides, src_strides};
    size_t es[2] = {4, 4};
    size_t n = (size_t)(rows * cols);
    float *dst = (float *)bench_alloc(n * 4);
    float *src = (float *)bench_alloc((size_t)(src_rows * (src_row_stride ? src_row_stride : cols)) * 4 + 64);
    bench_loop_ctx c;
    char shape[64];
    int nth;
    int64_t i, j;
    for (i = 0; i < src_rows * (src_row_stride ? src_row_stride : cols); i++) src[i] = (float)i;
    dnnlk__loop_init(&c.plan, 2, dims, 2, strides, es, 0);
    c.base[0] = dst;
    c.base[1] = src;
    bench_loop_copy_part(&c, 0, 1);
    {
        int ok = 1;
        for (i = 0; i < rows && ok; i++)
            for (j = 0; j < cols; j++)
                if (dst[i * cols + j] != src[i * src_row_stride + j]) { ok = 0; break; }
        bench_check(ok, name);
    }
    snprintf(shape, sizeof shape, "%lldx%lld", (long long)rows, (long long)cols);
    for (nth = bench_threads_first(); nth; nth = bench_threads_next(nth)) {
        double t = bench_time(bench_loop_copy_part, &c, nth);
        double bytes = (double)n * 4 * (src_row_stride ? 2 : 1); /* a broadcast source stays in cache */
        double copy_t = bench_copy_time((size_t)bytes, nth);
        char note[160] = "";
        bench_peer_note(note, sizeof note, name, nth, 1e9 * t / (double)n);
        bench_row(name, shape, "f32", nth, (double)n, bytes, t, copy_t, 0, note);
    }
    free(dst);
    free(src);
}

static inline void bench_loop(void) {
    if (!bench_selected("loop")) return;
    bench_loop_case("loop copy dense", 4096, 1024, 1024, 4096);
    bench_loop_case("loop copy row broadcast", 4096, 1024, 0, 1);
    bench_loop_case("loop copy [N,3] of [N,4]", 1 << 20, 3, 4, 1 << 20);
}
