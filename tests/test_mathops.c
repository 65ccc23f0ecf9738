/* vmath.h, eltwise.h (erf, gelu), softmax.h (softmax, log_softmax).
 * References are plain double-precision formulas (glibc's erf/erfc/exp/tanh/log as the oracle).
 * `make test` sweeps a sample of all float bit patterns; DNNLK_TEST_EXHAUSTIVE=1 (make
 * test-exhaustive) sweeps every float, on two threads. */
#include <pthread.h>
/* softmax's non-temporal output path from 4 KiB of output on (default 16 MiB), so tests reach it */
#define DNNLK_SM_NT_BYTES 4096
/* A small streaming threshold, so the eltwise non-temporal path (alignment peel, prefetching
 * streaming loop, its tails) runs on test-sized tensors too. */
#define DNNLK_ELT_NT_BYTES 4096
#include "harness.h"

#if DNNLK__X86
#include <immintrin.h>
#endif

/* ---------------------------------------------------------------- references (double) */

static double ref_gelu_erf(double x) { return x == -INFINITY ? -0.0 : 0.5 * x * erfc(-x / sqrt(2.0)); }
static double ref_gelu_tanh(double x) {
    if (x == -INFINITY) return -0.0; /* the limit (the formula reads -inf * 0) */
    /* 0.5x(1 + tanh(u)) = x / (1 + exp(-2u)): the same function, without tanh's saturation */
    double u = sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x);
    return x / (1.0 + exp(-2.0 * u));
}
static double ref_fn(int fn, double x) {
    switch (fn) {
    case DNNLK__VM_EXP: return exp(x);
    case DNNLK__VM_ERF: return erf(x);
    case DNNLK__VM_ERFC: return erfc(x);
    case DNNLK__VM_TANH: return tanh(x);
    case DNNLK__VM_GELU_ERF: return ref_gelu_erf(x);
    default: return ref_gelu_tanh(x);
    }
}
static const char *const fn_name[6] = {"exp", "erf", "erfc", "tanh", "gelu_erf", "gelu_tanh"};
/* The accuracy contract, in ulp against the correctly rounded reference (the integer distance
 * between the result's and the rounded reference's bit patterns). */
static const int fn_bound[6] = {1, 2, 3, 2, 2, 2};
/* The same contract as a real-valued error, as SLEEF and glibc measure it: |y - exact| / ulp(exact),
 * exact the double reference (its own error is below 2^-40 relative here, far below the
 * margins) and ulp(exact) the spacing of floats in exact's binade (2^-149 among the subnormals).
 * It sees what the integer distance rounds away: a result 1 float off a reference that itself sits
 * 0.49 ulp from its rounding is 1.49 ulp off, not 1. Only the gelus carry a real-valued bound;
 * the others' maxima are printed by the exhaustive sweep. */
static const double fn_bound_real[6] = {INFINITY, INFINITY, INFINITY, INFINITY, 2.0, 2.0};

/* |y - r| / ulp(r) for a double reference r in float range (NaN: 0 when both are NaN) */
static double real_ulp_err(float y, double r) {
    int e;
    double ulp;
    if (y != y || r != r) return (y != y && r != r) ? 0 : INFINITY;
    if (isinf((float)r)) return y == (float)r ? 0 : INFINITY; /* beyond FLT_MAX: only inf is right */
    if (r == 0) ulp = 0x1p-149;
    else {
        frexp(r, &e); /* |r| = m 2^e, m in [1/2, 1): the binade's float spacing is 2^(e - 24) */
        ulp = e - 24 < -149 ? 0x1p-149 : ldexp(1.0, e - 24);
    }
    return fabs((double)y - r) / ulp;
}

/* ---------------------------------------------------------------- vector math over float sweeps */

static void vm_array_at(int isa, int fn, const float *x, float *y, size_t n) {
    switch (isa) {
#if DNNLK__X86
    case 3: dnnlk__vm_array_avx512(fn, x, y, n); break;
    case 2: dnnlk__vm_array_avx2(fn, x, y, n); break;
    case 1: dnnlk__vm_array_sse41(fn, x, y, n); break;
#elif DNNLK__NEON
    case 1: dnnlk__vm_array_neon(fn, x, y, n); break;
#endif
    default: dnnlk__vm_array_scalar(fn, x, y, n); break;
    }
}

typedef struct sweep_job {
    uint64_t begin, end, step; /* bit patterns begin, begin+step, ... < end */
    int64_t worst[4][6];
    uint32_t worst_at[4][6];
    double worst_real[4][6]; /* real-valued error, real_ulp_err */
    uint32_t worst_real_at[4][6];
    int64_t mismatch_avx, mismatch_sse; /* avx2 vs avx512, sse41 vs scalar, bitwise */
    int scalar_every;                   /* run the (slow, SSE4.1-identical) scalar path on 1 block in n */
} sweep_job;

static void *sweep_run(void *arg) {
    sweep_job *j = (sweep_job *)arg;
    enum { N = 4096 };
    float x[N], y[4][N];
    int top = (int)dnnlk_cpu_isa(), fn, l;
    uint64_t u = j->begin, block = 0;
    while (u < j->end) {
        size_t n = 0, i;
        int lo = (block++ % (uint64_t)j->scalar_every) == 0 ? 0 : 1;
        for (; n < N && u < j->end; u += j->step) {
            uint32_t b = (uint32_t)u;
            memcpy(&x[n++], &b, 4);
        }
        for (fn = 0; fn < 6; fn++) {
            for (l = lo; l <= top; l++) vm_array_at(l, fn, x, y[l], n);
            for (i = 0; i < n; i++) {
                double rd = ref_fn(fn, (double)x[i]);
                float r = (float)rd;
                for (l = lo; l <= top; l++) {
                    int64_t d = th_ulp_diff(y[l][i], r);
                    double e = real_ulp_err(y[l][i], rd);
                    if (d > j->worst[l][fn]) {
                        j->worst[l][fn] = d;
                        memcpy(&j->worst_at[l][fn], &x[i], 4);
                    }
                    if (e > j->worst_real[l][fn]) {
                        j->worst_real[l][fn] = e;
                        memcpy(&j->worst_real_at[l][fn], &x[i], 4);
                    }
                }
                /* NaN payloads and signs are not specified: any NaN equals any NaN here */
                if (top >= 3 && fn != DNNLK__VM_GELU_ERF && fn != DNNLK__VM_GELU_TANH && memcmp(&y[2][i], &y[3][i], 4) != 0 &&
                    !(y[2][i] != y[2][i] && y[3][i] != y[3][i]))
                    j->mismatch_avx++;
                if (top >= 1 && lo == 0 && memcmp(&y[0][i], &y[1][i], 4) != 0 && !(y[0][i] != y[0][i] && y[1][i] != y[1][i]))
                    j->mismatch_sse++;
            }
        }
    }
    return NULL;
}

/* Every ISA against the reference, on a sweep over all float bit patterns (every float when
 * DNNLK_TEST_EXHAUSTIVE is set, else about a million spread over all exponents and signs). The
 * exhaustive sweep runs the scalar path on one float in 16 (it is slow, and equal bit for bit to
 * SSE4.1, which does see every float). */
