/* compare.h: comparisons and logical ops against a plain reference, on every ISA the CPU has and
 * several part counts. */
#include "harness.h"

#define NTYPES 14
static const dnnlk_dtype all_types[NTYPES] = {dnnlk_boolean, dnnlk_s8,  dnnlk_u8,  dnnlk_f16,     dnnlk_bf16,
                                              dnnlk_s32,     dnnlk_f32, dnnlk_s64, dnnlk_u64,     dnnlk_f64,
                                              dnnlk_s16,     dnnlk_u16, dnnlk_f8_e4m3, dnnlk_f8_e5m2};

/* ---- the reference: every element as (is NaN, exact value in long double) ---- */

static int is_float(dnnlk_dtype t) {
    return t == dnnlk_f16 || t == dnnlk_bf16 || t == dnnlk_f32 || t == dnnlk_f64 || t == dnnlk_f8_e4m3 || t == dnnlk_f8_e5m2;
}

static long double ref_value(const void *p, dnnlk_dtype t, int *nan) {
    uint64_t u = 0;
    int eb, mb, bias;
    uint64_t e, m;
    long double v;
    *nan = 0;
    switch (t) {
    case dnnlk_boolean: return *(const unsigned char *)p != 0;
    case dnnlk_s8: return *(const signed char *)p;
    case dnnlk_u8: return *(const unsigned char *)p;
    case dnnlk_s32: { int32_t x; memcpy(&x, p, 4); return x; }
    case dnnlk_s16: { int16_t x; memcpy(&x, p, 2); return x; }
    case dnnlk_u16: { uint16_t x; memcpy(&x, p, 2); return x; }
    case dnnlk_s64: { int64_t x; memcpy(&x, p, 8); return (long double)x; }
    case dnnlk_u64: { uint64_t x; memcpy(&x, p, 8); return (long double)x; }
    default: break;
    }
    memcpy(&u, p, dnnlk_dtype_size(t));
    eb = t == dnnlk_f16 || t == dnnlk_f8_e5m2 ? 5 : t == dnnlk_f64 ? 11 : t == dnnlk_f8_e4m3 ? 4 : 8;
    mb = t == dnnlk_f16 ? 10 : t == dnnlk_bf16 ? 7 : t == dnnlk_f32 ? 23 : t == dnnlk_f8_e4m3 ? 3 : t == dnnlk_f8_e5m2 ? 2 : 52;
    bias = (1 << (eb - 1)) - 1;
    e = (u >> mb) & ((1u << eb) - 1);
    m = u & ((1ull << mb) - 1);
    if (t == dnnlk_f8_e4m3 && e == 15 && m != 7) { /* E4M3FN: no inf, the top exponent holds normals */
        v = ldexpl((long double)(m | 8u), 15 - bias - 3);
    } else if (e == (1u << eb) - 1) {
        if (m) { *nan = 1; return 0; }
        v = INFINITY;
    } else if (e == 0) {
        v = ldexpl((long double)m, 1 - bias - mb);
    } else {
        v = ldexpl((long double)(m | (1ull << mb)), (int)e - bias - mb);
    }
    return (u >> (eb + mb)) & 1 ? -v : v;
}

static int ref_compare(int op, const void *a, const void *b, dnnlk_dtype t) {
    int na, nb;
    long double x = ref_value(a, t, &na), y = ref_value(b, t, &nb);
    if (na || nb) return op == dnnlk_compare_ne;
    switch (op) {
    case dnnlk_compare_eq: return x == y;
    case dnnlk_compare_ne: return x != y;
    case dnnlk_compare_lt: return x < y;
    case dnnlk_compare_le: return x <= y;
    case dnnlk_compare_gt: return x > y;
    default: return x >= y;
    }
}

static int ref_truth(const void *p, dnnlk_dtype t) {
    int nan;
    long double v = ref_value(p, t, &nan);
    return nan || v != 0;
}

/* op 0..2: and, or, xor; 3: not (of a) */
static int ref_logical(int op, const void *a, dnnlk_dtype at, const void *b, dnnlk_dtype bt) {
    int x = ref_truth(a, at), y = op == 3 ? 0 : ref_truth(b, bt);
    switch (op) {
    case 0: return x && y;
    case 1: return x || y;
    case 2: return x != y;
    default: return !x;
    }
}

