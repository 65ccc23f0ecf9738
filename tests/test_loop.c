/* loop.h: the iteration engine against a brute-force index calculation, on thousands of random
 * shapes, strides (positive, negative, permuted, padded) and broadcasts (stride 0), visited by rows
 * and by blocks of rows, with and without reordering, split into random part counts. */
#include "harness.h"

#define NOPS 3
#define MAXE 4096

typedef struct visit { int64_t off[NOPS]; } visit;

typedef struct layout {
    int ndims;
    int64_t dims[DNNLK_MAX_NDIMS];
    int64_t strides[NOPS][DNNLK_MAX_NDIMS];
    size_t esize[NOPS];
    int64_t base[NOPS]; /* byte offset of element 0 inside each arena */
    int64_t total;
} layout;

static int cmp_visit(const void *a, const void *b) { return memcmp(a, b, sizeof(visit)); }

/* A random layout: up to 6 dims of 0..5 (mostly >= 1), each operand dense, permuted, padded,
 * flipped or broadcast in some dims. */
static void random_layout(layout *L) {
    int op, i;
    L->ndims = (int)th_randint(0, 6);
    L->total = 1;
    for (i = 0; i < L->ndims; i++) {
        L->dims[i] = th_randint(0, 9) == 0 ? 0 : th_randint(1, 5);
        L->total *= L->dims[i];
    }
    for (op = 0; op < NOPS; op++) {
        int perm[DNNLK_MAX_NDIMS];
        int64_t s = 1, lo = 0;
        static const size_t sizes[4] = {1, 2, 4, 8};
        L->esize[op] = sizes[th_randint(0, 3)];
        for (i = 0; i < L->ndims; i++) perm[i] = L->ndims - 1 - i;
        if (th_randint(0, 2) == 0) /* shuffle the memory order */
            for (i = L->ndims - 1; i > 0; i--) {
                int j = (int)th_randint(0, i), t = perm[i];
                perm[i] = perm[j];
                perm[j] = t;
            }
        for (i = 0; i < L->ndims; i++) { /* innermost memory dim first */
            int d = perm[i];
            if (op > 0 && th_randint(0, 3) == 0) { L->strides[op][d] = 0; continue; }
            L->strides[op][d] = th_randint(0, 4) == 0 ? -s : s;
            s *= L->dims[d] + (th_randint(0, 3) == 0 ? 1 : 0); /* sometimes padded */
            if (s == 0) s = 1;
        }
        for (i = 0; i < L->ndims; i++)
            if (L->strides[op][i] < 0 && L->dims[i] > 0) lo += (L->dims[i] - 1) * L->strides[op][i];
        L->base[op] = -lo * (int64_t)L->esize[op];
    }
}

/* Offsets of every element in row-major order of the original dims. */
static int64_t brute_force(const layout *L, visit *out) {
    int64_t e, idx[DNNLK_MAX_NDIMS];
    int i, op;
    for (e = 0; e < L->total; e++) {
        int64_t r = e;
        for (i = L->ndims - 1; i >= 0; i--) { idx[i] = r % L->dims[i]; r /= L->dims[i]; }
        for (op = 0; op < NOPS; op++) {
            int64_t o = L->base[op];
            for (i = 0; i < L->ndims; i++) o += idx[i] * L->strides[op][i] * (int64_t)L->esize[op];
            out[e].off[op] = o;
        }
    }
    return L->total;
}

static unsigned char arena[NOPS][1 << 20];

/* Visits every part of the plan in order; by blocks when `blocks`. Returns the visit count. */
static int64_t walk(const layout *L, int flags, int nth, int blocks, int64_t align, visit *out, int64_t cap,
                    int *part_order_ok) {
    dnnlk__loop plan;
    const int64_t *strides[NOPS];
    void *base[NOPS];
    int64_t n = 0, prev_end = 0;
    int op, ith;
    for (op = 0; op < NOPS; op++) {
        strides[op] = L->strides[op];
        base[op] = arena[op] + L->base[op];
    }
    dnnlk__loop_init(&plan, L->ndims, L->dims, NOPS, strides, L->esize, flags);
    *part_order_ok = plan.total == L->total;
    for (ith = 0; ith < nth; ith++) {
        dnnlk__loop_iter it;
        char *row[NOPS];
        int64_t b, e, len, rows, r, k;
        dnnlk__part_range(plan.total, ith, nth, align, &b, &e);
        if (b != prev_end || (b % align && b != plan.total) || e < b) *part_order_ok = 0;
        prev_end = e;
        dnnlk__iter_init(&it, &plan, base, b, e);
        for (;;) {
            if (blocks) len = dnnlk__iter_next_block(&it, row, &rows);
            else { len = dnnlk__iter_next(&it, row); rows = 1; }
            if (len == 0) break;
            for (r = 0; r < rows; r++)
                for (k = 0; k < len; k++) {
                    if (n >= cap) return -1;
                    for (op = 0; op < NOPS; op++)
                        out[n].off[op] = (row[op] + r * dnnlk__row_pitch(&plan, op) + k * dnnlk__row_stride(&plan, op)) -
                                         (char *)arena[op];
                    n++;
                }
        }
    }
    if (prev_end != plan.total) *part_order_ok = 0;
    return n;
}

