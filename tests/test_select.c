/* select.h: dst = cond ? src0 : src1 against a plain reference, on every ISA the CPU has. */
#include "harness.h"

static const dnnlk_dtype th_data_types[9] = {dnnlk_boolean, dnnlk_s8, dnnlk_u8, dnnlk_f16, dnnlk_bf16,
                                              dnnlk_s32, dnnlk_f32, dnnlk_s64, dnnlk_f64};
static const dnnlk_dtype th_cond_types[3] = {dnnlk_boolean, dnnlk_u8, dnnlk_s8};

/* ---- operands: a guarded buffer holding a strided view ---- */

typedef struct operand {
    th_buf buf;
    dnnlk_tensor t;
} operand;

static void fill_random(unsigned char *p, size_t n) {
    size_t i;
    for (i = 0; i < n; i++) p[i] = (unsigned char)th_rand32();
}

/* Cond bytes: about half zero, the rest any nonzero value (not only 1). */
static void fill_cond(unsigned char *p, size_t n) {
    size_t i;
    for (i = 0; i < n; i++) {
        uint32_t r = th_rand32();
        p[i] = (r & 1) ? 0 : (unsigned char)(1 + (r >> 8) % 255);
    }
}

/* Element strides for dims: a random dim order (innermost first), random padding, and on inputs
 * sometimes negative strides or explicit 0 strides (broadcast views). */
static void random_strides(int nd, const int64_t *dims, int64_t *st, int input, int style) {
    int order[DNNLK_MAX_NDIMS], i;
    int64_t span = 1;
    for (i = 0; i < nd; i++) order[i] = nd - 1 - i; /* row-major: last dim innermost */
    if (style >= 1) {                                /* permuted */
        for (i = nd - 1; i > 0; i--) {
            int j = (int)th_randint(0, i), tmp = order[i];
            order[i] = order[j], order[j] = tmp;
        }
    }
    for (i = 0; i < nd; i++) {
        int d = order[i];
        int64_t pad = style >= 2 && th_randint(0, 2) == 0 ? th_randint(1, 3) : 0;
        st[d] = span;
        span = span * (dims[d] > 1 ? dims[d] : 1) + pad;
    }
    if (input && style >= 2) {
        for (i = 0; i < nd; i++) {
            /* -1 would read as DNNLK_UNKNOWN: flip only longer strides */
            if (th_randint(0, 4) == 0 && st[i] > 1) st[i] = -st[i];
            if (dims[i] > 1 && th_randint(0, 6) == 0) st[i] = 0; /* a broadcast view */
        }
    }
}

/* Allocates a view of (dt, nd, dims, strides) with `misalign` bytes past a 64-byte boundary. */
static operand make_operand(dnnlk_dtype dt, int nd, const int64_t *dims, const int64_t *st, size_t misalign,
                            int is_cond) {
    operand o;
    int64_t lo = 0, hi = 0;
    size_t es = dnnlk_dtype_size(dt);
    memset(&o, 0, sizeof o);
    o.t.dtype = dt;
    o.t.ndims = nd;
    if (nd) memcpy(o.t.dims, dims, (size_t)nd * sizeof(int64_t));
    if (nd) memcpy(o.t.strides, st, (size_t)nd * sizeof(int64_t));
    (void)dnnlk__byte_extent(nd, dims, st, es, &lo, &hi);
    o.buf = th_alloc((size_t)(hi - lo), misalign);
    if (is_cond) fill_cond((unsigned char *)o.buf.p, o.buf.bytes);
    else fill_random((unsigned char *)o.buf.p, o.buf.bytes);
    o.t.data = (char *)o.buf.p - lo;
    return o;
}

/* Byte offset of element idx (over out's dims, right-aligned broadcast) in tensor t. */
static int64_t offset_of(const dnnlk_tensor *t, int nout, const int64_t *idx) {
    int64_t off = 0;
    int i;
    for (i = 0; i < t->ndims; i++) {
        int o = nout - t->ndims + i;
        if (t->dims[i] != 1) off += idx[o] * t->strides[i];
    }
    return off * (int64_t)dnnlk_dtype_size(t->dtype);
}

/* The reference: into `img`, an image of dst's buffer whose base is dst->data at img_base. */
static void reference(const dnnlk_tensor *c, const dnnlk_tensor *a, const dnnlk_tensor *b, const dnnlk_tensor *d,
                      unsigned char *img, int64_t img_base) {
    int64_t idx[DNNLK_MAX_NDIMS] = {0}, numel = 1;
    size_t es = dnnlk_dtype_size(d->dtype);
    int i;
    for (i = 0; i < d->ndims; i++) numel *= d->dims[i];
    while (numel > 0) {
        const unsigned char *cp = (const unsigned char *)c->data + offset_of(c, d->ndims, idx);
        const char *src = *cp ? (const char *)a->data + offset_of(a, d->ndims, idx)
                              : (const char *)b->data + offset_of(b, d->ndims, idx);
        memcpy(img + img_base + offset_of(d, d->ndims, idx), src, es);
        for (i = d->ndims - 1; i >= 0; i--) {
            if (++idx[i] < d->dims[i]) break;
            idx[i] = 0;
        }
        if (i < 0) break;
    }
}

/* Runs select as nth parts (in reverse order, so no part can lean on another having run) and
 * returns the first status that is not success. */
static dnnlk_status run_parts(const dnnlk_tensor *c, const dnnlk_tensor *a, const dnnlk_tensor *b, dnnlk_tensor *d,
                              dnnlk_broadcast bc, int nth) {
    int i;
    for (i = nth - 1; i >= 0; i--) {
        dnnlk_status st = dnnlk_select(c, a, b, d, bc, i, nth);
        if (st != dnnlk_success) return st;
    }
    return dnnlk_success;
}

/* ---- shape inference (the RFC's examples) ---- */

static dnnlk_tensor logical(dnnlk_dtype dt, int nd, const int64_t *dims) { return th_tensor(NULL, dt, nd, dims); }

static dnnlk_tensor unknown_out(dnnlk_dtype dt) {
    dnnlk_tensor t;
    memset(&t, 0, sizeof t);
    t.dtype = dt;
    t.ndims = DNNLK_UNKNOWN;
    return t;
}

