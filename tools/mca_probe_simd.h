/* Probe body for tools/mca_table.sh: each op family's per-vector core (the body's own helpers, on
 * the vector layer) in a loop of one step per iteration, instantiated per level by
 * simd_instantiate.h so that each level's loop can be cut out of the assembly and given to
 * llvm-mca. MCA_STEP_<name> is the number of elements one iteration handles. n is a multiple of
 * the step: no tails, so the inner loop is the steady state. */

#define MCA_STEP_exp DNNLK__VF_N
static DNNLK__NOINLINE void DNNLK__SFX(mca_exp)(const float *x, float *y, size_t n) {
    size_t i;
    for (i = 0; i < n; i += DNNLK__VF_N) dnnlk__vf_storeu(y + i, DNNLK__SFX(dnnlk__vm_exp)(dnnlk__vf_loadu(x + i)));
}
static DNNLK__NOINLINE void DNNLK__SFX(mca_erf)(const float *x, float *y, size_t n) {
    size_t i;
    for (i = 0; i < n; i += DNNLK__VF_N) dnnlk__vf_storeu(y + i, DNNLK__SFX(dnnlk__vm_erf)(dnnlk__vf_loadu(x + i)));
}
static DNNLK__NOINLINE void DNNLK__SFX(mca_tanh)(const float *x, float *y, size_t n) {
    size_t i;
    for (i = 0; i < n; i += DNNLK__VF_N) dnnlk__vf_storeu(y + i, DNNLK__SFX(dnnlk__vm_tanh)(dnnlk__vf_loadu(x + i)));
}
static DNNLK__NOINLINE void DNNLK__SFX(mca_gelu_erf)(const float *x, float *y, size_t n) {
    size_t i;
    for (i = 0; i < n; i += DNNLK__VF_N)
        dnnlk__vf_storeu(y + i, DNNLK__SFX(dnnlk__vm_gelu_erf)(dnnlk__vf_loadu(x + i)));
}
static DNNLK__NOINLINE void DNNLK__SFX(mca_gelu_tanh)(const float *x, float *y, size_t n) {
    size_t i;
    for (i = 0; i < n; i += DNNLK__VF_N)
        dnnlk__vf_storeu(y + i, DNNLK__SFX(dnnlk__vm_gelu_tanh)(dnnlk__vf_loadu(x + i)));
}
/* softmax's exp pass: exp(x - max) with the difference kept as a pair */
static DNNLK__NOINLINE void DNNLK__SFX(mca_softmax_exp)(const float *x, float *y, size_t n) {
    dnnlk__vf m = dnnlk__vf_set1(x[0]);
    size_t i;
    for (i = 0; i < n; i += DNNLK__VF_N)
        dnnlk__vf_storeu(y + i, DNNLK__SFX(dnnlk__sm_exp_diff)(dnnlk__vf_loadu(x + i), m));
}
/* layer_norm's statistics pass: sum and sum of squares of x - shift */
static DNNLK__NOINLINE void DNNLK__SFX(mca_norm_stats)(const float *x, float *y, size_t n) {
    dnnlk__vf m = dnnlk__vf_set1(x[0]), s = dnnlk__vf_zero(), q = dnnlk__vf_zero();
    size_t i;
    for (i = 0; i < n; i += DNNLK__VF_N) {
        dnnlk__vf d = dnnlk__vf_sub(dnnlk__vf_loadu(x + i), m);
        s = dnnlk__vf_add(s, d);
        q = dnnlk__vf_fmadd(d, d, q);
    }
    dnnlk__vf_storeu(y, s);
    dnnlk__vf_storeu(y + DNNLK__VF_N, q);
}
/* quantize f32 -> s8, one scale: the reciprocal fast path, four vectors packed to bytes */
static DNNLK__NOINLINE unsigned DNNLK__SFX(mca_quantize)(const float *x, float *y, size_t n) {
    const dnnlk__vf r = dnnlk__vf_set1(0.37f);
    int8_t *q = (int8_t *)(void *)y;
    unsigned bad = 0;
    size_t i;
    for (i = 0; i < n; i += 4 * DNNLK__VF_N) {
        const char *p = (const char *)(x + i);
        dnnlk__vi a = DNNLK__SFX(dnnlk__quant_fast)(p, dnnlk_f32, r, &bad);
        dnnlk__vi b = DNNLK__SFX(dnnlk__quant_fast)(p + 4 * DNNLK__VF_N, dnnlk_f32, r, &bad);
        dnnlk__vi c = DNNLK__SFX(dnnlk__quant_fast)(p + 8 * DNNLK__VF_N, dnnlk_f32, r, &bad);
        dnnlk__vi d = DNNLK__SFX(dnnlk__quant_fast)(p + 12 * DNNLK__VF_N, dnnlk_f32, r, &bad);
        dnnlk__vi_storeu(q + i, dnnlk__vi_pack4_sat_i8(a, b, c, d, 3, 1));
    }
    return bad;
}
/* dropout's apply step: x times the keep factor where the mask bit is set, +0 elsewhere */
static DNNLK__NOINLINE void DNNLK__SFX(mca_dropout)(const float *x, float *y, size_t n) {
    const dnnlk__vf s = dnnlk__vf_set1(1.25f);
    const unsigned char *bits = (const unsigned char *)(const void *)y;
    size_t i;
    for (i = 0; i < n; i += DNNLK__VF_N)
        dnnlk__vf_storeu(y + i, dnnlk__vf_mul(dnnlk__vf_loadu(x + i),
                                              dnnlk__vf_maskz_bits(bits[i / 8] >> (i % 8), s)));
}
/* select of 4-byte elements: the cond bytes widened to a lane mask, one blend */
static DNNLK__NOINLINE void DNNLK__SFX(mca_select)(const float *x, float *y, size_t n) {
    const unsigned char *c = (const unsigned char *)(const void *)x;
    size_t i;
    for (i = 0; i < n; i += DNNLK__VB_N / 4) {
        dnnlk__vmask_vb m = dnnlk__vb_cond_elem(c + i, 4);
        dnnlk__vb_storeu(y + i, dnnlk__vb_blend_elem(m, dnnlk__vb_loadu(x + i), dnnlk__vb_loadu(x + n + i), 4));
    }
}
/* f32 -> bf16, rounded to nearest even with NaN kept */
static DNNLK__NOINLINE void DNNLK__SFX(mca_to_bf16)(const float *x, float *y, size_t n) {
    uint16_t *h = (uint16_t *)(void *)y;
    size_t i;
    for (i = 0; i < n; i += DNNLK__VF_N) dnnlk__vf_store_dt(h + i, dnnlk_bf16, dnnlk__vf_loadu(x + i), 0);
}
/* resize linear: one interpolation of two rows */
static DNNLK__NOINLINE void DNNLK__SFX(mca_resize_lerp)(const float *x, float *y, size_t n) {
    const dnnlk__vf w0 = dnnlk__vf_set1(0.25f), w1 = dnnlk__vf_set1(0.75f);
    size_t i;
    for (i = 0; i < n; i += DNNLK__VF_N)
        dnnlk__vf_storeu(y + i, DNNLK__SFX(dnnlk__resize_lerp_v)(dnnlk__vf_loadu(x + i), w0, dnnlk__vf_loadu(x + n + i), w1));
}
