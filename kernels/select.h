/* dnnl_kernels — select.h: dst = cond ? src0 : src1, with none or numpy broadcasting.
 *
 *   dnnlk_status dnnlk_select_infer(const dnnlk_tensor *cond, const dnnlk_tensor *src0,
 *                                   const dnnlk_tensor *src1, dnnlk_tensor *dst,
 *                                   dnnlk_broadcast broadcast);
 *   dnnlk_status dnnlk_select(const dnnlk_tensor *cond, const dnnlk_tensor *src0,
 *                             const dnnlk_tensor *src1, dnnlk_tensor *dst,
 *                             dnnlk_broadcast broadcast, int ith, int nth);
 *
 * Semantics (oneDNN Graph's Select):
 *   - dst[i] = cond[i] != 0 ? src0[i] : src1[i]. The element's bits are moved, never converted or
 *     computed on, so the result is exact on every ISA and for every (ith, nth); NaN payloads,
 *     -0 and boolean bytes other than 0/1 pass through unchanged.
 *   - dnnlk_broadcast_none: cond, src0 and src1 have the same shape, which is dst's shape.
 *     dnnlk_broadcast_numpy: src0 and src1 broadcast to each other (right-aligned; each dim equal,
 *     or one of them 1), then cond is broadcast ONE WAY to that result: it may not have more dims
 *     than it, and each of its dims is 1 or equal. cond never widens the output, so against
 *     {2,3,4,5} the conds {4,5} and {3,1,5} are fine and {3,5} is dnnlk_invalid_shape (numpy.where
 *     would accept more).
 *   - dtypes: src0, src1 and dst share one dtype, any of them (boolean, s8, u8, f16, bf16, s32,
 *     f32, s64, u64, f64); a dst dtype of dnnlk_dtype_undef is completed to it. cond is boolean, u8 or
 *     s8, any nonzero byte meaning true. Anything else is dnnlk_invalid_data_type.
 *   - Layouts: any strides on the inputs (0 for broadcast views, negative for flipped ones). dst's
 *     unknown ndims, dims and strides are completed (DNNLK_UNKNOWN; strides by the rules of
 *     shape.h: all unknown = dense, one 1 and the rest unknown = that dim innermost); known ones
 *     are checked (dnnlk_invalid_shape on a mismatch).
 *   - In-place: dst may be src0 or src1 when it is exactly the same view (same data and strides,
 *     not broadcast). Any other overlap of dst with an input, cond included, is
 *     dnnlk_invalid_arguments.
 *   - Parts: part ith of nth computes a contiguous share of dst's elements (in memory order of the
 *     coalesced layout); all parts together write every element once.
 *   - Statuses: dnnlk_invalid_arguments for NULL pointers, a NULL data pointer on a non-empty
 *     tensor, an unknown broadcast value, overlap, bad (ith, nth); dnnlk_invalid_shape for bad or
 *     incompatible shapes and overflowing sizes; dnnlk_invalid_data_type as above. On any error
 *     nothing is written, neither dst's data nor its descriptor.
 *   - The execute function writes the completed descriptor back to *dst only where it differs
 *     from what the caller passed, so parts running concurrently on one complete descriptor never
 *     write it. (With an incomplete one, complete it with dnnlk_select_infer first.)
 *
 * Speed: dimensions are coalesced and, when the layout is permuted (e.g. channels-last), visited in
 * dst's memory order; rows where every operand is contiguous or a scalar run in SIMD with the cond
 * byte compare fused into a blend, rows with a cond that is constant along the row are copies or
 * fills, and short rows under a per-row cond ([N,3] with cond [N,1]) are flattened with the cond
 * expanded in L1. When a part's working set exceeds DNNLK_SELECT_NT_BYTES (about half an L2; the
 * macro may be predefined), contiguous dst rows are written with non-temporal stores (a store
 * fence ends each call). Other strided rows use a scalar loop. */
#ifndef DNNLK_SELECT_H
#define DNNLK_SELECT_H

#include "base.h"
#include "cpu.h"
#include "shape.h"
#include "loop.h"

typedef enum dnnlk_broadcast {
    dnnlk_broadcast_none = 0,
    dnnlk_broadcast_numpy = 1
} dnnlk_broadcast;

