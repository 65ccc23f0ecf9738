/* tools/mca_table.sh's translation unit: tools/mca_probe_simd.h instantiated at every level this
 * target has, each entry kept by a table so the compiler emits it. */
#include "../dnnl_kernels.h"

#define DNNLK__SIMD_BODY "../tools/mca_probe_simd.h"
#include "../kernels/simd_instantiate.h"

#define MCA_KEEP(sfx)                                                                                          \
    (void (*)(void))mca_exp_##sfx, (void (*)(void))mca_erf_##sfx, (void (*)(void))mca_tanh_##sfx,                  \
        (void (*)(void))mca_gelu_erf_##sfx, (void (*)(void))mca_gelu_tanh_##sfx,                                   \
        (void (*)(void))mca_softmax_exp_##sfx, (void (*)(void))mca_norm_stats_##sfx,                              \
        (void (*)(void))mca_quantize_##sfx, (void (*)(void))mca_dropout_##sfx, (void (*)(void))mca_select_##sfx, \
        (void (*)(void))mca_to_bf16_##sfx, (void (*)(void))mca_resize_lerp_##sfx
void (*const mca_keep[])(void) = {
    MCA_KEEP(scalar),
#if DNNLK__X86
    MCA_KEEP(sse41), MCA_KEEP(avx2), MCA_KEEP(avx512),
#elif DNNLK__NEON
    MCA_KEEP(neon),
#endif
};
