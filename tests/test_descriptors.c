/* Output descriptors: an execute function completes an output descriptor given with unknown
 * dims or strides, and once it is complete never writes it again (dnnlk__set_desc, base.h); and
 * u64 through the ops that take it or refuse it.
 * Built at -O0 in every flavour (Makefile: O0_TESTS): what it checks is the ops' descriptor
 * handling, not their arithmetic, which each op's own test checks optimized; at -O2 the twelve
 * ops' kernels at every level took three minutes to compile. */
#include "harness.h"

/* Parts of one call may run at once on one output descriptor; once it is complete (here: by a first
 * call with (0, 1)) an execute function must not write it again, not even the same bytes (two
 * threads writing one object is a data race). The descriptors sit on a page made read-only while
 * parts (0, 2) and (1, 2) run: a write-back faults, and the program's crash fails the test. */
#include <sys/mman.h>

static dnnlk_tensor *ro_page(void) {
    static dnnlk_tensor *page;
    if (!page) {
        void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        page = p == MAP_FAILED ? NULL : (dnnlk_tensor *)p;
    }
    return page;
}
static int ro_protect(int read_only) {
    return mprotect(ro_page(), 4096, read_only ? PROT_READ : PROT_READ | PROT_WRITE) == 0;
}
/* Runs STMT (a call with parts ith of 2 whose outputs are ro[0], ro[1], ...) on the read-only page. */
#define RO_PARTS(STMT)                                                   \
    do {                                                                 \
        int ith;                                                         \
        CHECK(ro_protect(1));                                            \
        for (ith = 0; ith < 2; ith++) CHECK_EQ((STMT), dnnlk_success);   \
        CHECK(ro_protect(0));                                            \
    } while (0)