/* ---- values: random elements with many ties, zeros of both signs, NaN, inf, extremes ---- */

static void fill_values(void *p, dnnlk_dtype t, int64_t n) {
    size_t es = dnnlk_dtype_size(t);
    int64_t i;
    for (i = 0; i < n; i++) {
        unsigned char *q = (unsigned char *)p + i * (int64_t)es;
        uint32_t r = th_rand32() % 8;
        if (is_float(t)) {
            double v = r == 0 ? NAN : r == 1 ? (th_rand32() & 1 ? INFINITY : -INFINITY) : r == 2 ? (th_rand32() & 1 ? 0.0 : -0.0)
                       : r <= 5 ? (double)th_randint(-3, 3) * 0.5 : (double)th_randf(-1e4f, 1e4f);
            float f = (float)v;
            uint16_t h;
            switch (t) {
            case dnnlk_f32: memcpy(q, &f, 4); break;
            case dnnlk_f64: memcpy(q, &v, 8); break;
            case dnnlk_bf16: h = dnnlk_f32_to_bf16(f); memcpy(q, &h, 2); break;
            case dnnlk_f8_e4m3: q[0] = (unsigned char)dnnlk__fp8_encode(f, 1, 0); break; /* past 448: NaN */
            case dnnlk_f8_e5m2: q[0] = (unsigned char)dnnlk__fp8_encode(f, 0, 0); break;
            default: h = dnnlk_f32_to_f16(f); memcpy(q, &h, 2); break;
            }
            if (r == 0 && th_rand32() % 2) q[0] ^= 1; /* another NaN payload */
        } else if (t == dnnlk_boolean) {
            q[0] = r < 4 ? 0 : r < 6 ? 1 : (unsigned char)(2 + th_rand32() % 254); /* non-canonical trues too */
        } else {
            int64_t v = r < 5 ? th_randint(-3, 3) : (int64_t)th_rand64();
            if (r == 7) v = th_rand32() % 2 ? INT64_MAX : INT64_MIN;
            memcpy(q, &v, es); /* the low bytes: extremes of every width */
        }
    }
}

/* ---- views ---- */

typedef struct view {
    th_buf buf;
    dnnlk_tensor t;
} view;

static view make_view(dnnlk_dtype t, int nd, const int64_t *dims, int input) {
    view v;
    int64_t st[DNNLK_MAX_NDIMS], off = 0, span = th_random_layout(nd, dims, st, input, &off);
    v.buf = th_alloc((size_t)span * dnnlk_dtype_size(t), (size_t)th_randint(0, 5));
    v.t = th_strided(v.buf.p, off, t, nd, dims, st);
    fill_values(v.buf.p, t, span);
    return v;
}

/* Offset in elements of the broadcast input x at flat index f of the output shape (nd, dims). */
static int64_t bcast_offset(const dnnlk_tensor *x, int nd, const int64_t *dims, int64_t f) {
    int64_t o = 0;
    int i;
    for (i = nd - 1; i >= 0; i--) {
        int64_t idx = f % dims[i], xi = i - (nd - x->ndims);
        f /= dims[i];
        if (xi >= 0 && x->dims[xi] != 1) o += idx * x->strides[xi];
    }
    return o;
}

/* family 0: compare (op 0..5), 1: logical (op 0..2), 2: not. */
static int check_result(int family, int op, const dnnlk_tensor *a, const dnnlk_tensor *b, const dnnlk_tensor *d,
                        const char *what) {
    int64_t n = th_numel(d->ndims, d->dims), f;
    int bad = 0;
    for (f = 0; f < n && bad < 3; f++) {
        const char *pa = (const char *)a->data + bcast_offset(a, d->ndims, d->dims, f) * (int64_t)dnnlk_dtype_size(a->dtype);
        const char *pb = b ? (const char *)b->data + bcast_offset(b, d->ndims, d->dims, f) * (int64_t)dnnlk_dtype_size(b->dtype) : pa;
        unsigned char got = ((const unsigned char *)d->data)[th_offset(d->ndims, d->dims, d->strides, f)];
        int want = family == 0 ? ref_compare(op, pa, pb, a->dtype)
                   : ref_logical(family == 2 ? 3 : op, pa, a->dtype, pb, b ? b->dtype : a->dtype);
        if (got != want) {
            bad++;
            CHECK_MSG(0, "%s: family %d op %d %s/%s element %lld: got %d, want %d", what, family, op,
                      dnnlk_dtype_name(a->dtype), b ? dnnlk_dtype_name(b->dtype) : "-", (long long)f, got, want);
        }
    }
    return bad == 0;
}