TEST(infer_rfc_examples) {
    int64_t x[4] = {2, 3, 4, 5}, c45[2] = {4, 5}, c315[3] = {3, 1, 5}, c35[2] = {3, 5}, c12345[5] = {1, 2, 3, 4, 5};
    dnnlk_tensor a = logical(dnnlk_f32, 4, x), b = logical(dnnlk_f32, 0, NULL), d;
    dnnlk_tensor c1 = logical(dnnlk_boolean, 2, c45), c2 = logical(dnnlk_boolean, 3, c315);
    dnnlk_tensor c3 = logical(dnnlk_boolean, 2, c35), c4 = logical(dnnlk_boolean, 5, c12345);
    int i;
    d = unknown_out(dnnlk_f32);
    CHECK_EQ(dnnlk_select_infer(&c1, &a, &b, &d, dnnlk_broadcast_numpy), dnnlk_success);
    CHECK_EQ(d.ndims, 4);
    for (i = 0; i < 4; i++) CHECK_EQ(d.dims[i], x[i]);
    CHECK_EQ(d.strides[0], 60);
    CHECK_EQ(d.strides[3], 1);
    d = unknown_out(dnnlk_f32);
    CHECK_EQ(dnnlk_select_infer(&c2, &a, &b, &d, dnnlk_broadcast_numpy), dnnlk_success);
    CHECK_EQ(d.ndims, 4);
    d = unknown_out(dnnlk_f32);
    CHECK_EQ(dnnlk_select_infer(&c3, &a, &b, &d, dnnlk_broadcast_numpy), dnnlk_invalid_shape);
    CHECK_EQ(d.ndims, DNNLK_UNKNOWN);
    /* cond never widens the output, even where numpy.where would. */
    CHECK_EQ(dnnlk_select_infer(&c4, &a, &b, &d, dnnlk_broadcast_numpy), dnnlk_invalid_shape);
    {
        int64_t s[2] = {4, 5}, one[1] = {1};
        dnnlk_tensor a2 = logical(dnnlk_f32, 2, s), b2 = logical(dnnlk_f32, 1, one);
        dnnlk_tensor cbig = logical(dnnlk_u8, 4, x);
        d = unknown_out(dnnlk_f32);
        CHECK_EQ(dnnlk_select_infer(&cbig, &a2, &b2, &d, dnnlk_broadcast_numpy), dnnlk_invalid_shape);
    }
    {
        /* src0 and src1 broadcast both ways. */
        int64_t s31[2] = {3, 1}, s14[2] = {1, 4}, c1d[1] = {4};
        dnnlk_tensor a3 = logical(dnnlk_s8, 2, s31), b3 = logical(dnnlk_s8, 2, s14), cc = logical(dnnlk_s8, 1, c1d);
        d = unknown_out(dnnlk_s8);
        CHECK_EQ(dnnlk_select_infer(&cc, &a3, &b3, &d, dnnlk_broadcast_numpy), dnnlk_success);
        CHECK_EQ(d.ndims, 2);
        CHECK_EQ(d.dims[0], 3);
        CHECK_EQ(d.dims[1], 4);
        d = unknown_out(dnnlk_s8);
        CHECK_EQ(dnnlk_select_infer(&cc, &a3, &b3, &d, dnnlk_broadcast_none), dnnlk_invalid_shape);
    }
}

TEST(infer_none_and_output_layouts) {
    int64_t x[3] = {1, 2, 3}, c13[2] = {1, 3};
    dnnlk_tensor a = logical(dnnlk_bf16, 3, x), b = logical(dnnlk_bf16, 3, x), c = logical(dnnlk_u8, 3, x), d;
    dnnlk_tensor cb = logical(dnnlk_u8, 2, c13);
    d = unknown_out(dnnlk_dtype_undef);
    CHECK_EQ(dnnlk_select_infer(&c, &a, &b, &d, dnnlk_broadcast_none), dnnlk_success);
    CHECK_EQ(d.dtype, dnnlk_bf16); /* an undef output dtype is completed */
    CHECK_EQ(dnnlk_select_infer(&cb, &a, &b, &d, dnnlk_broadcast_none), dnnlk_invalid_shape);
    CHECK_EQ(dnnlk_select_infer(&cb, &a, &b, &d, dnnlk_broadcast_numpy), dnnlk_success);
    /* Partial strides: the dim with stride 1 is innermost, the rest dense outward. */
    d = th_tensor(NULL, dnnlk_bf16, 3, x);
    d.strides[0] = DNNLK_UNKNOWN, d.strides[1] = 1, d.strides[2] = DNNLK_UNKNOWN;
    CHECK_EQ(dnnlk_select_infer(&c, &a, &b, &d, dnnlk_broadcast_none), dnnlk_success);
    CHECK_EQ(d.strides[0], 6);
    CHECK_EQ(d.strides[1], 1);
    CHECK_EQ(d.strides[2], 2);
    d = th_tensor(NULL, dnnlk_bf16, 3, x);
    d.strides[0] = DNNLK_UNKNOWN, d.strides[1] = 1, d.strides[2] = 2;
    CHECK_EQ(dnnlk_select_infer(&c, &a, &b, &d, dnnlk_broadcast_none), dnnlk_invalid_shape);
    /* Known dims are checked; unknown ones filled. */
    d = th_tensor(NULL, dnnlk_bf16, 3, x);
    d.dims[1] = DNNLK_UNKNOWN;
    d.strides[0] = d.strides[1] = d.strides[2] = DNNLK_UNKNOWN;
    CHECK_EQ(dnnlk_select_infer(&c, &a, &b, &d, dnnlk_broadcast_none), dnnlk_success);
    CHECK_EQ(d.dims[1], 2);
    d.dims[2] = 4;
    CHECK_EQ(dnnlk_select_infer(&c, &a, &b, &d, dnnlk_broadcast_none), dnnlk_invalid_shape);
    d = th_tensor(NULL, dnnlk_bf16, 2, x);
    CHECK_EQ(dnnlk_select_infer(&c, &a, &b, &d, dnnlk_broadcast_none), dnnlk_invalid_shape);
}

TEST(dtypes) {
    int64_t x[2] = {3, 5};
    int i, j;
    for (i = 0; i < 9; i++) {
        for (j = 0; j < 9; j++) {
            dnnlk_tensor a = logical(th_data_types[i], 2, x), b = logical(th_data_types[j], 2, x);
            dnnlk_tensor c = logical(dnnlk_boolean, 2, x), d = unknown_out(th_data_types[i]);
            CHECK_EQ(dnnlk_select_infer(&c, &a, &b, &d, dnnlk_broadcast_numpy),
                     i == j ? dnnlk_success : dnnlk_invalid_data_type);
            d = unknown_out(th_data_types[j]);
            a.dtype = th_data_types[i], b.dtype = th_data_types[i];
            CHECK_EQ(dnnlk_select_infer(&c, &a, &b, &d, dnnlk_broadcast_numpy),
                     i == j ? dnnlk_success : dnnlk_invalid_data_type);
        }
        {
            dnnlk_tensor a = logical(th_data_types[i], 2, x), c = logical(th_data_types[i], 2, x);
            dnnlk_tensor d = unknown_out(th_data_types[i]);
            int ok = th_data_types[i] == dnnlk_boolean || th_data_types[i] == dnnlk_u8 || th_data_types[i] == dnnlk_s8;
            CHECK_EQ(dnnlk_select_infer(&c, &a, &a, &d, dnnlk_broadcast_numpy),
                     ok ? dnnlk_success : dnnlk_invalid_data_type);
        }
    }
    {
        dnnlk_tensor a = logical((dnnlk_dtype)99, 2, x), c = logical(dnnlk_u8, 2, x), d = unknown_out(dnnlk_f32);
        CHECK_EQ(dnnlk_select_infer(&c, &a, &a, &d, dnnlk_broadcast_numpy), dnnlk_invalid_data_type);
    }
}

/* ---- bad arguments leave dst untouched, data and descriptor ---- */

typedef struct bad_env {
    operand c, a, b, d;
    unsigned char *img;
    dnnlk_tensor dsave;
} bad_env;

static void bad_env_init(bad_env *e) {
    int64_t x[2] = {7, 9};
    int64_t st[2] = {9, 1};
    e->c = make_operand(dnnlk_u8, 2, x, st, 1, 1);
    e->a = make_operand(dnnlk_f32, 2, x, st, 0, 0);
    e->b = make_operand(dnnlk_f32, 2, x, st, 4, 0);
    e->d = make_operand(dnnlk_f32, 2, x, st, 0, 0);
    e->img = (unsigned char *)malloc(e->d.buf.bytes);
    memcpy(e->img, e->d.buf.p, e->d.buf.bytes);
    e->dsave = e->d.t;
}

/* The call returned `want` and changed nothing. */
static void expect_untouched(bad_env *e, dnnlk_status got, dnnlk_status want, const dnnlk_tensor *d, const char *what) {
    CHECK_MSG(got == want, "%s: got %s, want %s", what, dnnlk_status_str(got), dnnlk_status_str(want));
    CHECK_MSG(memcmp(d, &e->dsave, sizeof *d) == 0, "%s: descriptor changed", what);
    CHECK_MSG(memcmp(e->img, e->d.buf.p, e->d.buf.bytes) == 0, "%s: data changed", what);
    CHECK_MSG(th_guards_ok(&e->d.buf), "%s: guards", what);
}