TEST(loop_matches_brute_force) {
    static visit want[MAXE], got[MAXE];
    long cases = th_scaled(4000), c;
    int bad = 0;
    th_seed(42);
    for (c = 0; c < cases && bad < 5; c++) {
        layout L;
        int flags = th_randint(0, 1) ? DNNLK__LOOP_REORDER : 0;
        int nth = (int)th_randint(1, 7), blocks = (int)th_randint(0, 1), ok;
        int64_t align = th_randint(0, 1) ? 1 : 8, n, m;
        do random_layout(&L); while (L.total > MAXE);
        m = brute_force(&L, want);
        n = walk(&L, flags, nth, blocks, align, got, MAXE, &ok);
        if (flags & DNNLK__LOOP_REORDER) { /* any order, each element exactly once */
            qsort(want, (size_t)m, sizeof(visit), cmp_visit);
            qsort(got, (size_t)(n > 0 ? n : 0), sizeof(visit), cmp_visit);
        }
        if (!ok || n != m || (m && memcmp(want, got, (size_t)m * sizeof(visit)) != 0)) {
            bad++;
            CHECK_MSG(0, "case %ld: ndims %d total %lld nth %d blocks %d reorder %d: %lld visits, parts ok %d", c,
                      L.ndims, (long long)L.total, nth, blocks, flags, (long long)n, ok);
        }
    }
    CHECK_EQ(bad, 0);
}

TEST(coalescing) {
    /* A dense 4-D tensor and a scalar operand collapse to one row. */
    int64_t dims[4] = {2, 3, 4, 5}, dense[4] = {60, 20, 5, 1}, zero[4] = {0, 0, 0, 0};
    const int64_t *s[2] = {dense, zero};
    size_t es[2] = {4, 1};
    dnnlk__loop p;
    dnnlk__loop_init(&p, 4, dims, 2, s, es, 0);
    CHECK_EQ(p.ndims, 1);
    CHECK_EQ(p.dims[0], 120);
    CHECK_EQ(dnnlk__row_kind(&p, 0), dnnlk__row_contig);
    CHECK_EQ(dnnlk__row_kind(&p, 1), dnnlk__row_scalar);
    /* masked_fill: x[8,12,512,512], cond[8,1,1,512]: rows of 512, cond contiguous per row. */
    {
        int64_t d[4] = {8, 12, 512, 512}, x[4] = {12 * 512 * 512, 512 * 512, 512, 1}, c[4] = {512, 0, 0, 1};
        const int64_t *s2[3] = {x, x, c};
        size_t e3[3] = {4, 4, 1};
        dnnlk__loop_init(&p, 4, d, 3, s2, e3, 0);
        CHECK_EQ(p.ndims, 3);
        CHECK_EQ(p.dims[2], 512);
        CHECK_EQ(dnnlk__row_kind(&p, 2), dnnlk__row_contig);
        CHECK_EQ(dnnlk__row_pitch(&p, 2), 0);
    }
    /* Channels-last with reordering: memory order wins, and the whole tensor is one row. */
    {
        int64_t d[4] = {2, 3, 4, 5}, nhwc[4] = {60, 1, 15, 3};
        const int64_t *s3[2] = {nhwc, nhwc};
        size_t e2[2] = {4, 4};
        dnnlk__loop_init(&p, 4, d, 2, s3, e2, DNNLK__LOOP_REORDER);
        CHECK_EQ(p.ndims, 1);
        CHECK_EQ(dnnlk__row_kind(&p, 0), dnnlk__row_contig);
        dnnlk__loop_init(&p, 4, d, 2, s3, e2, 0);
        CHECK(p.ndims > 1);
        CHECK_EQ(dnnlk__row_kind(&p, 0), dnnlk__row_strided);
    }
    /* 0-d and empty shapes give one row of total elements. */
    dnnlk__loop_init(&p, 0, dims, 2, s, es, 0);
    CHECK(p.ndims == 1 && p.dims[0] == 1 && p.total == 1);
    {
        int64_t d0[2] = {3, 0};
        dnnlk__loop_init(&p, 2, d0, 2, s, es, 0);
        CHECK(p.ndims == 1 && p.dims[0] == 0 && p.total == 0);
    }
}

