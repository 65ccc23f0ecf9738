/* dropout.h: masks and outputs against a scalar reference (keep rules from the plain engines),
 * every ISA, part count, dtype, layout, noise shape, chaining, rate edge cases, statistics and bad
 * arguments. The non-temporal store threshold is lowered so that the streaming paths (alignment
 * peel, stream stores, fence) run on test-sized tensors too. */
#define DNNLK_DROPOUT_NT_BYTES 16384
#include "harness.h"
#include "rng_ref.h"


/* Keep bit of draw j by each engine's documented rule (rates here have 1 - rate exact; MCG31
 * keeps as VSL's Bernoulli with p = 1 - rate). */
static int ref_keep(dnnlk_rng_alg alg, const uint32_t *out, int64_t j, double rate) {
    if (rate == 0) return 1;
    if (rate == 1) return 0;
    if (alg == dnnlk_rng_mcg31m1) return ref_vsl_mcg31_bit(out[j], 1.0 - rate);
    if (alg == dnnlk_rng_philox4x32_10 || alg == dnnlk_rng_philox4x32_10_ctr32)
        return (double)out[j] > 4294967295.0 * rate;
    return ref_canonical(out[2 * j], out[2 * j + 1]) < 1.0 - rate;
}

static float ref_val(float x, int keep, double rate) {
    float scale = rate < 1 ? (float)(1.0 / (1.0 - rate)) : 0.0f;
    if (rate == 0) return x;
    return x * (keep ? scale : 0.0f);
}

/* Random data with specials sprinkled in. */
static float rand_val(void) {
    int r = (int)th_randint(0, 40);
    if (r == 0) return NAN;
    if (r == 1) return INFINITY;
    if (r == 2) return -INFINITY;
    if (r == 3) return -0.0f;
    if (r == 4) return 1e-40f;
    if (r == 5) return -3e38f;
    return th_randf(-10, 10);
}

typedef struct tcase {
    int nd;
    int64_t dims[4];
    int64_t noise[4]; /* 0: no noise shape */
    int transposed;   /* src and dst strides reversed (column-major) */
    int inplace;
} tcase;

