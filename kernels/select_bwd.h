/* dnnl_kernels — select_bwd.h: the backward pass of select (select.h, numpy broadcasting).
 *
 *   dnnlk_select_bwd_infer(cond, diff_dst, diff_src0, diff_src1)
 *   dnnlk_select_bwd(cond, diff_dst, diff_src0, diff_src1, ith, nth)
 *
 * diff_src0 = Σ (cond != 0 ? diff_dst : 0),  diff_src1 = Σ (cond != 0 ? 0 : diff_dst), each summed
 * over the dims along which that source was broadcast to diff_dst's shape (a 0-d source gets the
 * sum of everything its branch took). diff_src0 / diff_src1 are optional (NULL); their ndims and
 * dims must be given (the sources' shapes: they broadcast one way to diff_dst's dims), their
 * strides are completed like any output, their dtype is diff_dst's (undef is completed). cond
 * (boolean, u8, s8; any nonzero byte is true) broadcasts one way to diff_dst. diff_dst is f32,
 * bf16 or f16, any strides.
 *
 * Elements that are not reduced (the source not broadcast) are moved: diff_dst's value where the
 * branch was taken (NaN and -0 kept), +0 elsewhere (also where diff_dst is NaN or inf). Reduced
 * elements are summed in double in a fixed order (row-major over the reduced dims of diff_dst's
 * logical index) and rounded once, so every ISA level and every (ith, nth) gives the same bits;
 * parts split the elements of each output, never a sum (no atomics, no workspace).
 * Speed: unreduced rows run in vector code (contiguous or scalar cond); reductions are a plain
 * loop per output element (diff_dst read along the reduced dims).
 *
 * Statuses: invalid_arguments for NULL cond/diff_dst, missing data, neither output given, an
 * output overlapping an input or the other output (an output may be diff_dst exactly when it is
 * not broadcast), bad (ith, nth); invalid_shape for shapes that do not broadcast one way to
 * diff_dst or an output with unknown ndims or dims; invalid_data_type. Nothing is written on
 * error. */
#ifndef DNNLK_SELECT_BWD_H
#define DNNLK_SELECT_BWD_H

#include "select.h"

DNNLK__NOINLINE_BEGIN

#define DNNLK__SIMD_BODY "select_bwd_simd.h"
#include "simd_instantiate.h"

static inline dnnlk_status dnnlk__selb_prepare_out(const dnnlk_tensor *dd, const dnnlk_tensor *t, dnnlk_tensor *o) {
    dnnlk_tensor r;
    dnnlk_status st;
    int i;
    if (t->ndims < 0 || t->ndims > DNNLK_MAX_NDIMS) return dnnlk_invalid_shape;
    for (i = 0; i < t->ndims; i++)
        if (t->dims[i] < 0) return dnnlk_invalid_shape;
    if ((st = dnnlk_broadcast_oneway(t->ndims, t->dims, dd->ndims, dd->dims)) != dnnlk_success) return st;
    r = *t;
    if (r.dtype == dnnlk_dtype_undef) r.dtype = dd->dtype;
    if (r.dtype != dd->dtype) return dnnlk_invalid_data_type;
    if ((st = dnnlk__complete_output(&r, t->ndims, t->dims, &r)) != dnnlk_success) return st;
    *o = r;
    return dnnlk_success;
}

