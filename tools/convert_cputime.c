/* The bench's convert/compare rows (bench/bench_convert.h, one thread), timed as thread CPU time
 * (CLOCK_THREAD_CPUTIME_ID) alternately with a copy of the same bytes (the bench's copy bound:
 * half the compulsory traffic copied, the faster of memcpy and a streaming copy) and with a bare
 * read of the kernel's inputs (AVX-512 loads OR-ed together: what reading alone costs), best of
 * REPS each; on a loaded shared host this is steadier than the bench's wall clock.
 *   cc -O2 -I. tools/convert_cputime.c -o convert_cputime && ./convert_cputime [REPS [ISA [ROWS]]]
 * ROWS: any of "bf16 half lt mask" (default all): f32 -> bf16 and f32 -> f16 [4096,4096]; f32 lt
 * [4096,4096]; s64 [8,1,1,512] == 0-d 0 (4096 elements: 4096 calls per timing, in cache, so the
 * per-call cost counts). eff = copy time / kernel time; read = the bare read's share of the
 * kernel time. */
#include "dnnl_kernels.h"
#include "tools/cputime.h"
#include <immintrin.h>
__attribute__((target("avx512f"))) static void nt_copy(void *d, const void *s, size_t bytes) {
    size_t i;
    for (i = 0; i < bytes; i += 64)
        _mm512_stream_si512((__m512i *)(void *)((char *)d + i), _mm512_loadu_si512((const char *)s + i));
    _mm_sfence();
}
/* ORs every 64-byte line of [p, p + bytes) together: a read of the inputs and nothing else. */
__attribute__((target("avx512f"))) static uint64_t read_all(const void *p, size_t bytes) {
    __m512i s = _mm512_setzero_si512(), t = s;
    size_t i;
    for (i = 0; i + 128 <= bytes; i += 128) {
        s = _mm512_or_si512(s, _mm512_loadu_si512((const char *)p + i));
        t = _mm512_or_si512(t, _mm512_loadu_si512((const char *)p + i + 64));
    }
    return (uint64_t)_mm512_reduce_or_epi64(_mm512_or_si512(s, t));
}
static volatile uint64_t read_sink;
typedef struct cc_call {
    int kind, calls; /* 0 convert, 1 compare */
    dnnlk_compare_op op;
    dnnlk_tensor a, b, d;
} cc_call;
static int cc_run(void *p) {
    cc_call *q = (cc_call *)p;
    int c, st = 0;
    for (c = 0; c < q->calls && !st; c++)
        st = q->kind == 0 ? dnnlk_convert(&q->a, &q->d, 0, 1) : dnnlk_compare(q->op, &q->a, &q->b, &q->d, 0, 1);
    return st;
}
static void fill_f32(float *p, size_t n, uint64_t s) {
    size_t i;
    for (i = 0; i < n; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        p[i] = (float)((int64_t)(s >> 40) - (1 << 23)) * 1e-3f;
    }
}
static void row(const char *name, cc_call *q, int64_t n, size_t traffic, int reps) {
    size_t cb = traffic / 2, ab = (size_t)n * dnnlk_dtype_size(q->a.dtype), bb = q->kind && q->b.ndims ? ab : 0;
    void *c0 = al(cb), *c1 = al(cb);
    double bk, bc, bn = 1e9, br = 1e9;
    int r, c;
    if (cputime_vs_memcpy(cc_run, q, c0, c1, cb, 1, &bk, &bc)) exit(1); /* warm */
    bk = bc = 1e9;
    for (r = 0; r < reps; r++) {
        double k, m, t;
        if (cputime_vs_memcpy(cc_run, q, c0, c1, cb, 1, &k, &m)) exit(1);
        if (k < bk) bk = k;
        t = cpu();
        for (c = 0; c < q->calls; c++) memcpy(c0, c1, cb);
        m = cpu() - t;
        if (m < bc) bc = m;
        if (dnnlk_cpu_isa() >= dnnlk_isa_avx512) {
            t = cpu();
            for (c = 0; c < q->calls; c++) nt_copy(c0, c1, cb);
            t = cpu() - t;
            if (t < bn) bn = t;
            t = cpu();
            for (c = 0; c < q->calls; c++) read_sink += read_all(q->a.data, ab) + (bb ? read_all(q->b.data, bb) : 0);
            t = cpu() - t;
            if (t < br) br = t;
        }
    }
    if (bn < bc) bc = bn;
    printf("%-22s %.4f ns/elem  copy %.4f  eff %.2f  read of the inputs %.4f (%.2f)\n", name,
           1e9 * bk / ((double)n * q->calls), 1e9 * bc / ((double)n * q->calls), bc / bk,
           1e9 * br / ((double)n * q->calls), br / bk);
    free(c0), free(c1);
}
int main(int argc, char **argv) {
    int reps = argc > 1 ? atoi(argv[1]) : 8, isa = argc > 2 ? atoi(argv[2]) : -1;
    const char *only = argc > 3 ? argv[3] : "bf16 half lt mask";
    const int64_t N = 4096, n = N * N;
    float *x = al((size_t)n * 4), *y = al((size_t)n * 4);
    void *o = al((size_t)n * 4);
    int64_t *m = al(8 * 512 * 8), zero = 0;
    cc_call q;
    int64_t i;
    if (isa >= 0) dnnlk_set_max_isa((dnnlk_isa)isa);
    fill_f32(x, (size_t)n, 12345), fill_f32(y, (size_t)n, 777);
    for (i = 0; i < 8 * 512; i++) m[i] = (int64_t)((i * 2654435761u >> 7) & 1);
    memset(&q, 0, sizeof q);
    q.calls = 1;
    q.a = (dnnlk_tensor){x, dnnlk_f32, 2, {N, N}, {N, 1}};
    q.b = (dnnlk_tensor){y, dnnlk_f32, 2, {N, N}, {N, 1}};
    q.d = (dnnlk_tensor){o, dnnlk_bf16, 2, {N, N}, {N, 1}};
    if (strstr(only, "bf16")) row("convert f32->bf16", &q, n, (size_t)n * 6, reps);
    q.d.dtype = dnnlk_f16;
    if (strstr(only, "half"))
        row("convert f32->f16", &q, n, (size_t)n * 6, reps);
    q.kind = 1, q.op = dnnlk_compare_lt, q.d.dtype = dnnlk_boolean;
    if (strstr(only, "lt")) row("compare lt f32", &q, n, (size_t)n * 9, reps);
    q.op = dnnlk_compare_eq, q.calls = 4096;
    q.a = (dnnlk_tensor){m, dnnlk_s64, 4, {8, 1, 1, 512}, {512, 512, 512, 1}};
    q.b = (dnnlk_tensor){&zero, dnnlk_s64, 0, {0}, {0}};
    q.d = (dnnlk_tensor){o, dnnlk_boolean, 4, {8, 1, 1, 512}, {512, 512, 512, 1}};
    if (strstr(only, "mask")) row("compare mask==0 s64", &q, 4096, 4096 * 9, reps);
    free(x), free(y), free(o), free(m);
    return 0;
}
