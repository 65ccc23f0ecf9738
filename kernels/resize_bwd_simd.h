/* dnnl_kernels — resize_bwd_simd.h: resize backward's two inner loops, written once on the vector
 * layer and compiled at every level by simd_instantiate.h from resize_bwd.h (no include guard).
 * Every product is kept apart from its sum (dnnlk__vf_nofuse, DNNLK__NOFUSE) unless it is exact
 * (dnnlk__rsb_rowsum_v), where fusing cannot change it: the plain C of resize_bwd.h and every level
 * give the same bits. */

/* tmp[k] += w · g[k] for k < n, g contiguous of dtype dt (f32, bf16, f16), in double. */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__rsb_axpy)(double *tmp, const char *g, int dt, int64_t n, double w) {
    const size_t es = dt == dnnlk_f32 ? 4 : 2;
    const dnnlk__vd vw = dnnlk__vd_set1(w);
    int64_t k = 0;
    for (; k + DNNLK__VF_N <= n; k += DNNLK__VF_N) {
        dnnlk__vf v = dnnlk__vf_load_dt(g + (size_t)k * es, dt);
        int h;
        for (h = 0; h < DNNLK__VF_N / DNNLK__VD_N; h++) {
            double *t = tmp + k + h * DNNLK__VD_N;
            dnnlk__vd p = dnnlk__vd_mul(vw, dnnlk__vd_from_vf(v, h));
            dnnlk__vf_nofuse(p);
            dnnlk__vd_storeu(t, dnnlk__vd_add(dnnlk__vd_loadu(t), p));
        }
    }
    for (; k < n; k++) {
        double p = w * (double)dnnlk__load_as_f32(g + (size_t)k * es, (dnnlk_dtype)dt);
        DNNLK__NOFUSE(p);
        tmp[k] += p;
    }
}

/* The vectors of dnnlk__rsb_rowsum below: tmp[k] = Σ_{r < nr} w[r] · g[r][k] for k < n - n % VF_N.
 * exact: every w[r] is an f32 value, so each product of it with an f32 element is exact in double
 * (24 + 24 bits) and a multiply-add rounds it as the separate multiply and add do: the products
 * may fuse (the compiler's choice, per level) with the same bits. Otherwise they are kept apart. */
static DNNLK__FORCEINLINE int64_t DNNLK__SFX(dnnlk__rsb_rowsum_v)(double *tmp, const char *const *g, const double *w, int nr,
                                                                 int dt, int64_t n, const int exact) {
    const size_t es = dt == dnnlk_f32 ? 4 : 2;
    int64_t k = 0;
    int r, h;
    for (; k + DNNLK__VF_N <= n; k += DNNLK__VF_N) {
        dnnlk__vd s[DNNLK__VF_N / DNNLK__VD_N];
        for (h = 0; h < DNNLK__VF_N / DNNLK__VD_N; h++) s[h] = dnnlk__vd_zero();
        if (dt == dnnlk_f32) /* converting loads */
            for (r = 0; r < nr; r++) {
                const dnnlk__vd vw = dnnlk__vd_set1(w[r]);
                for (h = 0; h < DNNLK__VF_N / DNNLK__VD_N; h++) {
                    dnnlk__vd p = dnnlk__vd_mul(vw, dnnlk__vd_load_f32((const float *)(const void *)g[r] + k + h * DNNLK__VD_N));
                    if (!exact) dnnlk__vf_nofuse(p);
                    s[h] = dnnlk__vd_add(s[h], p);
                }
            }
        else
            for (r = 0; r < nr; r++) {
                const dnnlk__vf v = dnnlk__vf_load_dt(g[r] + (size_t)k * es, dt);
                const dnnlk__vd vw = dnnlk__vd_set1(w[r]);
                for (h = 0; h < DNNLK__VF_N / DNNLK__VD_N; h++) {
                    dnnlk__vd p = dnnlk__vd_mul(vw, dnnlk__vd_from_vf(v, h));
                    if (!exact) dnnlk__vf_nofuse(p);
                    s[h] = dnnlk__vd_add(s[h], p);
                }
            }
        for (h = 0; h < DNNLK__VF_N / DNNLK__VD_N; h++) dnnlk__vd_storeu(tmp + k + h * DNNLK__VD_N, s[h]);
    }
    return k;
}

