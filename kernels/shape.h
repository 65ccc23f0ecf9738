/* dnnl_kernels — shape.h: shape and stride inference, shared by every op.
 *
 * - numpy (bidirectional) broadcast of two shapes, and one-way broadcast of one shape to another;
 * - stride deduction for an output whose strides are all known, all unknown, or all unknown but
 *   one that is 1 (that dim innermost, the others dense row-major outward); anything else is
 *   dnnlk_invalid_shape;
 * - completion of an output descriptor from the inferred shape, checking the dims it already has;
 * - int64 overflow of element counts and byte extents, and overlap checks: an output's elements
 *   must not share memory with each other, nor with an input unless it is the same view (in-place).
 *
 * The overlap check of a strided layout is conservative: sorted by |stride|, each stride must pass
 * the whole extent of the smaller ones. Interleaved layouts that happen not to collide (rare and
 * never produced by deduction) are reported as overlapping. */
#ifndef DNNLK_SHAPE_H
#define DNNLK_SHAPE_H

#include "base.h"

/* ---- checked int64 arithmetic ---- */

static DNNLK__FORCEINLINE int dnnlk__mul_overflows(int64_t a, int64_t b, int64_t *r) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_mul_overflow(a, b, r);
#else
    if (a != 0 && (b > INT64_MAX / (a < 0 ? -a : a) || b < -(INT64_MAX / (a < 0 ? -a : a)))) return 1;
    *r = a * b;
    return 0;
#endif
}

static DNNLK__FORCEINLINE int dnnlk__add_overflows(int64_t a, int64_t b, int64_t *r) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_add_overflow(a, b, r);
#else
    if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b)) return 1;
    *r = a + b;
    return 0;
#endif
}

/* Number of elements of a shape whose dims are all known (>= 0). A shape must have a representable
 * count even when another dim is 0. One pass: every failure is the same status, so the order in which
 * they are found does not show (these checks run on every call; small calls feel their cost). */
static inline dnnlk_status dnnlk_shape_numel(int ndims, const int64_t *dims, int64_t *numel) {
    int64_t n = 1;
    int i, has_zero = 0;
    if (ndims < 0 || ndims > DNNLK_MAX_NDIMS || (ndims > 0 && !dims) || !numel) return dnnlk_invalid_shape;
    for (i = 0; i < ndims; i++) {
        int64_t d = dims[i];
        if (d < 0) return dnnlk_invalid_shape;
        if (d == 0) has_zero = 1;
        else if (dnnlk__mul_overflows(n, d, &n)) return dnnlk_invalid_shape;
    }
    *numel = has_zero ? 0 : n;
    return dnnlk_success;
}

/* One dim's part of a layout's byte extent: (d - 1) * stride * esize added to the low bound when
 * negative, the high one otherwise (d > 1). Returns nonzero on an overflow, the bounds then
 * meaningless. Shared by dnnlk__byte_extent and dnnlk__check_input's single pass. */
static DNNLK__FORCEINLINE int dnnlk__extent_step(int64_t d, int64_t stride, int64_t esize, int64_t *l, int64_t *h) {
    int64_t t = 0;
    int ovf = dnnlk__mul_overflows(d - 1, stride, &t);
    ovf |= dnnlk__mul_overflows(t, esize, &t);
    return ovf | (t < 0 ? dnnlk__add_overflows(*l, t, l) : dnnlk__add_overflows(*h, t, h));
}

/* Byte offsets [lo, hi) that the elements of a strided layout touch, relative to data. An empty
 * tensor touches nothing: lo == hi == 0, whatever the other dims' extents (an overflow is only
 * reported for a non-empty layout). */
static inline dnnlk_status dnnlk__byte_extent(int ndims, const int64_t *dims, const int64_t *strides,
                                              size_t esize, int64_t *lo, int64_t *hi) {
    int64_t l = 0, h = 0;
    int i, empty = 0, ovf = 0;
    for (i = 0; i < ndims; i++) {
        int64_t d = dims[i];
        if (d == 0) empty = 1;
        if (d == 0 || d == 1) continue;
        ovf |= dnnlk__extent_step(d, strides[i], (int64_t)esize, &l, &h);
    }
    if (empty) {
        *lo = *hi = 0;
        return dnnlk_success;
    }
    if (ovf || dnnlk__add_overflows(h, (int64_t)esize, &h)) return dnnlk_invalid_shape;
    *lo = l;
    *hi = h;
    return dnnlk_success;
}