static void bad_env_free(bad_env *e) {
    th_free(&e->c.buf), th_free(&e->a.buf), th_free(&e->b.buf), th_free(&e->d.buf);
    free(e->img);
}

#define BAD(want, call, dd, what)                    \
    do {                                             \
        dnnlk_status st_ = (call);                   \
        expect_untouched(&e, st_, want, dd, what);   \
    } while (0)

TEST(bad_arguments_write_nothing) {
    bad_env e;
    dnnlk_tensor c, a, b, d;
    const dnnlk_broadcast np = dnnlk_broadcast_numpy;
    bad_env_init(&e);
    c = e.c.t, a = e.a.t, b = e.b.t, d = e.d.t;
    BAD(dnnlk_invalid_arguments, dnnlk_select(NULL, &a, &b, &d, np, 0, 1), &d, "cond NULL");
    BAD(dnnlk_invalid_arguments, dnnlk_select(&c, NULL, &b, &d, np, 0, 1), &d, "src0 NULL");
    BAD(dnnlk_invalid_arguments, dnnlk_select(&c, &a, NULL, &d, np, 0, 1), &d, "src1 NULL");
    BAD(dnnlk_invalid_arguments, dnnlk_select(&c, &a, &b, NULL, np, 0, 1), &d, "dst NULL");
    BAD(dnnlk_invalid_arguments, dnnlk_select_infer(&c, &a, &b, NULL, np), &d, "infer dst NULL");
    BAD(dnnlk_invalid_arguments, dnnlk_select(&c, &a, &b, &d, (dnnlk_broadcast)7, 0, 1), &d, "broadcast 7");
    BAD(dnnlk_invalid_arguments, dnnlk_select(&c, &a, &b, &d, (dnnlk_broadcast)-1, 0, 1), &d, "broadcast -1");
    BAD(dnnlk_invalid_arguments, dnnlk_select(&c, &a, &b, &d, np, 1, 1), &d, "ith 1 of 1");
    BAD(dnnlk_invalid_arguments, dnnlk_select(&c, &a, &b, &d, np, -1, 2), &d, "ith -1");
    BAD(dnnlk_invalid_arguments, dnnlk_select(&c, &a, &b, &d, np, 0, 0), &d, "nth 0");
    {
        dnnlk_tensor t = c;
        t.data = NULL;
        BAD(dnnlk_invalid_arguments, dnnlk_select(&t, &a, &b, &d, np, 0, 1), &d, "cond data NULL");
        t = a;
        t.data = NULL;
        BAD(dnnlk_invalid_arguments, dnnlk_select(&c, &t, &b, &d, np, 0, 1), &d, "src0 data NULL");
    }
    {
        dnnlk_tensor t = d;
        t.data = NULL;
        e.dsave = t;
        BAD(dnnlk_invalid_arguments, dnnlk_select(&c, &a, &b, &t, np, 0, 1), &t, "dst data NULL");
        e.dsave = d;
    }
    {
        dnnlk_tensor t = a;
        t.dims[0] = -3;
        BAD(dnnlk_invalid_shape, dnnlk_select(&c, &t, &b, &d, np, 0, 1), &d, "negative dim");
        t = a;
        t.ndims = DNNLK_MAX_NDIMS + 1;
        BAD(dnnlk_invalid_shape, dnnlk_select(&c, &t, &b, &d, np, 0, 1), &d, "ndims 13");
        t = a;
        t.ndims = -1;
        BAD(dnnlk_invalid_shape, dnnlk_select(&c, &t, &b, &d, np, 0, 1), &d, "input ndims unknown");
        t = a;
        t.strides[0] = DNNLK_UNKNOWN;
        BAD(dnnlk_invalid_shape, dnnlk_select(&c, &t, &b, &d, np, 0, 1), &d, "input stride unknown");
        t = a;
        t.dims[0] = (int64_t)1 << 40, t.dims[1] = (int64_t)1 << 40;
        BAD(dnnlk_invalid_shape, dnnlk_select(&c, &t, &b, &d, np, 0, 1), &d, "overflowing count");
        t = c;
        t.dims[1] = 3;
        BAD(dnnlk_invalid_shape, dnnlk_select(&t, &a, &b, &d, np, 0, 1), &d, "cond shape");
        t = b;
        t.dims[0] = 2;
        BAD(dnnlk_invalid_shape, dnnlk_select(&c, &a, &t, &d, np, 0, 1), &d, "src1 shape");
    }
    {
        dnnlk_tensor t = c;
        t.dtype = dnnlk_f32;
        BAD(dnnlk_invalid_data_type, dnnlk_select(&t, &a, &b, &d, np, 0, 1), &d, "cond f32");
        t = b;
        t.dtype = dnnlk_s32;
        BAD(dnnlk_invalid_data_type, dnnlk_select(&c, &a, &t, &d, np, 0, 1), &d, "src1 s32");
    }
    {
        dnnlk_tensor t = d;
        t.dtype = dnnlk_s32;
        e.dsave = t;
        BAD(dnnlk_invalid_data_type, dnnlk_select(&c, &a, &b, &t, np, 0, 1), &t, "dst s32");
        t = d;
        t.dims[0] = 6;
        e.dsave = t;
        BAD(dnnlk_invalid_shape, dnnlk_select(&c, &a, &b, &t, np, 0, 1), &t, "dst dims");
        t = d;
        t.strides[0] = 0;
        e.dsave = t;
        BAD(dnnlk_invalid_arguments, dnnlk_select(&c, &a, &b, &t, np, 0, 1), &t, "dst overlaps itself");
        t = d;
        t.strides[0] = DNNLK_UNKNOWN;
        t.strides[1] = 2;
        e.dsave = t;
        BAD(dnnlk_invalid_shape, dnnlk_select(&c, &a, &b, &t, np, 0, 1), &t, "dst strides not deducible");
        e.dsave = d;
    }
    {
        /* Overlap: dst sharing memory with an input other than as the same view. */
        dnnlk_tensor t = a;
        t.data = (char *)d.data + 4;
        BAD(dnnlk_invalid_arguments, dnnlk_select(&c, &t, &b, &d, np, 0, 1), &d, "src0 shifted by one");
        t = b;
        t.data = d.data;
        t.strides[0] = 1, t.strides[1] = 7; /* transposed view of the same bytes */
        BAD(dnnlk_invalid_arguments, dnnlk_select(&c, &a, &t, &d, np, 0, 1), &d, "src1 transposed");
        t = a;
        t.data = d.data;
        t.strides[0] = 0; /* a broadcast view of dst's first row */
        BAD(dnnlk_invalid_arguments, dnnlk_select(&c, &t, &b, &d, np, 0, 1), &d, "src0 broadcast view");
        t = c;
        t.data = d.data;
        BAD(dnnlk_invalid_arguments, dnnlk_select(&t, &a, &b, &d, np, 0, 1), &d, "cond inside dst");
        t = c;
        t.data = (char *)d.data + d.dims[0] * 9 * 4 - 1;
        BAD(dnnlk_invalid_arguments, dnnlk_select(&t, &a, &b, &d, np, 0, 1), &d, "cond overlaps dst's last byte");
    }
    {
        /* Infer never needs data and never checks overlap; a good call still validates dst. */
        dnnlk_tensor t = d;
        t.data = NULL;
        CHECK_EQ(dnnlk_select_infer(&c, &a, &b, &t, np), dnnlk_success);
    }
    bad_env_free(&e);
}

/* ---- the kernels against the reference ---- */

static int dtype_index_of_size(int es) {
    switch (es) {
    case 1: return (int)th_randint(0, 2);
    case 2: return 3 + (int)th_randint(0, 1);
    case 4: return 5 + (int)th_randint(0, 1);
    default: return 7 + (int)th_randint(0, 1);
    }
}

