/* Backward kernels: softmax.h (softmax_bwd, log_softmax_bwd), eltwise.h (gelu_bwd, erf_bwd), l2_norm.h (l2_norm_bwd).
 * References are plain formulas in double (long double where the result cancels); the literal
 * cases of tests/torch_backward_cases.h were printed by tools/torch_backward_cases.py (PyTorch 1.13).
 * DNNLK_TEST_EXHAUSTIVE=1 (make test-exhaustive) sweeps gelu_bwd over every float. */
/* the eltwise streaming path from 4 KiB of output on, so tests reach it */
#define DNNLK_ELT_NT_BYTES 4096
/* softmax_bwd streams from 1 KiB of output on (default 16 MiB), so the layout tests reach it */
#define DNNLK_SM_NT_BYTES 1024
#include <pthread.h>
#include <unistd.h>
#include "harness.h"
#include "torch_backward_cases.h"

/* ---------------------------------------------------------------- helpers */

static const int parts_list[] = {1, 2, 3, 7};

static float round_dt(float v, dnnlk_dtype dt) {
    char b[4];
    dnnlk__store_from_f32(b, dt, v);
    return dnnlk__load_as_f32(b, dt);
}

/* A tensor of dims over a fresh buffer, element j of the flat row-major order at
 * th_offset(strides): dense when pad is 0, else every dim's stride padded (a strided layout). */
typedef struct tview {
    th_buf buf;
    dnnlk_tensor t;
} tview;

static tview tv_make(dnnlk_dtype dt, int nd, const int64_t *dims, int pad, size_t misalign) {
    tview v;
    int64_t span = th_numel(nd, dims);
    int i;
    v.t = th_tensor(NULL, dt, nd, dims);
    if (pad) /* inner stride 2, every outer stride one element past the dense one */
        for (span = 1, i = nd - 1; i >= 0; i--) {
            v.t.strides[i] = i == nd - 1 ? 2 : span;
            span = v.t.strides[i] * dims[i] + 1;
        }
    v.buf = th_alloc((size_t)span * dnnlk_dtype_size(dt) + 16, misalign);
    memset(v.buf.p, 0x5a, v.buf.bytes);
    v.t.data = v.buf.p;
    return v;
}
static void tv_set(tview *v, int64_t j, float x) {
    int64_t o = th_offset(v->t.ndims, v->t.dims, v->t.strides, j);
    dnnlk__store_from_f32((char *)v->t.data + o * (int64_t)dnnlk_dtype_size(v->t.dtype), v->t.dtype, x);
}
static float tv_get(const tview *v, int64_t j) {
    int64_t o = th_offset(v->t.ndims, v->t.dims, v->t.strides, j);
    return dnnlk__load_as_f32((const char *)v->t.data + o * (int64_t)dnnlk_dtype_size(v->t.dtype), v->t.dtype);
}
static void tv_free(tview *v) {
    CHECK(th_guards_ok(&v->buf));
    th_free(&v->buf);
}

/* ---------------------------------------------------------------- softmax backward */

/* The double reference over rows: n rows of K elements at (row r, k) -> index r_off[r] + k * ks. */
static void ref_smb(int log, const float *y, const float *g, int64_t K, double *out) {
    long double s = 0;
    int64_t k;
    for (k = 0; k < K; k++) s += log ? (long double)g[k] : (long double)g[k] * y[k];
    for (k = 0; k < K; k++)
        out[k] = log ? (double)((long double)g[k] - expl((long double)y[k]) * s) : (double)((long double)y[k] * ((long double)g[k] - s));
}

/* A softmax (or log_softmax) output row of K elements in double, rounded to float. */
static void make_dst(int log, int64_t K, float spread, float *y) {
    double m = -INFINITY, s = 0, x[4096];
    int64_t k;
    for (k = 0; k < K; k++) x[k] = th_randf(-spread, spread), m = x[k] > m ? x[k] : m;
    for (k = 0; k < K; k++) s += exp(x[k] - m);
    for (k = 0; k < K; k++) y[k] = (float)(log ? x[k] - m - log1p(s - 1) : exp(x[k] - m) / s);
}

typedef dnnlk_status (*smb_fn)(const dnnlk_tensor *, const dnnlk_tensor *, int, dnnlk_tensor *, int, int);

/* Row accuracy: every element within 4 ulp of the double reference where the result is well
 * conditioned (|result| at least half the larger of the terms it is the difference of), elsewhere
 * within 2^-21 of the larger term (8 of its ulp: log_softmax's exp carries 1 ulp of it). */
TEST(softmax_bwd_accuracy) {
    static const int64_t lens[] = {1, 2, 7, 16, 17, 33, 100, 512, 515, 1500, 4096};
    static float y[4096], g[4096], o[4096];
    static double r[4096];
    int log, li, rep;
    th_seed(101);
    for (log = 0; log < 2; log++)
        for (li = 0; li < (int)(sizeof lens / sizeof lens[0]); li++)
            for (rep = 0; rep < 3; rep++) {
                int64_t K = lens[li], k, dims[1];
                dnnlk_tensor ty, tg, to;
                long double s = 0;
                int bad = 0;
                make_dst(log, K, rep == 0 ? 3.0f : rep == 1 ? 20.0f : 0.01f, y);
                for (k = 0; k < K; k++) g[k] = rep == 2 && k % 3 == 0 ? 1.0f : th_randf(-2.0f, 2.0f);
                dims[0] = K;
                ty = th_tensor(y, dnnlk_f32, 1, dims);
                tg = th_tensor(g, dnnlk_f32, 1, dims);
                to = th_tensor(o, dnnlk_f32, 1, dims);
                CHECK_EQ((log ? dnnlk_log_softmax_bwd : dnnlk_softmax_bwd)(&ty, &tg, 0, &to, 0, 1), dnnlk_success);
                ref_smb(log, y, g, K, r);
                for (k = 0; k < K; k++) s += log ? (long double)g[k] : (long double)g[k] * y[k];
                for (k = 0; k < K && !bad; k++) {
                    double t1 = log ? fabs((double)g[k]) : fabs((double)y[k] * g[k]);
                    double t2 = log ? fabs(exp((double)y[k]) * (double)s) : fabs((double)y[k] * (double)s);
                    double big = t1 > t2 ? t1 : t2;
                    if (fabs(r[k]) >= big / 2) {
                        int64_t d = th_ulp_diff(o[k], (float)r[k]);
                        if (d > 4) bad = 1;
                        CHECK_MSG(d <= 4, "%s K=%lld k=%lld: %a vs %a (%lld ulp)", log ? "log" : "sm", (long long)K,
                                  (long long)k, (double)o[k], r[k], (long long)d);
                    } else {
                        if (fabs(o[k] - r[k]) > big * 0x1p-21) bad = 1;
                        CHECK_MSG(fabs(o[k] - r[k]) <= big * 0x1p-21, "%s K=%lld k=%lld: %a vs %a", log ? "log" : "sm",
                                  (long long)K, (long long)k, (double)o[k], r[k]);
                    }
                }
            }
}

