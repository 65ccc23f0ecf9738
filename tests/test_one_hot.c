/* one_hot.h against a plain reference on every ISA and part count: random index shapes and
 * strides, every axis, every dst dtype, dense and strided/padded dst layouts, misaligned dst,
 * in-range, negative (wrapping) and out-of-range indices, the non-temporal size; hand-computed
 * cases; every bad argument. */
#include "harness.h"

static const dnnlk_dtype dts[9] = {dnnlk_f32, dnnlk_bf16, dnnlk_f16, dnnlk_f64, dnnlk_s32,
                                   dnnlk_s64, dnnlk_s8, dnnlk_u8, dnnlk_boolean};
static const int parts[4] = {1, 2, 3, 7};

static void run_case(int r, const int64_t *idims, int64_t depth, int axis, dnnlk_dtype dt, dnnlk_dtype it, int dense,
                     int nth) {
    size_t es = dnnlk_dtype_size(dt), ies = dnnlk_dtype_size(it);
    int64_t istr[DNNLK_MAX_NDIMS], ioff, ispan, odims[DNNLK_MAX_NDIMS], ostr[DNNLK_MAX_NDIMS], ooff = 0, ospan, n, f;
    int ax = axis < 0 ? axis + r + 1 : axis, i, ith, use_default = th_rand32() % 4 == 0;
    unsigned char on[8], off[8], *expect;
    th_buf ib, ob;
    dnnlk_tensor ti, to;
    dnnlk_status st = dnnlk_success;
    int ok = 1;
    for (i = 0; i < 8; i++) on[i] = (unsigned char)th_rand32(), off[i] = (unsigned char)th_rand32();
    if (use_default) {
        memset(off, 0, 8);
        memset(on, 0, 8);
        switch (dt) {
        case dnnlk_f32: { float v = 1; memcpy(on, &v, 4); } break;
        case dnnlk_f64: { double v = 1; memcpy(on, &v, 8); } break;
        case dnnlk_bf16: { uint16_t h = dnnlk_f32_to_bf16(1.0f); memcpy(on, &h, 2); } break;
        case dnnlk_f16: { uint16_t h = dnnlk_f32_to_f16(1.0f); memcpy(on, &h, 2); } break;
        case dnnlk_s32: { int32_t v = 1; memcpy(on, &v, 4); } break;
        case dnnlk_s64: { int64_t v = 1; memcpy(on, &v, 8); } break;
        default: on[0] = 1; break;
        }
    }
    /* indices */
    ispan = th_random_layout(r, idims, istr, 1, &ioff);
    if (th_numel(r, idims) == 0) ispan = 0;
    ib = th_alloc((size_t)ispan * ies, ies * (th_rand32() % 3));
    for (f = 0; f < ispan; f++) {
        int64_t v;
        uint32_t c = th_rand32() % 16;
        if (c < 10) v = th_randint(0, depth - 1);
        else if (c < 13) v = th_randint(-depth, -1);
        else if (c == 13) v = th_randint(depth, depth + 3);
        else if (c == 14) v = th_randint(-depth - 3, -depth - 1);
        else v = it == dnnlk_s64 ? (th_rand32() % 2 ? INT64_MIN : INT64_MAX) : (th_rand32() % 2 ? INT32_MIN : INT32_MAX);
        if (it == dnnlk_s64) memcpy((char *)ib.p + f * 8, &v, 8);
        else { int32_t v32 = (int32_t)v; memcpy((char *)ib.p + f * 4, &v32, 4); }
    }
    memset(&ti, 0, sizeof ti);
    ti.data = (char *)ib.p + ioff * (int64_t)ies;
    ti.dtype = it;
    ti.ndims = r;
    memcpy(ti.dims, idims, (size_t)r * 8);
    memcpy(ti.strides, istr, (size_t)r * 8);
    /* dst */
    for (i = 0; i <= r; i++) odims[i] = i < ax ? idims[i] : (i == ax ? depth : idims[i - 1]);
    memset(&to, 0, sizeof to);
    to.dtype = dt;
    to.ndims = r + 1;
    memcpy(to.dims, odims, (size_t)(r + 1) * 8);
    n = th_numel(r + 1, odims);
    if (dense) {
        dnnlk_dense_strides(r + 1, odims, ostr);
        for (i = 0; i <= r; i++) to.strides[i] = DNNLK_UNKNOWN;
        if (th_rand32() % 2) to.ndims = DNNLK_UNKNOWN;
        ospan = n > 0 ? n : 1;
    } else {
        ospan = th_random_layout(r + 1, odims, ostr, 0, &ooff);
        memcpy(to.strides, ostr, (size_t)(r + 1) * 8);
    }
    ob = th_alloc((size_t)ospan * es, th_rand32() % 3 == 0 ? th_rand32() % 8 : es * (th_rand32() % 8));
    to.data = (char *)ob.p + ooff * (int64_t)es;
    expect = (unsigned char *)malloc((size_t)ospan * es + 1);
    memset(expect, TH_GUARD_BYTE, (size_t)ospan * es + 1);
    for (f = 0; f < n; f++) {
        /* position in dst -> index position and line position */
        int64_t pos[DNNLK_MAX_NDIMS], rem = f, ipos = 0, v, h;
        for (i = r; i >= 0; i--) pos[i] = rem % odims[i], rem /= odims[i];
        for (i = 0; i <= r; i++)
            if (i != ax) ipos += pos[i] * istr[i < ax ? i : i - 1];
        if (it == dnnlk_s64) memcpy(&v, (char *)ti.data + ipos * 8, 8);
        else { int32_t v32; memcpy(&v32, (char *)ti.data + ipos * 4, 4); v = v32; }
        h = (v >= -depth && v < depth) ? (v < 0 ? v + depth : v) : -1;
        memcpy(expect + (ooff + th_offset(r + 1, odims, ostr, f)) * (int64_t)es, h == pos[ax] ? on : off, es);
    }
    for (ith = 0; ith < nth; ith++) {
        dnnlk_tensor t2 = to;
        st = dnnlk_one_hot(&ti, depth, axis, use_default ? NULL : on, use_default ? NULL : off, &t2, ith, nth);
        if (st != dnnlk_success) ok = 0;
        if (st == dnnlk_success && dense && (t2.ndims != r + 1 || memcmp(t2.strides, ostr, (size_t)(r + 1) * 8))) ok = 0;
    }
    ok = ok && memcmp(ob.p, expect, (size_t)ospan * es) == 0 && th_guards_ok(&ob);
    CHECK_MSG(ok, "one_hot r=%d depth=%lld axis=%d %s idx=%s dense=%d nth=%d st=%s", r, (long long)depth, axis,
              dnnlk_dtype_name(dt), dnnlk_dtype_name(it), dense, nth, dnnlk_status_str(st));
    free(expect);
    th_free(&ib);
    th_free(&ob);
}