/* Working set per part (elements of the part x (src0 + src1 + dst + cond bytes)) from which select
 * writes dst with non-temporal stores. Below it the op runs out of the core's L2 and regular stores
 * are faster (and leave dst in cache for the next op); above it they cost a read-for-ownership and a
 * write-back through the caches. Measured on a 4 MiB-L2 core with `DNNLK_BENCH_SELECT_NT=1 make
 * bench BENCH_ARGS=select` (same-shape f32, 1 thread): regular stores win up to ~128K elements
 * (1.7 MB), break even at ~160K (2.1 MB), and lose by 1.5x from 256K (3.4 MB) on. */
#ifndef DNNLK_SELECT_NT_BYTES
#define DNNLK_SELECT_NT_BYTES (2 * 1024 * 1024)
#endif

/* Per-TU threshold cell, so tests and the bench can move it at run time. */
static inline int64_t *dnnlk__select_nt_cell(void) {
    static int64_t cell = (int64_t)(DNNLK_SELECT_NT_BYTES);
    return &cell;
}

/* One block of rows as the row kernels see it: rows of n elements; row r of an operand starts at
 * its pointer + r * pitch; consecutive elements of a row are `stride` bytes apart. */
typedef struct dnnlk__select_blk {
    char *d;
    const unsigned char *c;
    const char *a, *b;
    int64_t n, rows;
    int64_t dp, cp, ap, bp; /* row pitches, bytes */
    int64_t ds, cs, as, bs; /* element strides along a row, bytes */
    int es;                 /* element size of d, a, b */
    int nt;                 /* non-temporal stores (d is es-aligned when set) */
} dnnlk__select_blk;

/* Rows whose cond is constant along the row are flattened (cond expanded to a byte per element
 * in an L1 buffer) when a row is shorter than this many bytes; longer ones are copies per row. */
#define DNNLK__SELECT_SHORT_ROW_BYTES 256
#define DNNLK__SELECT_CHUNK 1024 /* elements per expanded chunk; a multiple of every vector width */

#define DNNLK__SIMD_BODY "select_simd.h"
#include "simd_instantiate.h"

/* ---- validation and shape inference ---- */

static inline int dnnlk__select_cond_dtype_ok(dnnlk_dtype t) {
    return t == dnnlk_boolean || t == dnnlk_u8 || t == dnnlk_s8;
}

/* Checks everything and completes dst into *out; writes nothing else. need_data: the execute
 * function's checks (data pointers present, no forbidden overlap). */
static inline dnnlk_status dnnlk__select_prepare(const dnnlk_tensor *cond, const dnnlk_tensor *src0,
                                                 const dnnlk_tensor *src1, const dnnlk_tensor *dst,
                                                 dnnlk_broadcast broadcast, int need_data, dnnlk_tensor *out) {
    int64_t dims[DNNLK_MAX_NDIMS];
    int n = 0, i;
    dnnlk_status st;
    if (!cond || !src0 || !src1 || !dst || !out) return dnnlk_invalid_arguments;
    if (broadcast != dnnlk_broadcast_none && broadcast != dnnlk_broadcast_numpy) return dnnlk_invalid_arguments;
    if ((st = dnnlk__check_input(cond, need_data)) != dnnlk_success) return st;
    if ((st = dnnlk__check_input(src0, need_data)) != dnnlk_success) return st;
    if ((st = dnnlk__check_input(src1, need_data)) != dnnlk_success) return st;
    if (!dnnlk__select_cond_dtype_ok(cond->dtype)) return dnnlk_invalid_data_type;
    if (src0->dtype != src1->dtype) return dnnlk_invalid_data_type;
    if (dst->dtype != dnnlk_dtype_undef && dst->dtype != src0->dtype) return dnnlk_invalid_data_type;
    if (broadcast == dnnlk_broadcast_none) {
        if (cond->ndims != src0->ndims || src1->ndims != src0->ndims) return dnnlk_invalid_shape;
        for (i = 0; i < src0->ndims; i++)
            if (cond->dims[i] != src0->dims[i] || src1->dims[i] != src0->dims[i]) return dnnlk_invalid_shape;
        n = src0->ndims;
        for (i = 0; i < n; i++) dims[i] = src0->dims[i];
    } else {
        st = dnnlk_broadcast_shapes(src0->ndims, src0->dims, src1->ndims, src1->dims, &n, dims);
        if (st != dnnlk_success) return st;
        st = dnnlk_broadcast_oneway(cond->ndims, cond->dims, n, dims);
        if (st != dnnlk_success) return st;
    }
    /* out is the caller's scratch descriptor (never dst itself): completed in place */
    dnnlk__desc_copy(out, dst);
    if (out->dtype == dnnlk_dtype_undef) out->dtype = src0->dtype;
    st = dnnlk__complete_output(out, n, dims, out);
    if (st != dnnlk_success) return st;
    if (need_data) {
        if ((st = dnnlk__output_writable(out, src0, src1)) != dnnlk_success) return st;
        if (dnnlk__ranges_intersect(out, cond)) return dnnlk_invalid_arguments;
    }
    return dnnlk_success;
}

