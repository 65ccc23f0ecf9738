/* dnnl_kernels — layer_norm_bwd_simd.h: layer_norm backward's row kernel, written once on the
 * vector layer and compiled at every level by simd_instantiate.h from layer_norm_bwd.h (no include
 * guard). */

/* Rows of one block, each a contiguous group of j->n elements (weight contiguous too). Per row:
 * pass 1 takes Σg, Σg·x̂ and Σx̂² (g = dy·w, x̂ = (x − mean)·s) and adds dy·x̂ and dy into the
 * block's column partials accw / accb (NULL when not wanted), in row order; pass 2 writes
 * dx = s·(g − a) − x̂·k (a = mean(g), k from dnnlk__lnb_coeffs). A row whose sums or statistics
 * are not finite is redone in double by dnnlk__lnb_row_double. */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__lnb_rows)(const dnnlk__lnb_job *j, const dnnlk__lnb_rows_arg *ra) {
    const int dt = j->dt;
    const size_t es = dt == dnnlk_f32 ? 4 : 2;
    const int64_t n = j->n, nv = n - n % DNNLK__VF_N;
    const float *w = j->has_w ? j->w : NULL;
    float *accw = ra->accw, *accb = ra->accb;
    int64_t g, i;
    for (g = 0; g < ra->rows; g++) {
        const char *x = ra->x + g * ra->xp, *dy = ra->dy + g * ra->dyp;
        char *dx = ra->dx + g * ra->dxp;
        float m, s, lane[3][16], a, k;
        double s1 = 0, s2 = 0, s3 = 0;
        dnnlk__vf vm, vs, v1 = dnnlk__vf_zero(), v2 = dnnlk__vf_zero(), v3 = dnnlk__vf_zero();
        memcpy(&m, ra->mean + g * ra->mp, 4);
        memcpy(&s, ra->istd + g * ra->ip, 4);
        vm = dnnlk__vf_set1(m);
        vs = dnnlk__vf_set1(s);
        for (i = 0; i < nv; i += DNNLK__VF_N) {
            dnnlk__vf vx = dnnlk__vf_load_dt(x + (size_t)i * es, dt), vd = dnnlk__vf_load_dt(dy + (size_t)i * es, dt);
            dnnlk__vf xh = dnnlk__vf_mul(dnnlk__vf_sub(vx, vm), vs);
            dnnlk__vf vg = w ? dnnlk__vf_mul(vd, dnnlk__vf_loadu(w + i)) : vd;
            v1 = dnnlk__vf_add(v1, vg);
            v2 = dnnlk__vf_fmadd(vg, xh, v2);
            v3 = dnnlk__vf_fmadd(xh, xh, v3);
            if (accw) dnnlk__vf_storeu(accw + i, dnnlk__vf_fmadd(vd, xh, dnnlk__vf_loadu(accw + i)));
            if (accb) dnnlk__vf_storeu(accb + i, dnnlk__vf_add(dnnlk__vf_loadu(accb + i), vd));
        }
        dnnlk__vf_storeu(lane[0], v1);
        dnnlk__vf_storeu(lane[1], v2);
        dnnlk__vf_storeu(lane[2], v3);
        for (i = 0; i < DNNLK__VF_N; i++) s1 += lane[0][i], s2 += lane[1][i], s3 += lane[2][i];
        for (i = nv; i < n; i++) {
            float xv = dnnlk__norm_ld(x + (size_t)i * es, dt), dv = dnnlk__norm_ld(dy + (size_t)i * es, dt);
            float xh = (xv - m) * s, gv = w ? dv * w[i] : dv;
            s1 += gv;
            s2 += (double)(gv * xh);
            s3 += (double)(xh * xh);
            if (accw) accw[i] += dv * xh;
            if (accb) accb[i] += dv;
        }
        if (!dnnlk__lnb_coeffs(j, m, s, s1, s2, s3, &a, &k)) {
            dnnlk__lnb_row_double(j, x, dy, dx, m, s);
            continue;
        }
        {
            dnnlk__vf va = dnnlk__vf_set1(a), vk = dnnlk__vf_set1(k);
            for (i = 0; i < nv; i += DNNLK__VF_N) {
                dnnlk__vf vx = dnnlk__vf_load_dt(x + (size_t)i * es, dt), vd = dnnlk__vf_load_dt(dy + (size_t)i * es, dt);
                dnnlk__vf xh = dnnlk__vf_mul(dnnlk__vf_sub(vx, vm), vs);
                dnnlk__vf vg = w ? dnnlk__vf_mul(vd, dnnlk__vf_loadu(w + i)) : vd;
                dnnlk__vf r = dnnlk__vf_sub(dnnlk__vf_mul(vs, dnnlk__vf_sub(vg, va)), dnnlk__vf_mul(xh, vk));
                dnnlk__vf_store_dt(dx + (size_t)i * es, dt, r, 0);
            }
            for (i = nv; i < n; i++) {
                float xv = dnnlk__norm_ld(x + (size_t)i * es, dt), dv = dnnlk__norm_ld(dy + (size_t)i * es, dt);
                float xh = (xv - m) * s, gv = w ? dv * w[i] : dv;
                dnnlk__store_from_f32(dx + (size_t)i * es, (dnnlk_dtype)dt, s * (gv - a) - xh * k);
            }
        }
    }
}