TEST(random_each_isa) {
    static const int64_t depths[] = {1, 2, 3, 5, 7, 8, 16, 17, 33, 64, 100, 257, 1000};
    long cases = th_scaled(1500), c;
    th_seed(0xabc);
    for (c = 0; c < cases; c++) {
        int r = (int)th_randint(0, 3), i, axis;
        int64_t idims[DNNLK_MAX_NDIMS], depth = depths[th_rand32() % 13];
        for (i = 0; i < r; i++) idims[i] = th_rand32() % 4 ? th_randint(1, 9) : th_randint(0, 70);
        if (depth >= 100)
            for (i = 0; i < r; i++) idims[i] = idims[i] > 6 ? 6 : idims[i];
        axis = th_rand32() % 2 ? -1 : (int)th_randint(-(r + 1), r);
        run_case(r, idims, depth, axis, dts[th_rand32() % 9], th_rand32() % 2 ? dnnlk_s32 : dnnlk_s64,
                 th_rand32() % 3 != 0, parts[th_rand32() % 4]);
    }
}

/* Above DNNLK_ONE_HOT_NT_BYTES per part: the non-temporal stores. */
TEST(large_each_isa) {
    int64_t idims[1] = {1100};
    th_seed(5);
    run_case(1, idims, 1000, -1, dnnlk_f32, dnnlk_s64, 1, 1);
    run_case(1, idims, 1000, 1, dnnlk_u8, dnnlk_s32, 1, 1);
    run_case(1, idims, 1000, -1, dnnlk_f64, dnnlk_s32, 1, 2);
}

TEST(hand_cases_each_isa) {
    int64_t idx[4] = {1, -1, 3, 5}, d4 = 4, od[2] = {4, 4};
    float out[16], on = 5.0f, off = -0.5f;
    static const float want[16] = {-0.5f, 5, -0.5f, -0.5f, -0.5f, -0.5f, -0.5f, 5,
                                    -0.5f, -0.5f, -0.5f, 5,    -0.5f, -0.5f, -0.5f, -0.5f};
    dnnlk_tensor ti = th_tensor(idx, dnnlk_s64, 1, &d4), to = th_tensor(out, dnnlk_f32, 2, od);
    int i, j;
    CHECK_EQ(dnnlk_one_hot(&ti, 4, -1, &on, &off, &to, 0, 1), dnnlk_success);
    for (i = 0; i < 16; i++) CHECK(out[i] == want[i]);
    /* axis 0: the transpose */
    CHECK_EQ(dnnlk_one_hot(&ti, 4, 0, &on, &off, &to, 0, 1), dnnlk_success);
    for (i = 0; i < 4; i++)
        for (j = 0; j < 4; j++) CHECK(out[i * 4 + j] == want[j * 4 + i]);
    /* defaults, boolean, a 0-d index */
    {
        int32_t z = -2;
        unsigned char b[3];
        int64_t d3 = 3;
        dnnlk_tensor zi = th_tensor(&z, dnnlk_s32, 0, &d3), zo = th_tensor(b, dnnlk_boolean, 1, &d3);
        CHECK_EQ(dnnlk_one_hot(&zi, 3, 0, NULL, NULL, &zo, 0, 1), dnnlk_success);
        CHECK(b[0] == 0 && b[1] == 1 && b[2] == 0);
    }
}

