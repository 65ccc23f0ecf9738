/* dnnl_kernels — compare.h: comparisons and logical ops that produce boolean masks, with numpy
 * broadcasting.
 *
 *   dnnlk_status dnnlk_compare_infer(dnnlk_compare_op op, const dnnlk_tensor *src0,
 *                                    const dnnlk_tensor *src1, dnnlk_tensor *dst);
 *   dnnlk_status dnnlk_compare(dnnlk_compare_op op, const dnnlk_tensor *src0,
 *                              const dnnlk_tensor *src1, dnnlk_tensor *dst, int ith, int nth);
 *   dnnlk_status dnnlk_logical_infer(dnnlk_logical_op op, const dnnlk_tensor *src0,
 *                                    const dnnlk_tensor *src1, dnnlk_tensor *dst);
 *   dnnlk_status dnnlk_logical(dnnlk_logical_op op, const dnnlk_tensor *src0,
 *                              const dnnlk_tensor *src1, dnnlk_tensor *dst, int ith, int nth);
 *   dnnlk_status dnnlk_logical_not_infer(const dnnlk_tensor *src, dnnlk_tensor *dst);
 *   dnnlk_status dnnlk_logical_not(const dnnlk_tensor *src, dnnlk_tensor *dst, int ith, int nth);
 *
 * Semantics:
 *   - dst is boolean (a dst dtype of dnnlk_dtype_undef is completed to it; any other is
 *     dnnlk_invalid_data_type), written 0/1.
 *   - compare: dst = src0 <op> src1 for op in eq, ne, lt, le, gt, ge, by value (-0 equals +0).
 *     A NaN on either side compares false, except for ne, where it is true (IEEE, numpy, C).
 *     src0 and src1 must have the SAME dtype (any of f32, f64, f16, bf16, fp8 e4m3 / e5m2, s64,
 *     u64, s32, s16, u16, s8, u8, boolean; not the packed s4/u4), else dnnlk_invalid_data_type.
 *     numpy would promote mixed operands to a common type first; here that is one dnnlk_convert
 *     away, and refusing keeps every comparison exact (s64 against f32 has no common type that
 *     holds both). A boolean operand is read by the RFC's rule
 *     (nonzero is 1), so boolean bytes 1 and 2 compare equal.
 *   - logical: dst = src0 <op> src1 for op in and, or, xor, each operand read by the boolean RFC's
 *     rule (zero false, anything else true, NaN included); the two may have different dtypes.
 *     logical_not: dst = !src, the same reading.
 *   - Shapes: numpy broadcasting of src0 and src1 (right-aligned; each dim equal or one of them 1;
 *     0-d scalars included); dst has the broadcast shape. dst's unknown ndims, dims and strides
 *     are completed (shape.h's rules), known ones checked (dnnlk_invalid_shape on a mismatch).
 *     Inputs may have any strides (0 for broadcast, negative for flipped views).
 *   - In-place: dst may be an input when it is exactly the same view and that input has one-byte
 *     elements (boolean, u8, s8); any other overlap is dnnlk_invalid_arguments.
 *   - Parts: part ith of nth writes a contiguous share of dst's elements in dst's memory order.
 *     The result is the same bytes on every ISA level and for every (ith, nth).
 *   - Statuses: dnnlk_invalid_arguments (NULL pointers, NULL data on a non-empty tensor, an unknown
 *     op, overlap, bad (ith, nth)); dnnlk_invalid_shape (shapes that do not broadcast, bad or
 *     overflowing shapes); dnnlk_invalid_data_type (unknown dtypes, mixed compare dtypes, a dst
 *     that is not boolean). On any error nothing is written, neither dst's data nor its
 *     descriptor; the execute functions write the completed descriptor back only where it differs
 *     from what the caller passed.
 *
 * Speed: dims are coalesced and visited in dst's memory order. compare rows whose operands are
 * contiguous or scalar along the row, of f32, bf16, f16, u8 or s8, run on the vector layer (f32
 * lanes: every such value is an f32 exactly); logical rows turn each operand into truth bytes a
 * chunk at a time (the vector path of convert.h where it has one) and combine them as byte vectors;
 * everything else (s64, u64, s32, f64, boolean compares, strided rows) reads a chunk of each operand
 * into exact values (double or int64) and compares those. */
#ifndef DNNLK_COMPARE_H
#define DNNLK_COMPARE_H

#include "base.h"
#include "cpu.h"
#include "shape.h"
#include "loop.h"
#include "convert.h" /* the element readers and the truth-byte rows the bodies share */

typedef enum dnnlk_compare_op {
    dnnlk_compare_eq = 0,
    dnnlk_compare_ne = 1,
    dnnlk_compare_lt = 2,
    dnnlk_compare_le = 3,
    dnnlk_compare_gt = 4,
    dnnlk_compare_ge = 5
} dnnlk_compare_op;

typedef enum dnnlk_logical_op {
    dnnlk_logical_and = 0,
    dnnlk_logical_or = 1,
    dnnlk_logical_xor = 2
} dnnlk_logical_op;

/* The row kernels' view of one block of rows (dnnlk__iter_next_block's layout). b is unused by
 * logical_not. */