static dnnlk_status run_parts(int family, int op, const dnnlk_tensor *a, const dnnlk_tensor *b, dnnlk_tensor *d, int nth) {
    int ith;
    dnnlk_status st = dnnlk_success;
    for (ith = 0; ith < nth && st == dnnlk_success; ith++)
        st = family == 0 ? dnnlk_compare((dnnlk_compare_op)op, a, b, d, ith, nth)
             : family == 1 ? dnnlk_logical((dnnlk_logical_op)op, a, b, d, ith, nth)
                           : dnnlk_logical_not(a, d, ith, nth);
    return st;
}

/* Random dims for two operands that broadcast: each dim of each side is the shared size or 1, and
 * either may have fewer dims (0-d included). */
static void random_broadcast(int *na, int64_t *da, int *nb, int64_t *db, int *nd, int64_t *dd, int long_dim) {
    int64_t full[DNNLK_MAX_NDIMS];
    int i;
    *nd = (int)th_randint(0, 4);
    for (i = 0; i < *nd; i++) full[i] = th_randint(1, 6);
    if (*nd > 0 && long_dim) full[*nd - 1 - (int)th_randint(0, *nd - 1)] = th_randint(7, 150);
    *na = (int)th_randint(0, *nd), *nb = (int)th_randint(0, *nd);
    if (th_rand32() % 2) *na = *nd; else *nb = *nd;
    for (i = 0; i < *na; i++) da[i] = th_rand32() % 4 == 0 ? 1 : full[*nd - *na + i];
    for (i = 0; i < *nb; i++) db[i] = th_rand32() % 4 == 0 ? 1 : full[*nd - *nb + i];
    for (i = 0; i < *nd; i++) {
        int ia = i - (*nd - *na), ib = i - (*nd - *nb);
        int64_t x = ia >= 0 ? da[ia] : 1, y = ib >= 0 ? db[ib] : 1;
        dd[i] = x > y ? x : y;
    }
}

/* Random broadcasts and layouts for every family, op and dtype (pairs of dtypes for logical). */
TEST(random_broadcasts) {
    static const int nths[4] = {1, 2, 3, 7};
    int iter, iters = (int)th_scaled(600);
    for (iter = 0; iter < iters; iter++) {
        int64_t da[DNNLK_MAX_NDIMS], db[DNNLK_MAX_NDIMS], dd[DNNLK_MAX_NDIMS];
        int na, nb, nd, family = iter % 3, op = family == 0 ? (int)th_randint(0, 5) : (int)th_randint(0, 2);
        dnnlk_dtype at = all_types[th_randint(0, NTYPES - 1)], bt = family == 0 ? at : all_types[th_randint(0, NTYPES - 1)];
        view a, b, d;
        char what[64];
        random_broadcast(&na, da, &nb, db, &nd, dd, iter % 4 == 0);
        if (family == 2) nd = na, memcpy(dd, da, sizeof da);
        a = make_view(at, na, da, 1);
        b = make_view(bt, nb, db, 1);
        d = make_view(dnnlk_boolean, nd, dd, 0);
        snprintf(what, sizeof what, "iteration %d", iter);
        CHECK_EQ(run_parts(family, op, &a.t, family == 2 ? NULL : &b.t, &d.t, nths[iter % 4]), dnnlk_success);
        CHECK(check_result(family, op, &a.t, family == 2 ? NULL : &b.t, &d.t, what));
        CHECK(th_guards_ok(&d.buf));
        th_free(&a.buf), th_free(&b.buf), th_free(&d.buf);
    }
}

/* Dense rows of every length 0..150, both operands contiguous or one a scalar: the vector bodies
 * and tails of every width, for the vector dtypes and two element-path ones. */