TEST(complete_output_descriptors_not_written) {
    enum { R = 6, C = 40, N = R * C };
    static float x[N], y[N], z[N], a[N], mean[R], istd[R];
    static uint16_t h[N];
    static unsigned char b[N], mask[N / 8 + 8];
    static int8_t q[N];
    static int64_t idx[R], ix[R], big[4 * N];
    int64_t dims[2] = {R, C}, rows[1] = {R}, i;
    dnnlk_tensor X = th_tensor(x, dnnlk_f32, 2, dims), Z = th_tensor(z, dnnlk_f32, 2, dims), B = th_tensor(b, dnnlk_boolean, 2, dims);
    dnnlk_tensor *ro = ro_page(), S;
    float sc = 0.5f, one = 1, zero = 0;
    int ax = -1;
    dnnlk_rng rng;
    dnnlk_resize_desc rd;
    static const int raxes[1] = {1};
    static const float rscale[1] = {2};
    CHECK(ro != NULL);
    if (!ro) return;
    for (i = 0; i < N; i++) x[i] = (float)(i % 13) - 6.5f, z[i] = (float)(i % 7), b[i] = (unsigned char)(i % 3 == 0);
    for (i = 0; i < R; i++) ix[i] = (i * 7) % C;
#define FRESH(k, DATA, DT)                                                      \
    do {                                                                        \
        memset(&ro[k], 0, sizeof ro[k]);                                        \
        ro[k].data = (DATA), ro[k].dtype = (DT), ro[k].ndims = DNNLK_UNKNOWN;   \
    } while (0)
    FRESH(0, y, dnnlk_f32);
    CHECK_EQ(dnnlk_select(&B, &X, &Z, &ro[0], dnnlk_broadcast_numpy, 0, 1), dnnlk_success);
    RO_PARTS(dnnlk_select(&B, &X, &Z, &ro[0], dnnlk_broadcast_numpy, ith, 2));
    FRESH(0, h, dnnlk_bf16);
    CHECK_EQ(dnnlk_convert(&X, &ro[0], 0, 1), dnnlk_success);
    RO_PARTS(dnnlk_convert(&X, &ro[0], ith, 2));
    FRESH(0, b, dnnlk_boolean);
    CHECK_EQ(dnnlk_compare(dnnlk_compare_lt, &X, &Z, &ro[0], 0, 1), dnnlk_success);
    RO_PARTS(dnnlk_compare(dnnlk_compare_lt, &X, &Z, &ro[0], ith, 2));
    FRESH(0, y, dnnlk_f32);
    CHECK_EQ(dnnlk_softmax(&X, 1, &ro[0], 0, 1), dnnlk_success);
    RO_PARTS(dnnlk_softmax(&X, 1, &ro[0], ith, 2));
    FRESH(0, y, dnnlk_f32);
    CHECK_EQ(dnnlk_gelu(&X, dnnlk_gelu_erf, &ro[0], 0, 1), dnnlk_success);
    RO_PARTS(dnnlk_gelu(&X, dnnlk_gelu_erf, &ro[0], ith, 2));
    FRESH(0, y, dnnlk_f32);
    FRESH(1, mean, dnnlk_f32);
    FRESH(2, istd, dnnlk_f32);
    CHECK_EQ(dnnlk_layer_norm(&X, NULL, NULL, 1, &ax, 1e-5f, 0, &ro[0], &ro[1], &ro[2], 0, 1), dnnlk_success);
    RO_PARTS(dnnlk_layer_norm(&X, NULL, NULL, 1, &ax, 1e-5f, 0, &ro[0], &ro[1], &ro[2], ith, 2));
    FRESH(0, y, dnnlk_f32);
    CHECK_EQ(dnnlk_l2_norm(&X, 1, 1e-6f, 0, &ro[0], 0, 1), dnnlk_success);
    RO_PARTS(dnnlk_l2_norm(&X, 1, 1e-6f, 0, &ro[0], ith, 2));
    FRESH(0, a, dnnlk_f32);
    FRESH(1, idx, dnnlk_s64);
    CHECK_EQ(dnnlk_arg_max(&X, 1, 1, 0, &ro[0], &ro[1], 0, 1), dnnlk_success);
    RO_PARTS(dnnlk_arg_max(&X, 1, 1, 0, &ro[0], &ro[1], ith, 2));
    S = th_tensor(&sc, dnnlk_f32, 0, NULL);
    FRESH(0, q, dnnlk_s8);
    CHECK_EQ(dnnlk_quantize_linear(&X, &S, NULL, 0, 0, 1, &ro[0], 0, 1), dnnlk_success);
    RO_PARTS(dnnlk_quantize_linear(&X, &S, NULL, 0, 0, 1, &ro[0], ith, 2));
    {
        dnnlk_tensor I = th_tensor(ix, dnnlk_s64, 1, rows);
        FRESH(0, y, dnnlk_f32);
        CHECK_EQ(dnnlk_one_hot(&I, C, -1, &one, &zero, &ro[0], 0, 1), dnnlk_success);
        RO_PARTS(dnnlk_one_hot(&I, C, -1, &one, &zero, &ro[0], ith, 2));
    }
    memset(&rd, 0, sizeof rd);
    rd.mode = dnnlk_resize_nearest, rd.naxes = 1, rd.axes = raxes, rd.scales = rscale;
    FRESH(0, big, dnnlk_f32);
    CHECK_EQ(dnnlk_resize(&X, &rd, &ro[0], 0, 1), dnnlk_success);
    RO_PARTS(dnnlk_resize(&X, &rd, &ro[0], ith, 2));
    CHECK_EQ(dnnlk_rng_init(&rng, dnnlk_rng_mcg31m1, 42, 0), dnnlk_success);
    FRESH(0, y, dnnlk_f32);
    CHECK_EQ(dnnlk_dropout_fwd(&X, &ro[0], mask, 0.25, 0, NULL, &rng, NULL, 0, 1), dnnlk_success);
    RO_PARTS(dnnlk_dropout_fwd(&X, &ro[0], mask, 0.25, 0, NULL, &rng, NULL, ith, 2));
#undef FRESH
}

/* ---- u64 in the other ops ---- */

/* The ops that take u64 besides convert and the arg ops (test_convert, test_argreduce): compare
 * (unsigned order, on the typed row, the element path of a strided view and against a broadcast
 * scalar), select and nearest resize (bit copies, tf_crop_and_resize's extrapolation_value
 * converted). Every other op refuses it, descriptors untouched. Hand cases at every level, here at
 * -O0 with the other wrapper checks: test_compare runs u64 rows optimized (random and typed rows),
 * and select and nearest resize copy 8-byte elements in their own tests; in test_convert this case
 * compiled compare, select and resize at -O2 into it (gcc: 64 s for test_convert, 16 s without). */
