/* dnnl_kernels — layer_norm_bwd_simd.h: layer_norm backward's row kernel, written once on the
 * vector layer and compiled at every level by simd_instantiate.h from layer_norm_bwd.h (no include
 * guard). */

/* Pass 1 of row g: Σg, Σg·x̂ and Σx̂² (g = dy·w, x̂ = (x − mean)·s; in lanes, then the lanes and
 * the tail in double) into sums, and dy·x̂ and dy added into the block's column partials accw /
 * accb (NULL when not wanted), rows in order. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__lnb_pass1)(const dnnlk__lnb_job *j, const dnnlk__lnb_rows_arg *ra,
                                                            int64_t g, const int dt, float *m, float *s,
                                                            double *sums) {
    const size_t es = dt == dnnlk_f32 ? 4 : 2;
    const int64_t n = j->n, nv = n - n % DNNLK__VF_N;
    const float *w = j->has_w ? j->w : NULL;
    const char *x = ra->x + g * ra->xp, *dy = ra->dy + g * ra->dyp;
    float *accw = ra->accw, *accb = ra->accb, lane[3][16];
    dnnlk__vf vm, vs, v1 = dnnlk__vf_zero(), v2 = dnnlk__vf_zero(), v3 = dnnlk__vf_zero();
    int64_t i;
    memcpy(m, ra->mean + g * ra->mp, 4);
    memcpy(s, ra->istd + g * ra->ip, 4);
    vm = dnnlk__vf_set1(*m), vs = dnnlk__vf_set1(*s);
    for (i = 0; i < nv; i += DNNLK__VF_N) {
        dnnlk__vf vx = dnnlk__vf_load_dt(x + (size_t)i * es, dt), vd = dnnlk__vf_load_dt(dy + (size_t)i * es, dt);
        dnnlk__vf xh = dnnlk__vf_mul(dnnlk__vf_sub(vx, vm), vs);
        dnnlk__vf vg = w ? dnnlk__vf_mul(vd, dnnlk__vf_loadu(w + i)) : vd;
        dnnlk__vec_prefetch_l2(x + (size_t)i * es + DNNLK__LNB_PF_BYTES, DNNLK__VF_N * es);
        dnnlk__vec_prefetch_l2(dy + (size_t)i * es + DNNLK__LNB_PF_BYTES, DNNLK__VF_N * es);
        v1 = dnnlk__vf_add(v1, vg);
        v2 = dnnlk__vf_fmadd(vg, xh, v2);
        v3 = dnnlk__vf_fmadd(xh, xh, v3);
        if (accw) dnnlk__vf_storeu(accw + i, dnnlk__vf_fmadd(vd, xh, dnnlk__vf_loadu(accw + i)));
        if (accb) dnnlk__vf_storeu(accb + i, dnnlk__vf_add(dnnlk__vf_loadu(accb + i), vd));
    }
    dnnlk__vf_storeu(lane[0], v1);
    dnnlk__vf_storeu(lane[1], v2);
    dnnlk__vf_storeu(lane[2], v3);
    sums[0] = sums[1] = sums[2] = 0;
    for (i = 0; i < DNNLK__VF_N; i++) sums[0] += lane[0][i], sums[1] += lane[1][i], sums[2] += lane[2][i];
    for (i = nv; i < n; i++) {
        float xv = dnnlk__norm_ld(x + (size_t)i * es, dt), dv = dnnlk__norm_ld(dy + (size_t)i * es, dt);
        float xh = (xv - *m) * *s, gv = w ? dv * w[i] : dv;
        sums[0] += gv;
        sums[1] += (double)(gv * xh);
        sums[2] += (double)(xh * xh);
        if (accw) accw[i] += dv * xh;
        if (accb) accb[i] += dv;
    }
}

/* Pass 2 of row g: dx = s·(g − a) − x̂·k (a = mean(g), k from dnnlk__lnb_coeffs); a row whose
 * sums or statistics are not finite is redone in double by dnnlk__lnb_row_double. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__lnb_pass2)(const dnnlk__lnb_job *j, const dnnlk__lnb_rows_arg *ra,
                                                            int64_t g, const int dt, const int nt, float m, float s,
                                                            const double *sums) {
    const size_t es = dt == dnnlk_f32 ? 4 : 2;
    const int64_t n = j->n, nv = n - n % DNNLK__VF_N;
    const float *w = j->has_w ? j->w : NULL;
    const char *x = ra->x + g * ra->xp, *dy = ra->dy + g * ra->dyp;
    char *dx = ra->dx + g * ra->dxp;
    float a, k;
    int64_t i;
    if (!dnnlk__lnb_coeffs(j, m, s, sums[0], sums[1], sums[2], &a, &k)) {
        dnnlk__lnb_row_double(j, x, dy, dx, m, s);
        return;
    }
    {
        dnnlk__vf vm = dnnlk__vf_set1(m), vs = dnnlk__vf_set1(s), va = dnnlk__vf_set1(a), vk = dnnlk__vf_set1(k);
        for (i = 0; i < nv; i += DNNLK__VF_N) {
            dnnlk__vf vx = dnnlk__vf_load_dt(x + (size_t)i * es, dt), vd = dnnlk__vf_load_dt(dy + (size_t)i * es, dt);
            dnnlk__vf xh = dnnlk__vf_mul(dnnlk__vf_sub(vx, vm), vs);
            dnnlk__vf vg = w ? dnnlk__vf_mul(vd, dnnlk__vf_loadu(w + i)) : vd;
            dnnlk__vf r = dnnlk__vf_sub(dnnlk__vf_mul(vs, dnnlk__vf_sub(vg, va)), dnnlk__vf_mul(xh, vk));
            if (nt) dnnlk__vf_stream((float *)(void *)(dx + (size_t)i * es), r);
            else dnnlk__vf_store_dt(dx + (size_t)i * es, dt, r, 0);
        }
        for (i = nv; i < n; i++) {
            float xv = dnnlk__norm_ld(x + (size_t)i * es, dt), dv = dnnlk__norm_ld(dy + (size_t)i * es, dt);
            float xh = (xv - m) * s, gv = w ? dv * w[i] : dv;
            dnnlk__store_from_f32(dx + (size_t)i * es, (dnnlk_dtype)dt, s * (gv - a) - xh * k);
        }
    }
}

/* Rows of one block, each a contiguous group of j->n elements (weight contiguous too), one after
 * the other (pass 2 finds the row in cache). Two rows' passes 1 interleaved measured slower: they
 * cut the two long read streams into short ones. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__lnb_rows_dt)(const dnnlk__lnb_job *j, const dnnlk__lnb_rows_arg *ra,
                                                              const int dt, const int nt) {
    int64_t g;
    for (g = 0; g < ra->rows; g++) {
        float m, s;
        double sums[3];
        DNNLK__SFX(dnnlk__lnb_pass1)(j, ra, g, dt, &m, &s, sums);
        DNNLK__SFX(dnnlk__lnb_pass2)(j, ra, g, dt, nt, m, s, sums);
    }
}

/* The body specialized per dtype (loads and stores without a dtype test per vector); f32 rows
 * whose diff_src starts on a vector boundary are streamed when the part asks for it (ra->nt). */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__lnb_rows)(const dnnlk__lnb_job *j, const dnnlk__lnb_rows_arg *ra) {
    if (j->dt == dnnlk_f32) {
        if (ra->nt && ra->dxp % (int64_t)sizeof(dnnlk__vf) == 0 && (uintptr_t)ra->dx % sizeof(dnnlk__vf) == 0) {
            DNNLK__SFX(dnnlk__lnb_rows_dt)(j, ra, dnnlk_f32, 1);
            dnnlk__vec_sfence();
        } else {
            DNNLK__SFX(dnnlk__lnb_rows_dt)(j, ra, dnnlk_f32, 0);
        }
    } else if (j->dt == dnnlk_bf16) {
        DNNLK__SFX(dnnlk__lnb_rows_dt)(j, ra, dnnlk_bf16, 0);
    } else {
        DNNLK__SFX(dnnlk__lnb_rows_dt)(j, ra, dnnlk_f16, 0);
    }
}