/* An input tensor: ndims in range, every dim and stride known, counts and extents representable,
 * a supported dtype, and data present when need_data. One pass over the dims: dnnlk_shape_numel's
 * count and dnnlk__byte_extent's bounds, with their rules (a count must be representable even when
 * another dim is 0; an extent only when no dim is 0). */
/* quant_ok: the quantized dtypes that have a byte size (fp8, s16, u16: convert takes them) pass
 * too; every other op passes 0 (dnnlk__check_input). */
static inline dnnlk_status dnnlk__check_input_dt(const dnnlk_tensor *t, int need_data, int quant_ok) {
    int64_t n = 1, l = 0, h = 0, esz;
    int i, nd, empty = 0, ovf = 0;
    if (!t) return dnnlk_invalid_arguments;
    nd = t->ndims;
    if (nd < 0 || nd > DNNLK_MAX_NDIMS) return dnnlk_invalid_shape;
    esz = (int64_t)dnnlk_dtype_size(t->dtype);
    if (esz == 0 || (!quant_ok && dnnlk__dtype_quant_only(t->dtype))) return dnnlk_invalid_data_type;
    for (i = 0; i < nd; i++) {
        int64_t d = t->dims[i], s = t->strides[i];
        if (d < 0 || (d != 1 && s == DNNLK_UNKNOWN)) return dnnlk_invalid_shape;
        if (d == 0) {
            empty = 1;
            continue;
        }
        if (dnnlk__mul_overflows(n, d, &n)) return dnnlk_invalid_shape;
        if (d != 1) ovf |= dnnlk__extent_step(d, s, esz, &l, &h);
    }
    if (!empty && (ovf || dnnlk__add_overflows(h, esz, &h))) return dnnlk_invalid_shape;
    if (need_data && !t->data && !empty) return dnnlk_invalid_arguments;
    return dnnlk_success;
}

static inline dnnlk_status dnnlk__check_input(const dnnlk_tensor *t, int need_data) {
    return dnnlk__check_input_dt(t, need_data, 0);
}

/* ---- broadcasting ---- */

/* numpy broadcast of shapes a and b (right-aligned; each pair equal, or one of them 1). */
static inline dnnlk_status dnnlk_broadcast_shapes(int na, const int64_t *a, int nb, const int64_t *b,
                                                  int *nout, int64_t *out) {
    int64_t r[DNNLK_MAX_NDIMS]; /* out may be a or b; only r[0, n) is read */
    int n, i;
    if (na < 0 || nb < 0 || na > DNNLK_MAX_NDIMS || nb > DNNLK_MAX_NDIMS) return dnnlk_invalid_shape;
    if (!nout || !out || (na && !a) || (nb && !b)) return dnnlk_invalid_arguments;
    n = na > nb ? na : nb;
    for (i = 0; i < n; i++) {
        int ia = na - n + i, ib = nb - n + i;
        int64_t da = ia >= 0 ? a[ia] : 1, db = ib >= 0 ? b[ib] : 1;
        if (da < 0 || db < 0) return dnnlk_invalid_shape;
        if (da == db || db == 1) r[i] = da;
        else if (da == 1) r[i] = db;
        else return dnnlk_invalid_shape;
    }
    *nout = n;
    dnnlk__copy_dims(out, r, n);
    return dnnlk_success;
}

/* One-way broadcast: may `from` be broadcast to `to` without changing `to`? (No more dims than
 * `to`; each right-aligned dim equal or 1.) */
