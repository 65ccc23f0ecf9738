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
    {
        /* A kernel call, so the compiler expands the vector bodies here too (with C++ and GCC 12 the
         * AVX-512 headers' max/min warned at every call site: cpu.h says why no longer). */
        float x[6] = {3, 1, 4, 1, 5, 9}, v[2] = {0, 0};
        int64_t ix[2] = {0, 0};
        dnnlk_tensor s, tv, ti;
        memset(&s, 0, sizeof s), memset(&tv, 0, sizeof tv), memset(&ti, 0, sizeof ti);
        s.data = x, s.dtype = dnnlk_f32, s.ndims = 1, s.dims[0] = 6, s.strides[0] = 1;
        tv.data = v, tv.dtype = dnnlk_f32, tv.ndims = 1, tv.dims[0] = 2, tv.strides[0] = 1;
        ti.data = ix, ti.dtype = dnnlk_s64, ti.ndims = 1, ti.dims[0] = 2, ti.strides[0] = 1;
        if (dnnlk_top_k(&s, 2, 0, 1, 1, &tv, &ti, NULL, 0, 1) != dnnlk_success) return 8;
        if (v[0] != 9 || v[1] != 5 || ix[0] != 5 || ix[1] != 4) return 9;
    }
    return 0;
}