static inline dnnlk_status dnnlk__selb_prepare(const dnnlk_tensor *cond, const dnnlk_tensor *dd,
                                               const dnnlk_tensor *d0, const dnnlk_tensor *d1, int exec,
                                               dnnlk_tensor *o0, dnnlk_tensor *o1) {
    dnnlk_status st;
    if (!cond || !dd || (!d0 && !d1)) return dnnlk_invalid_arguments;
    if ((st = dnnlk__check_input(cond, exec)) != dnnlk_success) return st;
    if ((st = dnnlk__check_input(dd, exec)) != dnnlk_success) return st;
    if (!dnnlk__select_cond_dtype_ok(cond->dtype) || !dnnlk__is_float_dtype(dd->dtype)) return dnnlk_invalid_data_type;
    if ((st = dnnlk_broadcast_oneway(cond->ndims, cond->dims, dd->ndims, dd->dims)) != dnnlk_success) return st;
    if (d0 && (st = dnnlk__selb_prepare_out(dd, d0, o0)) != dnnlk_success) return st;
    if (d1 && (st = dnnlk__selb_prepare_out(dd, d1, o1)) != dnnlk_success) return st;
    if (exec) {
        int k;
        for (k = 0; k < 2; k++) {
            const dnnlk_tensor *o = k ? (d1 ? o1 : NULL) : (d0 ? o0 : NULL);
            int64_t n1 = 0, n2 = 0;
            if (!o) continue;
            if ((st = dnnlk__output_writable(o, dd, NULL)) != dnnlk_success) return st;
            (void)dnnlk_shape_numel(o->ndims, o->dims, &n1);
            (void)dnnlk_shape_numel(dd->ndims, dd->dims, &n2);
            if (n1 != n2 && dnnlk__ranges_intersect(o, dd)) return dnnlk_invalid_arguments; /* reduced: no alias */
            if (dnnlk__ranges_intersect(o, cond)) return dnnlk_invalid_arguments;
        }
        if (d0 && d1 && dnnlk__ranges_intersect(o0, o1)) return dnnlk_invalid_arguments;
    }
    return dnnlk_success;
}

/* Completes the strides (and undef dtypes) of diff_src0 / diff_src1; writes nothing on error. */
static inline dnnlk_status dnnlk_select_bwd_infer(const dnnlk_tensor *cond, const dnnlk_tensor *diff_dst,
                                                  dnnlk_tensor *diff_src0, dnnlk_tensor *diff_src1) {
    dnnlk_tensor o0, o1;
    dnnlk_status st = dnnlk__selb_prepare(cond, diff_dst, diff_src0, diff_src1, 0, &o0, &o1);
    if (st != dnnlk_success) return st;
    if (diff_src0) dnnlk__set_desc(diff_src0, &o0);
    if (diff_src1) dnnlk__set_desc(diff_src1, &o1);
    return dnnlk_success;
}