static inline dnnlk_status dnnlk_broadcast_oneway(int nfrom, const int64_t *from, int nto, const int64_t *to) {
    int i;
    if (nfrom < 0 || nto < 0 || nfrom > DNNLK_MAX_NDIMS || nto > DNNLK_MAX_NDIMS) return dnnlk_invalid_shape;
    if ((nfrom && !from) || (nto && !to)) return dnnlk_invalid_arguments;
    if (nfrom > nto) return dnnlk_invalid_shape;
    for (i = 0; i < nfrom; i++) {
        int64_t f = from[i], t = to[nto - nfrom + i];
        if (f < 0 || t < 0) return dnnlk_invalid_shape;
        if (f != t && f != 1) return dnnlk_invalid_shape;
    }
    return dnnlk_success;
}

/* Strides of input t viewed with shape `to` (t must broadcast one-way to it): 0 where t is
 * broadcast or has a size-1 dim, its own stride elsewhere. */
static inline void dnnlk__broadcast_strides(const dnnlk_tensor *t, int nto, const int64_t *to, int64_t *strides) {
    int i;
    for (i = 0; i < nto; i++) {
        int it = t->ndims - nto + i;
        strides[i] = (it >= 0 && t->dims[it] == to[i] && to[i] != 1) ? t->strides[it] : 0;
    }
}

/* ---- stride deduction ---- */

/* Dense row-major strides (size-0 dims count as 1, so strides stay meaningful). The caller
 * ensures the shape's count is representable (dnnlk_shape_numel), which bounds every stride. */
static inline void dnnlk_dense_strides(int ndims, const int64_t *dims, int64_t *strides) {
    int64_t s = 1;
    int i;
    for (i = ndims - 1; i >= 0; i--) {
        strides[i] = s;
        if (i > 0) s *= dims[i] > 1 ? dims[i] : 1;
    }
}

/* Do distinct elements of this layout share an address? (Conservative; see the top of the file.)
 * Returns 1 when they may, 0 when they cannot, -1 when an extent overflows. */
static inline int dnnlk__layout_self_overlaps(int ndims, const int64_t *dims, const int64_t *strides) {
    int order[DNNLK_MAX_NDIMS];
    int n = 0, i, j;
    int64_t span = 1, t;
    for (i = 0; i < ndims; i++) {
        if (dims[i] == 0) return 0;
        if (dims[i] > 1) order[n++] = i;
    }
    for (i = 0; i < n; i++) /* before the sort: -INT64_MIN overflows */
        if (strides[order[i]] == INT64_MIN) return -1;
    for (i = 1; i < n; i++) { /* insertion sort by |stride| */
        int k = order[i];
        int64_t sk = strides[k] < 0 ? -strides[k] : strides[k];
        for (j = i - 1; j >= 0; j--) {
            int64_t sj = strides[order[j]] < 0 ? -strides[order[j]] : strides[order[j]];
            if (sj <= sk) break;
            order[j + 1] = order[j];
        }
        order[j + 1] = k;
    }
    for (i = 0; i < n; i++) {
        int k = order[i];
        int64_t s = strides[k] < 0 ? -strides[k] : strides[k];
        if (s < span) return 1;
        if (dnnlk__mul_overflows(dims[k] - 1, s, &t) || dnnlk__add_overflows(span, t, &span)) return -1;
    }
    return 0;
}

/* Fills the unknown strides of a layout with known dims, by the three rules at the top of the
 * file. On failure `strides` is left as it was. */
static inline dnnlk_status dnnlk_deduce_strides(int ndims, const int64_t *dims, int64_t *strides) {
    int64_t r[DNNLK_MAX_NDIMS], numel; /* only r[0, ndims) is used */
    int i, unknown = 0, ones = 0, one_at = -1, ov;
    if (ndims < 0 || ndims > DNNLK_MAX_NDIMS) return dnnlk_invalid_shape;
    if (ndims > 0 && (!dims || !strides)) return dnnlk_invalid_arguments;
    for (i = 0; i < ndims; i++) {
        if (strides[i] == DNNLK_UNKNOWN) unknown++;
        else if (strides[i] == 1) ones++, one_at = i;
    }
    /* negative dims included; the count bounds every deduced stride */
    if (dnnlk_shape_numel(ndims, dims, &numel) != dnnlk_success) return dnnlk_invalid_shape;
    if (unknown == 0) { /* all given (an execute call's usual output): only checked */
        ov = dnnlk__layout_self_overlaps(ndims, dims, strides);
        return ov == 0 ? dnnlk_success : ov < 0 ? dnnlk_invalid_shape : dnnlk_invalid_arguments;
    }
    /* element loops, not memcpy: a 0-d layout may come with NULL dims and strides */
    if (unknown == ndims) {
        dnnlk_dense_strides(ndims, dims, r);
    } else if (ones == 1 && unknown == ndims - 1) {
        int64_t s = dims[one_at] > 1 ? dims[one_at] : 1;
        r[one_at] = 1;
        for (i = ndims - 1; i >= 0; i--) {
            if (i == one_at) continue;
            r[i] = s;
            s *= dims[i] > 1 ? dims[i] : 1; /* bounded by the count checked above */
        }
    } else {
        return dnnlk_invalid_shape;
    }
    ov = dnnlk__layout_self_overlaps(ndims, dims, r);
    if (ov != 0) return ov < 0 ? dnnlk_invalid_shape : dnnlk_invalid_arguments;
    dnnlk__copy_dims(strides, r, ndims);
    return dnnlk_success;
}