/* tmp[k] = Σ_{r < nr} w[r] · g[r][k] in r order from 0, k < n, the rows g[r] contiguous of dtype dt:
 * what nr calls of dnnlk__rsb_axpy on a zeroed tmp give, bit for bit, in one pass that keeps the
 * sum in registers (the axpy loaded and stored all of tmp once per row). pf (or NULL): the n
 * elements at pf + pfs and pf + 2 pfs bytes are requested into L1 (rows a next call reads). Those
 * rows may lie past diff_dst's end: their addresses are formed as integers (a prefetch of any
 * address is harmless; a pointer past an object is undefined behaviour in C). The weights of a
 * resize along one outer axis are the forward's f32 ones, exact products (dnnlk__rsb_rowsum_v):
 * fused there, the bench's x2 row ran 5.5% faster (`tools/ab_inprocess.sh OLD rsb`, same bits). */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__rsb_rowsum)(double *tmp, const char *const *g, const double *w, int nr, int dt,
                                                          int64_t n, const char *pf, int64_t pfs) {
    const size_t es = dt == dnnlk_f32 ? 4 : 2;
    int64_t k;
    int r, exact = 1;
    if (pf) {
        const uintptr_t a = (uintptr_t)pf + (uintptr_t)pfs, b = a + (uintptr_t)pfs, bytes = (uintptr_t)n * es;
        uintptr_t o;
        (void)a, (void)b; /* the scalar level's prefetch is no code */
        for (o = 0; o < bytes; o += 64) {
            dnnlk__vec_prefetch_l1((const void *)(a + o), 1);
            dnnlk__vec_prefetch_l1((const void *)(b + o), 1);
        }
    }
    for (r = 0; r < nr; r++) exact &= (double)(float)w[r] == w[r];
    k = exact ? DNNLK__SFX(dnnlk__rsb_rowsum_v)(tmp, g, w, nr, dt, n, 1) : DNNLK__SFX(dnnlk__rsb_rowsum_v)(tmp, g, w, nr, dt, n, 0);
    for (; k < n; k++) {
        double s = 0;
        for (r = 0; r < nr; r++) {
            double p = w[r] * (double)dnnlk__load_as_f32(g[r] + (size_t)k * es, (dnnlk_dtype)dt);
            DNNLK__NOFUSE(p);
            s += p;
        }
        tmp[k] = s;
    }
}

/* t[ix[l]] for the DNNLK__VD_N lanes at ix; step2 1, 3, 4: those indices step by 2 (one load and
 * shuffle instead of a gather: on Zen 4 the gathers were a third of an x2 upsampling's adjoint),
 * 2: all padding (the zero they read). */
#define DNNLK__RSB_READ(t, ix, step2)                                                                         \
    ((step2) == 2 ? dnnlk__vd_zero() : (step2) ? dnnlk__vd_load_even((t) + *(ix)) : dnnlk__vd_gather((t), (ix)))

/* out[c] = Σ_{r < nr} wt[r·ld + c] · t[ix[r·ld + c]] in r order, c < nc (nc a multiple of
 * DNNLK__VD_N: the table's padding reads a zero with weight 0, which leaves a sum as it is);
 * s2[r·ld/8 + c/8]: reader r's indices over columns 8⌊c/8⌋.. step by 2 (1), are all padding (2:
 * skipped, the sum unchanged), step by 2 and with readers r + 1, r + 2, r + 3 form an x2 window
 * (3: one dnnlk__vd_load_x2 for the four; 4: the window's other readers, stepping by 2). outf
 * (or NULL): those of c < nf also rounded to f32 there (nf: a multiple of DNNLK__VD_N). */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__rsb_colsum)(const double *t, const int32_t *ix, const unsigned char *s2,
                                                          const double *wt, int nr, int64_t ld, int64_t nc, double *out,
                                                          float *outf, int64_t nf) {
    int64_t c;
    int r;
    /* one chain per vector of columns: the vectors are independent, and the x2 windows' four
     * products are written out (an array of them was kept in memory) */
    for (c = 0; c < nc; c += DNNLK__VD_N) {
        dnnlk__vd s = dnnlk__vd_zero(), p;
        for (r = 0; r < nr; r++) {
            const unsigned char m = s2[r * ld / 8 + c / 8];
            const double *w = wt + r * ld + c;
            if (m == 2) continue;
            if (m == 3) { /* readers r .. r + 3, in that order */
                dnnlk__vd x[4];
                dnnlk__vd_load_x2(t + ix[r * ld + c] + 1, x);
                p = dnnlk__vd_mul(dnnlk__vd_loadu(w), x[0]);
                dnnlk__vf_nofuse(p);
                s = dnnlk__vd_add(s, p);
                p = dnnlk__vd_mul(dnnlk__vd_loadu(w + ld), x[1]);
                dnnlk__vf_nofuse(p);
                s = dnnlk__vd_add(s, p);
                p = dnnlk__vd_mul(dnnlk__vd_loadu(w + 2 * ld), x[2]);
                dnnlk__vf_nofuse(p);
                s = dnnlk__vd_add(s, p);
                p = dnnlk__vd_mul(dnnlk__vd_loadu(w + 3 * ld), x[3]);
                dnnlk__vf_nofuse(p);
                s = dnnlk__vd_add(s, p);
                r += 3;
                continue;
            }
            p = dnnlk__vd_mul(dnnlk__vd_loadu(w), DNNLK__RSB_READ(t, ix + r * ld + c, m));
            dnnlk__vf_nofuse(p);
            s = dnnlk__vd_add(s, p);
        }
        dnnlk__vd_storeu(out + c, s);
        if (outf && c < nf) dnnlk__vd_store_f32(outf + c, s);
    }
}
#undef DNNLK__RSB_READ