/* Completes dst's unknown ndims/dims/strides (and an undef dtype) and checks the known ones. Data
 * pointers are not needed. On error *dst is unchanged. */
static inline dnnlk_status dnnlk_select_infer(const dnnlk_tensor *cond, const dnnlk_tensor *src0,
                                              const dnnlk_tensor *src1, dnnlk_tensor *dst,
                                              dnnlk_broadcast broadcast) {
    dnnlk_tensor r;
    dnnlk_status st = dnnlk__select_prepare(cond, src0, src1, dst, broadcast, 0, &r);
    if (st != dnnlk_success) return st;
    dnnlk__set_desc(dst, &r);
    return dnnlk_success;
}

/* dst = cond ? src0 : src1, part ith of nth (see the top of the file). */
static inline dnnlk_status dnnlk_select(const dnnlk_tensor *cond, const dnnlk_tensor *src0,
                                        const dnnlk_tensor *src1, dnnlk_tensor *dst,
                                        dnnlk_broadcast broadcast, int ith, int nth) {
    dnnlk_tensor r;
    dnnlk__loop plan;
    dnnlk__loop_iter it;
    dnnlk__select_blk k;
    int64_t sc[DNNLK_MAX_NDIMS], s0[DNNLK_MAX_NDIMS], s1[DNNLK_MAX_NDIMS];
    const int64_t *strides[4];
    size_t esz[4];
    void *base[4];
    char *row[4];
    int64_t begin, end, len, rows, numel = 0, nt_bytes;
    void (*fn)(const dnnlk__select_blk *);
    dnnlk_status st;
    int es;
    if (!dnnlk__part_ok(ith, nth)) return dnnlk_invalid_arguments;
    st = dnnlk__select_prepare(cond, src0, src1, dst, broadcast, 1, &r);
    if (st != dnnlk_success) return st;
    (void)dnnlk_shape_numel(r.ndims, r.dims, &numel);
    es = (int)dnnlk_dtype_size(r.dtype);
    if (numel > 0) {
        dnnlk__broadcast_strides(cond, r.ndims, r.dims, sc);
        dnnlk__broadcast_strides(src0, r.ndims, r.dims, s0);
        dnnlk__broadcast_strides(src1, r.ndims, r.dims, s1);
        strides[0] = r.strides, strides[1] = sc, strides[2] = s0, strides[3] = s1;
        esz[0] = esz[2] = esz[3] = (size_t)es, esz[1] = 1;
        base[0] = r.data, base[1] = cond->data, base[2] = src0->data, base[3] = src1->data;
        /* The result does not depend on the visiting order: walk dst's memory order. */
        dnnlk__loop_init(&plan, r.ndims, r.dims, 4, strides, esz, DNNLK__LOOP_REORDER);
        /* 64-element boundaries: parts never share a cache line of a contiguous dst. */
        dnnlk__part_range(plan.total, ith, nth, 64, &begin, &end);
        nt_bytes = *dnnlk__select_nt_cell();
        k.es = es;
        k.nt = (double)numel * (3 * es + 1) / nth >= (double)nt_bytes &&
               dnnlk__row_kind(&plan, 0) == dnnlk__row_contig && ((uintptr_t)r.data % (uintptr_t)es) == 0;
        k.ds = dnnlk__row_stride(&plan, 0), k.cs = dnnlk__row_stride(&plan, 1);
        k.as = dnnlk__row_stride(&plan, 2), k.bs = dnnlk__row_stride(&plan, 3);
        k.dp = dnnlk__row_pitch(&plan, 0), k.cp = dnnlk__row_pitch(&plan, 1);
        k.ap = dnnlk__row_pitch(&plan, 2), k.bp = dnnlk__row_pitch(&plan, 3);
        fn = DNNLK__DISPATCH(dnnlk__select_rows, );
        dnnlk__iter_init(&it, &plan, base, begin, end);
        while ((len = dnnlk__iter_next_block(&it, row, &rows)) > 0) {
            k.d = row[0];
            k.c = (const unsigned char *)row[1];
            k.a = row[2], k.b = row[3];
            k.n = len, k.rows = rows;
            fn(&k);
        }
    }
    dnnlk__set_desc(dst, &r);
    return dnnlk_success;
}

#endif /* DNNLK_SELECT_H */