TEST(tails_every_length) {
    static const dnnlk_dtype types[] = {dnnlk_f32, dnnlk_bf16, dnnlk_f16, dnnlk_u8, dnnlk_s8, dnnlk_s64, dnnlk_boolean};
    size_t ti;
    int64_t n;
    for (ti = 0; ti < sizeof types / sizeof types[0]; ti++) {
        dnnlk_dtype t = types[ti];
        size_t es = dnnlk_dtype_size(t);
        th_buf ab = th_alloc(150 * es, 0), bb = th_alloc(150 * es, t == dnnlk_s64 ? 0 : 3); /* s64 aligned: its typed rows */
        fill_values(ab.p, t, 150), fill_values(bb.p, t, 150);
        for (n = 0; n <= 150; n++) {
            int64_t one = 1;
            th_buf db = th_alloc((size_t)n, (size_t)(n % 5));
            dnnlk_tensor a = th_tensor(ab.p, t, 1, &n), b = th_tensor(bb.p, t, 1, &n), d = th_tensor(db.p, dnnlk_boolean, 1, &n);
            dnnlk_tensor s = th_tensor(bb.p, t, 1, &one);
            int op = (int)(n % 6);
            CHECK_EQ(dnnlk_compare((dnnlk_compare_op)op, &a, &b, &d, 0, 1), dnnlk_success);
            CHECK(check_result(0, op, &a, &b, &d, "compare tail"));
            CHECK_EQ(dnnlk_compare((dnnlk_compare_op)op, &s, &a, &d, 0, 1), dnnlk_success);
            CHECK(check_result(0, op, &s, &a, &d, "compare scalar tail"));
            CHECK_EQ(dnnlk_compare((dnnlk_compare_op)op, &a, &s, &d, 0, 1), dnnlk_success);
            CHECK(check_result(0, op, &a, &s, &d, "compare tail against a scalar"));
            CHECK_EQ(dnnlk_logical((dnnlk_logical_op)(n % 3), &a, &b, &d, 0, 1), dnnlk_success);
            CHECK(check_result(1, (int)(n % 3), &a, &b, &d, "logical tail"));
            CHECK_EQ(dnnlk_logical_not(&a, &d, 0, 1), dnnlk_success);
            CHECK(check_result(2, 0, &a, NULL, &d, "not tail"));
            CHECK(th_guards_ok(&db));
            th_free(&db);
        }
        th_free(&ab), th_free(&bb);
    }
}

/* s64 and u64 rows (64-bit lanes, eight compares packed into one store of bytes): values at the
 * edges of the signed and unsigned orders and pairs that differ only in their low or high 32 bits
 * (SSE4.1 builds a 64-bit compare from 32-bit ones), lengths around the packed step of every
 * level (16, 32, 64 elements), operands at any byte offset, every op, a scalar on either side. */
TEST(int64_rows) {
    static const uint64_t edge[] = {0, 1, 2, 0xffffffffull, 0x100000000ull, 0x100000001ull, 0x7fffffffull, 0x80000000ull,
                                    0x7fffffffffffffffull, 0x8000000000000000ull, 0x8000000000000001ull,
                                    0xffffffffffffffffull, 0xfffffffffffffffeull, 0xffffffff00000000ull,
                                    0x7fffffff00000000ull, 0x80000000ffffffffull, 0x123456789abcdef0ull,
                                    0x1234567800000000ull, 0x12345678ffffffffull};
    static const int64_t lens[] = {1, 7, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 200};
    static const dnnlk_dtype types[2] = {dnnlk_s64, dnnlk_u64};
    const int ne = (int)(sizeof edge / sizeof edge[0]);
    size_t ti, li;
    for (ti = 0; ti < 2; ti++)
        for (li = 0; li < sizeof lens / sizeof lens[0]; li++) {
            int64_t n = lens[li], one = 1, i;
            size_t off = (size_t)(li % 3 == 0 ? 0 : li % 3 == 1 ? 4 : 1);
            th_buf ab = th_alloc((size_t)n * 8, off), bb = th_alloc((size_t)n * 8, (size_t)(li % 2)), db = th_alloc((size_t)n, li % 5);
            dnnlk_tensor a = th_tensor(ab.p, types[ti], 1, &n), b = th_tensor(bb.p, types[ti], 1, &n);
            dnnlk_tensor s = th_tensor(bb.p, types[ti], 1, &one), d = th_tensor(db.p, dnnlk_boolean, 1, &n);
            int op;
            for (i = 0; i < n; i++) {
                uint64_t x = edge[th_randint(0, ne - 1)], y = th_rand32() % 3 ? edge[th_randint(0, ne - 1)] : x;
                memcpy((char *)ab.p + i * 8, &x, 8), memcpy((char *)bb.p + i * 8, &y, 8);
            }
            for (op = 0; op < 6; op++) {
                CHECK_EQ(dnnlk_compare((dnnlk_compare_op)op, &a, &b, &d, 0, 1), dnnlk_success);
                CHECK(check_result(0, op, &a, &b, &d, "64-bit rows"));
                CHECK_EQ(dnnlk_compare((dnnlk_compare_op)op, &a, &s, &d, 0, 1), dnnlk_success);
                CHECK(check_result(0, op, &a, &s, &d, "64-bit rows against a scalar"));
                CHECK_EQ(run_parts(0, op, &s, &a, &d, 3), dnnlk_success);
                CHECK(check_result(0, op, &s, &a, &d, "64-bit rows, scalar first, 3 parts"));
            }
            CHECK(th_guards_ok(&db));
            th_free(&ab), th_free(&bb), th_free(&db);
        }
}