typedef struct dnnlk__cmp_blk {
    unsigned char *d;
    const char *a, *b;
    int64_t n, rows;
    int64_t dp, ap, bp; /* row pitches, bytes */
    int64_t ds, as, bs; /* element strides along a row, bytes */
    int adt, bdt;       /* dnnlk_dtype of a and b */
    int op;             /* compare: dnnlk_compare_op; logical: dnnlk_logical_op, or 3 for not */
    int nt;             /* stream dst's contiguous rows (compare vector rows, logical rows; convert.h's rule) */
} dnnlk__cmp_blk;

#define DNNLK__CMP_LOGICAL_NOT 3
/* Where byte j of a uint64_t stored to memory sits: the typed compare rows pack 8 results into one
 * store (measured 4.7x faster than 8 byte stores for s64 == scalar, which gcc does not vectorize). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define DNNLK__CMP_BYTE_SHIFT(j) (8 * (7 - (j)))
#else
#define DNNLK__CMP_BYTE_SHIFT(j) (8 * (j))
#endif
#define DNNLK__CMP_CHUNK 512 /* elements per chunk of the element and logical paths (<= DNNLK__STAGE_BYTES) */

static DNNLK__FORCEINLINE int dnnlk__cmp_vec_dtype(int t) {
    return t == dnnlk_f32 || t == dnnlk_bf16 || t == dnnlk_f16 || t == dnnlk_u8 || t == dnnlk_s8;
}

#define DNNLK__SIMD_BODY "compare_simd.h"
#include "simd_instantiate.h"

/* ---- validation and shape inference (both families; src1 NULL for logical_not) ---- */

enum { dnnlk__cmp_family_compare = 0, dnnlk__cmp_family_logical = 1, dnnlk__cmp_family_not = 2 };

static inline dnnlk_status dnnlk__cmp_prepare(int family, int op, const dnnlk_tensor *src0, const dnnlk_tensor *src1,
                                              const dnnlk_tensor *dst, int need_data, dnnlk_tensor *out) {
    int64_t dims[DNNLK_MAX_NDIMS]; /* only [0, n) is used */
    int n = 0;
    dnnlk_status st;
    if (!src0 || (!src1 && family != dnnlk__cmp_family_not) || !dst || !out) return dnnlk_invalid_arguments;
    if (family == dnnlk__cmp_family_compare && (op < dnnlk_compare_eq || op > dnnlk_compare_ge))
        return dnnlk_invalid_arguments;
    if (family == dnnlk__cmp_family_logical && (op < dnnlk_logical_and || op > dnnlk_logical_xor))
        return dnnlk_invalid_arguments;
    /* the byte-sized quantized dtypes too (fp8, s16, u16: read by convert's element readers) */
    if ((st = dnnlk__check_input_dt(src0, need_data, 1)) != dnnlk_success) return st;
    if (family != dnnlk__cmp_family_not && (st = dnnlk__check_input_dt(src1, need_data, 1)) != dnnlk_success) return st;
    if (family == dnnlk__cmp_family_compare && src0->dtype != src1->dtype) return dnnlk_invalid_data_type;
    if (dst->dtype != dnnlk_dtype_undef && dst->dtype != dnnlk_boolean) return dnnlk_invalid_data_type;
    if (family == dnnlk__cmp_family_not) {
        int i;
        n = src0->ndims;
        for (i = 0; i < n; i++) dims[i] = src0->dims[i];
    } else {
        st = dnnlk_broadcast_shapes(src0->ndims, src0->dims, src1->ndims, src1->dims, &n, dims);
        if (st != dnnlk_success) return st;
    }
    /* out is the caller's scratch descriptor (never dst itself): completed in place */
    dnnlk__desc_copy(out, dst);
    out->dtype = dnnlk_boolean;
    st = dnnlk__complete_output(out, n, dims, out);
    if (st != dnnlk_success) return st;
    if (need_data && (st = dnnlk__output_writable(out, src0, family != dnnlk__cmp_family_not ? src1 : NULL)) != dnnlk_success)
        return st;
    return dnnlk_success;
}