TEST(u64_in_other_ops_each_isa) {
    static const uint64_t a[8] = {5, 0x8000000000000000ull, 0xffffffffffffffffull, 0x8000000000000001ull,
                                  0x7fffffffffffffffull, 0, 0xfffffffffffffffeull, 1};
    static const uint64_t b[8] = {0x8000000000000000ull, 0x8000000000000000ull, 0xfffffffffffffffeull,
                                  0x8000000000000001ull, 0x8000000000000000ull, 0, 0xffffffffffffffffull, 0};
    static const unsigned char lt[8] = {1, 0, 0, 0, 1, 0, 1, 0}, gt[8] = {0, 0, 1, 0, 0, 0, 0, 1};
    unsigned char m[8], cond[8] = {1, 0, 1, 0, 0, 1, 1, 0};
    int64_t n = 8, h = 4, one = 1, i, two[2] = {1, 4}, twoo[2] = {1, 8};
    uint64_t out[8], res[8], big = 0x8000000000000000ull;
    dnnlk_tensor ta = th_tensor((void *)a, dnnlk_u64, 1, &n), tb = th_tensor((void *)b, dnnlk_u64, 1, &n);
    dnnlk_tensor tm = th_tensor(m, dnnlk_boolean, 1, &n), tc = th_tensor(cond, dnnlk_boolean, 1, &n), tsc, td, u;
    CHECK_EQ(dnnlk_compare(dnnlk_compare_lt, &ta, &tb, &tm, 0, 1), dnnlk_success);
    CHECK(memcmp(m, lt, 8) == 0);
    CHECK_EQ(dnnlk_compare(dnnlk_compare_gt, &ta, &tb, &tm, 0, 1), dnnlk_success);
    CHECK(memcmp(m, gt, 8) == 0);
    /* every other element: the element path */
    ta.dims[0] = tb.dims[0] = tm.dims[0] = h, ta.strides[0] = tb.strides[0] = 2;
    CHECK_EQ(dnnlk_compare(dnnlk_compare_lt, &ta, &tb, &tm, 0, 1), dnnlk_success);
    for (i = 0; i < h; i++) CHECK_EQ(m[i], lt[2 * i]);
    CHECK_EQ(dnnlk_compare(dnnlk_compare_ge, &ta, &tb, &tm, 0, 1), dnnlk_success);
    for (i = 0; i < h; i++) CHECK_EQ(m[i], !lt[2 * i]);
    /* against a scalar 2^63 */
    ta = th_tensor((void *)a, dnnlk_u64, 1, &n), tb = th_tensor((void *)b, dnnlk_u64, 1, &n);
    tm = th_tensor(m, dnnlk_boolean, 1, &n);
    tsc = th_tensor(&big, dnnlk_u64, 0, &one);
    CHECK_EQ(dnnlk_compare(dnnlk_compare_ge, &ta, &tsc, &tm, 0, 1), dnnlk_success);
    for (i = 0; i < n; i++) CHECK_EQ(m[i], a[i] >= big);
    /* select: the bits of the chosen side */
    td = th_tensor(out, dnnlk_u64, 1, &n);
    CHECK_EQ(dnnlk_select(&tc, &ta, &tb, &td, dnnlk_broadcast_none, 0, 1), dnnlk_success);
    for (i = 0; i < n; i++) CHECK(out[i] == (cond[i] ? a[i] : b[i]));
    /* nearest resize x2 of [1,4]: each element twice */
    {
        dnnlk_resize_desc rd;
        float sc[2] = {1.0f, 2.0f}, roi[4] = {0, 0, 1, 2};
        dnnlk_tensor rs = th_tensor((void *)a, dnnlk_u64, 2, two), ro = th_tensor(res, dnnlk_u64, 2, twoo);
        memset(&rd, 0, sizeof rd);
        rd.mode = dnnlk_resize_nearest, rd.coord = dnnlk_resize_asymmetric, rd.nearest = dnnlk_resize_floor;
        rd.naxes = 2, rd.scales = sc;
        CHECK_EQ(dnnlk_resize(&rs, &rd, &ro, 0, 1), dnnlk_success);
        for (i = 0; i < 8; i++) CHECK(res[i] == a[i / 2]);
        /* crop [0, 2] of an axis of 4 (ends past in - 1): the samples outside take the value as a
         * u64 (above 2^63; saturated above 2^64 and below 0) */
        rd.coord = dnnlk_resize_tf_crop_and_resize, rd.nroi = 4, rd.roi = roi, rd.extrapolation_value = 1e19f;
        CHECK_EQ(dnnlk_resize(&rs, &rd, &ro, 0, 1), dnnlk_success);
        CHECK(res[7] == (uint64_t)1e19f);
        rd.extrapolation_value = 3e19f;
        CHECK_EQ(dnnlk_resize(&rs, &rd, &ro, 0, 1), dnnlk_success);
        CHECK(res[7] == UINT64_MAX);
        rd.extrapolation_value = -5.0f;
        CHECK_EQ(dnnlk_resize(&rs, &rd, &ro, 0, 1), dnnlk_success);
        CHECK(res[7] == 0);
        rd.coord = dnnlk_resize_asymmetric, rd.nroi = 0, rd.roi = NULL, rd.mode = dnnlk_resize_linear;
        memset(&u, 0x5A, sizeof u), ro = u;
        CHECK_EQ(dnnlk_resize_infer(&rs, &rd, &ro), dnnlk_invalid_data_type);
        CHECK(memcmp(&ro, &u, sizeof u) == 0);
    }
    /* the ops that refuse it, from their infer calls; the output descriptor left as it was */
    {
        float f[8] = {0}, sc = 1.0f;
        int32_t idx[8] = {0};
        int ax = 0;
        dnnlk_tensor fs = th_tensor(f, dnnlk_f32, 1, &n), ts = th_tensor(&sc, dnnlk_f32, 0, &one), o, keep;
        dnnlk_tensor ti = th_tensor(idx, dnnlk_s32, 1, &n);
        ta = th_tensor((void *)a, dnnlk_u64, 1, &n);
#define REFUSED(out, call)                                       \
        do {                                                     \
            o = (out), o.ndims = DNNLK_UNKNOWN, keep = o;        \
            CHECK_EQ(call, dnnlk_invalid_data_type);             \
            CHECK(memcmp(&o, &keep, sizeof o) == 0);             \
        } while (0)
        REFUSED(ta, dnnlk_erf_infer(&ta, &o));
        REFUSED(ta, dnnlk_softmax_infer(&ta, 0, &o));
        REFUSED(ta, dnnlk_l2_norm_infer(&ta, 0, 1e-6f, 0, &o));
        REFUSED(ta, dnnlk_layer_norm_infer(&ta, NULL, NULL, 1, &ax, 1e-5f, 0, &o, NULL, NULL));
        REFUSED(ta, dnnlk_dropout_fwd_infer(&ta, &o));
        REFUSED(ta, dnnlk_quantize_linear_infer(&fs, &ts, NULL, 0, 0, 1, &o));
        REFUSED(fs, dnnlk_dequantize_linear_infer(&ta, &ts, NULL, 0, 0, &o));
        REFUSED(ta, dnnlk_one_hot_infer(&ti, 4, -1, &o));
        o = ta, keep = o;
        CHECK_EQ(dnnlk_rng_uniform_infer(&o), dnnlk_invalid_data_type);
        CHECK(memcmp(&o, &keep, sizeof o) == 0);
#undef REFUSED
    }
}