/* The forward kernel's gradient: sum_k g_k softmax(x)_k perturbed by x_i +- h (central
 * difference, the forward in f32 from the library) against diff_src[i]. */
TEST(softmax_bwd_finite_difference) {
    enum { K = 9 };
    float x[K], xp[K], y[K], yp[K], ym[K], g[K], o[K];
    int64_t dims[1] = {K};
    int log, i, k, rep;
    th_seed(7);
    for (log = 0; log < 2; log++)
        for (rep = 0; rep < 4; rep++) {
            dnnlk_tensor tx, ty, tg, to, typ;
            for (k = 0; k < K; k++) x[k] = th_randf(-3, 3), g[k] = th_randf(-1, 1);
            tx = th_tensor(x, dnnlk_f32, 1, dims);
            ty = th_tensor(y, dnnlk_f32, 1, dims);
            tg = th_tensor(g, dnnlk_f32, 1, dims);
            to = th_tensor(o, dnnlk_f32, 1, dims);
            CHECK_EQ((log ? dnnlk_log_softmax : dnnlk_softmax)(&tx, 0, &ty, 0, 1), dnnlk_success);
            CHECK_EQ((log ? dnnlk_log_softmax_bwd : dnnlk_softmax_bwd)(&ty, &tg, 0, &to, 0, 1), dnnlk_success);
            for (i = 0; i < K; i++) {
                const float h = 1.0f / 64;
                double lp = 0, lm = 0, fd;
                memcpy(xp, x, sizeof x);
                tx = th_tensor(xp, dnnlk_f32, 1, dims);
                typ = th_tensor(yp, dnnlk_f32, 1, dims);
                xp[i] = x[i] + h;
                CHECK_EQ((log ? dnnlk_log_softmax : dnnlk_softmax)(&tx, 0, &typ, 0, 1), dnnlk_success);
                xp[i] = x[i] - h;
                typ = th_tensor(ym, dnnlk_f32, 1, dims);
                CHECK_EQ((log ? dnnlk_log_softmax : dnnlk_softmax)(&tx, 0, &typ, 0, 1), dnnlk_success);
                for (k = 0; k < K; k++) lp += (double)g[k] * yp[k], lm += (double)g[k] * ym[k];
                fd = (lp - lm) / (2.0 * h);
                /* O(h^2) truncation (|third derivative| < 1 here) and f32 rounding of the forward */
                CHECK_MSG(fabs(fd - o[i]) <= 2e-3, "%s i=%d: fd %g vs %g", log ? "log" : "sm", i, fd, (double)o[i]);
            }
        }
}

/* Layouts (axis first / middle / last, dense and strided), dtypes of each operand, parts
 * 1/2/3/7, in place: every result equals the dense f32 single-part result computed on the same
 * (dtype-rounded) inputs, bit for bit, after the output's rounding. */
TEST(softmax_bwd_layouts_dtypes_parts) {
    static const int64_t shapes[][3] = {{3, 5, 37}, {4, 1, 19}, {2, 33, 3}, {1, 1, 1}};
    static const dnnlk_dtype dts[] = {dnnlk_f32, dnnlk_bf16, dnnlk_f16};
    int log, si, axis, pad, dy, dg, dout, pi, inplace;
    th_seed(202);
    for (log = 0; log < 2; log++)
        for (si = 0; si < 4; si++)
            for (axis = -3; axis < 3; axis += 2) {
                const int64_t *dims = shapes[si];
                int64_t n = th_numel(3, dims), j;
                float *yv = (float *)malloc((size_t)n * 4), *gv = (float *)malloc((size_t)n * 4);
                float *ref = (float *)malloc((size_t)n * 4);
                for (j = 0; j < n; j++) yv[j] = log ? th_randf(-6, 0) : th_randf(0, 1), gv[j] = th_randf(-1, 1);
                for (dy = 0; dy < 3; dy++)
                    for (dg = 0; dg < 3; dg++) {
                        /* the reference: dense f32 on the rounded inputs */
                        tview ry = tv_make(dnnlk_f32, 3, dims, 0, 0), rg = tv_make(dnnlk_f32, 3, dims, 0, 0);
                        tview ro = tv_make(dnnlk_f32, 3, dims, 0, 0);
                        for (j = 0; j < n; j++) tv_set(&ry, j, round_dt(yv[j], dts[dy])), tv_set(&rg, j, round_dt(gv[j], dts[dg]));
                        CHECK_EQ((log ? dnnlk_log_softmax_bwd : dnnlk_softmax_bwd)(&ry.t, &rg.t, axis, &ro.t, 0, 1),
                                 dnnlk_success);
                        for (j = 0; j < n; j++) ref[j] = tv_get(&ro, j);
                        tv_free(&ry), tv_free(&rg), tv_free(&ro);
                        for (dout = 0; dout < 3; dout++)
                            for (pad = 0; pad < 2; pad++)
                                for (inplace = 0; inplace < 2; inplace++) {
                                    if (inplace && dout != dg) continue;
                                    for (pi = 0; pi < 4; pi++) {
                                        tview ty = tv_make(dts[dy], 3, dims, pad, 2), tg = tv_make(dts[dg], 3, dims, pad, 6);
                                        tview to = tv_make(dts[dout], 3, dims, !pad, 4);
                                        dnnlk_tensor out = inplace ? tg.t : to.t;
                                        int nth = parts_list[pi], ith, bad = 0;
                                        for (j = 0; j < n; j++) tv_set(&ty, j, yv[j]), tv_set(&tg, j, gv[j]);
                                        for (ith = 0; ith < nth; ith++) {
                                            out = inplace ? tg.t : to.t;
                                            CHECK_EQ((log ? dnnlk_log_softmax_bwd : dnnlk_softmax_bwd)(&ty.t, &tg.t, axis, &out,
                                                                                                       ith, nth),
                                                     dnnlk_success);
                                        }
                                        for (j = 0; j < n && !bad; j++) {
                                            float got = inplace ? tv_get(&tg, j) : tv_get(&to, j);
                                            float want = round_dt(ref[j], dts[dout]);
                                            if (memcmp(&got, &want, 4) != 0 && !(got != got && want != want)) bad = 1;
                                        }
                                        CHECK_MSG(!bad, "log %d shape %d axis %d dt %d/%d/%d pad %d inplace %d nth %d", log, si,
                                                  axis, dy, dg, dout, pad, inplace, nth);
                                        tv_free(&ty), tv_free(&tg), tv_free(&to);
                                    }
                                }
                    }
                free(yv), free(gv), free(ref);
            }
}