/* One random case: shapes with broadcasts, strides, misalignment, dst layout mode, in-place. */
static void random_case(int max_nd, int64_t max_dim, int force_nt) {
    int64_t out[DNNLK_MAX_NDIMS], cd[DNNLK_MAX_NDIMS], ad[DNNLK_MAX_NDIMS], bd[DNNLK_MAX_NDIMS];
    int64_t cs[DNNLK_MAX_NDIMS], as[DNNLK_MAX_NDIMS], bs[DNNLK_MAX_NDIMS], ds[DNNLK_MAX_NDIMS];
    int nd = (int)th_randint(0, max_nd), cn, an, bn, i, nth_i;
    static const int nths[4] = {1, 2, 3, 7};
    dnnlk_dtype dt = th_data_types[th_randint(0, 8)];
    dnnlk_dtype ct = th_cond_types[th_randint(0, 2)];
    dnnlk_broadcast bc = th_randint(0, 3) == 0 ? dnnlk_broadcast_none : dnnlk_broadcast_numpy;
    int inplace = (int)th_randint(0, 5); /* 1: dst is src0, 2: dst is src1 */
    int dmode = (int)th_randint(0, 4);
    int64_t *saved = dnnlk__select_nt_cell(), saved_nt = *saved;
    operand c, a, b, dop;
    dnnlk_tensor d, dcomplete;
    unsigned char *img, *init;
    size_t es = dnnlk_dtype_size(dt);
    char what[256];
    dnnlk_status st;
    for (i = 0; i < nd; i++) out[i] = th_randint(0, 9) == 0 ? th_randint(0, 1) : th_randint(1, max_dim);
    /* Inputs: fewer dims or size-1 dims where they broadcast. */
    cn = bc == dnnlk_broadcast_none ? nd : (int)th_randint(0, nd);
    an = bc == dnnlk_broadcast_none ? nd : (int)th_randint(0, nd);
    bn = bc == dnnlk_broadcast_none ? nd : (th_randint(0, 1) ? nd : (int)th_randint(0, nd));
    if (bc == dnnlk_broadcast_numpy && an < nd && bn < nd) an = nd; /* one of them spans the output */
    if (inplace == 1) an = nd;
    if (inplace == 2) bn = nd;
    for (i = 0; i < cn; i++) cd[i] = bc == dnnlk_broadcast_numpy && th_randint(0, 2) == 0 ? 1 : out[nd - cn + i];
    for (i = 0; i < an; i++) ad[i] = bc == dnnlk_broadcast_numpy && inplace != 1 && th_randint(0, 3) == 0 ? 1 : out[nd - an + i];
    for (i = 0; i < bn; i++) bd[i] = bc == dnnlk_broadcast_numpy && inplace != 2 && th_randint(0, 3) == 0 ? 1 : out[nd - bn + i];
    /* The broadcast of a and b must give `out`: where both are 1 but out is not, restore one. */
    if (bc == dnnlk_broadcast_numpy) {
        for (i = 0; i < nd; i++) {
            int ia = i - (nd - an), ib = i - (nd - bn);
            int64_t va = ia >= 0 ? ad[ia] : 1, vb = ib >= 0 ? bd[ib] : 1;
            if (va != out[i] && vb != out[i]) {
                if (ia >= 0) ad[ia] = out[i];
                else bd[ib] = out[i];
            }
        }
    }
    random_strides(cn, cd, cs, 1, (int)th_randint(0, 2));
    random_strides(an, ad, as, inplace != 1, inplace == 1 ? (int)th_randint(0, 1) : (int)th_randint(0, 2));
    random_strides(bn, bd, bs, inplace != 2, inplace == 2 ? (int)th_randint(0, 1) : (int)th_randint(0, 2));
    c = make_operand(ct, cn, cd, cs, (size_t)th_randint(0, 63), 1);
    a = make_operand(dt, an, ad, as, (size_t)th_randint(0, 63), 0);
    b = make_operand(dt, bn, bd, bs, (size_t)th_randint(0, 63), 0);
    /* dst: its layout from a mode; the completed one tells how much memory it needs. */
    memset(&d, 0, sizeof d);
    d.dtype = th_randint(0, 4) == 0 ? dnnlk_dtype_undef : dt;
    if (inplace == 1 && an == nd) {
        d = a.t;
    } else if (inplace == 2 && bn == nd) {
        d = b.t;
    } else {
        inplace = 0;
        d.ndims = nd;
        for (i = 0; i < nd; i++) d.dims[i] = th_randint(0, 3) == 0 ? DNNLK_UNKNOWN : out[i];
        if (dmode == 0) {
            d.ndims = DNNLK_UNKNOWN;
        } else if (dmode == 1) {
            for (i = 0; i < nd; i++) d.strides[i] = DNNLK_UNKNOWN;
        } else if (dmode == 2 && nd > 0) {
            int one = (int)th_randint(0, nd - 1);
            for (i = 0; i < nd; i++) d.strides[i] = i == one ? 1 : DNNLK_UNKNOWN;
        } else {
            random_strides(nd, out, ds, 0, dmode == 3 ? 1 : 2);
            for (i = 0; i < nd; i++) d.strides[i] = ds[i];
        }
    }
    dcomplete = d;
    st = dnnlk_select_infer(&c.t, &a.t, &b.t, &dcomplete, bc);
    snprintf(what, sizeof what, "nd %d (c %d a %d b %d) dt %s ct %s bc %d inplace %d dmode %d nt %d", nd, cn, an, bn,
             dnnlk_dtype_name(dt), dnnlk_dtype_name(ct), (int)bc, inplace, dmode, force_nt);
    CHECK_MSG(st == dnnlk_success, "%s: infer %s", what, dnnlk_status_str(st));
    if (st != dnnlk_success) goto done;
    CHECK_MSG(dcomplete.dtype == dt, "%s: dtype", what);
    if (inplace) {
        dop = inplace == 1 ? a : b;
    } else {
        int64_t lo = 0, hi = 0;
        (void)dnnlk__byte_extent(dcomplete.ndims, dcomplete.dims, dcomplete.strides, es, &lo, &hi);
        dop.buf = th_alloc((size_t)(hi - lo), (size_t)th_randint(0, 63));
        fill_random((unsigned char *)dop.buf.p, dop.buf.bytes);
        d.data = dcomplete.data = (char *)dop.buf.p - lo;
        dop.t = dcomplete;
    }
    init = (unsigned char *)malloc(dop.buf.bytes + 1);
    img = (unsigned char *)malloc(dop.buf.bytes + 1);
    memcpy(init, dop.buf.p, dop.buf.bytes);
    memcpy(img, init, dop.buf.bytes);
    {
        /* In-place: the reference reads the original values, from a copy of the input. */
        dnnlk_tensor ra = a.t, rb = b.t;
        unsigned char *orig = (unsigned char *)malloc(dop.buf.bytes + 1);
        memcpy(orig, init, dop.buf.bytes);
        if (inplace == 1) ra.data = (char *)orig + ((char *)a.t.data - (char *)a.buf.p);
        if (inplace == 2) rb.data = (char *)orig + ((char *)b.t.data - (char *)b.buf.p);
        reference(&c.t, &ra, &rb, &dcomplete, img, (int64_t)((char *)dcomplete.data - (char *)dop.buf.p));
        free(orig);
    }
    if (force_nt) *saved = 0;
    for (nth_i = 0; nth_i < 4; nth_i++) {
        dnnlk_tensor dd = d;
        int nth = nths[nth_i];
        memcpy(dop.buf.p, init, dop.buf.bytes);
        if (nth > 1) dd = dcomplete; /* concurrent parts take a complete descriptor */
        st = run_parts(&c.t, &a.t, &b.t, &dd, bc, nth);
        CHECK_MSG(st == dnnlk_success, "%s nth %d: %s", what, nth, dnnlk_status_str(st));
        CHECK_MSG(memcmp(&dd, &dcomplete, sizeof dd) == 0, "%s nth %d: descriptor not completed", what, nth);
        CHECK_MSG(memcmp(dop.buf.p, img, dop.buf.bytes) == 0, "%s nth %d: result differs", what, nth);
        CHECK_MSG(th_guards_ok(&dop.buf), "%s nth %d: guards", what, nth);
    }
    if (!inplace) {
        /* Each part alone: the bytes it writes are those equal after runs on two opposite fills.
         * Parts must write disjoint sets covering exactly the output. */
        int nth = (int)th_randint(2, 5), part;
        unsigned char *owner = (unsigned char *)calloc(dop.buf.bytes + 1, 1), *r0 = (unsigned char *)malloc(dop.buf.bytes + 1);
        size_t j;
        int ok = 1;
        for (part = 0; part < nth; part++) {
            dnnlk_tensor dd = dcomplete;
            memset(dop.buf.p, 0x00, dop.buf.bytes);
            (void)dnnlk_select(&c.t, &a.t, &b.t, &dd, bc, part, nth);
            memcpy(r0, dop.buf.p, dop.buf.bytes);
            memset(dop.buf.p, 0xff, dop.buf.bytes);
            (void)dnnlk_select(&c.t, &a.t, &b.t, &dd, bc, part, nth);
            for (j = 0; j < dop.buf.bytes; j++) {
                if (r0[j] != ((unsigned char *)dop.buf.p)[j]) continue;
                if (owner[j]) ok = 0;
                owner[j] = (unsigned char)(part + 1);
            }
        }
        {
            /* The element bytes: those the reference sets to the same value over either fill. */
            unsigned char *e0 = (unsigned char *)calloc(dop.buf.bytes + 1, 1), *e1 = (unsigned char *)malloc(dop.buf.bytes + 1);
            int64_t base = (int64_t)((char *)dcomplete.data - (char *)dop.buf.p);
            memset(e1, 0xff, dop.buf.bytes);
            reference(&c.t, &a.t, &b.t, &dcomplete, e0, base);
            reference(&c.t, &a.t, &b.t, &dcomplete, e1, base);
            for (j = 0; j < dop.buf.bytes; j++)
                if ((owner[j] != 0) != (e0[j] == e1[j])) ok = 0;
            free(e0), free(e1);
        }
        CHECK_MSG(ok, "%s: parts of %d overlap or miss elements", what, nth);
        free(owner), free(r0);
    }
    *saved = saved_nt;
    free(init);
    free(img);
    if (!inplace) th_free(&dop.buf);
done:
    th_free(&c.buf), th_free(&a.buf), th_free(&b.buf);
}