TEST(vm_accuracy_sweep) {
    int exhaustive = getenv("DNNLK_TEST_EXHAUSTIVE") && atoi(getenv("DNNLK_TEST_EXHAUSTIVE"));
    uint64_t step = exhaustive ? 1 : (uint64_t)(4099 / th_scale());
    sweep_job jobs[2];
    pthread_t t;
    int top = (int)dnnlk_cpu_isa(), fn, l, k, threaded;
    memset(jobs, 0, sizeof jobs);
    jobs[0].begin = 0;
    jobs[0].end = jobs[1].begin = (1ull << 31) / step * step;
    jobs[1].end = 1ull << 32;
    jobs[0].step = jobs[1].step = step;
    jobs[0].scalar_every = jobs[1].scalar_every = exhaustive ? 16 : 1;
    threaded = pthread_create(&t, NULL, sweep_run, &jobs[1]) == 0;
    sweep_run(&jobs[0]);
    if (threaded) pthread_join(t, NULL);
    else sweep_run(&jobs[1]);
    for (l = 0; l <= top; l++)
        for (fn = 0; fn < 6; fn++) {
            int64_t w = jobs[0].worst[l][fn];
            uint32_t at = jobs[0].worst_at[l][fn], rat = jobs[0].worst_real_at[l][fn];
            double wr = jobs[0].worst_real[l][fn];
            float fat, frat;
            for (k = 1; k < 2; k++) {
                if (jobs[k].worst[l][fn] > w) w = jobs[k].worst[l][fn], at = jobs[k].worst_at[l][fn];
                if (jobs[k].worst_real[l][fn] > wr) wr = jobs[k].worst_real[l][fn], rat = jobs[k].worst_real_at[l][fn];
            }
            memcpy(&fat, &at, 4);
            memcpy(&frat, &rat, 4);
            CHECK_MSG(w <= fn_bound[fn], "%s on %s: %lld ulp at %a", fn_name[fn], dnnlk_isa_name((dnnlk_isa)l),
                      (long long)w, (double)fat);
            CHECK_MSG(wr <= fn_bound_real[fn], "%s on %s: %.4f ulp (real-valued) at %a", fn_name[fn],
                      dnnlk_isa_name((dnnlk_isa)l), wr, (double)frat);
            if (exhaustive)
                printf("  %-9s %-7s max %lld ulp (at %a), real-valued %.4f ulp (at %a)\n", fn_name[fn],
                       dnnlk_isa_name((dnnlk_isa)l), (long long)w, (double)fat, wr, (double)frat);
        }
    /* The FMA decision: AVX2 and AVX-512 agree bit for bit (the gelus aside: AVX-512 reads a finer
     * gelu_erf table and has its own gelu_tanh formula), SSE4.1 and scalar agree bit for bit.
     * Not promised when the includer's own flags enable FMA (-march=native): the SSE4.1 target
     * region then has FMA too and the compiler may fuse its separate multiply and add (the scalar
     * level passes its products through DNNLK__NOFUSE and keeps its bits: test_level_bits.c);
     * dispatch is static there and those two paths never run outside this test. */
    CHECK_EQ(jobs[0].mismatch_avx + jobs[1].mismatch_avx, 0);
#ifndef __FMA__
    CHECK_EQ(jobs[0].mismatch_sse + jobs[1].mismatch_sse, 0);
#endif
}

/* Values put in every lane position and tails: the vector and scalar results agree lane by lane. */
TEST(vm_lanes_and_specials) {
    static const float sp[] = {0.0f, -0.0f, 1e-45f, -1e-45f, 1e-38f, 0.5f, -0.5f, 1.0f, -1.0f, 14.5f, -14.5f,
                               -10.0f, 88.7f, 89.0f, -104.0f, -16.0f, -9.3f, 3e38f, -3e38f, INFINITY, -INFINITY, NAN,
                               /* the FMA gelu_tanh's lane classes: clamp, near/far switch, zero results */
                               5.25f, 5.2499995f, 5.2500005f, -5.25f, -5.2499995f, -5.2500005f, -10.8f, -10.799999f,
                               -10.8000002f, -10.75f, -11.0f, 11.0f,
                               /* AVX-512 gelu_tanh: 2^k dropped beside P from k = -60 on (exp(-2z) = 2^60) */
                               -7.4644880f, -7.4644875f, -7.4644885f};
    float x[40], y[40], r;
    int fn, n, i;
    size_t k;
    for (fn = 0; fn < 6; fn++)
        for (k = 0; k < sizeof sp / sizeof sp[0]; k++)
            for (n = 1; n <= 33; n += 4) {
                for (i = 0; i < n; i++) x[i] = (float)i * 0.37f - 3.0f;
                x[n - 1] = sp[k];
                y[n] = 12345.0f;
                dnnlk__vm_apply(fn, x, y, (size_t)n);
                r = (float)ref_fn(fn, (double)sp[k]);
                CHECK_MSG(th_ulp_diff(y[n - 1], r) <= fn_bound[fn], "%s(%a) = %a, want %a (%s)", fn_name[fn],
                          (double)sp[k], (double)y[n - 1], (double)r, th_isa_name);
                CHECK(y[n] == 12345.0f); /* nothing written past n */
            }
}

/* ---------------------------------------------------------------- eltwise: known answers */

static float run1(int op, float x) {
    int64_t d[1] = {1};
    float y = 0;
    dnnlk_tensor s = th_tensor(&x, dnnlk_f32, 1, d), t = th_tensor(&y, dnnlk_f32, 1, d);
    dnnlk_status st = op == 0 ? dnnlk_erf(&s, &t, 0, 1) : dnnlk_gelu(&s, op == 1 ? dnnlk_gelu_none : dnnlk_gelu_tanh, &t, 0, 1);
    CHECK_EQ(st, dnnlk_success);
    return y;
}

TEST(eltwise_known_answers) {
    float g;
    CHECK(fabsf(run1(1, 1.0f) - 0.8413447f) <= 1e-6f);
    CHECK(fabsf(run1(2, 3.0f) - 2.9963626f) <= 1e-6f);
    g = run1(1, -10.0f);
    CHECK_MSG(fabs(g / -7.619853e-23 - 1) < 1e-6, "gelu(-10) = %g", (double)g);
    CHECK(run1(2, -10.0f) < 0); /* the tanh form keeps its left tail too */
    g = run1(1, -INFINITY);
    CHECK(g == 0 && signbit(g));
    g = run1(2, -INFINITY);
    CHECK(g == 0 && signbit(g));
    CHECK(run1(1, INFINITY) == INFINITY && run1(2, INFINITY) == INFINITY);
    CHECK(isnan(run1(1, NAN)) && isnan(run1(2, NAN)) && isnan(run1(0, NAN)));
    CHECK(run1(0, INFINITY) == 1.0f && run1(0, -INFINITY) == -1.0f);
    CHECK(run1(0, 0.5f) == (float)erf(0.5));
    g = run1(0, -0.0f);
    CHECK(g == 0 && signbit(g));
    {
        int64_t d[1] = {1};
        float x = 1.0f, y = 0;
        dnnlk_tensor s = th_tensor(&x, dnnlk_f32, 1, d), t = th_tensor(&y, dnnlk_f32, 1, d);
        CHECK_EQ(dnnlk_gelu(&s, dnnlk_gelu_erf, &t, 0, 1), dnnlk_success);
        CHECK(y == run1(1, 1.0f));
    }
}

/* ---------------------------------------------------------------- layouts (shared by both families) */

typedef struct lay {
    int ndims;
    int64_t dims[4];
    int perm[4];      /* memory order of the dims, outermost first */
    int flip;         /* dim whose stride is negated (-1: none) */
    int bcast;        /* src dim with stride 0 (-1: none) */
    int pad;          /* extra elements per innermost memory run */
} lay;

/* Strides of a layout; returns the element span and the offset of element 0 within it. */
static int64_t lay_strides(const lay *L, int64_t *st, int64_t *off, int bcast) {
    int64_t s = 1;
    int k;
    *off = 0;
    for (k = L->ndims - 1; k >= 0; k--) {
        int d = L->perm[k];
        st[d] = s;
        s *= L->dims[d] + (k == L->ndims - 1 ? L->pad : 0);
    }
    if (bcast >= 0) st[bcast] = 0;
    /* a stride of exactly -1 reads as DNNLK_UNKNOWN (shape.h), so only wider strides are flipped */
    if (L->flip >= 0 && L->flip != bcast && st[L->flip] > 1) {
        *off = (L->dims[L->flip] - 1) * st[L->flip];
        st[L->flip] = -st[L->flip];
    }
    return s;
}

/* Distance in units of the last place of dtype dt (f32, bf16, f16) between two values of it. */
static int64_t dt_ulp_diff(float a, float b, dnnlk_dtype dt) {
    uint16_t ha, hb;
    int32_t ia, ib;
    if (dt == dnnlk_f32) return th_ulp_diff(a, b);
    if (a != a || b != b) return (a != a && b != b) ? 0 : INT64_MAX;
    ha = dt == dnnlk_bf16 ? dnnlk_f32_to_bf16(a) : dnnlk_f32_to_f16(a);
    hb = dt == dnnlk_bf16 ? dnnlk_f32_to_bf16(b) : dnnlk_f32_to_f16(b);
    ia = (ha & 0x8000) ? -(int32_t)(ha & 0x7fff) : (int32_t)ha;
    ib = (hb & 0x8000) ? -(int32_t)(hb & 0x7fff) : (int32_t)hb;
    return ia > ib ? ia - ib : ib - ia;
}