/* Runs one forward + backward case on the current ISA and compares with the reference. */
static void run_case(const tcase *tc, dnnlk_rng_alg alg, dnnlk_dtype dt, double rate, int nth) {
    int64_t n = 1, nm = 1, i, mdims[4], mstr[4];
    int d, ith, k;
    size_t es = dnnlk_dtype_size(dt), mbytes = 0;
    dnnlk_tensor src, dst, dd, ds;
    dnnlk_rng in, out;
    uint32_t *ref;
    uint8_t *want_mask;
    th_buf bs, bd, bm, bg, bgs;
    const int64_t *noise = tc->noise[0] ? tc->noise : NULL;
    int bad_mask = 0, bad_out = 0, bad_bwd = 0;
    for (d = 0; d < tc->nd; d++) {
        n *= tc->dims[d];
        mdims[d] = noise ? noise[d] : tc->dims[d];
        nm *= mdims[d];
    }
    dnnlk_dense_strides(tc->nd, mdims, mstr);
    ref = (uint32_t *)malloc((size_t)(2 * nm + 8) * 4);
    want_mask = (uint8_t *)calloc((size_t)(nm + 7) / 8 + 1, 1);
    dnnlk_rng_init(&in, alg, 1234, 56);
    ref_outputs(alg, 1234, 56, ref, (size_t)(alg == dnnlk_rng_mt19937 ? 2 * nm : nm) + 2);
    for (i = 0; i < nm; i++) want_mask[i / 8] |= (uint8_t)(ref_keep(alg, ref, i, rate) << (i % 8));
    bs = th_alloc((size_t)n * es, 4);
    bd = th_alloc((size_t)n * es, (n & 1) ? 8 : 0); /* even sizes: aligned, for the streaming fused path */
    bg = th_alloc((size_t)n * es, 2);
    bgs = th_alloc((size_t)n * es, 6);
    src = th_tensor(bs.p, dt, tc->nd, tc->dims);
    if (tc->transposed) {
        int64_t s = 1;
        for (d = 0; d < tc->nd; d++) src.strides[d] = s, s *= tc->dims[d];
    }
    for (i = 0; i < n; i++) dnnlk__store_from_f32((char *)bs.p + i * (int64_t)es, dt, rand_val());
    dst = src;
    dst.data = tc->inplace ? bs.p : bd.p;
    {
        dnnlk_tensor probe = src;
        CHECK_EQ(dnnlk_dropout_mask_bytes(&probe, tc->nd, noise, &mbytes), dnnlk_success);
        CHECK_EQ((int64_t)mbytes, (nm + 7) / 8);
    }
    bm = th_alloc(mbytes, 1);
    {
        /* keep a copy of the source for the reference (in-place overwrites it) */
        th_buf keep = th_alloc((size_t)n * es, 0);
        memcpy(keep.p, bs.p, (size_t)n * es);
        for (ith = 0; ith < nth; ith++) {
            dnnlk_status st = dnnlk_dropout_fwd(&src, &dst, (uint8_t *)bm.p, rate, tc->nd, noise, &in, &out, ith, nth);
            CHECK_EQ(st, dnnlk_success);
        }
        bad_mask = memcmp(bm.p, want_mask, mbytes) != 0;
        for (i = 0; i < n && !bad_mask; i++) {
            /* element i in row-major order of dims; its memory offset in the (maybe transposed) layout */
            int64_t rem = i, off = 0, j = 0;
            float x, want, got;
            for (d = tc->nd - 1; d >= 0; d--) {
                int64_t id = rem % tc->dims[d];
                rem /= tc->dims[d];
                off += id * src.strides[d];
                if (mdims[d] != 1) j += id * mstr[d];
            }
            x = dnnlk__load_as_f32((char *)keep.p + off * (int64_t)es, dt);
            want = ref_val(x, (want_mask[j / 8] >> (j % 8)) & 1, rate);
            if (dt != dnnlk_f32 && rate != 0) {
                dnnlk__store_from_f32(&want, dt, want); /* round like the kernel */
                want = dnnlk__load_as_f32(&want, dt);
            }
            if (rate == 0) { /* bitwise copy */
                bad_out += memcmp((char *)dst.data + off * (int64_t)es, (char *)keep.p + off * (int64_t)es, es) != 0;
                continue;
            }
            got = dnnlk__load_as_f32((char *)dst.data + off * (int64_t)es, dt);
            if (memcmp(&got, &want, 4) != 0 && !(got != got && want != want)) bad_out++;
        }
        /* the end state continues the stream */
        {
            uint32_t next = 0;
            size_t used = (size_t)(alg == dnnlk_rng_mt19937 ? 2 * nm : nm);
            dnnlk_rng_u32(&out, &next, 1, NULL, 0, 1);
            CHECK_MSG(next == ref[used], "%s end state", alg_name(alg));
        }
        /* backward with the mask: diff_src = diff_dst * m * scale */
        dd = src;
        dd.data = bg.p;
        for (i = 0; i < n; i++) dnnlk__store_from_f32((char *)bg.p + i * (int64_t)es, dt, rand_val());
        ds = dd;
        ds.data = bgs.p;
        for (ith = 0; ith < nth; ith++)
            CHECK_EQ(dnnlk_dropout_bwd(&dd, (const uint8_t *)bm.p, &ds, rate, tc->nd, noise, ith, nth), dnnlk_success);
        for (i = 0; i < n; i++) {
            int64_t rem = i, off = 0, j = 0;
            float x, want, got;
            for (d = tc->nd - 1; d >= 0; d--) {
                int64_t id = rem % tc->dims[d];
                rem /= tc->dims[d];
                off += id * dd.strides[d];
                if (mdims[d] != 1) j += id * mstr[d];
            }
            if (rate == 0) {
                bad_bwd += memcmp((char *)bgs.p + off * (int64_t)es, (char *)bg.p + off * (int64_t)es, es) != 0;
                continue;
            }
            x = dnnlk__load_as_f32((char *)bg.p + off * (int64_t)es, dt);
            want = ref_val(x, (want_mask[j / 8] >> (j % 8)) & 1, rate);
            if (dt != dnnlk_f32) {
                dnnlk__store_from_f32(&want, dt, want);
                want = dnnlk__load_as_f32(&want, dt);
            }
            got = dnnlk__load_as_f32((char *)bgs.p + off * (int64_t)es, dt);
            if (memcmp(&got, &want, 4) != 0 && !(got != got && want != want)) bad_bwd++;
        }
        th_free(&keep);
    }
    k = th_guards_ok(&bs) && th_guards_ok(&bd) && th_guards_ok(&bm) && th_guards_ok(&bgs);
    CHECK_MSG(!bad_mask && !bad_out && !bad_bwd && k,
              "%s %s rate %g nth %d nd %d dims %lld.. noise %d transposed %d inplace %d: mask %d out %d bwd %d guards %d",
              alg_name(alg), dnnlk_dtype_name(dt), rate, nth, tc->nd, (long long)tc->dims[0], noise != NULL,
              tc->transposed, tc->inplace, bad_mask, bad_out, bad_bwd, k);
    th_free(&bs), th_free(&bd), th_free(&bm), th_free(&bg), th_free(&bgs);
    free(ref);
    free(want_mask);
}

TEST(fwd_bwd_match_reference_isa) {
    static const tcase cases[] = {
        {1, {0}, {0}, 0, 0},
        {1, {1}, {0}, 0, 0},
        {1, {7}, {0}, 0, 0},
        {1, {33}, {0}, 0, 0},
        {1, {64}, {0}, 0, 0},
        {1, {257}, {0}, 0, 0},
        {1, {5000}, {0}, 0, 0},
        {1, {9000}, {0}, 0, 1},
        {2, {37, 61}, {0}, 0, 0},
        {2, {37, 61}, {0}, 1, 0},
        {2, {37, 61}, {0}, 1, 1},
        {3, {3, 5, 129}, {0}, 0, 1},
        {3, {4, 33, 40}, {4, 1, 40}, 0, 0},  /* broadcast over the middle dim */
        {3, {4, 33, 40}, {1, 33, 40}, 0, 0}, /* outer broadcast */
        {3, {4, 33, 40}, {4, 33, 1}, 0, 0},  /* inner broadcast */
        {3, {4, 33, 40}, {1, 1, 1}, 0, 1},
        {3, {6, 7, 90}, {6, 1, 90}, 1, 0},
        {2, {3, 5000}, {1, 5000}, 0, 0},    /* rows longer than the regeneration window */
        {1, {12000}, {0}, 0, 0},            /* bf16/f16 past the streaming threshold, every engine */
    };
    static const double rates[] = {0.1f, 0.5, 0.0, 1.0, 0.9f, 0.3f};
    static const int nths[] = {1, 2, 3, 7};
    /* below DNNLK_TEST_SCALE 0.5 (the sanitizer runs: 0.1) the generic rates 0.5, 0.9 and 0.3
     * are left to the full runs: 0.1 takes the same paths, 0 and 1 the special ones */
    const int generic_rates = th_scale() >= 0.5;
    int c, a, r, t, ni;
    for (c = 0; c < (int)(sizeof cases / sizeof *cases); c++)
        for (a = 0; a < NALGS; a++)
            for (r = 0; r < 6; r++)
                for (t = 0; t < 3; t++) {
                    if (!generic_rates && (r == 1 || r >= 4)) continue;
                    dnnlk_dtype dt = t == 0 ? dnnlk_f32 : t == 1 ? dnnlk_bf16 : dnnlk_f16;
                    if (t > 0 && (r > 1 || a > 0) && c % 3) continue; /* keep the runtime modest */
                    for (ni = 0; ni < 4; ni++) {
                        if (ni > 0 && r > 1 && c % 2) continue;
                        run_case(&cases[c], algs[a], dt, rates[r], nths[ni]);
                    }
                }
}