TEST(random_small_shapes) {
    long n = th_scaled(1500), i;
    th_seed(1000 + (uint64_t)th_isa);
    for (i = 0; i < n; i++) random_case(4, 6, (int)(i & 1));
}

TEST(random_long_rows) {
    long n = th_scaled(300), i;
    th_seed(2000 + (uint64_t)th_isa);
    for (i = 0; i < n; i++) random_case(3, 150, (int)(i & 1));
}

TEST(random_many_dims) {
    long n = th_scaled(150), i;
    th_seed(3000 + (uint64_t)th_isa);
    for (i = 0; i < n; i++) random_case(DNNLK_MAX_NDIMS, 3, (int)(i & 1));
}

/* 1-D rows of every length 0..2*64+3 for every element size, operand kind (contiguous / 0-d
 * scalar, cond included), store kind, and misalignment: the tails and the NT head peel. */
TEST(tails_every_length) {
    int es_i, kinds, nt;
    th_seed(4000 + (uint64_t)th_isa);
    for (es_i = 0; es_i < 4; es_i++) {
        int es = 1 << es_i;
        for (kinds = 0; kinds < 8; kinds++) {
            for (nt = 0; nt < 2; nt++) {
                int64_t len;
                for (len = 0; len <= 2 * 64 + 3; len++) {
                    /* A scalar along the row is a stride-0 view (a 0-d src0 and src1 together
                     * would make a 0-d output). */
                    int64_t st1 = 1, sc = kinds & 1, sa = (kinds >> 1) & 1, sb = (kinds >> 2) & 1;
                    dnnlk_dtype dt = th_data_types[dtype_index_of_size(es)];
                    operand c = make_operand(dnnlk_u8, 1, &len, &sc, (size_t)th_randint(0, 63), 1);
                    operand a = make_operand(dt, 1, &len, &sa, (size_t)th_randint(0, 63), 0);
                    operand b = make_operand(dt, 1, &len, &sb, (size_t)th_randint(0, 63), 0);
                    operand d = make_operand(dt, 1, &len, &st1, (size_t)th_randint(0, 63), 0);
                    unsigned char *img = (unsigned char *)malloc(d.buf.bytes + 1);
                    int64_t *cell = dnnlk__select_nt_cell(), saved = *cell;
                    dnnlk_status st;
                    memcpy(img, d.buf.p, d.buf.bytes);
                    reference(&c.t, &a.t, &b.t, &d.t, img, 0);
                    if (nt) *cell = 0;
                    st = dnnlk_select(&c.t, &a.t, &b.t, &d.t, dnnlk_broadcast_numpy, 0, 1);
                    *cell = saved;
                    CHECK_MSG(st == dnnlk_success, "es %d kinds %d len %lld", es, kinds, (long long)len);
                    CHECK_MSG(memcmp(img, d.buf.p, d.buf.bytes) == 0, "es %d kinds %d nt %d len %lld", es, kinds, nt,
                              (long long)len);
                    CHECK_MSG(th_guards_ok(&d.buf), "guards: es %d kinds %d nt %d len %lld", es, kinds, nt,
                              (long long)len);
                    free(img);
                    th_free(&c.buf), th_free(&a.buf), th_free(&b.buf), th_free(&d.buf);
                }
            }
        }
    }
}

/* The shapes the fast paths are for, small enough for the reference: masked_fill (cond [B,1,1,T],
 * 0-d src1), per-row cond [N,1] against [N,D] for D = 1..40, channels-last data with a per-pixel
 * cond, each for every element size and part count. */