static float rand_value(int kind) {
    switch (kind) {
    case 0: return th_randf(-4, 4);
    case 1: return th_randf(-20, 20);
    default: return th_randf(-100, 100);
    }
}

static const dnnlk_dtype fdt[3] = {dnnlk_f32, dnnlk_bf16, dnnlk_f16};

/* Runs op (0 erf, 1 gelu erf, 2 gelu tanh, 3 softmax, 4 log_softmax) on layout L with the given
 * dtypes, for nth in {1, 2, 3, 7}; checks the outputs are the same bits for every nth, guards
 * intact, and compares each element with expect(). */
typedef void (*expect_fn)(int op, int axis, const lay *L, const float *xin, const int64_t *xs, int64_t xoff,
                          float *want, const int64_t *ws);

static int64_t flat_index(const lay *L, int64_t i, const int64_t *st) {
    int64_t off = 0;
    int d;
    for (d = L->ndims - 1; d >= 0; d--) {
        off += (i % L->dims[d]) * st[d];
        i /= L->dims[d];
    }
    return off;
}

static int64_t lay_numel(const lay *L) {
    int64_t n = 1;
    int d;
    for (d = 0; d < L->ndims; d++) n *= L->dims[d];
    return n;
}

static dnnlk_status run_op(int op, int axis, const dnnlk_tensor *s, dnnlk_tensor *t, int ith, int nth) {
    switch (op) {
    case 0: return dnnlk_erf(s, t, ith, nth);
    case 1: return dnnlk_gelu(s, dnnlk_gelu_none, t, ith, nth);
    case 2: return dnnlk_gelu(s, dnnlk_gelu_tanh, t, ith, nth);
    case 3: return dnnlk_softmax(s, axis, t, ith, nth);
    default: return dnnlk_log_softmax(s, axis, t, ith, nth);
    }
}

/* Element-wise expectation: the same math as the contiguous f32 path of the current ISA, applied
 * to the input converted to f32, rounded to the output dtype. */
static float elt_expect(int op, float x) {
    float y;
    dnnlk__vm_apply(op == 0 ? DNNLK__VM_ERF : op == 1 ? DNNLK__VM_GELU_ERF : DNNLK__VM_GELU_TANH, &x, &y, 1);
    return y;
}

/* The softmax reference in double along one row (PyTorch's semantics fall out of the formula).
 * log(sum) is log(c) + log1p(rest / c), c the count of maxima: with a plain double sum the bits of
 * a rest below 2^-53 would be lost (log_softmax of a dominant element is about -rest). */
static void ref_softmax_row(const double *x, int64_t n, int log, double *y) {
    double m = -INFINITY, s = 0, c = 0, ls;
    int64_t i;
    for (i = 0; i < n; i++) m = x[i] > m ? x[i] : m;
    for (i = 0; i < n; i++) {
        if (x[i] == m) c += 1;
        else s += exp(x[i] - m);
    }
    if (m == INFINITY || m == -INFINITY) c = NAN; /* PyTorch: a row with +inf, or only -inf, is NaN */
    for (i = 0; i < n; i++)
        if (x[i] != x[i]) c = NAN;
    ls = (double)logl((long double)c) + log1p(s / c);
    for (i = 0; i < n; i++) y[i] = log ? (x[i] - m) - ls : exp(x[i] - m) / (c + s);
}

static void layout_case(int op, int axis, const lay *L, dnnlk_dtype dx, dnnlk_dtype dy, int kind, int inplace) {
    int64_t xs[4], ys[4], xoff, yoff, n = lay_numel(L), i, j;
    int64_t xspan = lay_strides(L, xs, &xoff, inplace ? -1 : L->bcast);
    int64_t yspan;
    lay Ly = *L;
    size_t ex = dnnlk_dtype_size(dx), ey = dnnlk_dtype_size(dy);
    th_buf xb, yb[4];
    float *xin, *want;
    int nths[4] = {1, 2, 3, 7}, k;
    dnnlk_tensor s, t;
    if (inplace) dy = dx, ey = ex;
    Ly.pad = 0;
    if (!inplace) { /* output in plain row-major, or the input's layout for in-place */
        for (k = 0; k < L->ndims; k++) Ly.perm[k] = k;
        Ly.flip = -1;
    }
    yspan = inplace ? xspan : lay_strides(&Ly, ys, &yoff, -1);
    if (inplace) memcpy(ys, xs, sizeof xs), yoff = xoff;
    xb = th_alloc((size_t)xspan * ex, (size_t)th_randint(0, 3) * 2);
    xin = (float *)malloc((size_t)(xspan > 0 ? xspan : 1) * sizeof(float));
    want = (float *)malloc((size_t)(n > 0 ? n : 1) * sizeof(float));
    for (i = 0; i < xspan; i++) {
        float v = rand_value(kind);
        dnnlk__store_from_f32((char *)xb.p + i * (int64_t)ex, dx, v);
        xin[i] = dnnlk__load_as_f32((char *)xb.p + i * (int64_t)ex, dx);
    }
    /* expected values, indexed in row-major order */
    if (op < 3) {
        for (i = 0; i < n; i++) {
            float r = elt_expect(op, xin[xoff + flat_index(L, i, xs)]);
            char tmp[4];
            dnnlk__store_from_f32(tmp, dy, r);
            want[i] = dnnlk__load_as_f32(tmp, dy);
        }
    } else if (n > 0) {
        int64_t K = L->ndims ? L->dims[axis] : 1, inner = 1, outer;
        double *rx = (double *)malloc((size_t)K * sizeof(double)), *ry = (double *)malloc((size_t)K * sizeof(double));
        for (k = axis + 1; k < L->ndims; k++) inner *= L->dims[k];
        outer = n / K / inner;
        for (i = 0; i < outer * inner; i++) {
            int64_t o = i / inner, in = i % inner;
            for (j = 0; j < K; j++) rx[j] = xin[xoff + flat_index(L, (o * K + j) * inner + in, xs)];
            ref_softmax_row(rx, K, op == 4, ry);
            for (j = 0; j < K; j++) {
                char tmp[4];
                dnnlk__store_from_f32(tmp, dy, (float)ry[j]);
                want[(o * K + j) * inner + in] = dnnlk__load_as_f32(tmp, dy);
            }
        }
        free(rx);
        free(ry);
    }
    for (k = 0; k < 4; k++) {
        int p;
        if (inplace && k > 0) break;
        yb[k] = inplace ? xb : th_alloc((size_t)yspan * ey, (size_t)th_randint(0, 3) * 2);
        memset(&s, 0, sizeof s);
        s.data = (char *)xb.p + xoff * (int64_t)ex;
        s.dtype = dx;
        s.ndims = L->ndims;
        memcpy(s.dims, L->dims, sizeof L->dims);
        memcpy(s.strides, xs, sizeof xs);
        t = s;
        t.data = (char *)yb[k].p + yoff * (int64_t)ey;
        t.dtype = dy;
        if (!inplace) {
            memcpy(t.strides, ys, sizeof ys);
            if (k & 1) for (p = 0; p < t.ndims; p++) t.strides[p] = DNNLK_UNKNOWN; /* deduced: dense */
        }
        for (p = 0; p < nths[k]; p++) { dnnlk_status st_ = run_op(op, axis, &s, &t, p, nths[k]); CHECK_EQ(st_, dnnlk_success); if (st_) { int q; fprintf(stderr, "nd %d axis %d k %d inplace %d:", s.ndims, axis, k, inplace); for (q = 0; q < s.ndims; q++) fprintf(stderr, " %lld/%lld/%lld", (long long)s.dims[q], (long long)s.strides[q], (long long)t.strides[q]); fprintf(stderr, "\n"); break; } }
        CHECK(th_guards_ok(&yb[k]));
        if (k > 0) CHECK(memcmp(yb[k].p, yb[0].p, yb[0].bytes) == 0); /* same bits for every nth */
    }
    for (i = 0; i < n; i++) {
        float got = dnnlk__load_as_f32((char *)yb[0].p + (yoff + flat_index(L, i, ys)) * (int64_t)ey, dy);
        /* eltwise: the same bits as the contiguous f32 math; softmax: 4 ulp of f32 against the
         * double reference, or 1 ulp of a bf16/f16 output (the reference rounds twice) */
        int64_t tol = op < 3 ? 0 : (dy == dnnlk_f32 ? 4 : 1);
        int64_t d = dt_ulp_diff(got, want[i], dy);
        CHECK_MSG(d <= tol, "op %d axis %d nd %d dims %lld %lld %lld perm %d %d %d flip %d bcast %d pad %d inpl %d %s->%s elem %lld: got %a want %a (%lld ulp)", op, axis, L->ndims, (long long)L->dims[0], (long long)L->dims[1], (long long)L->dims[2], L->perm[0], L->perm[1], L->perm[2], L->flip, L->bcast, L->pad, inplace, dnnlk_dtype_name(dx),
                  dnnlk_dtype_name(dy), (long long)i, (double)got, (double)want[i], (long long)d);
        if (d > tol) break;
    }
    for (k = 0; k < 4; k++) {
        if (inplace && k > 0) break;
        if (!inplace) th_free(&yb[k]);
    }
    th_free(&xb);
    free(xin);
    free(want);
}