TEST(infer_shapes) {
    int64_t id[2] = {3, 5};
    dnnlk_tensor ti = th_tensor(NULL, dnnlk_s32, 2, id), to;
    memset(&to, 0, sizeof to);
    to.dtype = dnnlk_f32;
    to.ndims = DNNLK_UNKNOWN;
    CHECK_EQ(dnnlk_one_hot_infer(&ti, 10, -1, &to), dnnlk_success);
    CHECK(to.ndims == 3 && to.dims[0] == 3 && to.dims[1] == 5 && to.dims[2] == 10 && to.strides[0] == 50);
    to.ndims = DNNLK_UNKNOWN;
    CHECK_EQ(dnnlk_one_hot_infer(&ti, 10, 1, &to), dnnlk_success);
    CHECK(to.dims[1] == 10 && to.dims[2] == 5 && to.strides[1] == 5);
    to.ndims = DNNLK_UNKNOWN;
    CHECK_EQ(dnnlk_one_hot_infer(&ti, 10, -3, &to), dnnlk_success);
    CHECK(to.dims[0] == 10 && to.dims[1] == 3);
}

TEST(bad_arguments) {
    int32_t idx[6] = {0, 1, 2, 0, 1, 2};
    th_buf ob = th_alloc(6 * 4 * 4, 0);
    int64_t id[2] = {2, 3}, od[3] = {2, 3, 4};
    float on = 1, off = 0;
    int c;
    for (c = 0; c < 19; c++) {
        dnnlk_tensor ti = th_tensor(idx, dnnlk_s32, 2, id), to = th_tensor(ob.p, dnnlk_f32, 3, od), t0;
        int64_t depth = 4;
        int axis = -1, ith = 0, nth = 1, infer = 0;
        dnnlk_status want = dnnlk_invalid_arguments, st = dnnlk_success;
        const dnnlk_tensor *pi = &ti;
        dnnlk_tensor *po = &to;
        size_t i;
        int untouched = 1;
        memset(ob.p, TH_GUARD_BYTE, ob.bytes);
        switch (c) {
        case 0: pi = NULL; break;
        case 1: po = NULL; break;
        case 2: depth = 0; break;
        case 3: depth = -3; break;
        case 4: axis = 3; break;
        case 5: axis = -4; break;
        case 6: ti.dtype = dnnlk_f32; want = dnnlk_invalid_data_type; break;
        case 7: ti.dtype = dnnlk_u8; want = dnnlk_invalid_data_type; break;
        case 8: to.dims[2] = 5; want = dnnlk_invalid_shape; break;
        case 9: to.ndims = 2; want = dnnlk_invalid_shape; break;
        case 10: ith = 1; break;
        case 11: nth = 0; break;
        case 12: to.data = idx; break; /* overlaps the indices */
        case 13: to.data = NULL; break;
        case 14: ti.data = NULL; break;
        case 15: to.dtype = (dnnlk_dtype)99; want = dnnlk_invalid_data_type; break;
        case 16: ti.dims[0] = -1; want = dnnlk_invalid_shape; break;
        case 17: to.strides[0] = 0; break; /* dst overlapping itself */
        case 18: infer = 1; depth = 0; break;
        }
        t0 = to;
        st = infer ? dnnlk_one_hot_infer(pi, depth, axis, po) : dnnlk_one_hot(pi, depth, axis, &on, &off, po, ith, nth);
        for (i = 0; i < ob.bytes; i++) untouched &= ((unsigned char *)ob.p)[i] == TH_GUARD_BYTE;
        CHECK_MSG(st == want && untouched && th_guards_ok(&ob) && memcmp(&t0, &to, sizeof to) == 0, "case %d: %s", c,
                  dnnlk_status_str(st));
    }
    {
        /* rank 12 indices: dst would need 13 dims */
        int64_t d12[12] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
        dnnlk_tensor ti = th_tensor(idx, dnnlk_s32, 12, d12), to;
        memset(&to, 0, sizeof to);
        to.dtype = dnnlk_f32;
        to.ndims = DNNLK_UNKNOWN;
        CHECK_EQ(dnnlk_one_hot_infer(&ti, 4, -1, &to), dnnlk_invalid_shape);
        CHECK_EQ(to.ndims, DNNLK_UNKNOWN);
    }
    th_free(&ob);
}

int main(void) {
    RUN(infer_shapes);
    RUN(bad_arguments);
    RUN_EACH_ISA(hand_cases_each_isa);
    RUN_EACH_ISA(random_each_isa);
    RUN_EACH_ISA(large_each_isa);
    return th_summary();
}