static inline dnnlk_status dnnlk__cmp_run(int family, int op, const dnnlk_tensor *src0, const dnnlk_tensor *src1,
                                          dnnlk_tensor *dst, int ith, int nth) {
    dnnlk_tensor r;
    dnnlk__loop plan;
    dnnlk__loop_iter it;
    dnnlk__cmp_blk k;
    int64_t s0[DNNLK_MAX_NDIMS], s1[DNNLK_MAX_NDIMS];
    const int64_t *strides[3];
    size_t esz[3];
    void *base[3];
    char *row[3];
    int64_t begin, end, len, rows, numel = 0;
    int nops = family == dnnlk__cmp_family_not ? 2 : 3;
    void (*fn)(const dnnlk__cmp_blk *);
    dnnlk_status st;
    if (!dnnlk__part_ok(ith, nth)) return dnnlk_invalid_arguments;
    st = dnnlk__cmp_prepare(family, op, src0, src1, dst, 1, &r);
    if (st != dnnlk_success) return st;
    (void)dnnlk_shape_numel(r.ndims, r.dims, &numel);
    if (numel > 0) {
        dnnlk__broadcast_strides(src0, r.ndims, r.dims, s0);
        strides[0] = r.strides, strides[1] = s0;
        esz[0] = 1, esz[1] = dnnlk_dtype_size(src0->dtype);
        base[0] = r.data, base[1] = src0->data;
        if (nops == 3) {
            dnnlk__broadcast_strides(src1, r.ndims, r.dims, s1);
            strides[2] = s1, esz[2] = dnnlk_dtype_size(src1->dtype), base[2] = src1->data;
        }
        /* Elementwise: walk dst's memory order. */
        dnnlk__loop_init(&plan, r.ndims, r.dims, nops, strides, esz, DNNLK__LOOP_REORDER);
        /* 64-element boundaries: parts never share a cache line of a contiguous dst. */
        dnnlk__part_range(plan.total, ith, nth, 64, &begin, &end);
        memset(&k, 0, sizeof k);
        k.adt = (int)src0->dtype, k.bdt = nops == 3 ? (int)src1->dtype : (int)src0->dtype;
        k.op = family == dnnlk__cmp_family_not ? DNNLK__CMP_LOGICAL_NOT : op;
        k.ds = dnnlk__row_stride(&plan, 0), k.as = dnnlk__row_stride(&plan, 1);
        k.dp = dnnlk__row_pitch(&plan, 0), k.ap = dnnlk__row_pitch(&plan, 1);
        if (nops == 3) k.bs = dnnlk__row_stride(&plan, 2), k.bp = dnnlk__row_pitch(&plan, 2);
        k.nt = end - begin >= *dnnlk__convert_nt_cell() && k.ds == 1;
        fn = family == dnnlk__cmp_family_compare ? DNNLK__DISPATCH(dnnlk__compare_rows, )
                                                 : DNNLK__DISPATCH(dnnlk__logical_rows, );
        dnnlk__iter_init(&it, &plan, base, begin, end);
        while ((len = dnnlk__iter_next_block(&it, row, &rows)) > 0) {
            k.d = (unsigned char *)row[0], k.a = row[1];
            /* not: b mirrors a, so the logical body reads it as a second, ignored operand */
            if (nops == 3) k.b = row[2];
            else k.b = row[1], k.bs = k.as, k.bp = k.ap;
            k.n = len, k.rows = rows;
            fn(&k);
        }
    }
    dnnlk__set_desc(dst, &r);
    return dnnlk_success;
}

/* Completes dst (shape of the broadcast, boolean) and checks the known parts; data not needed. On
 * error *dst is unchanged. */
static inline dnnlk_status dnnlk__cmp_infer(int family, int op, const dnnlk_tensor *src0, const dnnlk_tensor *src1,
                                            dnnlk_tensor *dst) {
    dnnlk_tensor r;
    dnnlk_status st = dnnlk__cmp_prepare(family, op, src0, src1, dst, 0, &r);
    if (st == dnnlk_success) dnnlk__set_desc(dst, &r);
    return st;
}

static inline dnnlk_status dnnlk_compare_infer(dnnlk_compare_op op, const dnnlk_tensor *src0, const dnnlk_tensor *src1,
                                               dnnlk_tensor *dst) {
    return dnnlk__cmp_infer(dnnlk__cmp_family_compare, (int)op, src0, src1, dst);
}

/* dst = src0 <op> src1, part ith of nth (see the top of the file). */
static inline dnnlk_status dnnlk_compare(dnnlk_compare_op op, const dnnlk_tensor *src0, const dnnlk_tensor *src1,
                                         dnnlk_tensor *dst, int ith, int nth) {
    return dnnlk__cmp_run(dnnlk__cmp_family_compare, (int)op, src0, src1, dst, ith, nth);
}

static inline dnnlk_status dnnlk_logical_infer(dnnlk_logical_op op, const dnnlk_tensor *src0, const dnnlk_tensor *src1,
                                               dnnlk_tensor *dst) {
    return dnnlk__cmp_infer(dnnlk__cmp_family_logical, (int)op, src0, src1, dst);
}

/* dst = src0 <op> src1 on truth values, part ith of nth. */
static inline dnnlk_status dnnlk_logical(dnnlk_logical_op op, const dnnlk_tensor *src0, const dnnlk_tensor *src1,
                                         dnnlk_tensor *dst, int ith, int nth) {
    return dnnlk__cmp_run(dnnlk__cmp_family_logical, (int)op, src0, src1, dst, ith, nth);
}

static inline dnnlk_status dnnlk_logical_not_infer(const dnnlk_tensor *src, dnnlk_tensor *dst) {
    return dnnlk__cmp_infer(dnnlk__cmp_family_not, 0, src, NULL, dst);
}

/* dst = !src (src read by the RFC's rule), part ith of nth. */
static inline dnnlk_status dnnlk_logical_not(const dnnlk_tensor *src, dnnlk_tensor *dst, int ith, int nth) {
    return dnnlk__cmp_run(dnnlk__cmp_family_not, 0, src, NULL, dst, ith, nth);
}

#endif /* DNNLK_COMPARE_H */