/* The streaming rows (a part writing at least the threshold cell's bytes: here every part): the
 * vector dtypes (and boolean, logical's bytes as they are), both operands contiguous or one a scalar, dst aligned and 1..4 bytes off, long
 * enough for several staged chunks and a head and tail, 1 and 3 parts. */
TEST(streamed_rows) {
    static const dnnlk_dtype types[] = {dnnlk_f32, dnnlk_bf16, dnnlk_f16, dnnlk_u8, dnnlk_s8, dnnlk_boolean};
    int64_t *cell = dnnlk__convert_nt_cell(), saved = *cell, n = 3 * 2048 + 77, one = 1;
    size_t ti, mis;
    *cell = 0;
    for (ti = 0; ti < sizeof types / sizeof types[0]; ti++) {
        dnnlk_dtype t = types[ti];
        size_t es = dnnlk_dtype_size(t);
        th_buf ab = th_alloc((size_t)n * es, 0), bb = th_alloc((size_t)n * es, 0);
        dnnlk_tensor a = th_tensor(ab.p, t, 1, &n), b = th_tensor(bb.p, t, 1, &n), s = th_tensor(bb.p, t, 1, &one);
        fill_values(ab.p, t, n), fill_values(bb.p, t, n);
        for (mis = 0; mis < 5; mis++) {
            th_buf db = th_alloc((size_t)n, mis);
            dnnlk_tensor d = th_tensor(db.p, dnnlk_boolean, 1, &n);
            int op = (int)((ti + mis) % 6), nth = mis % 2 ? 3 : 1;
            CHECK_EQ(run_parts(0, op, &a, &b, &d, nth), dnnlk_success);
            CHECK(check_result(0, op, &a, &b, &d, "streamed compare"));
            CHECK_EQ(run_parts(0, op, &s, &a, &d, nth), dnnlk_success);
            CHECK(check_result(0, op, &s, &a, &d, "streamed compare, scalar first"));
            CHECK_EQ(run_parts(0, op, &a, &s, &d, nth), dnnlk_success);
            CHECK(check_result(0, op, &a, &s, &d, "streamed compare against a scalar"));
            CHECK_EQ(run_parts(1, (int)(mis % 3), &a, &b, &d, nth), dnnlk_success);
            CHECK(check_result(1, (int)(mis % 3), &a, &b, &d, "streamed logical"));
            CHECK(th_guards_ok(&db));
            th_free(&db);
        }
        th_free(&ab), th_free(&bb);
    }
    *cell = saved;
}

/* DistilBERT's masked_fill cond: attention_mask (s64 [8,512], viewed [8,1,1,512]) == 0 against
 * a 0-d zero, then select over scores [8,12,16,512] with it. */