/* An execute call that completes an output descriptor writes its data, dtype, ndims, and dims and
 * strides up to ndims, and nothing past them (the caller's slots there are left as they were), for
 * ops whose prepare builds the output in a scratch descriptor (compare, convert, select). */
TEST(completed_descriptor_leaves_the_unused_dims) {
    static int64_t m[2 * 3], zero = 0;
    static float f[2 * 3], g[2 * 3];
    static unsigned char o[2 * 3];
    int64_t dims[2] = {2, 3};
    dnnlk_tensor a = th_tensor(m, dnnlk_s64, 2, dims), s = th_tensor(&zero, dnnlk_s64, 0, NULL);
    dnnlk_tensor x = th_tensor(f, dnnlk_f32, 2, dims), c = th_tensor(o, dnnlk_boolean, 2, dims), d;
    int k, i;
    for (k = 0; k < 3; k++) {
        memset(&d, 0, sizeof d);
        d.data = k == 0 ? (void *)o : (void *)g, d.dtype = dnnlk_dtype_undef, d.ndims = DNNLK_UNKNOWN;
        for (i = 0; i < DNNLK_MAX_NDIMS; i++) d.dims[i] = 1000 + i, d.strides[i] = 2000 + i;
        if (k == 0) CHECK_EQ(dnnlk_compare(dnnlk_compare_eq, &a, &s, &d, 0, 1), dnnlk_success);
        else if (k == 1) CHECK_EQ(dnnlk_convert(&x, &d, 0, 1), dnnlk_success);
        else CHECK_EQ(dnnlk_select(&c, &x, &x, &d, dnnlk_broadcast_numpy, 0, 1), dnnlk_success);
        CHECK_EQ(d.ndims, 2);
        CHECK(d.dims[0] == 2 && d.dims[1] == 3 && d.strides[0] == 3 && d.strides[1] == 1);
        for (i = 2; i < DNNLK_MAX_NDIMS; i++) CHECK_MSG(d.dims[i] == 1000 + i && d.strides[i] == 2000 + i, "op %d slot %d", k, i);
    }
}

int main(void) {
    RUN(complete_output_descriptors_not_written);
    RUN(completed_descriptor_leaves_the_unused_dims);
    RUN_EACH_ISA(u64_in_other_ops_each_isa);
    return th_summary();
}