/* softmax_bwd: the same bits on every level (no fused step); log_softmax_bwd: AVX2 = AVX-512 and
 * SSE4.1 = scalar (exp and the fused output step). */
TEST(softmax_bwd_levels_agree) {
    static float y[1500], g[1500], o[5][1500];
    int top = (int)dnnlk_cpu_isa(), l, log, n;
    th_seed(33);
    for (n = 1; n < 1500; n = n * 3 + 2)
        for (log = 0; log < 2; log++) {
            int64_t dims[1];
            dims[0] = n;
            make_dst(log, n, 8.0f, y);
            {
                int i;
                for (i = 0; i < n; i++) g[i] = th_randf(-3, 3);
            }
            for (l = 0; l <= top; l++) {
                dnnlk_tensor ty = th_tensor(y, dnnlk_f32, 1, dims), tg = th_tensor(g, dnnlk_f32, 1, dims);
                dnnlk_tensor to = th_tensor(o[l], dnnlk_f32, 1, dims);
                dnnlk_set_max_isa((dnnlk_isa)l);
                CHECK_EQ((log ? dnnlk_log_softmax_bwd : dnnlk_softmax_bwd)(&ty, &tg, 0, &to, 0, 1), dnnlk_success);
            }
            dnnlk_set_max_isa(dnnlk_cpu_isa());
            if (!log)
                for (l = 1; l <= top; l++) CHECK_MSG(memcmp(o[0], o[l], (size_t)n * 4) == 0, "n=%d level %d", n, l);
            if (log && top >= 1) CHECK(memcmp(o[0], o[1], (size_t)n * 4) == 0);
            if (log && top >= 3) CHECK(memcmp(o[2], o[3], (size_t)n * 4) == 0);
        }
}

/* PyTorch 1.13's results on rows with NaN / inf and on a few ordinary rows (the literals). */
TEST(softmax_bwd_torch_cases) {
    int c;
    for (c = 0; c < (int)(sizeof torch_sm_cases / sizeof torch_sm_cases[0]); c++) {
        const torch_sm_case *t = &torch_sm_cases[c];
        float o[TORCH_SM_K];
        int64_t dims[1] = {TORCH_SM_K};
        dnnlk_tensor ty = th_tensor((void *)(uintptr_t)t->y, dnnlk_f32, 1, dims);
        dnnlk_tensor tg = th_tensor((void *)(uintptr_t)t->g, dnnlk_f32, 1, dims);
        dnnlk_tensor to = th_tensor(o, dnnlk_f32, 1, dims);
        int k;
        CHECK_EQ((t->log ? dnnlk_log_softmax_bwd : dnnlk_softmax_bwd)(&ty, &tg, 0, &to, 0, 1), dnnlk_success);
        for (k = 0; k < TORCH_SM_K; k++) {
            float w = t->want[k];
            int ok = (w != w) ? o[k] != o[k] : (isinf(w) ? o[k] == w : fabs(o[k] - w) <= 1e-6 * (fabs(w) + 1e-30) + 1e-7);
            CHECK_MSG(ok, "case %d (%s) k=%d: %a, torch %a", c, t->log ? "log" : "sm", k, (double)o[k], (double)w);
        }
    }
}

/* Bad arguments: a status, and the output untouched. */
TEST(softmax_bwd_bad_arguments) {
    float y[12], g[12], o[12], o2[12];
    int64_t d34[2] = {3, 4}, d43[2] = {4, 3}, d12[1] = {12};
    dnnlk_tensor ty = th_tensor(y, dnnlk_f32, 2, d34), tg = th_tensor(g, dnnlk_f32, 2, d34);
    dnnlk_tensor to = th_tensor(o, dnnlk_f32, 2, d34), t;
    int i;
    for (i = 0; i < 12; i++) y[i] = 0.25f, g[i] = 1.0f, o[i] = 77.0f;
    memcpy(o2, o, sizeof o);
#define SMB_BAD(call, st)                                                                                            \
    do {                                                                                                             \
        CHECK_EQ(call, st);                                                                                          \
        CHECK(memcmp(o, o2, sizeof o) == 0);                                                                         \
    } while (0)
    SMB_BAD(dnnlk_softmax_bwd(NULL, &tg, 0, &to, 0, 1), dnnlk_invalid_arguments);
    SMB_BAD(dnnlk_softmax_bwd(&ty, NULL, 0, &to, 0, 1), dnnlk_invalid_arguments);
    SMB_BAD(dnnlk_softmax_bwd(&ty, &tg, 0, NULL, 0, 1), dnnlk_invalid_arguments);
    t = tg, t.data = NULL;
    SMB_BAD(dnnlk_softmax_bwd(&ty, &t, 0, &to, 0, 1), dnnlk_invalid_arguments);
    t = ty, t.data = NULL;
    SMB_BAD(dnnlk_log_softmax_bwd(&t, &tg, 0, &to, 0, 1), dnnlk_invalid_arguments);
    t = th_tensor(g, dnnlk_f32, 2, d43);
    SMB_BAD(dnnlk_softmax_bwd(&ty, &t, 0, &to, 0, 1), dnnlk_invalid_shape);
    t = th_tensor(g, dnnlk_f32, 1, d12);
    SMB_BAD(dnnlk_log_softmax_bwd(&ty, &t, 1, &to, 0, 1), dnnlk_invalid_shape);
    t = tg, t.dtype = dnnlk_s32;
    SMB_BAD(dnnlk_softmax_bwd(&ty, &t, 0, &to, 0, 1), dnnlk_invalid_data_type);
    SMB_BAD(dnnlk_softmax_bwd(&ty, &tg, 2, &to, 0, 1), dnnlk_invalid_arguments);
    SMB_BAD(dnnlk_softmax_bwd(&ty, &tg, -3, &to, 0, 1), dnnlk_invalid_arguments);
    SMB_BAD(dnnlk_softmax_bwd(&ty, &tg, 0, &to, 1, 1), dnnlk_invalid_arguments);
    t = th_tensor(o + 1, dnnlk_f32, 2, d34); /* overlaps diff_dst? no: o is its own; shift into g */
    t.data = g + 1;
    SMB_BAD(dnnlk_softmax_bwd(&ty, &tg, 0, &t, 0, 1), dnnlk_invalid_arguments);
    t.data = y + 2;
    SMB_BAD(dnnlk_log_softmax_bwd(&ty, &tg, 0, &t, 0, 1), dnnlk_invalid_arguments);
    t = to, t.dims[0] = 4;
    SMB_BAD(dnnlk_softmax_bwd(&ty, &tg, 0, &t, 0, 1), dnnlk_invalid_shape);
    /* unknown dims completed by _infer */
    t = to;
    t.ndims = DNNLK_UNKNOWN;
    CHECK_EQ(dnnlk_softmax_bwd_infer(&ty, &tg, 1, &t), dnnlk_success);
    CHECK(t.ndims == 2 && t.dims[0] == 3 && t.dims[1] == 4 && t.strides[1] == 1);
#undef SMB_BAD
}