TEST(masked_fill_cond) {
    int64_t md[4] = {8, 1, 1, 512}, sd[4] = {8, 12, 16, 512}, n = 8 * 512, i, total = 8 * 12 * 16 * 512;
    int64_t *mask = (int64_t *)malloc((size_t)n * 8), zero = 0;
    unsigned char *cond = (unsigned char *)malloc((size_t)n);
    float *scores = (float *)malloc((size_t)total * 4), *out = (float *)malloc((size_t)total * 4), fill = -1e9f;
    dnnlk_tensor m, z, c, s, f, o;
    for (i = 0; i < n; i++) mask[i] = (i % 512) < 100 + 40 * (i / 512);
    for (i = 0; i < total; i++) scores[i] = (float)(i % 1000) * 0.25f;
    m = th_tensor(mask, dnnlk_s64, 4, md), z = th_tensor(&zero, dnnlk_s64, 0, NULL);
    memset(&c, 0, sizeof c);
    c.ndims = DNNLK_UNKNOWN;
    CHECK_EQ(dnnlk_compare_infer(dnnlk_compare_eq, &m, &z, &c), dnnlk_success);
    CHECK_EQ(c.dtype, dnnlk_boolean);
    CHECK(c.ndims == 4 && c.dims[0] == 8 && c.dims[1] == 1 && c.dims[2] == 1 && c.dims[3] == 512);
    c.data = cond;
    CHECK_EQ(dnnlk_compare(dnnlk_compare_eq, &m, &z, &c, 0, 1), dnnlk_success);
    for (i = 0; i < n; i++) CHECK_MSG(cond[i] == (mask[i] == 0), "cond %lld", (long long)i);
    s = th_tensor(scores, dnnlk_f32, 4, sd), f = th_tensor(&fill, dnnlk_f32, 0, NULL), o = th_tensor(out, dnnlk_f32, 4, sd);
    CHECK_EQ(dnnlk_select(&c, &f, &s, &o, dnnlk_broadcast_numpy, 0, 1), dnnlk_success);
    for (i = 0; i < total; i += 37) {
        int64_t b = i / (12 * 16 * 512), t = i % 512;
        CHECK(out[i] == (mask[b * 512 + t] == 0 ? fill : scores[i]));
    }
    free(mask), free(cond), free(scores), free(out);
}

/* ---- infer, bad input, in place ---- */