/* Completes output descriptor `out` (ndims may be DNNLK_UNKNOWN, any dim or stride may be) for
 * the inferred shape: known dims must match, strides are deduced, the layout must not overlap
 * itself and its extent must be representable. The result goes to `done` (which may be `out`
 * itself); on failure nothing is written. dtype and data are copied from `out` as they are.
 * Works on the dims and strides alone and writes `done` once: whole-descriptor copies (208 bytes)
 * were a good part of a small call's cost. */
static inline dnnlk_status dnnlk__complete_output_dt(const dnnlk_tensor *out, int ndims, const int64_t *dims,
                                                     dnnlk_tensor *done, int quant_ok) {
    int64_t rd[DNNLK_MAX_NDIMS], rs[DNNLK_MAX_NDIMS], lo, hi; /* only [0, ndims) is used */
    int i, known;
    size_t esz;
    dnnlk_status st;
    if (!out || !done) return dnnlk_invalid_arguments;
    if (ndims < 0 || ndims > DNNLK_MAX_NDIMS) return dnnlk_invalid_shape;
    known = out->ndims != DNNLK_UNKNOWN;
    if (known && out->ndims != ndims) return dnnlk_invalid_shape;
    for (i = 0; i < ndims; i++) {
        int64_t g = known ? out->dims[i] : DNNLK_UNKNOWN;
        if (dims[i] < 0) return dnnlk_invalid_shape;
        if (g != DNNLK_UNKNOWN && g != dims[i]) return dnnlk_invalid_shape;
        rd[i] = dims[i];
        rs[i] = known ? out->strides[i] : DNNLK_UNKNOWN;
    }
    st = dnnlk_deduce_strides(ndims, rd, rs);
    if (st != dnnlk_success) return st;
    esz = dnnlk_dtype_size(out->dtype);
    if (esz == 0 || (!quant_ok && dnnlk__dtype_quant_only(out->dtype))) return dnnlk_invalid_data_type;
    st = dnnlk__byte_extent(ndims, rd, rs, esz, &lo, &hi);
    if (st != dnnlk_success) return st;
    done->data = out->data, done->dtype = out->dtype, done->ndims = ndims;
    dnnlk__copy_dims(done->dims, rd, ndims);
    dnnlk__copy_dims(done->strides, rs, ndims);
    return dnnlk_success;
}

/* The same for every op but convert (quant_ok as in dnnlk__check_input_dt). */
static inline dnnlk_status dnnlk__complete_output(const dnnlk_tensor *out, int ndims, const int64_t *dims,
                                                  dnnlk_tensor *done) {
    return dnnlk__complete_output_dt(out, ndims, dims, done, 0);
}

/* ---- aliasing between an output and an input ---- */

/* t's strides are dense row-major (dims of 1 and empty tensors aside): how packed s4/u4 tensors
 * are laid out, element i in byte i / 2, low nibble first (ONNX). */
static inline int dnnlk__dense_rowmajor(const dnnlk_tensor *t) {
    int64_t s = 1;
    int i;
    for (i = 0; i < t->ndims; i++)
        if (t->dims[i] == 0) return 1; /* no elements */
    for (i = t->ndims - 1; i >= 0; i--) {
        if (t->dims[i] != 1 && t->strides[i] != s) return 0;
        s *= t->dims[i];
    }
    return 1;
}