/* ---------------------------------------------------------------- gelu / erf backward */

static const int bwd_fn[3] = {DNNLK__VM_ERF_BWD, DNNLK__VM_GELU_ERF_BWD, DNNLK__VM_GELU_TANH_BWD};
static const char *const bwd_name[3] = {"erf_bwd", "gelu_erf_bwd", "gelu_tanh_bwd"};
static const int bwd_bound[3] = {2, 4, 4}; /* ulp */

/* The derivatives in long double (gelu' cancels near its zero at x = -0.752: the extra 11 bits
 * keep the reference within 2^-30 relative of the floats next to it). */
static double ref_bwd_ld(int k, float xf) {
    long double x = xf, s2 = sqrtl(2.0L), k1 = 2 * sqrtl(2 / 3.14159265358979323846264338327950288L), k2 = 0.044715L * k1;
    if (xf != xf) return NAN;
    if (k == 0) return (double)(2 / sqrtl(3.14159265358979323846264338327950288L) * expl(-x * x));
    if (isinf(xf)) return NAN; /* PyTorch: inf times a vanishing density */
    if (k == 1) return (double)(0.5L * erfcl(-x / s2) + x * expl(-x * x / 2) / sqrtl(2 * 3.14159265358979323846264338327950288L));
    {
        long double y = x * (k1 + k2 * x * x), sp = 1 / (1 + expl(-y)), sm = 1 / (1 + expl(y));
        return (double)(sp + x * sp * sm * (k1 + 3 * k2 * x * x));
    }
}

/* The same in double away from the zero (|x + 0.752| > 1/64, where nothing cancels more than 2^7:
 * the reference stays within 2^-40 relative): the exhaustive sweep's time is the reference's. */
static double ref_bwd(int k, float xf) {
    double x = xf, k1 = 2 * sqrt(2 / M_PI), k2 = 0.044715 * k1;
    if (xf != xf || isinf(xf) || fabs(x + 0.752) <= 1.0 / 64) return ref_bwd_ld(k, xf);
    if (k == 0) return 2 / sqrt(M_PI) * exp(-x * x);
    if (k == 1) return 0.5 * erfc(-x / sqrt(2.0)) + x * exp(-x * x / 2) / sqrt(2 * M_PI);
    {
        double y = x * (k1 + k2 * x * x), sp = 1 / (1 + exp(-y)), sm = 1 / (1 + exp(y));
        return sp + x * sp * sm * (k1 + 3 * k2 * x * x);
    }
}