static void check_case(int nd, const int64_t *cdims, int cnd, const int64_t *adims, int and_, const int64_t *bdims,
                       int bnd, const int64_t *dstrides, int es, int force_nt, const char *name) {
    int64_t cs[DNNLK_MAX_NDIMS], as[DNNLK_MAX_NDIMS], bs[DNNLK_MAX_NDIMS];
    dnnlk_dtype dt = th_data_types[dtype_index_of_size(es)];
    operand c, a, b, d;
    unsigned char *img;
    int64_t lo = 0, hi = 0, *cell = dnnlk__select_nt_cell(), saved = *cell;
    static const int nths[4] = {1, 2, 3, 7};
    int k, i;
    dnnlk_dense_strides(cnd, cdims, cs);
    dnnlk_dense_strides(and_, adims, as);
    dnnlk_dense_strides(bnd, bdims, bs);
    if (dstrides) { /* inputs that span the output take dst's layout (channels-last) */
        if (and_ == nd) memcpy(as, dstrides, (size_t)nd * sizeof(int64_t));
        if (bnd == nd) memcpy(bs, dstrides, (size_t)nd * sizeof(int64_t));
    }
    c = make_operand(th_cond_types[th_randint(0, 2)], cnd, cdims, cs, (size_t)th_randint(0, 3), 1);
    a = make_operand(dt, and_, adims, as, (size_t)th_randint(0, 3) * es, 0);
    b = make_operand(dt, bnd, bdims, bs, (size_t)th_randint(0, 3) * es, 0);
    memset(&d, 0, sizeof d);
    d.t.dtype = dt;
    d.t.ndims = DNNLK_UNKNOWN;
    if (dstrides) {
        d.t.ndims = nd;
        for (i = 0; i < nd; i++) d.t.dims[i] = DNNLK_UNKNOWN, d.t.strides[i] = dstrides[i];
    }
    CHECK_EQ(dnnlk_select_infer(&c.t, &a.t, &b.t, &d.t, dnnlk_broadcast_numpy), dnnlk_success);
    (void)dnnlk__byte_extent(d.t.ndims, d.t.dims, d.t.strides, (size_t)es, &lo, &hi);
    d.buf = th_alloc((size_t)(hi - lo), (size_t)th_randint(0, 1) * 32);
    fill_random((unsigned char *)d.buf.p, d.buf.bytes);
    d.t.data = (char *)d.buf.p - lo;
    img = (unsigned char *)malloc(d.buf.bytes + 1);
    memcpy(img, d.buf.p, d.buf.bytes);
    reference(&c.t, &a.t, &b.t, &d.t, img, -lo);
    if (force_nt) *cell = 0;
    for (k = 0; k < 4; k++) {
        memset(d.buf.p, 0x5a, d.buf.bytes);
        CHECK_EQ(run_parts(&c.t, &a.t, &b.t, &d.t, dnnlk_broadcast_numpy, nths[k]), dnnlk_success);
        {
            /* Compare element bytes only (padding holds the 0x5a pattern here). */
            int64_t idx[DNNLK_MAX_NDIMS] = {0}, off;
            int ok = 1;
            for (;;) {
                off = offset_of(&d.t, d.t.ndims, idx) - lo;
                if (memcmp(img + off, (char *)d.buf.p + off, (size_t)es) != 0) ok = 0;
                for (i = d.t.ndims - 1; i >= 0; i--) {
                    if (++idx[i] < d.t.dims[i]) break;
                    idx[i] = 0;
                }
                if (i < 0 || !ok) break;
            }
            CHECK_MSG(ok, "%s es %d nth %d nt %d", name, es, nths[k], force_nt);
            CHECK_MSG(th_guards_ok(&d.buf), "%s es %d nth %d: guards", name, es, nths[k]);
        }
    }
    *cell = saved;
    free(img);
    th_free(&c.buf), th_free(&a.buf), th_free(&b.buf), th_free(&d.buf);
}

TEST(fast_path_shapes) {
    int es_i, nt;
    th_seed(5000 + (uint64_t)th_isa);
    for (es_i = 0; es_i < 4; es_i++) {
        int es = 1 << es_i;
        for (nt = 0; nt < 2; nt++) {
            int64_t x[4] = {2, 3, 16, 72}, cm[4] = {2, 1, 1, 72};
            int64_t D;
            check_case(4, cm, 4, x, 4, NULL, 0, NULL, es, nt, "masked_fill");
            check_case(4, cm, 4, NULL, 0, x, 4, NULL, es, nt, "masked_fill, scalar src0");
            for (D = 1; D <= 40; D++) {
                int64_t nd[2] = {67, D}, c1[2] = {67, 1}, row[1] = {D};
                check_case(2, c1, 2, nd, 2, nd, 2, NULL, es, nt, "per-row cond");
                check_case(2, c1, 2, nd, 2, NULL, 0, NULL, es, nt, "per-row cond, scalar src1");
                check_case(2, c1, 2, row, 1, nd, 2, NULL, es, nt, "per-row cond, row-broadcast src0");
            }
            {
                /* NHWC data (dims N,C,H,W; strides channels-last) with a cond per pixel [N,1,H,W]. */
                int64_t dims[4] = {2, 24, 5, 7}, cl[4] = {24 * 35, 1, 7 * 24, 24}, cp[4] = {2, 1, 5, 7};
                int64_t cc[4] = {1, 24, 1, 1};
                check_case(4, cp, 4, dims, 4, dims, 4, cl, es, nt, "channels-last, per-pixel cond");
                check_case(4, cc, 4, dims, 4, NULL, 0, cl, es, nt, "channels-last, per-channel cond");
                check_case(4, dims, 4, dims, 4, dims, 4, NULL, es, nt, "same shape");
            }
        }
    }
}

/* Size-0 tensors: success, nothing written; broadcasting 0 against 1. */
TEST(empty_tensors) {
    int64_t z[3] = {4, 0, 5}, one[3] = {4, 1, 5}, st[3] = {5, 5, 1};
    operand c = make_operand(dnnlk_boolean, 3, one, st, 0, 1);
    operand a = make_operand(dnnlk_f32, 3, z, st, 0, 0);
    operand b = make_operand(dnnlk_f32, 3, one, st, 0, 0);
    th_buf guard = th_alloc(0, 0);
    dnnlk_tensor d = unknown_out(dnnlk_f32);
    d.data = guard.p;
    CHECK_EQ(dnnlk_select(&c.t, &a.t, &b.t, &d, dnnlk_broadcast_numpy, 0, 1), dnnlk_success);
    CHECK_EQ(d.ndims, 3);
    CHECK_EQ(d.dims[1], 0);
    CHECK(th_guards_ok(&guard));
    d = unknown_out(dnnlk_f32);
    a.t.data = NULL; /* an empty tensor needs no data */
    CHECK_EQ(dnnlk_select(&c.t, &a.t, &b.t, &d, dnnlk_broadcast_numpy, 1, 3), dnnlk_success);
    th_free(&guard);
    th_free(&c.buf), th_free(&a.buf), th_free(&b.buf);
}

/* A large case over the non-temporal threshold, as it is by default, against the reference. */
TEST(large_default_threshold) {
    int64_t n = (*dnnlk__select_nt_cell()) / 4 + 1000 + 3, st = 1;
    operand c = make_operand(dnnlk_u8, 1, &n, &st, 3, 1);
    operand a = make_operand(dnnlk_f32, 1, &n, &st, 4, 0);
    operand b = make_operand(dnnlk_f32, 1, &n, &st, 8, 0);
    operand d = make_operand(dnnlk_f32, 1, &n, &st, 12, 0);
    unsigned char *img = (unsigned char *)malloc(d.buf.bytes);
    memcpy(img, d.buf.p, d.buf.bytes);
    reference(&c.t, &a.t, &b.t, &d.t, img, 0);
    CHECK_EQ(run_parts(&c.t, &a.t, &b.t, &d.t, dnnlk_broadcast_numpy, 2), dnnlk_success);
    CHECK(memcmp(img, d.buf.p, d.buf.bytes) == 0);
    CHECK(th_guards_ok(&d.buf));
    free(img);
    th_free(&c.buf), th_free(&a.buf), th_free(&b.buf), th_free(&d.buf);
}

/* ---- recorded bits: every level's output bytes against bits recorded on the unchanged code ----
 *
 * Fixed inputs (not the harness's random state), each case for every element size, with regular
 * and with non-temporal stores (threshold cell 0 / never), run as 1, 3 and 7 parts: the hash of
 * dst's whole buffer (elements, the padding between them and 64 bytes past the end) must be the
 * one recorded from 8f1051f (before the body moved onto the vector layer) on every level.
 * DNNLK_TEST_RECORD=1 prints the table instead of checking it. */

typedef struct rb_case {
    const char *name;
    int nd;
    int64_t dims[4];            /* dst */
    int cnd, and_, bnd;         /* operand ranks, right-aligned against dims (0: a 0-d scalar) */
    int64_t cdims[4], adims[4], bdims[4];
    int cpitch;                 /* >1: cond's strides times this (a cond that is not dense) */
    int aflip, bstep;           /* src0's innermost stride times -2; src1's strides times bstep */
    int channels_last;          /* 4-D dst (and the inputs that span it) channels-last */
    int inplace;                /* dst is src0 */
    int amis;                   /* src0 this many bytes past its base (misaligned for es > 1) */
    int dmis;                   /* dst this many elements past a 64-byte boundary, plus 1 byte if < 0 */
} rb_case;

