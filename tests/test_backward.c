/* Backward kernels: softmax.h (softmax_bwd, log_softmax_bwd), eltwise.h (gelu_bwd, erf_bwd).
 * References are plain formulas in double (long double where the result cancels); the literal
 * cases of tests/torch_backward_cases.h were printed by tools/torch_backward_cases.py (PyTorch 1.13).
 * DNNLK_TEST_EXHAUSTIVE=1 (make test-exhaustive) sweeps gelu_bwd over every float. */
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

int main(void) {
    RUN_EACH_ISA(softmax_bwd_accuracy);
    RUN(softmax_bwd_finite_difference);
    RUN_EACH_ISA(softmax_bwd_layouts_dtypes_parts);
    RUN(softmax_bwd_levels_agree);
    RUN_EACH_ISA(softmax_bwd_torch_cases);
    RUN(softmax_bwd_bad_arguments);
    return th_summary();
}