/* nbytes bytes from p as a dense 1-d u8 tensor: how a bit mask, a workspace or packed data takes
 * part in the overlap checks below. */
static inline dnnlk_tensor dnnlk__byte_range(const void *p, int64_t nbytes) {
    dnnlk_tensor t;
    memset(&t, 0, sizeof t);
    t.data = (void *)(uintptr_t)p;
    t.dtype = dnnlk_u8;
    t.ndims = 1;
    t.dims[0] = nbytes;
    t.strides[0] = 1;
    return t;
}

/* The bytes of a dense packed s4/u4 tensor, as dnnlk__byte_range. */
static inline dnnlk_tensor dnnlk__packed4_bytes(const dnnlk_tensor *t) {
    int64_t n = 0;
    (void)dnnlk_shape_numel(t->ndims, t->dims, &n);
    return dnnlk__byte_range(t->data, (n + 1) / 2);
}

static inline int dnnlk__ranges_intersect(const dnnlk_tensor *a, const dnnlk_tensor *b) {
    int64_t alo, ahi, blo, bhi;
    const char *pa = (const char *)a->data, *pb = (const char *)b->data;
    if (!pa || !pb) return 0;
    if (dnnlk__byte_extent(a->ndims, a->dims, a->strides, dnnlk_dtype_size(a->dtype), &alo, &ahi) ||
        dnnlk__byte_extent(b->ndims, b->dims, b->strides, dnnlk_dtype_size(b->dtype), &blo, &bhi))
        return 1;
    if (alo == ahi || blo == bhi) return 0;
    /* Compare as integers: the two objects may be unrelated, where pointer comparison is undefined,
     * and an extent may reach past any object (pa + alo itself is then undefined). d is b's address
     * relative to a's; an overflowing bound counts as overlap (refused). */
    {
        int64_t d = (int64_t)((uintptr_t)pb - (uintptr_t)pa), bh, bl;
        if (dnnlk__add_overflows(d, bhi, &bh) || dnnlk__add_overflows(d, blo, &bl)) return 1;
        return alo < bh && bl < ahi;
    }
}

/* May output `out` (complete) be written while input `in` is read? Yes if their memory is
 * disjoint, or if `in` is exactly the same view as `out` (same address, element size, and strides
 * over out's shape after broadcasting, so every element is read before it is written, by the same
 * part). Any other overlap is refused. */
static inline int dnnlk__alias_ok(const dnnlk_tensor *out, const dnnlk_tensor *in) {
    int64_t s[DNNLK_MAX_NDIMS];
    int i;
    if (!dnnlk__ranges_intersect(out, in)) return 1;
    if (out->data != in->data || dnnlk_dtype_size(out->dtype) != dnnlk_dtype_size(in->dtype)) return 0;
    if (in->ndims > out->ndims) return 0;
    dnnlk__broadcast_strides(in, out->ndims, out->dims, s);
    for (i = 0; i < out->ndims; i++) {
        if (out->dims[i] <= 1) continue;
        if (s[i] != out->strides[i]) return 0;
    }
    return 1;
}

/* What an execute call checks of a completed output before writing it: data present unless it
 * has no elements (dnnlk_invalid_arguments), and every input (in1 may be NULL) either the
 * identical view or disjoint (dnnlk__alias_ok; dnnlk_invalid_arguments otherwise). */
static inline dnnlk_status dnnlk__output_writable(const dnnlk_tensor *out, const dnnlk_tensor *in0,
                                                  const dnnlk_tensor *in1) {
    int64_t numel = 0;
    if (dnnlk_shape_numel(out->ndims, out->dims, &numel) != dnnlk_success) return dnnlk_invalid_shape;
    if (numel > 0 && !out->data) return dnnlk_invalid_arguments;
    if (!dnnlk__alias_ok(out, in0) || (in1 && !dnnlk__alias_ok(out, in1))) return dnnlk_invalid_arguments;
    return dnnlk_success;
}

#endif /* DNNLK_SHAPE_H */
