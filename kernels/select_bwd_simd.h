/* dnnl_kernels — select_bwd_simd.h: select backward's elementwise rows, written once on the vector
 * layer and compiled at every level by simd_instantiate.h from select_bwd.h (no include guard). */

/* Row of n elements: d = (cond != 0) == take ? g : 0, in the dtype of g (f32, bf16, f16), bits of
 * g moved unchanged where taken (a bf16/f16 value converts to f32 and back exactly). */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__selb_row)(char *d, int64_t ds, const char *g, int64_t gs,
                                                        const unsigned char *c, int64_t cs, int64_t n, int dt,
                                                        int take) {
    const int64_t es = dt == dnnlk_f32 ? 4 : 2;
    int64_t i = 0;
    if (ds == es && gs == es && (cs == 1 || cs == 0) && (dt == dnnlk_f32 || dt == dnnlk_bf16 || dt == dnnlk_f16)) {
        const dnnlk__vf zero = dnnlk__vf_zero();
        for (; i + DNNLK__VF_N <= n; i += DNNLK__VF_N) {
            dnnlk__vf v = dnnlk__vf_load_dt(g + i * es, dt), cf;
            cf = cs ? dnnlk__vi_to_vf(dnnlk__vi_load_i8(c + i, 0)) : dnnlk__vf_set1((float)c[0]);
            v = take ? dnnlk__vf_blend(dnnlk__vf_cmpneq(cf, zero), v, zero)
                     : dnnlk__vf_blend(dnnlk__vf_cmpneq(cf, zero), zero, v);
            dnnlk__vf_store_dt(d + i * es, dt, v, 0);
        }
    }
    for (; i < n; i++) {
        int t = (c[i * cs] != 0) == take;
        if (t) memmove(d + i * ds, g + i * gs, (size_t)es);
        else memset(d + i * ds, 0, (size_t)es);
    }
}