TEST(infer_and_bad_arguments) {
    int64_t da[3] = {2, 1, 4}, db[2] = {3, 1}, dbad[1] = {3}, i;
    float a[8], b[3];
    double e[3];
    unsigned char out[24], before[sizeof(dnnlk_tensor)];
    dnnlk_tensor ta = th_tensor(a, dnnlk_f32, 3, da), tb = th_tensor(b, dnnlk_f32, 2, db), te = th_tensor(e, dnnlk_f64, 2, db);
    dnnlk_tensor d, t;
    for (i = 0; i < 8; i++) a[i] = (float)i;
    memset(b, 0, sizeof b), memset(e, 0, sizeof e);
    memset(&d, 0, sizeof d);
    d.ndims = DNNLK_UNKNOWN;
    CHECK_EQ(dnnlk_compare_infer(dnnlk_compare_lt, &ta, &tb, &d), dnnlk_success);
    CHECK(d.ndims == 3 && d.dims[0] == 2 && d.dims[1] == 3 && d.dims[2] == 4 && d.strides[2] == 1 && d.strides[0] == 12);
    CHECK_EQ(d.dtype, dnnlk_boolean);
    CHECK_EQ(dnnlk_logical_infer(dnnlk_logical_xor, &ta, &te, &d), dnnlk_success); /* mixed dtypes: fine */
    d.data = out;
    memset(out, 0x5A, sizeof out);
#define EXPECT_UNTOUCHED(call, status)                                                      \
    do {                                                                                    \
        memcpy(before, &d, sizeof d);                                                       \
        CHECK_EQ((call), (status));                                                         \
        CHECK(memcmp(before, &d, sizeof d) == 0);                                           \
        for (i = 0; i < 24; i++) CHECK_MSG(out[i] == 0x5A, "byte %d written", (int)i);      \
    } while (0)
    EXPECT_UNTOUCHED(dnnlk_compare(dnnlk_compare_lt, &ta, &te, &d, 0, 1), dnnlk_invalid_data_type); /* mixed */
    EXPECT_UNTOUCHED(dnnlk_compare((dnnlk_compare_op)6, &ta, &tb, &d, 0, 1), dnnlk_invalid_arguments);
    EXPECT_UNTOUCHED(dnnlk_compare((dnnlk_compare_op)-1, &ta, &tb, &d, 0, 1), dnnlk_invalid_arguments);
    EXPECT_UNTOUCHED(dnnlk_logical((dnnlk_logical_op)3, &ta, &tb, &d, 0, 1), dnnlk_invalid_arguments);
    EXPECT_UNTOUCHED(dnnlk_compare(dnnlk_compare_lt, NULL, &tb, &d, 0, 1), dnnlk_invalid_arguments);
    EXPECT_UNTOUCHED(dnnlk_logical(dnnlk_logical_or, &ta, NULL, &d, 0, 1), dnnlk_invalid_arguments);
    EXPECT_UNTOUCHED(dnnlk_logical_not(NULL, &d, 0, 1), dnnlk_invalid_arguments);
    EXPECT_UNTOUCHED(dnnlk_compare(dnnlk_compare_lt, &ta, &tb, &d, 2, 2), dnnlk_invalid_arguments);
    t = tb, t.ndims = 1, t.dims[0] = 3, t.strides[0] = 1, memcpy(t.dims, dbad, sizeof dbad);
    EXPECT_UNTOUCHED(dnnlk_compare(dnnlk_compare_lt, &ta, &t, &d, 0, 1), dnnlk_invalid_shape); /* 4 vs 3 */
    t = tb, t.dtype = (dnnlk_dtype)77;
    EXPECT_UNTOUCHED(dnnlk_logical(dnnlk_logical_or, &ta, &t, &d, 0, 1), dnnlk_invalid_data_type);
    t = tb, t.data = NULL;
    EXPECT_UNTOUCHED(dnnlk_compare(dnnlk_compare_lt, &ta, &t, &d, 0, 1), dnnlk_invalid_arguments);
    d.dtype = dnnlk_u8;
    EXPECT_UNTOUCHED(dnnlk_compare(dnnlk_compare_lt, &ta, &tb, &d, 0, 1), dnnlk_invalid_data_type); /* not boolean */
    d.dtype = dnnlk_boolean;
    d.dims[1] = 5;
    EXPECT_UNTOUCHED(dnnlk_compare(dnnlk_compare_lt, &ta, &tb, &d, 0, 1), dnnlk_invalid_shape);
    d.dims[1] = 3;
    /* dst over an input's bytes: a boolean dst on a float input, and a shifted boolean view */
    {
        dnnlk_tensor ov = d, bo;
        unsigned char m[24];
        ov.data = a;
        CHECK_EQ(dnnlk_compare(dnnlk_compare_lt, &ta, &tb, &ov, 0, 1), dnnlk_invalid_arguments);
        for (i = 0; i < 8; i++) CHECK(a[i] == (float)i);
        memset(m, 1, sizeof m);
        bo = th_tensor(m, dnnlk_boolean, 3, d.dims);
        ov.data = m + 1;
        CHECK_EQ(dnnlk_logical(dnnlk_logical_and, &bo, &bo, &ov, 0, 1), dnnlk_invalid_arguments);
        /* the same view: in place is fine */
        ov.data = m;
        CHECK_EQ(dnnlk_logical(dnnlk_logical_and, &bo, &ta, &ov, 0, 1), dnnlk_success);
        for (i = 0; i < 24; i++) CHECK_EQ(m[i], !(i < 12 && i % 4 == 0)); /* a is 0 at [0, :, 0] only */
        CHECK_EQ(dnnlk_logical_not(&bo, &bo, 0, 1), dnnlk_success);
        for (i = 0; i < 24; i++) CHECK_EQ(m[i], i < 12 && i % 4 == 0);
    }
#undef EXPECT_UNTOUCHED
    /* empty */
    {
        int64_t z[2] = {0, 3};
        dnnlk_tensor e0 = th_tensor(NULL, dnnlk_f32, 2, z), d0 = th_tensor(NULL, dnnlk_boolean, 2, z);
        CHECK_EQ(dnnlk_compare(dnnlk_compare_eq, &e0, &e0, &d0, 0, 1), dnnlk_success);
        CHECK_EQ(dnnlk_logical_not(&e0, &d0, 0, 2), dnnlk_success);
    }
}

