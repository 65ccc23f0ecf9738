/* dnnl_kernels — gather_simd.h: a body helper shared by the kernel bodies that run strided or
 * half-precision data through f32 routines in chunks (eltwise_simd.h, softmax_simd.h), compiled
 * at every level by gather.h, which their op headers include (no include guard here).
 *
 *   dnnlk__gather_f32(buf, p, s, dt, n)    n elements of dtype dt at p, byte stride s, into f32 buf
 *   dnnlk__scatter_f32(p, s, dt, buf, n)   n f32 values of buf to dtype dt at p, byte stride s
 *                                          (round to nearest even, NaN kept NaN)
 * (both called as DNNLK__SFX(name)). Unit-stride bf16 and f16 go a vector at a time
 * (dnnlk__vf_load_dt / dnnlk__vf_store_dt); the rest, and the tails, an element at a time. */

/* One loop per dtype, each with its dtype a constant: the loads fold to one conversion. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__gather_f32)(float *buf, const char *p, int64_t s, dnnlk_dtype dt,
                                                             size_t n) {
    size_t i = 0;
    if (dt == dnnlk_bf16 && s == 2)
        for (; i + DNNLK__VF_N <= n; i += DNNLK__VF_N) dnnlk__vf_storeu(buf + i, dnnlk__vf_load_dt(p + 2 * i, dnnlk_bf16));
    if (dt == dnnlk_f16 && s == 2)
        for (; i + DNNLK__VF_N <= n; i += DNNLK__VF_N) dnnlk__vf_storeu(buf + i, dnnlk__vf_load_dt(p + 2 * i, dnnlk_f16));
    for (; i < n; i++) buf[i] = dnnlk__load_as_f32(p + (int64_t)i * s, dt);
}

static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__scatter_f32)(char *p, int64_t s, dnnlk_dtype dt, const float *buf,
                                                              size_t n) {
    size_t i = 0;
    if (dt == dnnlk_bf16 && s == 2)
        for (; i + DNNLK__VF_N <= n; i += DNNLK__VF_N)
            dnnlk__vf_store_dt(p + 2 * i, dnnlk_bf16, dnnlk__vf_loadu(buf + i), 0);
    if (dt == dnnlk_f16 && s == 2)
        for (; i + DNNLK__VF_N <= n; i += DNNLK__VF_N)
            dnnlk__vf_store_dt(p + 2 * i, dnnlk_f16, dnnlk__vf_loadu(buf + i), 0);
    for (; i < n; i++) dnnlk__store_from_f32(p + (int64_t)i * s, dt, buf[i]);
}
