/* dnnl_kernels — loop.h: the N-D iteration engine of the elementwise and broadcast kernels.
 *
 * A plan describes up to DNNLK__LOOP_MAX_OPS operands that walk one shape together, each with its
 * own element size and strides (0 = broadcast). Building the plan
 *   - drops size-1 dims,
 *   - optionally (DNNLK__LOOP_REORDER) sorts dims by operand 0's |stride|, so channels-last and
 *     other permuted layouts iterate in memory order (only for ops whose result does not depend on
 *     the visiting order),
 *   - merges adjacent dims that are contiguous for every operand at once,
 * leaving an inner row (the last dim) and outer dims. An iterator then hands out rows: a pointer
 * per operand and a length, so the row kernel only ever sees one 1-D stride per operand, which it
 * classifies with dnnlk__row_kind (contiguous, scalar, or general). Kernels with short rows take
 * blocks of rows instead (dnnlk__iter_next_block), one call per many rows.
 *
 * Parts: dnnlk__part_range splits [0, total) flat elements (row-major over the coalesced shape)
 * into nth contiguous shares, aligned to a multiple of `align` elements so parts never share a
 * cache line or mask byte they write. The split depends only on (total, ith, nth, align).
 *
 * Everything here is plain C with no intrinsics, so it inlines into any target region. */
#ifndef DNNLK_LOOP_H
#define DNNLK_LOOP_H

#include "base.h"

#define DNNLK__LOOP_MAX_OPS 5
#define DNNLK__LOOP_REORDER 1

typedef struct dnnlk__loop {
    int nops;
    int ndims;                                       /* >= 1; dims[ndims - 1] is the inner row */
    int64_t total;                                   /* elements */
    int64_t dims[DNNLK_MAX_NDIMS];
    int64_t bstrides[DNNLK__LOOP_MAX_OPS][DNNLK_MAX_NDIMS]; /* bytes */
    int64_t esize[DNNLK__LOOP_MAX_OPS];
} dnnlk__loop;

enum { dnnlk__row_contig = 0, dnnlk__row_scalar = 1, dnnlk__row_strided = 2 };

/* Builds a plan. strides[op] are element strides over `dims` (already broadcast: 0 where an
 * operand repeats); esize[op] bytes per element. */
static inline void dnnlk__loop_init(dnnlk__loop *l, int ndims, const int64_t *dims, int nops,
                                    const int64_t *const *strides, const size_t *esize, int flags) {
    int keep[DNNLK_MAX_NDIMS];
    int n = 0, i, j, op;
    l->nops = nops;
    l->total = 1;
    for (i = 0; i < ndims; i++) l->total *= dims[i];
    for (op = 0; op < nops; op++) l->esize[op] = (int64_t)esize[op];
    for (i = 0; i < ndims; i++)
        if (dims[i] != 1) keep[n++] = i;
    if (l->total == 0) n = 0; /* nothing to visit: any single row of length 0 will do */
    if (flags & DNNLK__LOOP_REORDER) {
        /* Stable insertion sort, largest |stride| of operand 0 first. */
        for (i = 1; i < n; i++) {
            int k = keep[i];
            int64_t sk = strides[0][k] < 0 ? -strides[0][k] : strides[0][k];
            for (j = i - 1; j >= 0; j--) {
                int64_t sj = strides[0][keep[j]] < 0 ? -strides[0][keep[j]] : strides[0][keep[j]];
                if (sj >= sk) break;
                keep[j + 1] = keep[j];
            }
            keep[j + 1] = k;
        }
    }
    l->ndims = 0;
    for (i = 0; i < n; i++) {
        int d = keep[i];
        int nd = l->ndims;
        int merge = nd > 0;
        for (op = 0; op < nops && merge; op++)
            merge = l->bstrides[op][nd - 1] == strides[op][d] * (int64_t)esize[op] * dims[d];
        if (merge) {
            l->dims[nd - 1] *= dims[d];
            for (op = 0; op < nops; op++) l->bstrides[op][nd - 1] = strides[op][d] * (int64_t)esize[op];
        } else {
            l->dims[nd] = dims[d];
            for (op = 0; op < nops; op++) l->bstrides[op][nd] = strides[op][d] * (int64_t)esize[op];
            l->ndims++;
        }
    }
    if (l->ndims == 0) { /* scalar, all-ones or empty shape: one row */
        l->ndims = 1;
        l->dims[0] = l->total;
        for (op = 0; op < nops; op++) l->bstrides[op][0] = l->esize[op];
    }
}

static DNNLK__FORCEINLINE int dnnlk__row_kind(const dnnlk__loop *l, int op) {
    int64_t s = l->bstrides[op][l->ndims - 1];
    if (s == l->esize[op]) return dnnlk__row_contig;
    if (s == 0) return dnnlk__row_scalar;
    return dnnlk__row_strided;
}

static DNNLK__FORCEINLINE int64_t dnnlk__row_stride(const dnnlk__loop *l, int op) {
    return l->bstrides[op][l->ndims - 1];
}

/* Share [*begin, *end) of [0, total) for part ith of nth; boundaries are multiples of align. */
static DNNLK__FORCEINLINE void dnnlk__part_range(int64_t total, int ith, int nth, int64_t align,
                                                 int64_t *begin, int64_t *end) {
    /* The last `extra` parts take one more unit each: the final unit may be partial, so this keeps
     * every share within one unit of the others. */
    int64_t units, q, extra, first, b, e;
    if (nth == 1) { /* what the split below gives for one part, without its divisions */
        *begin = 0, *end = total;
        return;
    }
    units = total / align + (total % align != 0), q = units / nth, extra = units % nth, first = nth - extra;
    b = q * ith + (ith > first ? ith - first : 0);
    e = b + q + (ith >= first ? 1 : 0);
    /* Unit counts past total / align end at total; no product beyond total is formed, so a total
     * near INT64_MAX cannot overflow. */
    *begin = b <= total / align ? b * align : total;
    *end = e <= total / align ? e * align : total;
}