static lay rand_lay(int maxn) {
    lay L;
    int k;
    L.ndims = (int)th_randint(1, 3);
    for (k = 0; k < L.ndims; k++) L.dims[k] = th_randint(0, 3) == 0 ? th_randint(1, 3) : th_randint(1, maxn);
    for (k = 0; k < L.ndims; k++) L.perm[k] = k;
    if (L.ndims > 1 && th_randint(0, 2) == 0) { /* a permuted (transposed) memory order */
        int a = (int)th_randint(0, L.ndims - 1), b = (int)th_randint(0, L.ndims - 1), tmp = L.perm[a];
        L.perm[a] = L.perm[b];
        L.perm[b] = tmp;
    }
    L.flip = th_randint(0, 3) == 0 ? (int)th_randint(0, L.ndims - 1) : -1;
    L.bcast = th_randint(0, 5) == 0 ? (int)th_randint(0, L.ndims - 1) : -1;
    L.pad = th_randint(0, 3) == 0 ? (int)th_randint(1, 5) : 0;
    return L;
}

TEST(eltwise_layouts_dtypes_parts) {
    long cases = th_scaled(150), c;
    th_seed(11);
    for (c = 0; c < cases; c++) {
        lay L = rand_lay(40);
        int op = (int)(c % 3);
        layout_case(op, 0, &L, fdt[th_randint(0, 2)], fdt[th_randint(0, 2)], (int)th_randint(0, 2), th_randint(0, 5) == 0);
    }
    { /* tails 0..2x the widest vector plus one, misaligned, all three ops */
        lay L = {1, {0}, {0}, -1, -1, 0};
        int64_t len;
        for (len = 0; len <= 33; len++) {
            L.dims[0] = len;
            layout_case((int)(len % 3), 0, &L, dnnlk_f32, dnnlk_f32, 1, 0);
        }
        /* past the streaming threshold: every tail of the two-vector streaming loop, each op */
        for (len = 1024; len <= 1024 + 33; len++) {
            L.dims[0] = len;
            layout_case((int)(len % 3), 0, &L, dnnlk_f32, dnnlk_f32, 1, 0);
            layout_case((int)((len + 1) % 3), 0, &L, dnnlk_f32, dnnlk_f32, 1, 0);
        }
    }
}

TEST(softmax_layouts_dtypes_parts) {
    long cases = th_scaled(150), c;
    th_seed(12);
    for (c = 0; c < cases; c++) {
        lay L = rand_lay(70);
        int axis = (int)th_randint(0, L.ndims - 1);
        layout_case(3 + (int)(c & 1), axis, &L, fdt[th_randint(0, 2)], fdt[th_randint(0, 2)], (int)th_randint(0, 2),
                    th_randint(0, 5) == 0);
    }
    { /* contiguous rows of every tail length, long rows (several chunks), column layouts */
        lay L = {2, {3, 0}, {0, 1}, -1, -1, 0};
        int64_t len;
        for (len = 1; len <= 40; len++) {
            L.dims[1] = len;
            layout_case(3 + (int)(len & 1), 1, &L, dnnlk_f32, dnnlk_f32, 2, 0);
        }
        L.dims[1] = 1500;
        layout_case(3, 1, &L, dnnlk_f32, dnnlk_f32, 2, 0);
        layout_case(4, 1, &L, dnnlk_f32, dnnlk_f32, 2, 0);
        layout_case(3, 1, &L, dnnlk_bf16, dnnlk_f32, 1, 0);
        L.ndims = 3;
        L.dims[0] = 2, L.dims[1] = 33, L.dims[2] = 71;
        L.perm[2] = 2;
        layout_case(3, 1, &L, dnnlk_f32, dnnlk_f32, 2, 0); /* column path: axis 1, inner rows of 71 */
        layout_case(4, 1, &L, dnnlk_f16, dnnlk_bf16, 1, 0);
        layout_case(3, 0, &L, dnnlk_f32, dnnlk_f32, 2, 0);
        layout_case(4, 0, &L, dnnlk_f32, dnnlk_f32, 2, 1);
    }
}

/* ---------------------------------------------------------------- softmax specials (PyTorch) */

static void sm_row(int log, const float *x, int n, float *y) {
    int64_t d[1];
    dnnlk_tensor s, t;
    d[0] = n;
    s = th_tensor((void *)x, dnnlk_f32, 1, d);
    t = th_tensor(y, dnnlk_f32, 1, d);
    CHECK_EQ(log ? dnnlk_log_softmax(&s, 0, &t, 0, 1) : dnnlk_softmax(&s, -1, &t, 0, 1), dnnlk_success);
}

TEST(softmax_special_rows) {
    float y[40], x[40];
    int n, i, pos, log;
    /* PyTorch 1.13: softmax([1, inf]) = [nan, nan]; ([-inf, 0]) = [0, 1], log [-inf, 0];
     * ([-inf, -inf]) = nan; ([1, nan]) = nan; ([3e38, -3e38]) = [1, 0], log [0, -inf] */
    for (n = 2; n <= 37; n += 5)
        for (pos = 0; pos < n; pos += 3) {
            for (i = 0; i < n; i++) x[i] = (float)(i % 7) - 3.0f;
            x[pos] = INFINITY;
            sm_row(0, x, n, y);
            for (i = 0; i < n; i++) CHECK(isnan(y[i]));
            sm_row(1, x, n, y);
            for (i = 0; i < n; i++) CHECK(isnan(y[i]));
            x[pos] = NAN;
            sm_row(0, x, n, y);
            for (i = 0; i < n; i++) CHECK(isnan(y[i]));
            /* a NaN of another sign and payload (found from the row's sum, not in the max pass):
             * every element of the row is the one NaN the other NaN rows get, not the input's */
            x[pos] = dnnlk__f32_from_bits(0xffc01234u);
            for (log = 0; log < 2; log++) {
                sm_row(log, x, n, y);
                for (i = 0; i < n; i++) CHECK_EQ(dnnlk__f32_bits(y[i]), dnnlk__f32_bits(NAN));
            }
            x[pos] = -INFINITY;
            sm_row(0, x, n, y);
            CHECK(y[pos] == 0.0f);
            for (i = 0; i < n; i++) CHECK(!isnan(y[i]));
            sm_row(1, x, n, y);
            CHECK(y[pos] == -INFINITY);
            for (i = 0; i < n; i++) CHECK(!isnan(y[i]));
            for (i = 0; i < n; i++) x[i] = -INFINITY;
            sm_row(0, x, n, y);
            for (i = 0; i < n; i++) CHECK(isnan(y[i]));
        }
    x[0] = 3e38f, x[1] = -3e38f;
    sm_row(0, x, 2, y);
    CHECK(y[0] == 1.0f && y[1] == 0.0f);
    sm_row(1, x, 2, y);
    CHECK(y[0] == 0.0f && y[1] == -INFINITY);
    x[0] = 3e38f, x[1] = 3e38f;
    sm_row(0, x, 2, y);
    CHECK(y[0] == 0.5f && y[1] == 0.5f);
    x[0] = 5.0f;
    sm_row(0, x, 1, y);
    CHECK(y[0] == 1.0f);
    sm_row(1, x, 1, y);
    CHECK(y[0] == 0.0f);
    { /* a 0-d tensor is a row of one */
        float v = 2.0f, r = 0;
        dnnlk_tensor s = th_tensor(&v, dnnlk_f32, 0, NULL), t = th_tensor(&r, dnnlk_f32, 0, NULL);
        CHECK_EQ(dnnlk_softmax(&s, 0, &t, 0, 1), dnnlk_success);
        CHECK(r == 1.0f);
        CHECK_EQ(dnnlk_softmax(&s, -1, &t, 0, 1), dnnlk_success);
        CHECK_EQ(dnnlk_softmax(&s, 1, &t, 0, 1), dnnlk_invalid_arguments);
    }
}