static const rb_case rb_cases[] = {
    {"same shape, odd length", 1, {4099}, 1, 1, 1, {4099}, {4099}, {4099}, 0, 0, 0, 0, 0, 0, 3},
    {"same shape, dst and src0 misaligned", 1, {4099}, 1, 1, 1, {4099}, {4099}, {4099}, 0, 0, 0, 0, 0, 1, -1},
    {"scalar src0 (0-d)", 1, {1031}, 1, 0, 1, {1031}, {0}, {1031}, 0, 0, 0, 0, 0, 0, 5},
    {"scalar src1, cond 2-D", 2, {7, 150}, 2, 2, 0, {7, 150}, {7, 150}, {0}, 0, 0, 0, 0, 0, 0, 1},
    {"masked_fill [2,1,1,72] vs [2,3,16,72]", 4, {2, 3, 16, 72}, 4, 4, 0, {2, 1, 1, 72}, {2, 3, 16, 72}, {0}, 0, 0, 0, 0, 0, 0, 2},
    {"per-row cond [67,1], D 5 (expanded)", 2, {67, 5}, 2, 2, 2, {67, 1}, {67, 5}, {67, 5}, 0, 0, 0, 0, 0, 0, 7},
    {"per-row cond [67,1], D 13, scalar src1", 2, {67, 13}, 2, 2, 0, {67, 1}, {67, 13}, {0}, 0, 0, 0, 0, 0, 0, 0},
    {"per-row cond [67,1], D 40", 2, {67, 40}, 2, 2, 2, {67, 1}, {67, 40}, {67, 40}, 0, 0, 0, 0, 0, 0, 9},
    {"per-row cond, cond not dense", 2, {67, 6}, 2, 2, 2, {67, 1}, {67, 6}, {67, 6}, 3, 0, 0, 0, 0, 0, 1},
    {"per-row cond, row-broadcast src0", 2, {67, 11}, 2, 1, 2, {67, 1}, {11}, {67, 11}, 0, 0, 0, 0, 0, 0, 0},
    {"per-row cond, long rows", 2, {9, 333}, 2, 2, 0, {9, 1}, {9, 333}, {0}, 0, 0, 0, 0, 0, 0, 3},
    {"scalar cond (0-d)", 1, {1029}, 0, 1, 1, {0}, {1029}, {1029}, 0, 0, 0, 0, 0, 0, 1},
    {"channels-last, per-pixel cond", 4, {2, 24, 5, 7}, 4, 4, 4, {2, 1, 5, 7}, {2, 24, 5, 7}, {2, 24, 5, 7}, 0, 0, 0, 1, 0, 0, 0},
    {"channels-last, per-channel cond", 4, {2, 24, 5, 7}, 4, 4, 0, {1, 24, 1, 1}, {2, 24, 5, 7}, {0}, 0, 0, 0, 1, 0, 0, 4},
    {"strided: src0 stride -2, src1 stride 2", 2, {5, 301}, 2, 2, 2, {5, 301}, {5, 301}, {5, 301}, 0, 1, 2, 0, 0, 0, 0},
    {"in place (dst is src0)", 1, {2053}, 1, 1, 1, {2053}, {2053}, {2053}, 0, 0, 0, 0, 1, 0, 0},
};
#define RB_CASES (int)(sizeof rb_cases / sizeof rb_cases[0])
#define RB_BYTES (160 * 1024)

static unsigned char rb_cond[RB_BYTES], rb_a[RB_BYTES], rb_b[RB_BYTES], rb_out[RB_BYTES];

static uint32_t rb_mix(uint32_t x) {
    x ^= x >> 16, x *= 0x7feb352dU, x ^= x >> 15, x *= 0x846ca68bU, x ^= x >> 16;
    return x;
}

/* Data bytes from a hash of the index; cond bytes in runs of 97: all false, all true (any nonzero
 * byte), or mixed, so that whole vectors of one kind occur as well as mixed ones. */
static void rb_fill(void) {
    uint32_t i;
    for (i = 0; i < RB_BYTES; i++) {
        uint32_t h = rb_mix(i * 2654435761U + 12345U), run = (i / 97) % 4;
        rb_a[i] = (unsigned char)h;
        rb_b[i] = (unsigned char)(h >> 8);
        rb_cond[i] = run == 0 ? 0 : run == 1 ? (unsigned char)((h >> 16) | 1) : (h >> 24) & 1 ? 0 : (unsigned char)(h >> 16 | 2);
    }
}

/* An input view of the case: rank nd right-aligned dims; dense strides times `mul`, the innermost
 * flipped if `flip`; channels-last when it spans a channels-last dst. Data at arr + off - lo. */
static dnnlk_tensor rb_input(const rb_case *k, unsigned char *arr, dnnlk_dtype dt, int nd, const int64_t *dims,
                             int mul, int flip, int off) {
    dnnlk_tensor t = th_tensor(NULL, dt, nd, dims);
    int64_t lo = 0, hi = 0;
    int i;
    if (k->channels_last && nd == 4) {
        t.strides[1] = 1, t.strides[3] = dims[1], t.strides[2] = dims[1] * dims[3], t.strides[0] = dims[1] * dims[2] * dims[3];
    }
    for (i = 0; i < nd; i++) t.strides[i] *= mul > 1 ? mul : 1;
    if (flip && nd > 0) t.strides[nd - 1] *= -2; /* -1 would read as DNNLK_UNKNOWN */
    (void)dnnlk__byte_extent(nd, t.dims, t.strides, dnnlk_dtype_size(dt), &lo, &hi);
    CHECK(hi - lo + off <= RB_BYTES);
    t.data = arr + off - lo;
    return t;
}

static uint64_t rb_run(const rb_case *k, int es, int nt) {
    static const dnnlk_dtype dts[4] = {dnnlk_u8, dnnlk_bf16, dnnlk_f32, dnnlk_f64};
    static const dnnlk_dtype cts[3] = {dnnlk_boolean, dnnlk_u8, dnnlk_s8};
    static const int nths[3] = {1, 3, 7};
    dnnlk_dtype dt = dts[es == 1 ? 0 : es == 2 ? 1 : es == 4 ? 2 : 3];
    dnnlk_tensor c, a, b, d;
    int64_t lo = 0, hi = 0, span, *cell = dnnlk__select_nt_cell(), saved = *cell;
    size_t base;
    uint64_t h = 0xcbf29ce484222325ull;
    int p, i;
    dnnlk_tensor a0;
    c = rb_input(k, rb_cond, cts[(k - rb_cases) % 3], k->cnd, k->cdims, k->cpitch, 0, 0);
    a = rb_input(k, rb_a, dt, k->and_, k->adims, 1, k->aflip, k->amis);
    b = rb_input(k, rb_b, dt, k->bnd, k->bdims, k->bstep, 0, 0);
    memset(&d, 0, sizeof d);
    d.dtype = dt;
    d.ndims = DNNLK_UNKNOWN;
    if (k->channels_last) {
        d = th_tensor(NULL, dt, 4, k->dims);
        d.strides[1] = 1, d.strides[3] = k->dims[1], d.strides[2] = k->dims[1] * k->dims[3];
        d.strides[0] = k->dims[1] * k->dims[2] * k->dims[3];
    }
    CHECK_MSG(dnnlk_select_infer(&c, &a, &b, &d, dnnlk_broadcast_numpy) == dnnlk_success, "%s: infer", k->name);
    (void)dnnlk__byte_extent(d.ndims, d.dims, d.strides, (size_t)es, &lo, &hi);
    base = k->dmis < 0 ? 64 + 1 : 64 + (size_t)k->dmis * (size_t)es;
    span = (int64_t)base + (hi - lo) + 64;
    CHECK(span <= RB_BYTES);
    d.data = rb_out + base - lo;
    a0 = a;
    *cell = nt ? 0 : INT64_MAX;
    for (p = 0; p < 3; p++) {
        memset(rb_out, 0xa5, (size_t)span);
        if (k->inplace) {
            for (i = 0; i < hi - lo; i++) rb_out[base + (size_t)i] = rb_a[i];
            a.data = d.data;
        }
        CHECK_EQ(run_parts(&c, &a, &b, &d, dnnlk_broadcast_numpy, nths[p]), dnnlk_success);
        h = th_fnv1a_from(h, rb_out, (size_t)span);
        if (p == 0) {
            /* the plain reference over the same starting image: the table cannot hold a wrong result */
            unsigned char *img = (unsigned char *)malloc((size_t)span);
            memset(img, 0xa5, (size_t)span);
            reference(&c, &a0, &b, &d, img, (int64_t)base - lo);
            CHECK_MSG(memcmp(img, rb_out, (size_t)span) == 0, "%s es %d nt %d: reference differs", k->name, es, nt);
            free(img);
        }
    }
    *cell = saved;
    return h;
}

