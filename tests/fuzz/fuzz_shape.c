/* libFuzzer target for shape and stride inference (built and run for a bounded time by `make test`
 * with clang). It feeds arbitrary ranks, dims and strides — huge, negative, unknown — and checks
 * the invariants the kernels rely on, not only the absence of crashes:
 *   - deduced strides keep every given stride, never make elements overlap, and fit int64;
 *   - a numpy broadcast result is something both inputs broadcast to one-way;
 *   - completing an output either fails and writes nothing, or yields the inferred dims;
 *   - for small shapes, the loop engine visits numel elements, each once. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../dnnl_kernels.h"

#include "fuzz_reader.h"

/* Mostly small values, sometimes unknown, negative, or near the int64 limits. */
static int64_t rd_dim(reader *r) {
    uint8_t k = rd8(r);
    switch (k >> 5) {
    case 0: return DNNLK_UNKNOWN;
    case 1: return -(int64_t)(k & 31) - 2;
    case 2: { uint64_t v = 0; int i; for (i = 0; i < 8; i++) v = (v << 8) | rd8(r); return (int64_t)v; }
    case 3: return (int64_t)((uint64_t)1 << (k & 63)); /* 1 << 63 is INT64_MIN */
    default: return k & 15;
    }
}

static int rd_ndims(reader *r) {
    uint8_t k = rd8(r);
    return k < 240 ? k % (DNNLK_MAX_NDIMS + 1) : (k & 1 ? -1 : DNNLK_MAX_NDIMS + 1 + (k & 7));
}

static void check_deduce(reader *r) {
    int n = rd_ndims(r), i;
    int64_t dims[DNNLK_MAX_NDIMS + 8], s[DNNLK_MAX_NDIMS + 8], before[DNNLK_MAX_NDIMS + 8];
    for (i = 0; i < DNNLK_MAX_NDIMS + 8; i++) {
        dims[i] = rd_dim(r);
        s[i] = rd_dim(r);
    }
    memcpy(before, s, sizeof s);
    if (dnnlk_deduce_strides(n, dims, s) == dnnlk_success) {
        int64_t numel, lo, hi;
        REQUIRE(n >= 0 && n <= DNNLK_MAX_NDIMS);
        for (i = 0; i < n; i++) {
            REQUIRE(s[i] != DNNLK_UNKNOWN || dims[i] <= 1);
            if (before[i] != DNNLK_UNKNOWN) REQUIRE(s[i] == before[i]);
        }
        REQUIRE(dnnlk_shape_numel(n, dims, &numel) == dnnlk_success);
        REQUIRE(dnnlk__layout_self_overlaps(n, dims, s) == 0);
        (void)dnnlk__byte_extent(n, dims, s, 1, &lo, &hi);
    } else {
        REQUIRE(memcmp(before, s, sizeof s) == 0);
    }
}

static void check_broadcast(reader *r) {
    int na = rd_ndims(r), nb = rd_ndims(r), no = -7, i;
    int64_t a[DNNLK_MAX_NDIMS + 8], b[DNNLK_MAX_NDIMS + 8], out[DNNLK_MAX_NDIMS];
    for (i = 0; i < DNNLK_MAX_NDIMS + 8; i++) {
        a[i] = rd_dim(r);
        b[i] = rd8(r) & 1 ? a[i] : rd_dim(r);
    }
    if (dnnlk_broadcast_shapes(na, a, nb, b, &no, out) == dnnlk_success) {
        REQUIRE(no == (na > nb ? na : nb));
        REQUIRE(dnnlk_broadcast_oneway(na, a, no, out) == dnnlk_success);
        REQUIRE(dnnlk_broadcast_oneway(nb, b, no, out) == dnnlk_success);
    } else {
        REQUIRE(no == -7);
    }
}

static void check_complete(reader *r) {
    int n = rd_ndims(r), i;
    int64_t dims[DNNLK_MAX_NDIMS + 8];
    dnnlk_tensor out, done, keep;
    memset(&out, 0, sizeof out);
    out.dtype = (dnnlk_dtype)(rd8(r) % 10);
    out.ndims = rd8(r) & 1 ? DNNLK_UNKNOWN : rd_ndims(r);
    for (i = 0; i < DNNLK_MAX_NDIMS + 8; i++) dims[i] = rd_dim(r);
    for (i = 0; i < DNNLK_MAX_NDIMS; i++) {
        out.dims[i] = rd8(r) & 1 ? DNNLK_UNKNOWN : dims[i];
        out.strides[i] = rd_dim(r);
    }
    memset(&done, 0x3c, sizeof done);
    keep = done;
    if (dnnlk__complete_output(&out, n, dims, &done) == dnnlk_success) {
        int64_t numel, lo, hi;
        REQUIRE(done.ndims == n);
        for (i = 0; i < n; i++) REQUIRE(done.dims[i] == dims[i]);
        REQUIRE(dnnlk_shape_numel(n, done.dims, &numel) == dnnlk_success);
        REQUIRE(dnnlk__byte_extent(n, done.dims, done.strides, dnnlk_dtype_size(done.dtype), &lo, &hi) == dnnlk_success);
        REQUIRE(dnnlk__layout_self_overlaps(n, done.dims, done.strides) == 0);
    } else {
        REQUIRE(memcmp(&keep, &done, sizeof done) == 0);
    }
}

static void check_loop(reader *r) {
    int n = rd8(r) % 5, i, nth = 1 + rd8(r) % 4, ith;
    int64_t dims[4], s0[4], s1[4], total = 1, visited = 0;
    const int64_t *strides[2] = {s0, s1};
    size_t es[2] = {1, 1};
    static unsigned char arena[2][4096];
    dnnlk__loop plan;
    for (i = 0; i < n; i++) {
        dims[i] = rd8(r) % 6;
        total *= dims[i];
        s0[i] = 1; /* replaced by dense strides below */
        s1[i] = rd8(r) % 3 == 0 ? 0 : 1 + rd8(r) % 40;
    }
    dnnlk_dense_strides(n, dims, s0);
    dnnlk__loop_init(&plan, n, dims, 2, strides, es, rd8(r) & 1 ? DNNLK__LOOP_REORDER : 0);
    REQUIRE(plan.total == total);
    for (ith = 0; ith < nth; ith++) {
        dnnlk__loop_iter it;
        void *base[2] = {arena[0], arena[1]};
        char *row[2];
        int64_t b, e, len, rows;
        dnnlk__part_range(plan.total, ith, nth, 8, &b, &e);
        dnnlk__iter_init(&it, &plan, base, b, e);
        while ((len = dnnlk__iter_next_block(&it, row, &rows)) > 0) {
            int64_t k, q;
            for (q = 0; q < rows; q++)
                for (k = 0; k < len; k++) {
                    int64_t off = (row[0] - (char *)arena[0]) + q * dnnlk__row_pitch(&plan, 0) +
                                  k * dnnlk__row_stride(&plan, 0);
                    REQUIRE(off >= 0 && off < total);
                    REQUIRE(arena[0][off] == 0); /* each element of operand 0 once */
                    arena[0][off] = 1;
                    visited++;
                }
        }
    }
    REQUIRE(visited == total);
    memset(arena[0], 0, (size_t)total);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    reader r;
    r.p = data;
    r.n = size;
    switch (rd8(&r) & 3) {
    case 0: check_deduce(&r); break;
    case 1: check_broadcast(&r); break;
    case 2: check_complete(&r); break;
    default: check_loop(&r); break;
    }
    return 0;
}