/* The part grain (the align of dnnlk__part_range) for positions that each cost `work` elements: a
 * reduced row of softmax or arg_max, an output row of one_hot. Grains of 16 positions keep column
 * kernels on whole vectors, but then two parts can differ by 16 rows of work: 64 rows of 32000 on
 * 16 parts would keep 4 parts busy. The grain is cut so that it is 1 position or at most 64
 * elements of work, whichever is more. */
static DNNLK__FORCEINLINE int64_t dnnlk__part_grain(int64_t work) {
    int64_t g = work > 0 ? 64 / work : 16;
    return g < 1 ? 1 : g > 16 ? 16 : g;
}

/* Valid (ith, nth) for the execute functions' part arguments. */
static DNNLK__FORCEINLINE int dnnlk__part_ok(int ith, int nth) { return nth >= 1 && ith >= 0 && ith < nth; }

typedef struct dnnlk__loop_iter {
    const dnnlk__loop *l;
    int64_t pos, end;
    int64_t idx[DNNLK_MAX_NDIMS];
    char *ptr[DNNLK__LOOP_MAX_OPS]; /* start of the current position, per operand */
} dnnlk__loop_iter;

/* Starts at flat element `begin` of the plan and stops at `end`. base[op] is each operand's data
 * pointer (the element at index 0). */
static DNNLK__FORCEINLINE void dnnlk__iter_init(dnnlk__loop_iter *it, const dnnlk__loop *l, void *const *base,
                                                int64_t begin, int64_t end) {
    int64_t rem = begin;
    int i, op;
    it->l = l;
    it->pos = begin;
    it->end = end;
    for (op = 0; op < l->nops; op++) it->ptr[op] = (char *)base[op];
    for (i = l->ndims - 1; i >= 0; i--) {
        int64_t d = l->dims[i] > 0 ? l->dims[i] : 1;
        int64_t q = rem ? rem / d : 0; /* part 0: no divisions (tens of cycles each) */
        it->idx[i] = rem - q * d;
        rem = q;
        for (op = 0; op < l->nops; op++) it->ptr[op] += it->idx[i] * l->bstrides[op][i];
    }
}

/* Moves past dim d's last index, carrying into the outer dims. */
static DNNLK__FORCEINLINE void dnnlk__iter_carry(dnnlk__loop_iter *it, int d) {
    const dnnlk__loop *l = it->l;
    int i, op;
    for (i = d; i > 0 && it->idx[i] == l->dims[i]; i--) {
        it->idx[i] = 0;
        it->idx[i - 1]++;
        for (op = 0; op < l->nops; op++) it->ptr[op] += l->bstrides[op][i - 1] - l->dims[i] * l->bstrides[op][i];
    }
}

/* Next row: fills row[op] and returns its length, or 0 when the range is done. */
static DNNLK__FORCEINLINE int64_t dnnlk__iter_next(dnnlk__loop_iter *it, char **row) {
    const dnnlk__loop *l = it->l;
    int inner = l->ndims - 1, op;
    int64_t n;
    if (it->pos >= it->end) return 0;
    n = l->dims[inner] - it->idx[inner];
    if (n > it->end - it->pos) n = it->end - it->pos;
    for (op = 0; op < l->nops; op++) row[op] = it->ptr[op];
    it->pos += n;
    if (it->pos >= it->end) return n;
    it->idx[inner] += n;
    for (op = 0; op < l->nops; op++) it->ptr[op] += n * l->bstrides[op][inner];
    dnnlk__iter_carry(it, inner);
    return n;
}

/* Byte stride between consecutive rows of a block (the second-innermost dim), per operand. */
static DNNLK__FORCEINLINE int64_t dnnlk__row_pitch(const dnnlk__loop *l, int op) {
    return l->ndims >= 2 ? l->bstrides[op][l->ndims - 2] : 0;
}

/* Next block of rows, for kernels whose rows are short: *nrows rows of the returned length; row r
 * of operand op starts at row[op] + r * dnnlk__row_pitch(l, op). Partial rows at the ends of the
 * range come as blocks of one. Returns 0 when the range is done. */
static DNNLK__FORCEINLINE int64_t dnnlk__iter_next_block(dnnlk__loop_iter *it, char **row, int64_t *nrows) {
    const dnnlk__loop *l = it->l;
    int inner = l->ndims - 1, op;
    int64_t len = l->dims[inner], rows;
    if (it->pos >= it->end) return 0;
    if (inner == 0 || it->idx[inner] != 0 || it->end - it->pos < len) {
        *nrows = 1;
        return dnnlk__iter_next(it, row);
    }
    rows = l->dims[inner - 1] - it->idx[inner - 1];
    if (rows > (it->end - it->pos) / len) rows = (it->end - it->pos) / len;
    for (op = 0; op < l->nops; op++) row[op] = it->ptr[op];
    *nrows = rows;
    it->pos += rows * len;
    if (it->pos >= it->end) return len;
    it->idx[inner - 1] += rows;
    for (op = 0; op < l->nops; op++) it->ptr[op] += rows * l->bstrides[op][inner - 1];
    dnnlk__iter_carry(it, inner - 1);
    return len;
}

#endif /* DNNLK_LOOP_H */