TEST(select_bits_match_recorded) {
    /* Recorded from 8f1051f, every level the same: [case][es 1, 2, 4, 8] with regular then
     * non-temporal stores folded in. */
    static const uint64_t recorded[][4] = {
        /* same shape, odd length                   */ {0x7d80f6368c5e0c6cull, 0x3dead9bdec91b6e4ull, 0xb073e4cc717fbcb8ull, 0x85365e2bd7d6986aull},
        /* same shape, dst and src0 misaligned      */ {0x45f24bb546039245ull, 0xe2817cc0c76990d9ull, 0x349871d821305341ull, 0x90fb9060f97805d3ull},
        /* scalar src0 (0-d)                        */ {0x8b33108695c474a1ull, 0xec243f1a455786e7ull, 0xfb40a70da0b3ce40ull, 0x3b804b9f2da8e3c8ull},
        /* scalar src1, cond 2-D                    */ {0x5fe71cfb3332c935ull, 0x2b4286f97aade1abull, 0xda8636680e18678bull, 0x05245871ba172814ull},
        /* masked_fill [2,1,1,72] vs [2,3,16,72]    */ {0x8f05c9bba7680e5full, 0x1f6baca3449315aeull, 0x8a50c1b8a0e8e1b5ull, 0x396d94bb743e69c6ull},
        /* per-row cond [67,1], D 5 (expanded)      */ {0xf9c9ac23f0b2276full, 0xcdf2f4dc9fdd0afdull, 0x3cca5d07cb60f30eull, 0xb0a4a895ac5fed72ull},
        /* per-row cond [67,1], D 13, scalar src1   */ {0xac4344e89c637e63ull, 0x0ad06dfaadfd56b3ull, 0x591daa2004665ae3ull, 0x84e2499574d97ec7ull},
        /* per-row cond [67,1], D 40                */ {0xb0121a0fcb896fb5ull, 0x8f099b82cf2a47e5ull, 0x37b1dad0a6a3ddcdull, 0xe2bb9d8b345e22bfull},
        /* per-row cond, cond not dense             */ {0xffcc2b78f1e59590ull, 0xc37ec2fadfc3c3e5ull, 0x84c2a90aacfa7daaull, 0xf51fe2e0c7c375d1ull},
        /* per-row cond, row-broadcast src0         */ {0x6184149dacac90baull, 0x83f2343720507accull, 0x8b8a400fab9d70e1ull, 0x184ea0f4ed7bef2cull},
        /* per-row cond, long rows                  */ {0x8329cfcda0271a92ull, 0xb0333d39558d82a5ull, 0x3c1b960f97741e49ull, 0xb40b40ddfdad04cdull},
        /* scalar cond (0-d)                        */ {0x95ebfe0074d484bcull, 0x8035de145be640d3ull, 0xc1cc5db0ea0cbca6ull, 0xf48fd2c565b03336ull},
        /* channels-last, per-pixel cond            */ {0xd1c62ea649d1966bull, 0x44e8f90953a5fabdull, 0x9e57b6d9f8a93235ull, 0xc10d908a9b61f125ull},
        /* channels-last, per-channel cond          */ {0x595f21670f09e6a7ull, 0xc4fb5ae6a0a24db7ull, 0xbaad844272e5a51eull, 0xa64b4343386f9cf4ull},
        /* strided: src0 stride -2, src1 stride 2   */ {0x666792ea31b716edull, 0x2405c437386ee95cull, 0x38a274a99ba2c732ull, 0xfaed6c936f2db0f0ull},
        /* in place (dst is src0)                   */ {0x7c98fe8344b51c4aull, 0xc3ae3b1f7f7fbdb3ull, 0x4c4d507567f48f94ull, 0x968e824f3ceb8facull},
    };
    int record = getenv("DNNLK_TEST_RECORD") && atoi(getenv("DNNLK_TEST_RECORD"));
    int top = 0, l, k, e;
    uint64_t got[RB_CASES][4][4];
    int ran[4] = {0, 0, 0, 0};
    rb_fill();
    for (l = 0; l <= (int)dnnlk_cpu_isa(); l++) {
        int at;
        dnnlk_set_max_isa((dnnlk_isa)l);
        at = (int)dnnlk_max_isa();
        ran[at] = 1;
        if (at > top) top = at;
        for (k = 0; k < RB_CASES; k++) {
            for (e = 0; e < 4; e++) {
                uint64_t streamed = rb_run(&rb_cases[k], 1 << e, 1);
                got[k][e][at] = th_fnv1a_from(rb_run(&rb_cases[k], 1 << e, 0), &streamed, sizeof streamed);
            }
        }
    }
    dnnlk_set_max_isa(dnnlk_isa_avx512);
    if (record) {
        for (k = 0; k < RB_CASES; k++) {
            printf("        /* %-40s */ {", rb_cases[k].name);
            for (e = 0; e < 4; e++) printf("0x%016llxull%s", (unsigned long long)got[k][e][top], e < 3 ? ", " : "},\n");
            for (e = 0; e < 4; e++)
                for (l = 0; l < 4; l++)
                    if (ran[l] && got[k][e][l] != got[k][e][top]) printf("  (!) %s es %d: %s differs\n", rb_cases[k].name, 1 << e, dnnlk_isa_name((dnnlk_isa)l));
        }
        SKIP("DNNLK_TEST_RECORD: printed the table instead of checking it");
    }
    CHECK_EQ((int)(sizeof recorded / sizeof recorded[0]), RB_CASES);
    for (k = 0; k < RB_CASES; k++)
        for (e = 0; e < 4; e++)
            for (l = 0; l < 4; l++)
                if (ran[l])
                    CHECK_MSG(got[k][e][l] == recorded[k][e], "%s es %d on %s: %016llx, recorded %016llx", rb_cases[k].name,
                              1 << e, dnnlk_isa_name((dnnlk_isa)l), (unsigned long long)got[k][e][l],
                              (unsigned long long)recorded[k][e]);
}

int main(void) {
    RUN(infer_rfc_examples);
    RUN(infer_none_and_output_layouts);
    RUN(dtypes);
    RUN(bad_arguments_write_nothing);
    RUN(empty_tensors);
    RUN_EACH_ISA(tails_every_length);
    RUN_EACH_ISA(fast_path_shapes);
    RUN_EACH_ISA(random_small_shapes);
    RUN_EACH_ISA(random_long_rows);
    RUN_EACH_ISA(random_many_dims);
    RUN_EACH_ISA(large_default_threshold);
    RUN(select_bits_match_recorded);
    return th_summary();
}
