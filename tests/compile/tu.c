/* One translation unit of the multi-TU header check: built as C99, C11 and C++17, linked into one
 * program. The header is included twice on purpose. Only TU_NAME may be an external symbol. */
#include "../../dnnl_kernels.h"
#include "../../dnnl_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif
int TU_NAME(void);
#ifdef __cplusplus
}
#endif

/* Returns 0 when the TU's copy of the library answers sensibly. */
int TU_NAME(void) {
    int64_t dims[3] = {1, 2, 3}, strides[3] = {-1, 1, -1}, numel = 0;
    dnnlk_isa isa = dnnlk_max_isa();
    if (dnnlk_deduce_strides(3, dims, strides) != dnnlk_success) return 1;
    if (strides[0] != 6 || strides[1] != 1 || strides[2] != 2) return 2;
    if (dnnlk_shape_numel(3, dims, &numel) != dnnlk_success || numel != 6) return 3;
    if (isa > dnnlk_cpu_isa()) return 4;
    if (dnnlk_f32_to_bf16(1.0f) != 0x3f80) return 5;
    if (dnnlk_dtype_size(dnnlk_s64) != 8) return 6;
    if (strcmp(dnnlk_status_str(dnnlk_invalid_shape), "invalid_shape") != 0) return 7;
    return 0;
}