/* Row accuracy over scales and lengths, every ISA within 4 ulp of the double reference; AVX2 and
 * AVX-512 (and SSE4.1 and scalar) agree bit for bit. */
TEST(softmax_accuracy_rows) {
    static float x[4096], y[4096];
    static double rx[4096], ry[4096];
    long cases = th_scaled(60), c;
    th_seed(13);
    for (c = 0; c < cases; c++) {
        int n = (int)(c % 4 == 0 ? th_randint(1000, 4096) : th_randint(1, 300)), log = (int)(c & 1), i;
        float scale = c % 3 == 0 ? 1.0f : c % 3 == 1 ? 30.0f : 1000.0f;
        for (i = 0; i < n; i++) x[i] = th_randf(-scale, scale), rx[i] = x[i];
        ref_softmax_row(rx, n, log, ry);
        sm_row(log, x, n, y);
        for (i = 0; i < n; i++) {
            int64_t d = th_ulp_diff(y[i], (float)ry[i]);
            CHECK_MSG(d <= 4, "%s n %d x %a: got %a want %a", log ? "log_softmax" : "softmax", n, (double)x[i],
                      (double)y[i], ry[i]);
            if (d > 4) break;
        }
    }
}

TEST(softmax_isa_groups_agree) {
    static float x[3000], y[4][3000];
    int top = (int)dnnlk_cpu_isa(), l, log, n;
    th_seed(14);
    for (n = 1; n < 3000; n = n < 1000 ? n * 3 + 1 : n + 1283) /* ..., 1093, 2376 (past the stack buffer) */
        for (log = 0; log < 2; log++) {
            int i;
            for (i = 0; i < n; i++) x[i] = th_randf(-50, 50);
            for (l = 0; l <= top; l++) {
                dnnlk_set_max_isa((dnnlk_isa)l);
                sm_row(log, x, n, y[l]);
            }
            dnnlk_set_max_isa(dnnlk_isa_avx512);
            if (top >= 1) CHECK(memcmp(y[0], y[1], (size_t)n * 4) == 0);
            if (top >= 3) CHECK(memcmp(y[2], y[3], (size_t)n * 4) == 0);
        }
}

/* Long rows (the stack-buffered exps up to 2048, then the exps kept in dst, the blocks of 32 and
 * their padded tail) on inputs that stress each step: the x - m pair (values near 1e4 with a spread,
 * and tiny values beside a large max), sums of tens of thousands of nearly equal exps (rounding of
 * the f32 pair sums all one way), subnormal exps, masks of -inf and -1e4, many exact maxima (the
 * log_softmax count), elements of a larger binade than the max (the Fast2Sum shortcut's edge). Every element within 4 ulp of the double reference; the same bits in place,
 * through the gathered (strided) path, and as the outer rows of a 2-d tensor (next to a NaN row). */
static float wide_value(int kind, int64_t i) {
    switch (kind) {
    case 0: return th_randf(-9.0f, 9.0f);
    case 1: return 1e4f + th_randf(-30.0f, 30.0f);
    case 2: return th_randf(-1e-3f, 1e-3f);              /* every exp near 1 */
    case 3: return i % 2 ? th_randf(-1e-6f, 1e-6f) : -th_randf(88.0f, 104.5f); /* subnormal exps */
    case 4: return i % 5 == 0 ? -INFINITY : i % 5 == 1 ? -1e4f : th_randf(-5.0f, 5.0f); /* masks */
    case 5: return i % 3 == 0 ? 7.0f : 7.0f - th_randf(0.0f, 1e-5f); /* ties at the max, and near it */
    case 6: return i % 2 ? th_randf(20.0f, 22.0f) : th_randf(-1e-4f, 1e-4f); /* tiny x, max ~22 */
    /* x of a larger binade than the max: exact only through TwoSum, or where exp(x - m) is 0 */
    case 7: return i == 5 ? 50.0f : th_randf(-200.0f, 50.0f);
    default: return i == 5 ? 9.0f : th_randf(-100.0f, 9.0f);
    }
}

TEST(softmax_wide_rows) {
    static const int64_t lens[] = {2047, 2048, 2049, 2081, 32000, 33};
    int64_t li;
    th_seed(15);
    for (li = 0; li < (int64_t)(sizeof lens / sizeof lens[0]); li++) {
        int64_t K = lens[li], i, d2[2], st[2];
        int kind, log;
        float *x = (float *)malloc((size_t)K * 7 * sizeof(float)), *y = (float *)malloc((size_t)K * 7 * sizeof(float));
        float *z = (float *)malloc((size_t)K * sizeof(float));
        double *rx = (double *)malloc((size_t)K * sizeof(double)), *ry = (double *)malloc((size_t)K * sizeof(double));
        for (kind = 0; kind < 9; kind++)
            for (log = 0; log < 2; log++) {
                dnnlk_tensor s, t;
                int64_t bad = 0;
                for (i = 0; i < K; i++) x[i] = wide_value(kind, i), rx[i] = x[i];
                ref_softmax_row(rx, K, log, ry);
                sm_row(log, x, (int)K, y);
                for (i = 0; i < K; i++) {
                    int64_t d = th_ulp_diff(y[i], (float)ry[i]);
                    if (d > 4 && !bad++)
                        CHECK_MSG(0, "%s K %lld kind %d elem %lld x %a: got %a want %a", log ? "log_softmax" : "softmax",
                                  (long long)K, kind, (long long)i, (double)x[i], (double)y[i], ry[i]);
                }
                CHECK(bad == 0);
                /* in place */
                memcpy(z, x, (size_t)K * sizeof(float));
                sm_row(log, z, (int)K, z);
                CHECK(memcmp(z, y, (size_t)K * sizeof(float)) == 0);
                /* the same row twice at stride 3 (rows 3K apart: the gathered path), written alike */
                for (i = 0; i < K; i++) x[K + 3 * i] = x[K + 3 * K + 3 * i] = x[i];
                d2[0] = 2, d2[1] = K;
                st[0] = 3 * K, st[1] = 3;
                s = th_tensor(x + K, dnnlk_f32, 2, d2);
                memcpy(s.strides, st, sizeof st);
                t = s;
                t.data = y + K;
                CHECK_EQ(log ? dnnlk_log_softmax(&s, 1, &t, 0, 1) : dnnlk_softmax(&s, 1, &t, 0, 1), dnnlk_success);
                for (i = 0; i < K; i++)
                    if (memcmp(&y[K + 3 * i], &y[i], sizeof(float)) != 0 || memcmp(&y[K + 3 * K + 3 * i], &y[i], sizeof(float)) != 0)
                        break;
                CHECK_MSG(i == K, "K %lld kind %d log %d: strided differs at %lld", (long long)K, kind, log, (long long)i);
                /* three contiguous rows (the row-interleaved path), the middle one NaN */
                for (i = 0; i < K; i++) x[K + i] = x[3 * K + i] = x[i], x[2 * K + i] = i == K / 2 ? NAN : x[i];
                d2[0] = 3, d2[1] = K;
                s = th_tensor(x + K, dnnlk_f32, 2, d2);
                t = th_tensor(y + K, dnnlk_f32, 2, d2);
                CHECK_EQ(log ? dnnlk_log_softmax(&s, 1, &t, 0, 1) : dnnlk_softmax(&s, -1, &t, 0, 1), dnnlk_success);
                CHECK(memcmp(y + K, y, (size_t)K * sizeof(float)) == 0);
                CHECK(memcmp(y + 3 * K, y, (size_t)K * sizeof(float)) == 0);
                for (i = 0; i < K; i++)
                    if (!isnan(y[2 * K + i])) break;
                CHECK(i == K);
            }
        free(x), free(y), free(z), free(rx), free(ry);
    }
}

