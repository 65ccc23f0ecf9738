/* The loop engine on a copy: dnnlk_convert with dst's dtype = src's, the library's copy, which
 * plans with loop.h and moves rows or blocks of rows; how much the plan and the row kernels cost
 * over a plain memcpy. Cases: a dense copy (coalesces to one row), a row-broadcast copy (src [1,D]
 * -> dst [N,D]) and a short-row copy out of a padded source ([N,3] from rows of 4), which cannot
 * coalesce (convert packs it DNNLK__VF_N rows at a time with two-register permutes). */

typedef struct bench_loop_ctx {
    dnnlk_tensor src, dst;
} bench_loop_ctx;

static inline void bench_loop_copy_part(void *p, int ith, int nth) {
    bench_loop_ctx *c = (bench_loop_ctx *)p;
    if (dnnlk_convert(&c->src, &c->dst, ith, nth) != dnnlk_success) bench_check(0, "loop copy status");
}

static inline void bench_loop_case(const char *name, int64_t rows, int64_t cols, int64_t src_row_stride,
                                   int64_t src_rows) {
    int64_t dims[2] = {rows, cols};
    size_t n = (size_t)(rows * cols);
    float *dst = (float *)bench_alloc(n * 4);
    float *src = (float *)bench_alloc((size_t)(src_rows * (src_row_stride ? src_row_stride : cols)) * 4 + 64);
    bench_loop_ctx c;
    char shape[64];
    int nth;
    int64_t i, j;
    for (i = 0; i < src_rows * (src_row_stride ? src_row_stride : cols); i++) src[i] = (float)i;
    c.dst = bench_dense_tensor(dst, dnnlk_f32, 2, dims);
    c.src = c.dst;
    c.src.data = src;
    c.src.strides[0] = src_row_stride;
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