/* ---- numpy's answers (tools/numpy_bool_cases.py) ---- */
#include "convert_numpy_cases.h" /* numpy_convert_cases, numpy_compare_cases */

TEST(numpy_comparisons) {
    size_t i;
    int op;
    (void)numpy_convert_cases;
    for (i = 0; i < sizeof numpy_compare_cases / sizeof numpy_compare_cases[0]; i++) {
        const numpy_compare_case *c = &numpy_compare_cases[i];
        uint64_t a = c->a_bits, b = c->b_bits;
        unsigned char r = 0xEE;
        dnnlk_tensor ta = th_tensor(&a, c->dt, 0, NULL), tb = th_tensor(&b, c->dt, 0, NULL), td = th_tensor(&r, dnnlk_boolean, 0, NULL);
        for (op = 0; op < 6; op++) {
            CHECK_EQ(dnnlk_compare((dnnlk_compare_op)op, &ta, &tb, &td, 0, 1), dnnlk_success);
            CHECK_MSG(r == ((c->results >> op) & 1), "numpy case %d op %d: got %d", (int)i, op, r);
        }
    }
}

/* ---- the same bits at every level and part count ---- */

static uint64_t bits_run(int c, int nth) {
    static const dnnlk_dtype types[4] = {dnnlk_f32, dnnlk_bf16, dnnlk_s64, dnnlk_f16};
    int64_t n = 4099, one = 1;
    dnnlk_dtype t = types[c % 4];
    th_buf ab = th_alloc((size_t)n * dnnlk_dtype_size(t), 0), bb = th_alloc((size_t)n * dnnlk_dtype_size(t), 0);
    th_buf db = th_alloc((size_t)n * 8, 0);
    dnnlk_tensor a = th_tensor(ab.p, t, 1, &n), b = th_tensor(bb.p, t, 1, &n), d;
    uint64_t h;
    int ith, op;
    th_seed(99 + (uint64_t)c);
    fill_values(ab.p, t, n), fill_values(bb.p, t, n);
    if (c >= 4) b = th_tensor(bb.p, t, 1, &one); /* a scalar side */
    for (op = 0; op < 8; op++) {
        d = th_tensor((char *)db.p + op * n, dnnlk_boolean, 1, &n);
        for (ith = 0; ith < nth; ith++) {
            if (op < 6) CHECK_EQ(dnnlk_compare((dnnlk_compare_op)op, &a, &b, &d, ith, nth), dnnlk_success);
            else if (op == 6) CHECK_EQ(dnnlk_logical(dnnlk_logical_xor, &a, &b, &d, ith, nth), dnnlk_success);
            else CHECK_EQ(dnnlk_logical_not(&a, &d, ith, nth), dnnlk_success);
        }
    }
    h = th_fnv1a(db.p, db.bytes);
    th_free(&ab), th_free(&bb), th_free(&db);
    return h;
}

TEST(same_bits_every_level_and_part_count) {
    static const int nths[] = {2, 3, 7, 0};
    static const char *names[8] = {"f32", "bf16", "s64", "f16", "f32 scalar", "bf16 scalar", "s64 scalar", "f16 scalar"};
    uint64_t got[8][4];
    int ran[8][4], c, l, top = (int)dnnlk_cpu_isa();
    memset(got, 0, sizeof got), memset(ran, 0, sizeof ran);
    for (l = 0; l <= top; l++) {
        dnnlk_set_max_isa((dnnlk_isa)l);
        for (c = 0; c < 8; c++) {
            int level = (int)dnnlk_max_isa();
            got[c][level] = th_bits_parts_agree(bits_run, c, nths, names[c], level);
            ran[c][level] = 1;
        }
    }
    dnnlk_set_max_isa(dnnlk_isa_avx512);
    for (c = 0; c < 8; c++) th_bits_match_scalar(names[c], got[c], ran[c]);
}

int main(void) {
    RUN(infer_and_bad_arguments);
    RUN(masked_fill_cond);
    RUN(numpy_comparisons);
    RUN_EACH_ISA(tails_every_length);
    RUN_EACH_ISA(int64_rows);
    RUN_EACH_ISA(streamed_rows);
    RUN_EACH_ISA(random_broadcasts);
    RUN(same_bits_every_level_and_part_count);
    return th_summary();
}