/* ---------------------------------------------------------------- FTZ/DAZ */

/* The FP control word with denormals flushed (x86: MXCSR FTZ | DAZ; aarch64: FPCR.FZ, which
 * flushes inputs and outputs alike), and back. Returns 0 where the test has no such control. */
static int fp_flush_denormals(int on, unsigned long *saved) {
#if DNNLK__X86
    if (on) *saved = _mm_getcsr(), _mm_setcsr((unsigned int)*saved | 0x8040);
    else _mm_setcsr((unsigned int)*saved);
    return 1;
#elif defined(__aarch64__) && (defined(__GNUC__) || defined(__clang__))
    if (on) {
        unsigned long fpcr;
        __asm__ __volatile__("mrs %0, fpcr" : "=r"(fpcr));
        *saved = fpcr;
        __asm__ __volatile__("msr fpcr, %0" : : "r"(fpcr | (1ul << 24)));
    } else {
        __asm__ __volatile__("msr fpcr, %0" : : "r"(*saved));
    }
    return 1;
#else
    (void)on, (void)saved;
    return 0;
#endif
}

TEST(ftz_daz_on) {
    unsigned long saved = 0;
    float x[64], a[64], b[64];
    int op, i;
    if (!fp_flush_denormals(1, &saved)) SKIP("no flush-to-zero control on this target");
    fp_flush_denormals(0, &saved);
    for (i = 0; i < 64; i++) x[i] = (float)i * 0.3f - 9.0f;
    x[0] = 1e-40f; /* a denormal input: DAZ reads it as 0 */
    for (op = 1; op <= 4; op++) {
        int64_t d[1] = {64};
        dnnlk_tensor s = th_tensor(x, dnnlk_f32, 1, d), t = th_tensor(a, dnnlk_f32, 1, d), u = th_tensor(b, dnnlk_f32, 1, d);
        CHECK_EQ(run_op(op, 0, &s, &t, 0, 1), dnnlk_success);
        fp_flush_denormals(1, &saved);
        CHECK_EQ(run_op(op, 0, &s, &u, 0, 1), dnnlk_success);
        fp_flush_denormals(0, &saved);
        for (i = 1; i < 64; i++)
            CHECK_MSG(a[i] == b[i] || (fabsf(a[i]) < 1.2e-38f && fabsf(b[i]) < 1.2e-38f), "op %d x %g: %a vs %a", op,
                      (double)x[i], (double)a[i], (double)b[i]);
        CHECK(!isnan(b[0]));
    }
}

/* vmath.h: lanes whose result is 0 (or +-1, or x) do no underflowing arithmetic, so they cost no
 * microcode assist without FTZ. MXCSR's underflow flag (sticky) tells whether any step underflowed. */
TEST(zero_results_do_not_underflow) {
#if DNNLK__X86
    static const float in[6][8] = {
        {-104.0f, -200.0f, -1e30f, -INFINITY, -3e38f, -103.99f, -150.0f, -1000.0f},    /* exp: 0 */
        {4.0f, 10.0f, 1e30f, INFINITY, -4.0f, -1e30f, -INFINITY, 100.0f},              /* erf: +-1 */
        {10.1f, 11.0f, 50.0f, 1e30f, INFINITY, 3e38f, 10.5f, 20.0f},                   /* erfc: 0 */
        {20.0f, -20.0f, INFINITY, -INFINITY, 1e30f, -1e30f, 9.5f, -9.5f},              /* tanh: +-1 */
        {-14.5f, -15.0f, -100.0f, -1e30f, -INFINITY, 14.5f, 1e30f, INFINITY},          /* gelu_erf: -0 or x */
        {-12.0f, -16.0f, -20.0f, -1e30f, -INFINITY, 6.0f, 1e30f, INFINITY}};           /* gelu_tanh: -0 or x */
    float y[8];
    int fn;
    for (fn = 0; fn < 6; fn++) {
        unsigned int saved = _mm_getcsr();
        int n;
        for (n = 1; n <= 8; n++) { /* every vector width, tails included */
            _mm_setcsr(saved & ~0x3fu); /* clear the sticky exception flags */
            dnnlk__vm_apply(fn, in[fn], y, (size_t)n);
            CHECK_MSG((_mm_getcsr() & 0x10u) == 0, "%s: %d lanes raised underflow (%s)", fn_name[fn], n, th_isa_name);
        }
        _mm_setcsr(saved);
        for (n = 0; n < 8; n++)
            CHECK_MSG(th_ulp_diff(y[n], (float)ref_fn(fn, (double)in[fn][n])) == 0, "%s(%a) = %a", fn_name[fn],
                      (double)in[fn][n], (double)y[n]);
    }
#else
    SKIP("not x86: no MXCSR flags to read");
#endif
}

/* ---------------------------------------------------------------- bad arguments */