/* Chained calls continue one stream: n1 then n2 elements equal one call of n1 + n2. */
TEST(chained_calls_isa) {
    int a;
    for (a = 0; a < NALGS; a++) {
        int64_t n1 = 4096 + 64, n2 = 3001, n = n1 + n2;
        float *x = (float *)malloc((size_t)n * 4), *y1 = (float *)malloc((size_t)n * 4), *y2 = (float *)malloc((size_t)n * 4);
        uint8_t m1[1000], m2[1000];
        dnnlk_rng in, mid, end1, end2;
        dnnlk_tensor s, d;
        int64_t i, dims[1];
        for (i = 0; i < n; i++) x[i] = th_randf(-1, 1);
        dnnlk_rng_init(&in, algs[a], 99, 0);
        dims[0] = n;
        s = th_tensor(x, dnnlk_f32, 1, dims);
        d = th_tensor(y1, dnnlk_f32, 1, dims);
        CHECK_EQ(dnnlk_dropout_fwd(&s, &d, m1, 0.25, 0, NULL, &in, &end1, 0, 1), dnnlk_success);
        dims[0] = n1;
        s = th_tensor(x, dnnlk_f32, 1, dims);
        d = th_tensor(y2, dnnlk_f32, 1, dims);
        CHECK_EQ(dnnlk_dropout_fwd(&s, &d, m2, 0.25, 0, NULL, &in, &mid, 0, 1), dnnlk_success);
        dims[0] = n2;
        s = th_tensor(x + n1, dnnlk_f32, 1, dims);
        d = th_tensor(y2 + n1, dnnlk_f32, 1, dims);
        CHECK_EQ(dnnlk_dropout_fwd(&s, &d, m2 + n1 / 8, 0.25, 0, NULL, &mid, &mid, 0, 1), dnnlk_success);
        end2 = mid;
        CHECK_MSG(memcmp(m1, m2, (size_t)(n + 7) / 8) == 0 && memcmp(y1, y2, (size_t)n * 4) == 0, "%s chained",
                  alg_name(algs[a]));
        {
            uint32_t u1, u2;
            dnnlk_rng_u32(&end1, &u1, 1, NULL, 0, 1);
            dnnlk_rng_u32(&end2, &u2, 1, NULL, 0, 1);
            CHECK_EQ(u1, u2);
        }
        free(x), free(y1), free(y2);
    }
}

/* Kept fraction within 5 sigma of 1 - rate over 10^7 draws. */
TEST(kept_fraction_isa) {
    int64_t n = th_scaled(10000000), i, kept;
    float *x = (float *)malloc((size_t)n * 4);
    uint8_t *m = (uint8_t *)malloc((size_t)(n + 7) / 8);
    int a;
    for (i = 0; i < n; i++) x[i] = 1.0f;
    for (a = 0; a < NALGS; a++) {
        dnnlk_rng in;
        dnnlk_tensor s;
        double rate = 0.1, sd = sqrt((double)n * rate * (1 - rate));
        int64_t dims[1];
        dims[0] = n;
        s = th_tensor(x, dnnlk_f32, 1, dims);
        dnnlk_rng_init(&in, algs[a], 7, 0);
        CHECK_EQ(dnnlk_dropout_fwd(&s, &s, m, rate, 0, NULL, &in, NULL, 0, 1), dnnlk_success);
        kept = 0;
        for (i = 0; i < n; i++) kept += (m[i / 8] >> (i % 8)) & 1;
        CHECK_MSG(fabs((double)kept - (double)n * (1 - rate)) < 5 * sd, "%s kept %lld of %lld", alg_name(algs[a]),
                  (long long)kept, (long long)n);
        for (i = 0; i < n; i++) x[i] = 1.0f; /* in place: restore */
    }
    free(x);
    free(m);
}

/* oneDNN's dropout attribute, ported plainly from its reference (v3.6 ref_dropout /
 * philox_bernoulli): element d is kept when philox4x32(d, seed) > UINT32_MAX * p in double, p a
 * float. With offset 0 (and every oneDNN before v3.11) that is our ctr32 layout at (seed, 0) with
 * rate (double)p; with an offset (v3.11+), our Philox at (seed, offset). The two 64-bit words are
 * masks libdnnl itself wrote (tools/onednn_dropout_oracle.c, v3.6.0, 3.7.1, 3.8.1, 3.9.1 and, for
 * the offset case, 3.11.2 and 3.13.2): elements 0..63, LSB-first. */