/* Output o (take: 1 for src0, 0 for src1), part ith of nth of its elements. */
static inline void dnnlk__selb_one(const dnnlk_tensor *cond, const dnnlk_tensor *dd, const dnnlk_tensor *o, int take,
                                   int ith, int nth) {
    int nd = dd->ndims, i, nr = 0, no = 0, empty_sum = 0, rd[DNNLK_MAX_NDIMS], od[DNNLK_MAX_NDIMS];
    int64_t os[DNNLK_MAX_NDIMS], cs[DNNLK_MAX_NDIMS], e0, e1, total = 1, e;
    const int64_t es = (int64_t)dnnlk_dtype_size(dd->dtype);
    dnnlk__broadcast_strides(o, nd, dd->dims, os);
    dnnlk__broadcast_strides(cond, nd, dd->dims, cs);
    for (i = 0; i < nd; i++) {
        int ob = o->ndims - nd + i;
        int64_t odim = ob >= 0 ? o->dims[ob] : 1;
        if (odim == 1 && dd->dims[i] != 1) rd[nr++] = i, empty_sum |= dd->dims[i] == 0;
        else od[no++] = i;
        if (dd->dims[i] == 0 && odim != 1) return; /* no output elements */
    }
    if (nr == 0) { /* elementwise: rows in dd's memory order */
        dnnlk__loop plan;
        dnnlk__loop_iter it;
        const int64_t *st[3];
        size_t esz[3];
        void *base[3];
        char *row[3];
        int64_t b, en, len;
        void (*fn)(char *, int64_t, const char *, int64_t, const unsigned char *, int64_t, int64_t, int, int);
        st[0] = os, st[1] = dd->strides, st[2] = cs;
        esz[0] = esz[1] = (size_t)es, esz[2] = 1;
        base[0] = o->data, base[1] = dd->data, base[2] = cond->data;
        dnnlk__loop_init(&plan, nd, dd->dims, 3, st, esz, DNNLK__LOOP_REORDER);
        dnnlk__part_range(plan.total, ith, nth, 64, &b, &en);
        fn = DNNLK__DISPATCH(dnnlk__selb_row, );
        dnnlk__iter_init(&it, &plan, base, b, en);
        while ((len = dnnlk__iter_next(&it, row)) > 0)
            fn(row[0], dnnlk__row_stride(&plan, 0), row[1], dnnlk__row_stride(&plan, 1),
               (const unsigned char *)row[2], dnnlk__row_stride(&plan, 2), len, (int)dd->dtype, take);
        return;
    }
    for (i = 0; i < no; i++) total *= dd->dims[od[i]];
    dnnlk__part_range(total, ith, nth, 16, &e0, &e1);
    for (e = e0; e < e1; e++) {
        int64_t rem = e, goff = 0, coff = 0, ooff = 0, idx[DNNLK_MAX_NDIMS] = {0}, k, inner, gs, cst;
        double acc = 0;
        for (i = no - 1; i >= 0; i--) {
            int d = od[i];
            int64_t v = rem % dd->dims[d];
            rem /= dd->dims[d];
            goff += v * dd->strides[d], coff += v * cs[d], ooff += v * os[d];
        }
        /* the reduced dims, row-major; the innermost one in a tight loop */
        inner = dd->dims[rd[nr - 1]], gs = dd->strides[rd[nr - 1]] * es, cst = cs[rd[nr - 1]];
        while (!empty_sum) { /* a sum over nothing is 0 */
            int64_t go = goff, co = coff;
            const char *gp;
            const unsigned char *cp;
            for (i = 0; i < nr - 1; i++) go += idx[i] * dd->strides[rd[i]], co += idx[i] * cs[rd[i]];
            gp = (const char *)dd->data + go * es;
            cp = (const unsigned char *)cond->data + co;
            for (k = 0; k < inner; k++)
                if ((cp[k * cst] != 0) == take) acc += (double)dnnlk__load_as_f32(gp + k * gs, dd->dtype);
            for (i = nr - 2; i >= 0; i--) {
                if (++idx[i] < dd->dims[rd[i]]) break;
                idx[i] = 0;
            }
            if (i < 0) break;
        }
        dnnlk__store_from_f32((char *)o->data + ooff * es, dd->dtype, (float)acc);
    }
}

/* select backward, part ith of nth (see the top of the file). */
static inline dnnlk_status dnnlk_select_bwd(const dnnlk_tensor *cond, const dnnlk_tensor *diff_dst,
                                            dnnlk_tensor *diff_src0, dnnlk_tensor *diff_src1, int ith, int nth) {
    dnnlk_tensor o0, o1;
    dnnlk_status st;
    if (!dnnlk__part_ok(ith, nth)) return dnnlk_invalid_arguments;
    st = dnnlk__selb_prepare(cond, diff_dst, diff_src0, diff_src1, 1, &o0, &o1);
    if (st != dnnlk_success) return st;
    if (diff_src0) {
        if (memcmp(&o0, diff_src0, sizeof o0) != 0) *diff_src0 = o0;
        dnnlk__selb_one(cond, diff_dst, &o0, 1, ith, nth);
    }
    if (diff_src1) {
        if (memcmp(&o1, diff_src1, sizeof o1) != 0) *diff_src1 = o1;
        dnnlk__selb_one(cond, diff_dst, &o1, 0, ith, nth);
    }
    return dnnlk_success;
}

DNNLK__NOINLINE_END
#endif /* DNNLK_SELECT_BWD_H */