static void bwd_array_at(int isa, int fn, const float *x, float *y, size_t n) {
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

/* A share of the sweep: bit patterns b0, b0 + step, ... < b1; the scalar level on one block in
 * scalar_every (it is slow, and equal bit for bit to SSE4.1, which sees every float). */
typedef struct bwd_job {
    uint64_t b0, b1, step;
    int scalar_every;
    int64_t worst[4][3], mism_fma, mism_nofma;
    uint32_t worst_at[4][3];
} bwd_job;

static void *bwd_sweep_run(void *arg) {
    enum { N = 4096 };
    bwd_job *j = (bwd_job *)arg;
    float x[N], y[4][N];
    int top = (int)dnnlk_cpu_isa(), l, k;
    uint64_t u = j->b0, block = 0;
    while (u < j->b1) {
        size_t n = 0, i;
        int lo = (block++ % (uint64_t)j->scalar_every) == 0 ? 0 : 1;
        for (; n < N && u < j->b1; u += j->step) {
            uint32_t b = (uint32_t)u;
            memcpy(&x[n++], &b, 4);
        }
        for (k = 0; k < 3; k++) {
            for (l = lo; l <= top; l++) bwd_array_at(l, bwd_fn[k], x, y[l], n);
            for (i = 0; i < n; i++) {
                float r = (float)ref_bwd(k, x[i]);
                for (l = lo; l <= top; l++) {
                    int64_t d = (r != r) ? (y[l][i] != y[l][i] ? 0 : 1000) : th_ulp_diff(y[l][i], r);
                    if (d > j->worst[l][k]) j->worst[l][k] = d, memcpy(&j->worst_at[l][k], &x[i], 4);
                }
                if (top >= 3 && memcmp(&y[2][i], &y[3][i], 4) != 0 && !(y[2][i] != y[2][i] && y[3][i] != y[3][i]))
                    j->mism_fma++;
                if (top >= 1 && lo == 0 && memcmp(&y[0][i], &y[1][i], 4) != 0 && !(y[0][i] != y[0][i] && y[1][i] != y[1][i]))
                    j->mism_nofma++;
            }
        }
    }
    return NULL;
}

/* The three derivatives at every level against the reference, over a sweep of float bit patterns
 * (every float under DNNLK_TEST_EXHAUSTIVE, on every core, else about a million spread over all
 * of them), and every float within 2^-10 of gelu's zero; the FMA levels agree bit for bit, and
 * SSE4.1 with scalar. */
TEST(gelu_erf_bwd_sweep) {
    enum { MAXJ = 33 };
    static bwd_job jobs[MAXJ];
    static pthread_t tid[MAXJ];
    int exhaustive = getenv("DNNLK_TEST_EXHAUSTIVE") && atoi(getenv("DNNLK_TEST_EXHAUSTIVE"));
    uint64_t step = exhaustive ? 1 : (uint64_t)(4099 / th_scale()), lo_root, hi_root;
    long ncpu = exhaustive ? sysconf(_SC_NPROCESSORS_ONLN) : 1;
    int nj = (int)(ncpu < 1 ? 1 : ncpu > MAXJ - 1 ? MAXJ - 1 : ncpu), top = (int)dnnlk_cpu_isa(), l, k, i;
    int started[MAXJ];
    float f;
    memset(jobs, 0, sizeof jobs);
    /* job nj: every float near the zero (negative floats' patterns grow with |x|) */
    f = -0.7517915f + 0x1p-10f;
    memcpy(&hi_root, &f, 4);
    f = -0.7517915f - 0x1p-10f;
    memcpy(&lo_root, &f, 4);
    hi_root &= 0xffffffffu, lo_root &= 0xffffffffu;
    for (i = 0; i <= nj; i++) {
        uint64_t chunk = ((1ull << 32) / step + (uint64_t)nj - 1) / (uint64_t)nj * step;
        jobs[i].b0 = i < nj ? chunk * (uint64_t)i : hi_root;
        jobs[i].b1 = i < nj ? (i == nj - 1 ? 1ull << 32 : chunk * (uint64_t)(i + 1)) : lo_root + 1;
        jobs[i].step = i < nj ? step : 1;
        jobs[i].scalar_every = exhaustive && i < nj ? 16 : 1;
    }
    for (i = 0; i < nj; i++) started[i] = pthread_create(&tid[i], NULL, bwd_sweep_run, &jobs[i]) == 0;
    bwd_sweep_run(&jobs[nj]);
    for (i = 0; i < nj; i++) {
        if (started[i]) pthread_join(tid[i], NULL);
        else bwd_sweep_run(&jobs[i]);
    }
    for (i = 0; i < nj; i++) {
        jobs[nj].mism_fma += jobs[i].mism_fma;
        jobs[nj].mism_nofma += jobs[i].mism_nofma;
        for (l = 0; l <= top; l++)
            for (k = 0; k < 3; k++)
                if (jobs[i].worst[l][k] > jobs[nj].worst[l][k])
                    jobs[nj].worst[l][k] = jobs[i].worst[l][k], jobs[nj].worst_at[l][k] = jobs[i].worst_at[l][k];
    }
    for (l = 0; l <= top; l++)
        for (k = 0; k < 3; k++) {
            float at;
            memcpy(&at, &jobs[nj].worst_at[l][k], 4);
            CHECK_MSG(jobs[nj].worst[l][k] <= bwd_bound[k], "%s on %s: %lld ulp at %a", bwd_name[k],
                      dnnlk_isa_name((dnnlk_isa)l), (long long)jobs[nj].worst[l][k], (double)at);
            if (exhaustive)
                printf("  %-13s %-7s max %lld ulp (at %a)\n", bwd_name[k], dnnlk_isa_name((dnnlk_isa)l),
                       (long long)jobs[nj].worst[l][k], (double)at);
        }
    CHECK_EQ(jobs[nj].mism_fma, 0);
#ifndef __FMA__
    CHECK_EQ(jobs[nj].mism_nofma, 0);
#endif
}

/* The kernels: diff_dst f'(src), every layout, dtype and part count the same as the f32 dense
 * single-part result on the rounded inputs; in place on either input; a known row against the
 * reference. */
TEST(gelu_bwd_layouts_dtypes_parts) {
    static const int64_t shapes[][3] = {{3, 5, 37}, {2, 1, 300}, {1, 1, 1}};
    static const dnnlk_dtype dts[] = {dnnlk_f32, dnnlk_bf16, dnnlk_f16};
    int op, si, pad, dx, dg, dout, pi, inplace;
    th_seed(303);
    for (op = 0; op < 3; op++)
        for (si = 0; si < 3; si++) {
            const int64_t *dims = shapes[si];
            int64_t n = th_numel(3, dims), j;
            float *xv = (float *)malloc((size_t)n * 4), *gv = (float *)malloc((size_t)n * 4), *ref = (float *)malloc((size_t)n * 4);
#define ELTB_CALL(x, g, o, ith, nth)                                                                                 \
    (op == 0 ? dnnlk_erf_bwd(x, g, o, ith, nth)                                                                      \
             : dnnlk_gelu_bwd(x, g, op == 1 ? dnnlk_gelu_erf : dnnlk_gelu_tanh, o, ith, nth))
            for (j = 0; j < n; j++) xv[j] = th_randf(-6, 6), gv[j] = th_randf(-2, 2);
            xv[0] = -0.7517915f;
            for (dx = 0; dx < 3; dx++)
                for (dg = 0; dg < 3; dg++) {
                    tview rx = tv_make(dnnlk_f32, 3, dims, 0, 0), rg = tv_make(dnnlk_f32, 3, dims, 0, 0);
                    tview ro = tv_make(dnnlk_f32, 3, dims, 0, 0);
                    for (j = 0; j < n; j++) tv_set(&rx, j, round_dt(xv[j], dts[dx])), tv_set(&rg, j, round_dt(gv[j], dts[dg]));
                    CHECK_EQ(ELTB_CALL(&rx.t, &rg.t, &ro.t, 0, 1), dnnlk_success);
                    for (j = 0; j < n; j++) {
                        ref[j] = tv_get(&ro, j);
                        if (dx == 0 && dg == 0) {
                            double want = (double)tv_get(&rg, j) * ref_bwd(op, tv_get(&rx, j));
                            CHECK_MSG(fabs(ref[j] - want) <= 6 * 0x1p-24 * fabs(want) + 1e-37, "op %d %a: %a vs %a", op,
                                      (double)tv_get(&rx, j), (double)ref[j], want);
                        }
                    }
                    tv_free(&rx), tv_free(&rg), tv_free(&ro);
                    for (dout = 0; dout < 3; dout++)
                        for (pad = 0; pad < 2; pad++)
                            for (inplace = 0; inplace < 3; inplace++) {
                                if ((inplace == 1 && dout != dx) || (inplace == 2 && dout != dg)) continue;
                                for (pi = 0; pi < 4; pi++) {
                                    tview tx = tv_make(dts[dx], 3, dims, pad, 2), tg = tv_make(dts[dg], 3, dims, pad, 6);
                                    tview to = tv_make(dts[dout], 3, dims, !pad, 4);
                                    tview *res = inplace == 1 ? &tx : inplace == 2 ? &tg : &to;
                                    int nth = parts_list[pi], ith, bad = 0;
                                    for (j = 0; j < n; j++) tv_set(&tx, j, xv[j]), tv_set(&tg, j, gv[j]);
                                    for (ith = 0; ith < nth; ith++) {
                                        dnnlk_tensor out = res->t;
                                        CHECK_EQ(ELTB_CALL(&tx.t, &tg.t, &out, ith, nth), dnnlk_success);
                                    }
                                    for (j = 0; j < n && !bad; j++) {
                                        float got = tv_get(res, j), want = round_dt(ref[j], dts[dout]);
                                        if (memcmp(&got, &want, 4) != 0 && !(got != got && want != want)) bad = 1;
                                    }
                                    CHECK_MSG(!bad, "op %d shape %d dt %d/%d/%d pad %d inplace %d nth %d", op, si, dx, dg, dout,
                                              pad, inplace, nth);
                                    tv_free(&tx), tv_free(&tg), tv_free(&to);
                                }
                            }
                }
            free(xv), free(gv), free(ref);
        }
}

/* A long f32 row through the streaming path (DNNLK_ELT_NT_BYTES lowered above) with a misaligned
 * output, against the per-element reference. */
TEST(gelu_bwd_streaming_rows) {
    enum { N = 5000 };
    static float x[N + 8], g[N + 8], o[N + 8];
    int64_t dims[1] = {N - 3};
    int op, i;
    th_seed(404);
    for (i = 0; i < N; i++) x[i] = th_randf(-12, 12), g[i] = th_randf(-3, 3);
    for (op = 0; op < 3; op++) {
        dnnlk_tensor tx = th_tensor(x + 1, dnnlk_f32, 1, dims), tg = th_tensor(g + 2, dnnlk_f32, 1, dims);
        dnnlk_tensor to = th_tensor(o + 3, dnnlk_f32, 1, dims);
        CHECK_EQ(ELTB_CALL(&tx, &tg, &to, 0, 1), dnnlk_success);
        for (i = 0; i < N - 3; i++) {
            double want = (double)g[i + 2] * ref_bwd(op, x[i + 1]);
            if (!(fabs(o[i + 3] - want) <= 6 * 0x1p-24 * fabs(want) + 1e-40)) {
                CHECK_MSG(0, "op %d i %d: %a vs %a", op, i, (double)o[i + 3], want);
                break;
            }
        }
    }
}

/* PyTorch 1.13's gelu_backward (both forms) and erf's autograd on specials and ordinary values
 * (PyTorch's own results are f32 formulas: see the tolerance). */
TEST(gelu_bwd_torch_cases) {
    int c, k;
    for (c = 0; c < (int)(sizeof torch_elt_cases / sizeof torch_elt_cases[0]); c++) {
        const torch_elt_case *t = &torch_elt_cases[c];
        float o[TORCH_ELT_N];
        int64_t dims[1] = {TORCH_ELT_N};
        dnnlk_tensor tx = th_tensor((void *)(uintptr_t)t->x, dnnlk_f32, 1, dims);
        dnnlk_tensor tg = th_tensor((void *)(uintptr_t)t->g, dnnlk_f32, 1, dims);
        dnnlk_tensor to = th_tensor(o, dnnlk_f32, 1, dims);
        int op = t->op;
        CHECK_EQ(ELTB_CALL(&tx, &tg, &to, 0, 1), dnnlk_success);
        for (k = 0; k < TORCH_ELT_N; k++) {
            float w = t->want[k];
            /* specials exactly (NaN where PyTorch gives NaN); ordinary values within PyTorch's own f32
             * error, which is absolute in the gelus' left tail (cdf + x pdf cancels) and grows with
             * x^2 in erf' (exp of a rounded x^2) */
            double x = isinf(t->x[k]) ? 0 : t->x[k], tol = op == 0 ? 1e-6 * (1 + x * x) * fabs(w) : 1e-6 * fabs(t->g[k]) * (1 + fabs(x));
            int ok = (w != w) ? o[k] != o[k] : fabs(o[k] - w) <= tol + 1e-38;
            CHECK_MSG(ok, "case %d op %d x=%a: %a, torch %a", c, op, (double)t->x[k], (double)o[k], (double)w);
        }
    }
}

TEST(gelu_bwd_bad_arguments) {
    float x[12], g[12], o[12], o2[12];
    int64_t d34[2] = {3, 4}, d43[2] = {4, 3};
    dnnlk_tensor tx = th_tensor(x, dnnlk_f32, 2, d34), tg = th_tensor(g, dnnlk_f32, 2, d34);
    dnnlk_tensor to = th_tensor(o, dnnlk_f32, 2, d34), t;
    int i;
    for (i = 0; i < 12; i++) x[i] = 0.25f, g[i] = 1.0f, o[i] = 77.0f;
    memcpy(o2, o, sizeof o);
#define ELTB_BAD(call, st)                                                                                           \
    do {                                                                                                             \
        CHECK_EQ(call, st);                                                                                          \
        CHECK(memcmp(o, o2, sizeof o) == 0);                                                                         \
    } while (0)
    ELTB_BAD(dnnlk_gelu_bwd(NULL, &tg, dnnlk_gelu_erf, &to, 0, 1), dnnlk_invalid_arguments);
    ELTB_BAD(dnnlk_gelu_bwd(&tx, NULL, dnnlk_gelu_erf, &to, 0, 1), dnnlk_invalid_arguments);
    ELTB_BAD(dnnlk_erf_bwd(&tx, &tg, NULL, 0, 1), dnnlk_invalid_arguments);
    ELTB_BAD(dnnlk_gelu_bwd(&tx, &tg, (dnnlk_gelu_approx)7, &to, 0, 1), dnnlk_invalid_arguments);
    t = tg, t.data = NULL;
    ELTB_BAD(dnnlk_gelu_bwd(&tx, &t, dnnlk_gelu_tanh, &to, 0, 1), dnnlk_invalid_arguments);
    t = tx, t.data = NULL;
    ELTB_BAD(dnnlk_erf_bwd(&t, &tg, &to, 0, 1), dnnlk_invalid_arguments);
    t = th_tensor(g, dnnlk_f32, 2, d43);
    ELTB_BAD(dnnlk_gelu_bwd(&tx, &t, dnnlk_gelu_erf, &to, 0, 1), dnnlk_invalid_shape);
    t = tg, t.dtype = dnnlk_s8;
    ELTB_BAD(dnnlk_erf_bwd(&tx, &t, &to, 0, 1), dnnlk_invalid_data_type);
    ELTB_BAD(dnnlk_erf_bwd(&tx, &tg, &to, 2, 2), dnnlk_invalid_arguments);
    t = to, t.data = g + 1;
    ELTB_BAD(dnnlk_gelu_bwd(&tx, &tg, dnnlk_gelu_erf, &t, 0, 1), dnnlk_invalid_arguments);
    t = to, t.data = x + 3;
    ELTB_BAD(dnnlk_erf_bwd(&tx, &tg, &t, 0, 1), dnnlk_invalid_arguments);
    t = to;
    t.ndims = DNNLK_UNKNOWN;
    CHECK_EQ(dnnlk_gelu_bwd_infer(&tx, &tg, dnnlk_gelu_tanh, &t), dnnlk_success);
    CHECK(t.ndims == 2 && t.dims[0] == 3 && t.dims[1] == 4);
#undef ELTB_BAD
}


/* ---------------------------------------------------------------- l2_norm backward */

/* The reference in long double, written from the forward's two formulas: y = x r, r = 1/n,
 * n = sqrt(max(S, eps)) or max(sqrt(S), eps); the gradient goes to S where the max takes it
 * (ties included), else n is constant. */
static void ref_l2b(const float *x, const float *g, int64_t K, float eps, int eps_out, double *out) {
    long double S = 0, a = 0, n, r;
    int64_t k;
    int through;
    for (k = 0; k < K; k++) S += (long double)x[k] * x[k], a += (long double)g[k] * x[k];
    through = eps_out ? sqrtl(S) >= eps : S >= eps;
    n = eps_out ? (through ? sqrtl(S) : eps) : sqrtl(through ? S : eps);
    r = 1 / n;
    for (k = 0; k < K; k++) out[k] = (double)(g[k] * r - (through ? x[k] * a * r * r * r : 0));
}

TEST(l2_norm_bwd_accuracy_and_fd) {
    static const int64_t lens[] = {1, 3, 16, 33, 300};
    static float x[300], g[300], o[300], xp[300], yp[300], ym[300];
    static double r[300];
    int li, eo, rep, k;
    th_seed(505);
    for (eo = 0; eo < 2; eo++)
        for (li = 0; li < 5; li++)
            for (rep = 0; rep < 4; rep++) {
                int64_t K = lens[li], dims[1];
                /* rep 3: a row whose norm is below eps (the constant branch) */
                float eps = rep == 3 ? 4.0f : 1e-6f, scale = rep == 3 ? 0.1f : rep == 2 ? 1e3f : 1.0f;
                long double S = 0, A = 0;
                dnnlk_tensor tx, tg, to;
                for (k = 0; k < K; k++) x[k] = th_randf(-1, 1) * scale, g[k] = th_randf(-1, 1);
                dims[0] = K;
                tx = th_tensor(x, dnnlk_f32, 1, dims), tg = th_tensor(g, dnnlk_f32, 1, dims), to = th_tensor(o, dnnlk_f32, 1, dims);
                CHECK_EQ(dnnlk_l2_norm_bwd(&tx, &tg, 0, eps, eo, &to, 0, 1), dnnlk_success);
                ref_l2b(x, g, K, eps, eo, r);
                for (k = 0; k < K; k++) S += (long double)x[k] * x[k], A += (long double)g[k] * x[k];
                for (k = 0; k < K; k++) {
                    /* terms g r and x a r^3: within 2 ulp of the larger where nothing cancels much */
                    double rr = 1 / (double)(eo ? fmaxl(sqrtl(S), eps) : sqrtl(fmaxl(S, eps)));
                    double big = fmax(fabs(g[k] * rr), fabs((double)x[k] * (double)A * rr * rr * rr));
                    CHECK_MSG(fabs(o[k] - r[k]) <= 2 * 0x1p-24 * big + 0x1p-24 * fabs(r[k]), "eo %d K %lld k %d: %a vs %a", eo,
                              (long long)K, k, (double)o[k], r[k]);
                }
                /* finite differences of the forward kernel: sum g y at x_k +- h */
                if (K <= 33 && rep != 2)
                    for (k = 0; k < K; k++) {
                        float h = 1.0f / 256 * scale;
                        double lp = 0, lm = 0, fd;
                        int i;
                        dnnlk_tensor txp, typ;
                        memcpy(xp, x, (size_t)K * 4);
                        txp = th_tensor(xp, dnnlk_f32, 1, dims);
                        xp[k] = x[k] + h;
                        typ = th_tensor(yp, dnnlk_f32, 1, dims);
                        CHECK_EQ(dnnlk_l2_norm(&txp, 0, eps, eo, &typ, 0, 1), dnnlk_success);
                        xp[k] = x[k] - h;
                        typ = th_tensor(ym, dnnlk_f32, 1, dims);
                        CHECK_EQ(dnnlk_l2_norm(&txp, 0, eps, eo, &typ, 0, 1), dnnlk_success);
                        for (i = 0; i < K; i++) lp += (double)g[i] * yp[i], lm += (double)g[i] * ym[i];
                        fd = (lp - lm) / (2.0 * h);
                        CHECK_MSG(fabs(fd - o[k]) <= 2e-2 * (fabs(o[k]) + 0.05 / scale), "fd eo %d K %lld k %d: %g vs %g", eo,
                                  (long long)K, k, fd, (double)o[k]);
                    }
            }
}

/* Layouts (axis first / middle / last, dense and strided), dtypes, parts, in place: the same
 * bits as the dense f32 single-part result on the rounded inputs. */
TEST(l2_norm_bwd_layouts_dtypes_parts) {
    static const int64_t dims[3] = {3, 6, 21};
    static const dnnlk_dtype dts[] = {dnnlk_f32, dnnlk_bf16, dnnlk_f16};
    int64_t n = th_numel(3, dims), j;
    float xv[3 * 6 * 21], gv[3 * 6 * 21], ref[3 * 6 * 21];
    int axis, eo, dx, dg, dout, pad, inplace, pi;
    th_seed(606);
    for (j = 0; j < n; j++) xv[j] = th_randf(-2, 2), gv[j] = th_randf(-1, 1);
    for (eo = 0; eo < 2; eo++)
        for (axis = -3; axis < 3; axis += 2)
            for (dx = 0; dx < 3; dx++)
                for (dg = 0; dg < 3; dg += 2) {
                    tview rx = tv_make(dnnlk_f32, 3, dims, 0, 0), rg = tv_make(dnnlk_f32, 3, dims, 0, 0);
                    tview ro = tv_make(dnnlk_f32, 3, dims, 0, 0);
                    for (j = 0; j < n; j++) tv_set(&rx, j, round_dt(xv[j], dts[dx])), tv_set(&rg, j, round_dt(gv[j], dts[dg]));
                    CHECK_EQ(dnnlk_l2_norm_bwd(&rx.t, &rg.t, axis, 1e-3f, eo, &ro.t, 0, 1), dnnlk_success);
                    for (j = 0; j < n; j++) ref[j] = tv_get(&ro, j);
                    tv_free(&rx), tv_free(&rg), tv_free(&ro);
                    for (dout = 0; dout < 3; dout++)
                        for (pad = 0; pad < 2; pad++)
                            for (inplace = 0; inplace < 2; inplace++) {
                                if (inplace && dout != dg) continue;
                                for (pi = 0; pi < 4; pi++) {
                                    tview tx = tv_make(dts[dx], 3, dims, pad, 2), tg = tv_make(dts[dg], 3, dims, pad, 6);
                                    tview to = tv_make(dts[dout], 3, dims, !pad, 4);
                                    tview *res = inplace ? &tg : &to;
                                    int nth = parts_list[pi], ith, bad = 0;
                                    for (j = 0; j < n; j++) tv_set(&tx, j, xv[j]), tv_set(&tg, j, gv[j]);
                                    for (ith = 0; ith < nth; ith++) {
                                        dnnlk_tensor out = res->t;
                                        CHECK_EQ(dnnlk_l2_norm_bwd(&tx.t, &tg.t, axis, 1e-3f, eo, &out, ith, nth), dnnlk_success);
                                    }
                                    for (j = 0; j < n && !bad; j++) {
                                        float got = tv_get(res, j), want = round_dt(ref[j], dts[dout]);
                                        if (memcmp(&got, &want, 4) != 0) bad = 1;
                                    }
                                    CHECK_MSG(!bad, "eo %d axis %d dt %d/%d/%d pad %d inplace %d nth %d", eo, axis, dx, dg, dout, pad,
                                              inplace, nth);
                                    tv_free(&tx), tv_free(&tg), tv_free(&to);
                                }
                            }
                }
}

/* PyTorch 1.13's F.normalize gradients (eps outside the sqrt): ordinary rows, a row below eps, a
 * row at eps exactly, a zero row, NaN / inf rows. */
TEST(l2_norm_bwd_torch_cases) {
    int c, k;
    for (c = 0; c < (int)(sizeof torch_l2_cases / sizeof torch_l2_cases[0]); c++) {
        const torch_l2_case *t = &torch_l2_cases[c];
        float o[TORCH_L2_K];
        int64_t dims[1] = {TORCH_L2_K};
        dnnlk_tensor tx = th_tensor((void *)(uintptr_t)t->x, dnnlk_f32, 1, dims);
        dnnlk_tensor tg = th_tensor((void *)(uintptr_t)t->g, dnnlk_f32, 1, dims);
        dnnlk_tensor to = th_tensor(o, dnnlk_f32, 1, dims);
        CHECK_EQ(dnnlk_l2_norm_bwd(&tx, &tg, -1, t->eps, 1, &to, 0, 1), dnnlk_success);
        for (k = 0; k < TORCH_L2_K; k++) {
            float w = t->want[k];
            int ok = (w != w) ? o[k] != o[k] : fabs(o[k] - w) <= 4e-6 * fabs(w);
            CHECK_MSG(ok, "case %d k=%d: %a, torch %a", c, k, (double)o[k], (double)w);
        }
    }
}

TEST(l2_norm_bwd_bad_arguments) {
    float x[12], g[12], o[12], o2[12];
    int64_t d34[2] = {3, 4}, d43[2] = {4, 3};
    dnnlk_tensor tx = th_tensor(x, dnnlk_f32, 2, d34), tg = th_tensor(g, dnnlk_f32, 2, d34);
    dnnlk_tensor to = th_tensor(o, dnnlk_f32, 2, d34), t;
    int i;
    for (i = 0; i < 12; i++) x[i] = 0.25f, g[i] = 1.0f, o[i] = 77.0f;
    memcpy(o2, o, sizeof o);
#define L2B_BAD(call, st)                                                                                            \
    do {                                                                                                             \
        CHECK_EQ(call, st);                                                                                          \
        CHECK(memcmp(o, o2, sizeof o) == 0);                                                                         \
    } while (0)
    L2B_BAD(dnnlk_l2_norm_bwd(NULL, &tg, 1, 1e-6f, 0, &to, 0, 1), dnnlk_invalid_arguments);
    L2B_BAD(dnnlk_l2_norm_bwd(&tx, NULL, 1, 1e-6f, 0, &to, 0, 1), dnnlk_invalid_arguments);
    L2B_BAD(dnnlk_l2_norm_bwd(&tx, &tg, 1, 1e-6f, 0, NULL, 0, 1), dnnlk_invalid_arguments);
    L2B_BAD(dnnlk_l2_norm_bwd(&tx, &tg, 2, 1e-6f, 0, &to, 0, 1), dnnlk_invalid_arguments);
    L2B_BAD(dnnlk_l2_norm_bwd(&tx, &tg, 1, -1.0f, 0, &to, 0, 1), dnnlk_invalid_arguments);
    L2B_BAD(dnnlk_l2_norm_bwd(&tx, &tg, 1, NAN, 1, &to, 0, 1), dnnlk_invalid_arguments);
    L2B_BAD(dnnlk_l2_norm_bwd(&tx, &tg, 1, 1e-6f, 2, &to, 0, 1), dnnlk_invalid_arguments);
    L2B_BAD(dnnlk_l2_norm_bwd(&tx, &tg, 1, 1e-6f, 0, &to, 3, 3), dnnlk_invalid_arguments);
    t = tg, t.data = NULL;
    L2B_BAD(dnnlk_l2_norm_bwd(&tx, &t, 1, 1e-6f, 0, &to, 0, 1), dnnlk_invalid_arguments);
    t = th_tensor(g, dnnlk_f32, 2, d43);
    L2B_BAD(dnnlk_l2_norm_bwd(&tx, &t, 1, 1e-6f, 0, &to, 0, 1), dnnlk_invalid_shape);
    t = tg, t.dtype = dnnlk_s32;
    L2B_BAD(dnnlk_l2_norm_bwd(&tx, &t, 1, 1e-6f, 0, &to, 0, 1), dnnlk_invalid_data_type);
    t = to, t.data = x + 1;
    L2B_BAD(dnnlk_l2_norm_bwd(&tx, &tg, 1, 1e-6f, 0, &t, 0, 1), dnnlk_invalid_arguments);
    t = to;
    t.ndims = DNNLK_UNKNOWN;
    CHECK_EQ(dnnlk_l2_norm_bwd_infer(&tx, &tg, 1, 1e-6f, 1, &t), dnnlk_success);
    CHECK(t.ndims == 2 && t.dims[0] == 3 && t.dims[1] == 4);
#undef L2B_BAD
}

int main(void) {
    RUN_EACH_ISA(softmax_bwd_accuracy);
    RUN(softmax_bwd_finite_difference);
    RUN_EACH_ISA(softmax_bwd_layouts_dtypes_parts);
    RUN(softmax_bwd_levels_agree);
    RUN_EACH_ISA(softmax_bwd_torch_cases);
    RUN(softmax_bwd_bad_arguments);
    RUN(gelu_erf_bwd_sweep);
    RUN_EACH_ISA(gelu_bwd_layouts_dtypes_parts);
    RUN_EACH_ISA(gelu_bwd_streaming_rows);
    RUN_EACH_ISA(gelu_bwd_torch_cases);
    RUN(gelu_bwd_bad_arguments);
    RUN(l2_norm_bwd_accuracy_and_fd);
    RUN(l2_norm_bwd_layouts_dtypes_parts);
    RUN(l2_norm_bwd_torch_cases);
    RUN(l2_norm_bwd_bad_arguments);
    return th_summary();
}