TEST(onednn_masks_isa) {
    static const struct { int64_t seed; float p; uint64_t first64; } cases[3] = {
        {1234, 0.5f, 0x84283b8aef7656e5ull}, {-7, 0.9f, 0x9241200224200002ull}, {2147483647, 0.1f, 0}};
    enum { N = 1000 };
    static float src[N], dst[N];
    uint8_t mask[(N + 7) / 8];
    int64_t dims[1] = {N};
    int c, d, nth;
    for (d = 0; d < N; d++) src[d] = (float)(d % 13) - 6.0f;
    for (c = 0; c < 3; c++)
        for (nth = 1; nth <= 3; nth += 2) {
            dnnlk_tensor ts = th_tensor(src, dnnlk_f32, 1, dims), td = th_tensor(dst, dnnlk_f32, 1, dims);
            dnnlk_rng in;
            int ith, bad = 0;
            float scale = (float)(1.0 / (1.0 - (double)cases[c].p));
            uint64_t w = 0;
            dnnlk_rng_init(&in, dnnlk_rng_philox4x32_10_ctr32, (uint64_t)cases[c].seed, 0);
            for (ith = 0; ith < nth; ith++)
                CHECK_EQ(dnnlk_dropout_fwd(&ts, &td, mask, (double)cases[c].p, 0, NULL, &in, NULL, ith, nth),
                         dnnlk_success);
            for (d = 0; d < N; d++) {
                uint32_t r = ref_onednn_philox4x32((uint32_t)d, (uint32_t)cases[c].seed);
                int keep = r > (double)UINT32_MAX * (double)cases[c].p;
                bad += ((mask[d / 8] >> (d % 8)) & 1) != keep || dst[d] != (keep ? src[d] * scale : src[d] * 0.0f);
            }
            for (d = 0; d < 64; d++) w |= (uint64_t)((mask[d / 8] >> (d % 8)) & 1) << d;
            CHECK_MSG(bad == 0, "seed %lld p %g nth %d: %d elements differ", (long long)cases[c].seed, cases[c].p, nth,
                      bad);
            if (cases[c].first64) CHECK_MSG(w == cases[c].first64, "seed %lld: %016llx", (long long)cases[c].seed,
                                            (unsigned long long)w);
        }
    { /* the offset path: seed 0x0123456789abcdef, offset -3 (as uint64), p 0.3f */
        dnnlk_tensor ts = th_tensor(src, dnnlk_f32, 1, dims), td = th_tensor(dst, dnnlk_f32, 1, dims);
        dnnlk_rng in;
        uint64_t w = 0;
        dnnlk_rng_init(&in, dnnlk_rng_philox4x32_10, 0x0123456789abcdefull, (uint64_t)-3);
        CHECK_EQ(dnnlk_dropout_fwd(&ts, &td, mask, (double)0.3f, 0, NULL, &in, NULL, 0, 1), dnnlk_success);
        for (d = 0; d < 64; d++) w |= (uint64_t)((mask[d / 8] >> (d % 8)) & 1) << d;
        CHECK_MSG(w == 0xde7d95b7bd3f5b3full, "%016llx", (unsigned long long)w);
    }
}

