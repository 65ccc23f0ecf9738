/* Output descriptors: an execute function completes an output descriptor given with unknown
 * dims or strides, and once it is complete never writes it again (dnnlk__set_desc, base.h).
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

int main(void) {
    RUN(complete_output_descriptors_not_written);
    return th_summary();
}