TEST(bad_arguments_write_nothing) {
    int64_t d[2] = {4, 5}, odd[2] = {4, 6};
    th_buf xb = th_alloc(20 * 4, 0), yb = th_alloc(20 * 4, 0);
    dnnlk_tensor s = th_tensor(xb.p, dnnlk_f32, 2, d), t = th_tensor(yb.p, dnnlk_f32, 2, d), bad, tt;
    int op;
    memset(xb.p, 0, 80);
    memset(yb.p, TH_GUARD_BYTE, 80);
    for (op = 0; op < 5; op++) {
        tt = t;
        CHECK_EQ(run_op(op, 0, NULL, &tt, 0, 1), dnnlk_invalid_arguments);
        CHECK_EQ(run_op(op, 0, &s, NULL, 0, 1), dnnlk_invalid_arguments);
        CHECK_EQ(run_op(op, 0, &s, &tt, 1, 1), dnnlk_invalid_arguments);
        CHECK_EQ(run_op(op, 0, &s, &tt, -1, 2), dnnlk_invalid_arguments);
        CHECK_EQ(run_op(op, 0, &s, &tt, 0, 0), dnnlk_invalid_arguments);
        bad = s, bad.dtype = dnnlk_s32;
        CHECK_EQ(run_op(op, 0, &bad, &tt, 0, 1), dnnlk_invalid_data_type);
        bad = t, bad.dtype = dnnlk_u8;
        CHECK_EQ(run_op(op, 0, &s, &bad, 0, 1), dnnlk_invalid_data_type);
        bad = s, bad.ndims = 13;
        CHECK_EQ(run_op(op, 0, &bad, &tt, 0, 1), dnnlk_invalid_shape);
        bad = s, bad.dims[0] = -2;
        CHECK_EQ(run_op(op, 0, &bad, &tt, 0, 1), dnnlk_invalid_shape);
        bad = th_tensor(yb.p, dnnlk_f32, 2, odd);
        CHECK_EQ(run_op(op, 0, &s, &bad, 0, 1), dnnlk_invalid_shape);
        bad = t, bad.data = NULL;
        CHECK_EQ(run_op(op, 0, &s, &bad, 0, 1), dnnlk_invalid_arguments);
        bad = s, bad.data = NULL;
        CHECK_EQ(run_op(op, 0, &bad, &tt, 0, 1), dnnlk_invalid_arguments);
        bad = t, bad.data = (char *)xb.p + 4; /* overlaps src, not the same view */
        CHECK_EQ(run_op(op, 0, &s, &bad, 0, 1), dnnlk_invalid_arguments);
        bad = t, bad.strides[0] = 1, bad.strides[1] = 1; /* self-overlapping dst */
        CHECK(run_op(op, 0, &s, &bad, 0, 1) != dnnlk_success);
        bad = t, bad.strides[0] = 1, bad.strides[1] = 2; /* partial stride spec: not deducible */
        bad.strides[0] = DNNLK_UNKNOWN;
        bad.strides[1] = 2;
        CHECK_EQ(run_op(op, 0, &s, &bad, 0, 1), dnnlk_invalid_shape);
        CHECK_EQ(memcmp(&tt, &t, sizeof t), 0);
    }
    tt = t;
    CHECK_EQ(dnnlk_gelu(&s, (dnnlk_gelu_approx)7, &tt, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(dnnlk_gelu_infer(&s, (dnnlk_gelu_approx)-1, &tt), dnnlk_invalid_arguments);
    CHECK_EQ(dnnlk_softmax(&s, 2, &tt, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(dnnlk_log_softmax(&s, -3, &tt, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(dnnlk_softmax_infer(&s, 5, &tt), dnnlk_invalid_arguments);
    {
        int i, ok = 1;
        for (i = 0; i < 80; i++) ok &= ((unsigned char *)yb.p)[i] == TH_GUARD_BYTE;
        CHECK(ok);
        CHECK(th_guards_ok(&yb));
    }
    th_free(&xb);
    th_free(&yb);
}

TEST(infer_completes_dst) {
    int64_t d[3] = {2, 3, 4};
    dnnlk_tensor s = th_tensor(NULL, dnnlk_bf16, 3, d), t;
    memset(&t, 0, sizeof t);
    t.dtype = dnnlk_f32;
    t.ndims = DNNLK_UNKNOWN;
    CHECK_EQ(dnnlk_gelu_infer(&s, dnnlk_gelu_tanh, &t), dnnlk_success);
    CHECK(t.ndims == 3 && t.dims[2] == 4 && t.strides[0] == 12 && t.strides[2] == 1);
    t.ndims = 3;
    t.strides[0] = t.strides[2] = DNNLK_UNKNOWN;
    t.strides[1] = 1;
    CHECK_EQ(dnnlk_softmax_infer(&s, -1, &t), dnnlk_success);
    CHECK(t.strides[1] == 1 && t.strides[2] == 3 && t.strides[0] == 12);
    t.ndims = DNNLK_UNKNOWN;
    CHECK_EQ(dnnlk_erf_infer(&s, &t), dnnlk_success);
    CHECK_EQ(dnnlk_log_softmax_infer(&s, 2, &t), dnnlk_success);
    t.dims[1] = 5;
    CHECK_EQ(dnnlk_erf_infer(&s, &t), dnnlk_invalid_shape);
    { /* empty tensors: nothing to do, success */
        int64_t z[2] = {0, 5};
        dnnlk_tensor a = th_tensor(NULL, dnnlk_f32, 2, z), b = th_tensor(NULL, dnnlk_f32, 2, z);
        CHECK_EQ(dnnlk_softmax(&a, 0, &b, 0, 1), dnnlk_success);
        CHECK_EQ(dnnlk_gelu(&a, dnnlk_gelu_none, &b, 0, 3), dnnlk_success);
    }
}

/* ---------------------------------------------------------------- softmax recorded bits */

/* Every level's softmax / log_softmax output bits on fixed inputs, against bits recorded from the
 * code before the body was compiled at the scalar level (8f1051f, the hand-written scalar row path
 * still in place). Each case runs with 1, 2 and 5 parts, which must give the same bytes. Inputs are
 * built without the harness's random state, so they cannot drift with it. DNNLK_TEST_RECORD=1
 * prints the table instead of checking it (rerun it only when the results change on purpose, and
 * say so in that commit). */
enum {
    smb_rows_stream, smb_rows_small, smb_rows_long, smb_rows_inplace, smb_rows_bf16_f32, smb_rows_f16s2_bf16,
    smb_rows_k1, smb_cols_f32, smb_cols_bf16_f16, smb_cols_wide_f32, smb_outer_f32, smb_n
};
static const char *const smb_name[smb_n] = {
    "f32 rows 13x301 streamed", "f32 rows 5x37", "f32 rows 3x2501 streamed", "f32 rows 7x129 in place",
    "bf16->f32 rows 9x333", "f16 stride 2->bf16 rows 6x95", "f32 rows 17x1", "f32 columns 3x19x37",
    "bf16->f16 columns 2x23x45", "f32 columns 2x11x70 (nt set)", "f32 axis 0 of 29x3 (strided)"};
/* Recorded on 8f1051f (gcc and clang, -O2 and ASan, the same): scalar, sse41, avx2, avx512;
 * softmax rows then log_softmax rows. The scalar column of the three column-path cases again after
 * the body ran at the scalar level: the hand-written scalar path had run columns through its row
 * arithmetic (another exp, and log_softmax's (x - c_hi) - c_lo), different in the last bit; the
 * body gives SSE4.1's bits there, as on every other case. The row-path cases again (softmax and the
 * 13x301 and 7x129 log_softmax rows) when the row sum began to pair its blocks in f32 before the
 * conversion to double (sm_acc in softmax_simd.h; the column path kept its bits). */
static const uint64_t smb_recorded[2][smb_n][4] = {
    {
        /* f32 rows 13x301 streamed         */ {0xc28c7516e50461d8ull, 0xc28c7516e50461d8ull, 0xd6824007656ce27full, 0xd6824007656ce27full},
        /* f32 rows 5x37                    */ {0xd6f5cff60b144ef6ull, 0xd6f5cff60b144ef6ull, 0xdd5b6818a5bc1b8full, 0xdd5b6818a5bc1b8full},
        /* f32 rows 3x2501 streamed         */ {0x1bcb562b7a48d5d6ull, 0x1bcb562b7a48d5d6ull, 0x36da8e66c304fe7aull, 0x36da8e66c304fe7aull},
        /* f32 rows 7x129 in place          */ {0x8051e873b4543cb9ull, 0x8051e873b4543cb9ull, 0x5e2d53906991baa2ull, 0x5e2d53906991baa2ull},
        /* bf16->f32 rows 9x333             */ {0xd9e6da8856d76586ull, 0xd9e6da8856d76586ull, 0x811de2598dc08018ull, 0x811de2598dc08018ull},
        /* f16 stride 2->bf16 rows 6x95     */ {0xf912b3714e26e207ull, 0xf912b3714e26e207ull, 0xf912b3714e26e207ull, 0xf912b3714e26e207ull},
        /* f32 rows 17x1                    */ {0x2f889f3a65be8b50ull, 0x2f889f3a65be8b50ull, 0x2f889f3a65be8b50ull, 0x2f889f3a65be8b50ull},
        /* f32 columns 3x19x37              */ {0x1a7e27fbf9915721ull, 0x1a7e27fbf9915721ull, 0x17b6e6f085435c34ull, 0x17b6e6f085435c34ull},
        /* bf16->f16 columns 2x23x45        */ {0x6bb0d858e71027d6ull, 0x6bb0d858e71027d6ull, 0x6bb0d858e71027d6ull, 0x6bb0d858e71027d6ull},
        /* f32 columns 2x11x70 (nt set)     */ {0xb86956309cef35e3ull, 0xb86956309cef35e3ull, 0xc5cdb193e5ef54d7ull, 0xc5cdb193e5ef54d7ull},
        /* f32 axis 0 of 29x3 (strided)     */ {0x466866819bc6795aull, 0x466866819bc6795aull, 0xa3addc72b040b913ull, 0xa3addc72b040b913ull},
    },
    {
        /* f32 rows 13x301 streamed         */ {0xbbc2c211ee8e5ecbull, 0xbbc2c211ee8e5ecbull, 0xbbc2c211ee8e5ecbull, 0xbbc2c211ee8e5ecbull},
        /* f32 rows 5x37                    */ {0x1f06ae70c21b8591ull, 0x1f06ae70c21b8591ull, 0x1f06ae70c21b8591ull, 0x1f06ae70c21b8591ull},
        /* f32 rows 3x2501 streamed         */ {0xaaf1fe3f30cb313aull, 0xaaf1fe3f30cb313aull, 0xaaf1fe3f30cb313aull, 0xaaf1fe3f30cb313aull},
        /* f32 rows 7x129 in place          */ {0x9726f0cad870ccffull, 0x9726f0cad870ccffull, 0x180533598fec2cf8ull, 0x180533598fec2cf8ull},
        /* bf16->f32 rows 9x333             */ {0x40bbfbc59d721f64ull, 0x40bbfbc59d721f64ull, 0x40bbfbc59d721f64ull, 0x40bbfbc59d721f64ull},
        /* f16 stride 2->bf16 rows 6x95     */ {0x39b3602bf39dd00full, 0x39b3602bf39dd00full, 0x39b3602bf39dd00full, 0x39b3602bf39dd00full},
        /* f32 rows 17x1                    */ {0xa032bced3ae99525ull, 0xa032bced3ae99525ull, 0xa032bced3ae99525ull, 0xa032bced3ae99525ull},
        /* f32 columns 3x19x37              */ {0x8008f4154a31d68aull, 0x8008f4154a31d68aull, 0x1b1518ab9390a24dull, 0x1b1518ab9390a24dull},
        /* bf16->f16 columns 2x23x45        */ {0x4999ccd826a94f44ull, 0x4999ccd826a94f44ull, 0x4999ccd826a94f44ull, 0x4999ccd826a94f44ull},
        /* f32 columns 2x11x70 (nt set)     */ {0x9a7ae1226fafccceull, 0x9a7ae1226fafccceull, 0x0c0ed6f6aa5183b9ull, 0x0c0ed6f6aa5183b9ull},
        /* f32 axis 0 of 29x3 (strided)     */ {0xb0d8640562d3511full, 0xb0d8640562d3511full, 0xb0d8640562d3511full, 0xb0d8640562d3511full},
    },
};

/* The value of element k of row (or column) r: the row's kind is r % 9, spread over the cases the
 * kernel treats apart (clean rows of small and wide range, a NaN, a +inf, only -inf, masked -inf
 * elements, huge values (x - m overflows), ties of the max (log_softmax's count), values near 1e4
 * (the x - m pair)). */
static float smb_value(int64_t r, int64_t k, int64_t K) {
    uint32_t u = (uint32_t)(k + 1) * 0x9E3779B1u ^ (uint32_t)(r + 1) * 0x85EBCA6Bu;
    float base = (float)((int32_t)u >> 8) * (1.0f / 1048576.0f); /* [-8, 8) */
    switch (r % 9) {
    case 0: return base;
    case 1: return base * 12.5f;
    case 2: return k == K / 2 ? NAN : base;
    case 3: return k == K / 3 ? INFINITY : base;
    case 4: return -INFINITY;
    case 5: return k % 3 == 1 ? -INFINITY : base;
    case 6: return base * 1e37f;
    case 7: return (float)(u >> 29);
    default: return 1e4f + base * 0.01f;
    }
}

/* Runs case c (log or not) at the current level with nth parts and hashes the whole output buffer
 * (the bytes between strided elements too: they must stay untouched). */
static uint64_t smb_run(int c, int log, int nth) {
    static float xs[3 * 2501 + 64], ys[3 * 2501 + 64];
    int64_t dims[3], R = 1, K = 1, M = 1, r, k, m, n;
    int nd = 2, axis = 1, ith;
    dnnlk_dtype dx = dnnlk_f32, dy = dnnlk_f32;
    int64_t xstride = 1; /* element stride of src along the axis (f16 stride 2) */
    float *y = ys + 3;   /* not vector-aligned: the streaming path's head runs */
    dnnlk_tensor s, t;
    uint16_t *xh = (uint16_t *)(void *)xs, *yh = (uint16_t *)(void *)ys;
    switch (c) {
    case smb_rows_stream: R = 13, K = 301; break;
    case smb_rows_small: R = 5, K = 37; break;
    case smb_rows_long: R = 3, K = 2501; break;
    case smb_rows_inplace: R = 7, K = 129; break;
    case smb_rows_bf16_f32: R = 9, K = 333, dx = dnnlk_bf16; break;
    case smb_rows_f16s2_bf16: R = 6, K = 95, dx = dnnlk_f16, dy = dnnlk_bf16, xstride = 2; break;
    case smb_rows_k1: R = 17, K = 1; break;
    case smb_cols_f32: R = 3, K = 19, M = 37, nd = 3; break;
    case smb_cols_bf16_f16: R = 2, K = 23, M = 45, nd = 3, dx = dnnlk_bf16, dy = dnnlk_f16; break;
    case smb_cols_wide_f32: R = 2, K = 11, M = 70, nd = 3; break;
    default: R = 1, K = 29, M = 3, nd = 2, axis = 0; break; /* [K, M], axis 0: columns of 3 */
    }
    n = R * K * M;
    memset(xs, 0, sizeof xs);
    memset(ys, 0x5a, sizeof ys);
    /* element (r, k, m) of src: row / column r * M + m of kind (r * M + m) % 9 */
    for (r = 0; r < R; r++)
        for (k = 0; k < K; k++)
            for (m = 0; m < M; m++) {
                int64_t at = ((r * K + k) * M + m) * xstride;
                float v = smb_value(r * M + m, k, K);
                if (dx == dnnlk_f32) xs[at] = v;
                else xh[at] = dx == dnnlk_bf16 ? dnnlk_f32_to_bf16(v) : dnnlk_f32_to_f16(v);
            }
    if (nd == 3) dims[0] = R, dims[1] = K, dims[2] = M;
    else if (axis == 1) dims[0] = R, dims[1] = K;
    else dims[0] = K, dims[1] = M;
    s = th_tensor(xs, dx, nd, dims);
    if (xstride != 1) s.strides[0] *= xstride, s.strides[1] *= xstride;
    if (c == smb_rows_inplace) {
        memcpy(y, xs, (size_t)n * 4);
        s.data = y;
    }
    t = th_tensor(dy == dnnlk_f32 ? (void *)y : (void *)yh, dy, nd, dims);
    for (ith = 0; ith < nth; ith++)
        CHECK_EQ(log ? dnnlk_log_softmax(&s, axis, &t, ith, nth) : dnnlk_softmax(&s, axis, &t, ith, nth),
                 dnnlk_success);
    if (dy == dnnlk_f32) return th_fnv1a_f32(ys, (size_t)n + 8);
    return th_fnv1a_half(yh, (size_t)n + 8, dy == dnnlk_f16);
}

/* The recorded-bits cases, flat: softmax's smb_n, then log_softmax's. */
static uint64_t smb_run_flat(int c, int nth) { return smb_run(c % smb_n, c / smb_n, nth); }
static const char *smb_row_name(int c) { return smb_name[c % smb_n]; }
static uint64_t smb_run_at(int c, int cap, int *level) {
    static const int nths[] = {2, 5, 0};
    char label[64];
    (void)cap;
    snprintf(label, sizeof label, "%s %s", c < smb_n ? "softmax" : "log_softmax", smb_name[c % smb_n]);
    return th_bits_parts_agree(smb_run_flat, c, nths, label, *level);
}

TEST(softmax_recorded_bits) {
    uint64_t got[2][smb_n][4];
    int ran[2][smb_n][4], c, log;
#if defined(__FMA__)
    const unsigned unchecked = 1u << 1; /* the includer's FMA flags may fuse SSE4.1's product and sum */
#else
    const unsigned unchecked = 0;
#endif
    if (th_recorded_bits(2 * smb_n, smb_run_at, smb_row_name, 32, smb_n, (const uint64_t(*)[4])&smb_recorded[0][0],
                         unchecked, &got[0][0], &ran[0][0]))
        SKIP("DNNLK_TEST_RECORD: printed the table instead of checking it");
    /* the classes softmax.h states: scalar = SSE4.1 (no FMA in either), AVX2 = AVX-512 */
    for (log = 0; log < 2; log++)
        for (c = 0; c < smb_n; c++) {
#if !defined(__FMA__)
            if (ran[log][c][0] && ran[log][c][1])
                CHECK_MSG(got[log][c][0] == got[log][c][1], "%s %s: scalar and sse41 differ",
                          log ? "log_softmax" : "softmax", smb_name[c]);
#endif
            if (ran[log][c][2] && ran[log][c][3])
                CHECK_MSG(got[log][c][2] == got[log][c][3], "%s %s: avx2 and avx512 differ",
                          log ? "log_softmax" : "softmax", smb_name[c]);
        }
}

int main(void) {
    RUN(vm_accuracy_sweep);
    RUN_EACH_ISA(vm_lanes_and_specials);
    RUN_EACH_ISA(eltwise_known_answers);
    RUN_EACH_ISA(eltwise_layouts_dtypes_parts);
    RUN_EACH_ISA(softmax_layouts_dtypes_parts);
    RUN_EACH_ISA(softmax_special_rows);
    RUN_EACH_ISA(softmax_accuracy_rows);
    RUN_EACH_ISA(softmax_wide_rows);
    RUN(softmax_isa_groups_agree);
    RUN(softmax_recorded_bits);
    RUN_EACH_ISA(ftz_daz_on);
    RUN_EACH_ISA(zero_results_do_not_underflow);
    RUN(bad_arguments_write_nothing);
    RUN(infer_completes_dst);
    return th_summary();
}