TEST(infer_and_bad_arguments) {
    int64_t dims[2] = {4, 6}, noise_bad[2] = {2, 6}, noise_ok[2] = {4, 1};
    float x[24], y[24];
    uint8_t m[8];
    dnnlk_tensor s = th_tensor(x, dnnlk_f32, 2, dims), d, d0;
    dnnlk_rng in, out, out0;
    size_t mb;
    int i;
    for (i = 0; i < 24; i++) x[i] = (float)i, y[i] = -7.0f;
    memset(m, 0x5a, sizeof m);
    dnnlk_rng_init(&in, dnnlk_rng_mcg31m1, 1, 0);
    memset(&out, 0x33, sizeof out);
    out0 = out;
    d = th_tensor(y, dnnlk_f32, 2, dims);
    d0 = d;
    /* infer: unknown dims and strides come back */
    {
        dnnlk_tensor q = th_tensor(NULL, dnnlk_dtype_undef, 0, dims);
        q.ndims = DNNLK_UNKNOWN;
        CHECK_EQ(dnnlk_dropout_fwd_infer(&s, &q), dnnlk_success);
        CHECK(q.ndims == 2 && q.dims[1] == 6 && q.strides[0] == 6 && q.dtype == dnnlk_f32);
        q.dims[0] = 5;
        CHECK_EQ(dnnlk_dropout_bwd_infer(&s, &q), dnnlk_invalid_shape);
    }
    CHECK_EQ(dnnlk_dropout_mask_bytes(&s, 2, noise_ok, &mb), dnnlk_success);
    CHECK_EQ(mb, 1);
    CHECK_EQ(dnnlk_dropout_mask_bytes(&s, 2, noise_bad, &mb), dnnlk_invalid_shape);
    CHECK_EQ(dnnlk_dropout_mask_bytes(&s, 1, noise_ok, &mb), dnnlk_invalid_shape);
    {
        /* counts near INT64_MAX: ceil(n / 8) exactly, no wrapped size (n + 7 would overflow) */
        dnnlk_tensor huge = s;
        int64_t one = 1;
        huge.ndims = 1;
        huge.dims[0] = INT64_MAX;
        CHECK_EQ(dnnlk_dropout_mask_bytes(&huge, 0, NULL, &mb), dnnlk_success);
        CHECK(mb == (size_t)1 << 60);
        huge.dims[0] = INT64_MAX - 6;
        CHECK_EQ(dnnlk_dropout_mask_bytes(&huge, 1, &one, &mb), dnnlk_success);
        CHECK(mb == 1);
        CHECK_EQ(dnnlk_dropout_mask_bytes(&huge, 0, NULL, &mb), dnnlk_success);
        CHECK(mb == (size_t)1 << 60);
    }
    CHECK_EQ(dnnlk_dropout_fwd(&s, &d, m, -0.1, 0, NULL, &in, &out, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(dnnlk_dropout_fwd(&s, &d, m, 1.5, 0, NULL, &in, &out, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(dnnlk_dropout_fwd(&s, &d, m, NAN, 0, NULL, &in, &out, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(dnnlk_dropout_fwd(&s, &d, m, 0.5, 2, noise_bad, &in, &out, 0, 1), dnnlk_invalid_shape);
    CHECK_EQ(dnnlk_dropout_fwd(&s, &d, NULL, 0.5, 0, NULL, &in, &out, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(dnnlk_dropout_fwd(&s, &d, m, 0.5, 0, NULL, NULL, &out, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(dnnlk_dropout_fwd(&s, &d, m, 0.5, 0, NULL, &in, &out, 3, 3), dnnlk_invalid_arguments);
    CHECK_EQ(dnnlk_dropout_fwd(&s, &d, (uint8_t *)(void *)x, 0.5, 0, NULL, &in, &out, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(dnnlk_dropout_fwd(&s, NULL, m, 0.5, 0, NULL, &in, &out, 0, 1), dnnlk_invalid_arguments);
    {
        dnnlk_rng bad = in;
        bad.x = 0;
        CHECK_EQ(dnnlk_dropout_fwd(&s, &d, m, 0.5, 0, NULL, &bad, &out, 0, 1), dnnlk_invalid_arguments);
    }
    {
        dnnlk_tensor dbf = d;
        dbf.dtype = dnnlk_bf16;
        CHECK_EQ(dnnlk_dropout_fwd(&s, &dbf, m, 0.5, 0, NULL, &in, &out, 0, 1), dnnlk_invalid_data_type);
        dbf = s;
        dbf.dtype = dnnlk_s32;
        CHECK_EQ(dnnlk_dropout_fwd(&dbf, &d, m, 0.5, 0, NULL, &in, &out, 0, 1), dnnlk_invalid_data_type);
    }
    {
        dnnlk_tensor ov = d; /* dst overlapping src, not the same view */
        ov.data = x + 1;
        CHECK_EQ(dnnlk_dropout_fwd(&s, &ov, m, 0.5, 0, NULL, &in, &out, 0, 1), dnnlk_invalid_arguments);
        ov = d;
        ov.dims[0] = 3;
        CHECK_EQ(dnnlk_dropout_fwd(&s, &ov, m, 0.5, 0, NULL, &in, &out, 0, 1), dnnlk_invalid_shape);
    }
    CHECK_EQ(dnnlk_dropout_bwd(&s, m, &d, 2.0, 0, NULL, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(dnnlk_dropout_bwd(&s, NULL, &d, 0.5, 0, NULL, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(dnnlk_dropout_bwd(&s, m, &d, 0.5, 2, noise_bad, 0, 1), dnnlk_invalid_shape);
    for (i = 0; i < 24; i++) CHECK(y[i] == -7.0f && x[i] == (float)i);
    for (i = 0; i < 8; i++) CHECK_EQ(m[i], 0x5a);
    CHECK(memcmp(&out, &out0, sizeof out) == 0);
    CHECK(memcmp(&d, &d0, sizeof d) == 0);
    /* and a good call works, writing the mask's padding bits as 0 */
    {
        int64_t d5[1] = {5};
        dnnlk_tensor s5 = th_tensor(x, dnnlk_f32, 1, d5), y5 = th_tensor(y, dnnlk_f32, 1, d5);
        CHECK_EQ(dnnlk_dropout_fwd(&s5, &y5, m, 0.0, 0, NULL, &in, &out, 0, 1), dnnlk_success);
        CHECK_EQ(m[0], 0x1f);
        CHECK_EQ(m[1], 0x5a);
    }
}


/* The keep thresholds against brute-force exact comparisons, for many rates. */
TEST(keep_thresholds_exact) {
    int i, k;
    for (i = 0; i < 3000; i++) {
        double rate;
        dnnlk__bern b;
        if (i < 1000) rate = (double)th_randf(0, 1);           /* floats: 1 - rate exact */
        else if (i < 2000) rate = (double)th_rand64() / 18446744073709551616.0;
        else { /* next to k/m and k/UINT32_MAX */
            uint64_t kk = (uint64_t)th_randint(1, M31 - 1);
            rate = (double)kk / (i & 1 ? (double)M31 : 4294967295.0);
            if (i & 2) rate = nextafter(rate, i & 4 ? 0.0 : 1.0);
        }
        if (!(rate > 0 && rate < 1)) continue;
        /* MCG31: VSL's Bernoulli(1 - rate): kept <=> (float)(x/m) < (float)(1 - rate) */
        b = dnnlk__bern_keep(dnnlk_rng_mcg31m1, rate);
        if (b.kind == dnnlk__bern_lt) {
            CHECK_MSG(ref_vsl_mcg31_bit(b.t - 1, 1.0 - rate) && !ref_vsl_mcg31_bit(b.t, 1.0 - rate),
                      "mcg rate %a t %u", rate, b.t);
        } else {
            CHECK_MSG(b.kind == dnnlk__bern_never && !ref_vsl_mcg31_bit(1, 1.0 - rate), "mcg rate %a kind %d", rate,
                      b.kind);
        }
        /* Philox: oneDNN's r > UINT32_MAX * rate in double */
        b = dnnlk__bern_keep(dnnlk_rng_philox4x32_10, rate);
        if (b.kind == dnnlk__bern_ge) {
            double th = 4294967295.0 * rate;
            CHECK_MSG((double)b.t > th && (b.t == 0 || !((double)(b.t - 1) > th)), "philox rate %a t %u", rate, b.t);
        } else {
            CHECK_MSG(b.kind == dnnlk__bern_never && !(4294967295.0 > 4294967295.0 * rate), "philox rate %a", rate);
        }
        /* MT19937 (float rates, where 1 - rate is a double): canonical < 1 - rate around t64 */
        if (i < 1000) {
            b = dnnlk__bern_keep(dnnlk_rng_mt19937, rate);
            for (k = 0; k < 24; k++) {
                uint64_t s = b.kind == dnnlk__bern_lt ? b.t64 - 12 + (uint64_t)k : th_rand64();
                int want = ref_canonical((uint32_t)s, (uint32_t)(s >> 32)) < 1.0 - rate;
                int got = b.kind == dnnlk__bern_always ? 1 : b.kind == dnnlk__bern_never ? 0 : s < b.t64;
                CHECK_MSG(want == got, "mt rate %a s %llx", rate, (unsigned long long)s);
            }
        }
    }
}

/* ---- recorded bits ----
 * Every level's masks and outputs on fixed arguments, against bits recorded on the code before
 * the dropout bodies moved onto the vector layer (8f1051f): each engine; the fused loop (dense,
 * stream position a multiple of 4), the block path (Philox at an odd position), strided rows,
 * broadcast masks (regenerated bits), backward; f32/bf16/f16; rows past DNNLK_DROPOUT_NT_BYTES
 * (streaming stores, peel to alignment); one and three parts; the end states. Every result here
 * is exact (one f32 multiply per element), so every level must give the same bits.
 * DNNLK_TEST_RECORD=1 prints the table instead of checking it. */
enum { db_f32_fused_nt, db_bf16_fused_nt, db_f16_fused, db_f32_off3, db_bf16_strided, db_f32_noise_rows,
       db_f16_noise_cols, db_bwd_f32_nt, db_bwd_bf16_strided, db_f32_rate_small, db_n };
static const char *const db_name[db_n] = {"f32 fused streamed", "bf16 fused streamed", "f16 fused",
                                          "f32 offset 3", "bf16 src stride 2", "f32 noise {1,601}",
                                          "f16 noise {13,1}", "bwd f32 streamed", "bwd bf16 stride 2",
                                          "f32 rate 1e-3 n77"};
#define DB_N 8263 /* odd; f32 and bf16 rows past the lowered streaming threshold */
static float db_in[2 * DB_N];
static unsigned char db_src[2 * DB_N * 4 + 64], db_dst[2 * DB_N * 4 + 64], db_mask[DB_N / 8 + 64];

static uint64_t db_case(dnnlk_rng_alg alg, int c) {
    uint64_t h = 0xcbf29ce484222325ull;
    int nth;
    int64_t n = c == db_f32_rate_small ? 77 : DB_N, i;
    int64_t dims2[2] = {13, 601}, noise_rows[2] = {1, 601}, noise_cols[2] = {13, 1};
    dnnlk_dtype dt = c == db_bf16_fused_nt || c == db_bf16_strided || c == db_bwd_bf16_strided ? dnnlk_bf16
                     : c == db_f16_fused || c == db_f16_noise_cols                              ? dnnlk_f16
                                                                                                : dnnlk_f32;
    size_t es = dnnlk_dtype_size(dt);
    int stride = c == db_bf16_strided || c == db_bwd_bf16_strided ? 2 : 1;
    double rate = c == db_f32_rate_small ? 1e-3 : c == db_f16_noise_cols ? 0.5 : 0.3;
    for (i = 0; i < stride * n; i++) dnnlk__store_from_f32(db_src + 4 + i * (int64_t)es, dt, db_in[i]);
    for (nth = 1; nth <= 3; nth += 2) {
        dnnlk_rng r, end;
        dnnlk_tensor s, d;
        int ith;
        memset(db_dst, 0x5a, sizeof db_dst);
        memset(db_mask, 0xa5, sizeof db_mask);
        memset(&end, 0, sizeof end);
        CHECK_EQ(dnnlk_rng_init(&r, alg, 0xfedcba987ull, c == db_f32_off3 ? 3 : 0), dnnlk_success);
        if (c == db_f32_noise_rows || c == db_f16_noise_cols) {
            s = th_tensor(db_src + 4, dt, 2, dims2);
            d = th_tensor(db_dst + 64, dt, 2, dims2);
        } else {
            s = th_tensor(db_src + 4, dt, 1, &n);
            d = th_tensor(db_dst + (c == db_f32_fused_nt || c == db_bwd_f32_nt ? 68 : 64), dt, 1, &n);
            s.strides[0] = stride;
        }
        if (c == db_bwd_f32_nt || c == db_bwd_bf16_strided) {
            size_t k;
            for (k = 0; k < (size_t)(n + 7) / 8; k++) db_mask[k] = (uint8_t)(k * 0x9Du + 0x31u);
        }
        for (ith = 0; ith < nth; ith++) {
            dnnlk_status st;
            if (c == db_bwd_f32_nt || c == db_bwd_bf16_strided)
                st = dnnlk_dropout_bwd(&s, db_mask, &d, rate, 0, NULL, ith, nth);
            else
                st = dnnlk_dropout_fwd(&s, &d, db_mask, rate, c == db_f32_noise_rows || c == db_f16_noise_cols ? 2 : 0,
                                       c == db_f32_noise_rows ? noise_rows : c == db_f16_noise_cols ? noise_cols : NULL,
                                       &r, &end, ith, nth);
            CHECK_EQ(st, dnnlk_success);
        }
        {   /* outputs with canonical NaNs (a NaN's sign and payload are unspecified), then the raw
             * bytes around them, the mask, and the end state */
            uint64_t ho = es == 4 ? th_fnv1a_f32((const float *)(void *)d.data, (size_t)n)
                                  : th_fnv1a_half((const uint16_t *)(void *)d.data, (size_t)n, dt == dnnlk_f16);
            h = th_fnv1a_from(h, &ho, 8);
            h = th_fnv1a_from(h, db_dst, 64);
            h = th_fnv1a_from(h, (const char *)d.data + n * (int64_t)es, 64);
            h = th_fnv1a_from(h, db_mask, sizeof db_mask);
            h = th_fnv1a_from(h, &end.x, 4);
            h = th_fnv1a_from(h, &end.index, 8);
            h = th_fnv1a_from(h, &end.mt_pos, 4);
            h = th_fnv1a_from(h, end.mt, sizeof end.mt);
        }
    }
    return h;
}

static const uint64_t db_recorded[NALGS][db_n][4] = {
    {
        /* mcg31        f32 fused streamed   */ {0xa6dd293152638741ull, 0xa6dd293152638741ull, 0xa6dd293152638741ull, 0xa6dd293152638741ull},
        /* mcg31        bf16 fused streamed  */ {0x97abad3b56440e25ull, 0x97abad3b56440e25ull, 0x97abad3b56440e25ull, 0x97abad3b56440e25ull},
        /* mcg31        f16 fused            */ {0x1c01b2a41f9cfc95ull, 0x1c01b2a41f9cfc95ull, 0x1c01b2a41f9cfc95ull, 0x1c01b2a41f9cfc95ull},
        /* mcg31        f32 offset 3         */ {0x80791dea2307bcb5ull, 0x80791dea2307bcb5ull, 0x80791dea2307bcb5ull, 0x80791dea2307bcb5ull},
        /* mcg31        bf16 src stride 2    */ {0xd0d5c1f4038f4ee9ull, 0xd0d5c1f4038f4ee9ull, 0xd0d5c1f4038f4ee9ull, 0xd0d5c1f4038f4ee9ull},
        /* mcg31        f32 noise {1,601}    */ {0xf9a9fadc5eebc4bdull, 0xf9a9fadc5eebc4bdull, 0xf9a9fadc5eebc4bdull, 0xf9a9fadc5eebc4bdull},
        /* mcg31        f16 noise {13,1}     */ {0xf4c2a104e0dd49fdull, 0xf4c2a104e0dd49fdull, 0xf4c2a104e0dd49fdull, 0xf4c2a104e0dd49fdull},
        /* mcg31        bwd f32 streamed     */ {0xb3f2a17f6a8bfb91ull, 0xb3f2a17f6a8bfb91ull, 0xb3f2a17f6a8bfb91ull, 0xb3f2a17f6a8bfb91ull},
        /* mcg31        bwd bf16 stride 2    */ {0x28e4ccec527d8015ull, 0x28e4ccec527d8015ull, 0x28e4ccec527d8015ull, 0x28e4ccec527d8015ull},
        /* mcg31        f32 rate 1e-3 n77    */ {0xd2dbf8abdb8cb4a1ull, 0xd2dbf8abdb8cb4a1ull, 0xd2dbf8abdb8cb4a1ull, 0xd2dbf8abdb8cb4a1ull},
    },
    {
        /* philox       f32 fused streamed   */ {0x099c2aaf3873509dull, 0x099c2aaf3873509dull, 0x099c2aaf3873509dull, 0x099c2aaf3873509dull},
        /* philox       bf16 fused streamed  */ {0xf851a054406b0f75ull, 0xf851a054406b0f75ull, 0xf851a054406b0f75ull, 0xf851a054406b0f75ull},
        /* philox       f16 fused            */ {0xa4e5caaed2da1b59ull, 0xa4e5caaed2da1b59ull, 0xa4e5caaed2da1b59ull, 0xa4e5caaed2da1b59ull},
        /* philox       f32 offset 3         */ {0x27edde5585721255ull, 0x27edde5585721255ull, 0x27edde5585721255ull, 0x27edde5585721255ull},
        /* philox       bf16 src stride 2    */ {0x8d798f207e7d4729ull, 0x8d798f207e7d4729ull, 0x8d798f207e7d4729ull, 0x8d798f207e7d4729ull},
        /* philox       f32 noise {1,601}    */ {0xc9eb317bc53635a5ull, 0xc9eb317bc53635a5ull, 0xc9eb317bc53635a5ull, 0xc9eb317bc53635a5ull},
        /* philox       f16 noise {13,1}     */ {0xc414f7e87632ade9ull, 0xc414f7e87632ade9ull, 0xc414f7e87632ade9ull, 0xc414f7e87632ade9ull},
        /* philox       bwd f32 streamed     */ {0xb3f2a17f6a8bfb91ull, 0xb3f2a17f6a8bfb91ull, 0xb3f2a17f6a8bfb91ull, 0xb3f2a17f6a8bfb91ull},
        /* philox       bwd bf16 stride 2    */ {0x28e4ccec527d8015ull, 0x28e4ccec527d8015ull, 0x28e4ccec527d8015ull, 0x28e4ccec527d8015ull},
        /* philox       f32 rate 1e-3 n77    */ {0x918df1f7e5678cd5ull, 0x918df1f7e5678cd5ull, 0x918df1f7e5678cd5ull, 0x918df1f7e5678cd5ull},
    },
    {
        /* mt19937      f32 fused streamed   */ {0x3200557edc06ec95ull, 0x3200557edc06ec95ull, 0x3200557edc06ec95ull, 0x3200557edc06ec95ull},
        /* mt19937      bf16 fused streamed  */ {0x4f0922f2e9c7e199ull, 0x4f0922f2e9c7e199ull, 0x4f0922f2e9c7e199ull, 0x4f0922f2e9c7e199ull},
        /* mt19937      f16 fused            */ {0x45f0b66ce8e483e9ull, 0x45f0b66ce8e483e9ull, 0x45f0b66ce8e483e9ull, 0x45f0b66ce8e483e9ull},
        /* mt19937      f32 offset 3         */ {0xadd7dc1e88a6e5e1ull, 0xadd7dc1e88a6e5e1ull, 0xadd7dc1e88a6e5e1ull, 0xadd7dc1e88a6e5e1ull},
        /* mt19937      bf16 src stride 2    */ {0x2ebe1f2776511a65ull, 0x2ebe1f2776511a65ull, 0x2ebe1f2776511a65ull, 0x2ebe1f2776511a65ull},
        /* mt19937      f32 noise {1,601}    */ {0x20ec6489eca9bc65ull, 0x20ec6489eca9bc65ull, 0x20ec6489eca9bc65ull, 0x20ec6489eca9bc65ull},
        /* mt19937      f16 noise {13,1}     */ {0x6fb961c693170785ull, 0x6fb961c693170785ull, 0x6fb961c693170785ull, 0x6fb961c693170785ull},
        /* mt19937      bwd f32 streamed     */ {0xb3f2a17f6a8bfb91ull, 0xb3f2a17f6a8bfb91ull, 0xb3f2a17f6a8bfb91ull, 0xb3f2a17f6a8bfb91ull},
        /* mt19937      bwd bf16 stride 2    */ {0x28e4ccec527d8015ull, 0x28e4ccec527d8015ull, 0x28e4ccec527d8015ull, 0x28e4ccec527d8015ull},
        /* mt19937      f32 rate 1e-3 n77    */ {0x1397c69baeb96d65ull, 0x1397c69baeb96d65ull, 0x1397c69baeb96d65ull, 0x1397c69baeb96d65ull},
    },
    {
        /* philox_ctr32 f32 fused streamed   */ {0x8665bf88fd17da29ull, 0x8665bf88fd17da29ull, 0x8665bf88fd17da29ull, 0x8665bf88fd17da29ull},
        /* philox_ctr32 bf16 fused streamed  */ {0x737980e01bd28e29ull, 0x737980e01bd28e29ull, 0x737980e01bd28e29ull, 0x737980e01bd28e29ull},
        /* philox_ctr32 f16 fused            */ {0xee565b08ff21c3d5ull, 0xee565b08ff21c3d5ull, 0xee565b08ff21c3d5ull, 0xee565b08ff21c3d5ull},
        /* philox_ctr32 f32 offset 3         */ {0x7b2178f722dc64ddull, 0x7b2178f722dc64ddull, 0x7b2178f722dc64ddull, 0x7b2178f722dc64ddull},
        /* philox_ctr32 bf16 src stride 2    */ {0xce44789798df3df5ull, 0xce44789798df3df5ull, 0xce44789798df3df5ull, 0xce44789798df3df5ull},
        /* philox_ctr32 f32 noise {1,601}    */ {0x42c68eb93158dbd1ull, 0x42c68eb93158dbd1ull, 0x42c68eb93158dbd1ull, 0x42c68eb93158dbd1ull},
        /* philox_ctr32 f16 noise {13,1}     */ {0x87465cc95421f615ull, 0x87465cc95421f615ull, 0x87465cc95421f615ull, 0x87465cc95421f615ull},
        /* philox_ctr32 bwd f32 streamed     */ {0xb3f2a17f6a8bfb91ull, 0xb3f2a17f6a8bfb91ull, 0xb3f2a17f6a8bfb91ull, 0xb3f2a17f6a8bfb91ull},
        /* philox_ctr32 bwd bf16 stride 2    */ {0x28e4ccec527d8015ull, 0x28e4ccec527d8015ull, 0x28e4ccec527d8015ull, 0x28e4ccec527d8015ull},
        /* philox_ctr32 f32 rate 1e-3 n77    */ {0x918df1f7e5678cd5ull, 0x918df1f7e5678cd5ull, 0x918df1f7e5678cd5ull, 0x918df1f7e5678cd5ull},
    },
};

/* The cases flat: every case of algs[0], then of algs[1], ... */
static uint64_t db_case_at(int c, int cap, int *level) {
    (void)cap, (void)level;
    return db_case(algs[c / db_n], c % db_n);
}
static const char *db_row_name(int c) {
    static char name[64];
    snprintf(name, sizeof name, "%-12s %s", alg_name(algs[c / db_n]), db_name[c % db_n]);
    return name;
}

TEST(recorded_bits_every_level) {
    static uint64_t got[NALGS * db_n][4];
    static int ran[NALGS * db_n][4];
    int64_t i;
    for (i = 0; i < 2 * DB_N; i++) { /* specials, then values of every sign and many exponents */
        uint32_t u = (uint32_t)(i * 0x9E3779B1u);
        static const float sp[] = {NAN, INFINITY, -INFINITY, -0.0f, 0.0f, 1e-40f, -3e38f, 3e38f, -1.0f};
        db_in[i] = i % 97 < 9 ? sp[i % 97] : (float)((int32_t)u >> 6) * 0x1p-20f;
    }
    if (th_recorded_bits(NALGS * db_n, db_case_at, db_row_name, 33, db_n, (const uint64_t(*)[4])&db_recorded[0][0], 0,
                         got, ran))
        SKIP("DNNLK_TEST_RECORD: printed the table instead of checking it");
    CHECK(ran[0][(int)dnnlk_max_isa()]); /* with a compile-time level (make test-native) only that one runs */
}

int main(void) {
    RUN(keep_thresholds_exact);
    RUN_EACH_ISA(fwd_bwd_match_reference_isa);
    RUN_EACH_ISA(chained_calls_isa);
    RUN_EACH_ISA(kept_fraction_isa);
    RUN_EACH_ISA(onednn_masks_isa);
    RUN(infer_and_bad_arguments);
    RUN(recorded_bits_every_level);
    return th_summary();
}