TEST(part_range_is_a_partition) {
    int64_t total, align;
    int nth, ith;
    for (total = 0; total < 300; total += 7)
        for (align = 1; align <= 64; align *= 8)
            for (nth = 1; nth <= 9; nth++) {
                int64_t prev = 0, b, e, most = 0, least = INT64_MAX;
                for (ith = 0; ith < nth; ith++) {
                    dnnlk__part_range(total, ith, nth, align, &b, &e);
                    CHECK(b == prev && e >= b && (b % align == 0 || b == total));
                    if (e - b > most) most = e - b;
                    if (e - b < least) least = e - b;
                    prev = e;
                }
                CHECK_EQ(prev, total);
                CHECK(most - least <= align); /* balanced to one unit */
            }
    { /* totals near INT64_MAX: no overflow (UBSan aborts the sanitizer build on one) */
        static const int64_t bigs[] = {INT64_MAX, INT64_MAX - 1, INT64_MAX - 63, INT64_MAX - 64};
        size_t k;
        for (k = 0; k < sizeof bigs / sizeof bigs[0]; k++)
            for (nth = 1; nth <= 9; nth++) {
                int64_t prev = 0, b, e;
                for (ith = 0; ith < nth; ith++) {
                    dnnlk__part_range(bigs[k], ith, nth, 64, &b, &e);
                    CHECK(b == prev && e >= b && (b % 64 == 0 || b == bigs[k]));
                    prev = e;
                }
                CHECK_EQ(prev, bigs[k]);
            }
    }
    CHECK(dnnlk__part_ok(0, 1) && dnnlk__part_ok(2, 3));
    CHECK(!dnnlk__part_ok(3, 3) && !dnnlk__part_ok(-1, 2) && !dnnlk__part_ok(0, 0));
}

/* Positions that each cost `work` elements, split with dnnlk__part_grain: no two parts differ by
 * more than one position or 64 elements of work, whichever is more (softmax, arg ops, one_hot). */
TEST(part_grain_balances_rows) {
    static const int64_t works[] = {1, 2, 3, 5, 16, 63, 64, 65, 512, 32000};
    static const int64_t positions[] = {1, 7, 17, 64, 100, 256, 1000, 49152};
    static const int nths[] = {2, 3, 7, 16, 64};
    size_t wi, pi, ni;
    CHECK_EQ(dnnlk__part_grain(0), 16);
    CHECK_EQ(dnnlk__part_grain(4), 16);
    CHECK_EQ(dnnlk__part_grain(5), 12);
    CHECK_EQ(dnnlk__part_grain(64), 1);
    for (wi = 0; wi < sizeof works / sizeof works[0]; wi++)
        for (pi = 0; pi < sizeof positions / sizeof positions[0]; pi++)
            for (ni = 0; ni < sizeof nths / sizeof nths[0]; ni++) {
                int64_t w = works[wi], total = positions[pi], g = dnnlk__part_grain(w), most = 0, least = total, b, e;
                int ith, nth = nths[ni];
                for (ith = 0; ith < nth; ith++) {
                    dnnlk__part_range(total, ith, nth, g, &b, &e);
                    if (e - b > most) most = e - b;
                    if (e - b < least) least = e - b;
                }
                CHECK_MSG((most - least) <= 1 || (most - least) * w <= 64, "work %lld x %lld positions, %d parts: %lld vs %lld",
                          (long long)w, (long long)total, nth, (long long)most, (long long)least);
            }
}

int main(void) {
    RUN(loop_matches_brute_force);
    RUN(coalescing);
    RUN(part_range_is_a_partition);
    RUN(part_grain_balances_rows);
    return th_summary();
}
