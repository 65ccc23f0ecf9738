/* A program that calls one op family, chosen with -DONE_OP=<name>, the way a new user's first
 * program does. tests/compile/check_one_op.sh builds it at -O0 and -O2, as C and C++, links it
 * without -lm where the README says the op needs no libm, and checks with nm that the object holds
 * the header's code for that op only. With ONE_OP undefined it calls nothing: the object must
 * then hold no code from the header at all. Each program checks its answer (exit 0 = right). */
#include <stdio.h>

#include "../../dnnl_kernels.h"

#define ONE_OP_select 1
#define ONE_OP_rng_uniform 2
#define ONE_OP_dropout 3
#define ONE_OP_arg_max 4
#define ONE_OP_top_k 5
#define ONE_OP_one_hot 6
#define ONE_OP_quantize 7
#define ONE_OP_resize 8
#define ONE_OP_layer_norm 9
#define ONE_OP_l2_norm 10
#define ONE_OP_gelu 11
#define ONE_OP_softmax 12
#define ONE_OP_log_softmax 13
#define ONE_OP_convert 14
#define ONE_OP_compare 15
#define ONE_OP_masked_softmax_dropout 16
#define ONE_OP_bias_dropout_residual 17
#define ONE_OP_CAT(a, b) a##b
#define ONE_OP_ID(name) ONE_OP_CAT(ONE_OP_, name)

#ifdef ONE_OP
/* A dense 1-d tensor of n elements. */
static dnnlk_tensor vec1(void *data, dnnlk_dtype dtype, int64_t n) {
    dnnlk_tensor t;
    memset(&t, 0, sizeof t);
    t.data = data;
    t.dtype = dtype;
    t.ndims = 1;
    t.dims[0] = n;
    t.strides[0] = 1;
    return t;
}
#endif

#define near(a, b) ((a) - (b) < 1e-5f && (b) - (a) < 1e-5f)

int main(void) {
    int ok = 1;
#ifndef ONE_OP
    ok = 1; /* calls nothing: only the object's symbols are checked */
#elif ONE_OP_ID(ONE_OP) == ONE_OP_select
    uint8_t c[4] = {1, 0, 0, 1};
    float a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8}, d[4] = {0};
    dnnlk_tensor tc = vec1(c, dnnlk_boolean, 4), ta = vec1(a, dnnlk_f32, 4), tb = vec1(b, dnnlk_f32, 4),
                 td = vec1(d, dnnlk_f32, 4);
    ok = dnnlk_select(&tc, &ta, &tb, &td, dnnlk_broadcast_none, 0, 1) == dnnlk_success && d[0] == 1 && d[1] == 6 &&
         d[2] == 7 && d[3] == 4;
#elif ONE_OP_ID(ONE_OP) == ONE_OP_rng_uniform
    float d[64];
    int i;
    dnnlk_tensor td = vec1(d, dnnlk_f32, 64);
    ok = dnnlk_rng_uniform(&td, 2.0f, 3.0f, 42, 0, dnnlk_rng_philox4x32_10, 0, 1) == dnnlk_success;
    for (i = 0; i < 64; i++) ok = ok && d[i] >= 2.0f && d[i] < 3.0f;
#elif ONE_OP_ID(ONE_OP) == ONE_OP_dropout
    float s[64], d[64];
    uint8_t mask[8];
    int i;
    dnnlk_rng in, out;
    dnnlk_tensor ts = vec1(s, dnnlk_f32, 64), td = vec1(d, dnnlk_f32, 64);
    for (i = 0; i < 64; i++) s[i] = 1.0f;
    ok = dnnlk_rng_init(&in, dnnlk_rng_mcg31m1, 7, 0) == dnnlk_success &&
         dnnlk_dropout_fwd(&ts, &td, mask, 0.5, 0, NULL, &in, &out, 0, 1) == dnnlk_success;
    for (i = 0; i < 64; i++) ok = ok && (d[i] == 0.0f || d[i] == 2.0f) && (d[i] != 0) == ((mask[i / 8] >> i % 8) & 1);
#elif ONE_OP_ID(ONE_OP) == ONE_OP_arg_max
    float s[5] = {1, 9, 3, 9, -2};
    int32_t idx = -1;
    dnnlk_tensor ts = vec1(s, dnnlk_f32, 5), ti = vec1(&idx, dnnlk_s32, 1);
    ti.ndims = 0;
    ok = dnnlk_arg_max(&ts, 0, 0, 0, NULL, &ti, 0, 1) == dnnlk_success && idx == 1;
#elif ONE_OP_ID(ONE_OP) == ONE_OP_top_k
    float s[5] = {1, 9, 3, 8, -2}, v[2];
    int64_t idx[2];
    dnnlk_tensor ts = vec1(s, dnnlk_f32, 5), tv = vec1(v, dnnlk_f32, 2), ti = vec1(idx, dnnlk_s64, 2);
    ok = dnnlk_top_k(&ts, 2, 0, 1, 1, &tv, &ti, NULL, 0, 1) == dnnlk_success && v[0] == 9 && v[1] == 8 &&
         idx[0] == 1 && idx[1] == 3;
#elif ONE_OP_ID(ONE_OP) == ONE_OP_one_hot
    int32_t ix[2] = {2, 0};
    float d[6];
    dnnlk_tensor ti = vec1(ix, dnnlk_s32, 2), td;
    memset(&td, 0, sizeof td);
    td.data = d;
    td.dtype = dnnlk_f32;
    td.ndims = 2;
    td.dims[0] = 2, td.dims[1] = 3, td.strides[0] = 3, td.strides[1] = 1;
    ok = dnnlk_one_hot(&ti, 3, -1, NULL, NULL, &td, 0, 1) == dnnlk_success && d[0] == 0 && d[2] == 1 && d[3] == 1 &&
         d[5] == 0;
#elif ONE_OP_ID(ONE_OP) == ONE_OP_quantize
    float x[4] = {0.5f, 1.5f, -2.5f, 1000.0f}, sc = 0.5f;
    int8_t y[4];
    dnnlk_tensor tx = vec1(x, dnnlk_f32, 4), ts = vec1(&sc, dnnlk_f32, 1), ty = vec1(y, dnnlk_s8, 4);
    ts.ndims = 0;
    ok = dnnlk_quantize(&tx, &ts, NULL, 0, &ty, 0, 1) == dnnlk_success && y[0] == 1 && y[1] == 3 && y[2] == -5 &&
         y[3] == 127;
#elif ONE_OP_ID(ONE_OP) == ONE_OP_resize
    float s[2] = {1, 3}, d[4], scale = 2.0f;
    int axis = 0;
    dnnlk_resize_desc desc;
    dnnlk_tensor ts = vec1(s, dnnlk_f32, 2), td = vec1(d, dnnlk_f32, 4);
    memset(&desc, 0, sizeof desc);
    desc.mode = dnnlk_resize_linear;
    desc.naxes = 1, desc.axes = &axis, desc.scales = &scale;
    ok = dnnlk_resize(&ts, &desc, &td, 0, 1) == dnnlk_success && d[0] == 1 && d[1] == 1.5f && d[2] == 2.5f &&
         d[3] == 3;
#elif ONE_OP_ID(ONE_OP) == ONE_OP_layer_norm
    float s[4] = {1, 2, 3, 4}, d[4];
    int axis = -1;
    dnnlk_tensor ts = vec1(s, dnnlk_f32, 4), td = vec1(d, dnnlk_f32, 4);
    ok = dnnlk_layer_norm(&ts, NULL, NULL, 1, &axis, 0.0f, 0, &td, NULL, NULL, 0, 1) == dnnlk_success &&
         near(d[0], -1.3416408f) && near(d[3], 1.3416408f);
#elif ONE_OP_ID(ONE_OP) == ONE_OP_l2_norm
    float s[2] = {3, 4}, d[2];
    dnnlk_tensor ts = vec1(s, dnnlk_f32, 2), td = vec1(d, dnnlk_f32, 2);
    ok = dnnlk_l2_norm(&ts, 0, 1e-12f, 0, &td, 0, 1) == dnnlk_success && near(d[0], 0.6f) && near(d[1], 0.8f);
#elif ONE_OP_ID(ONE_OP) == ONE_OP_gelu
    float s[3] = {0, 1, -1}, d[3];
    dnnlk_tensor ts = vec1(s, dnnlk_f32, 3), td = vec1(d, dnnlk_f32, 3);
    ok = dnnlk_gelu(&ts, dnnlk_gelu_erf, &td, 0, 1) == dnnlk_success && d[0] == 0 && near(d[1], 0.8413447f) &&
         near(d[2], -0.1586553f);
#elif ONE_OP_ID(ONE_OP) == ONE_OP_softmax
    float s[2] = {0, 0}, d[2];
    dnnlk_tensor ts = vec1(s, dnnlk_f32, 2), td = vec1(d, dnnlk_f32, 2);
    ok = dnnlk_softmax(&ts, 0, &td, 0, 1) == dnnlk_success && d[0] == 0.5f && d[1] == 0.5f;
#elif ONE_OP_ID(ONE_OP) == ONE_OP_log_softmax
    float s[2] = {0, 0}, d[2];
    dnnlk_tensor ts = vec1(s, dnnlk_f32, 2), td = vec1(d, dnnlk_f32, 2);
    ok = dnnlk_log_softmax(&ts, 0, &td, 0, 1) == dnnlk_success && near(d[0], -0.6931472f) && near(d[1], -0.6931472f);
#elif ONE_OP_ID(ONE_OP) == ONE_OP_convert
    float s[3] = {1.0f, -2.5f, 3.0f};
    uint16_t d[3];
    dnnlk_tensor ts = vec1(s, dnnlk_f32, 3), td = vec1(d, dnnlk_bf16, 3);
    ok = dnnlk_convert(&ts, &td, 0, 1) == dnnlk_success && d[0] == 0x3f80 && d[1] == 0xc020 && d[2] == 0x4040;
#elif ONE_OP_ID(ONE_OP) == ONE_OP_compare
    int64_t m[4] = {1, 0, 0, 1}, z = 0;
    uint8_t d[4], e[4];
    dnnlk_tensor tm = vec1(m, dnnlk_s64, 4), td = vec1(d, dnnlk_boolean, 4), te = vec1(e, dnnlk_boolean, 4), tz;
    memset(&tz, 0, sizeof tz);
    tz.data = &z, tz.dtype = dnnlk_s64; /* 0-d */
    ok = dnnlk_compare(dnnlk_compare_eq, &tm, &tz, &td, 0, 1) == dnnlk_success && d[0] == 0 && d[1] == 1 && d[2] == 1 &&
         d[3] == 0 && dnnlk_logical(dnnlk_logical_and, &td, &tm, &te, 0, 1) == dnnlk_success && e[0] == 0 && e[1] == 0 &&
         e[2] == 0 && e[3] == 0;
#elif ONE_OP_ID(ONE_OP) == ONE_OP_masked_softmax_dropout
    float s[4] = {0, 0, 5, 7}, d[4];
    uint8_t c[4] = {0, 0, 1, 1};
    dnnlk_tensor ts = vec1(s, dnnlk_f32, 4), tc = vec1(c, dnnlk_boolean, 4), td = vec1(d, dnnlk_f32, 4);
    ok = dnnlk_masked_softmax_dropout_fwd(&ts, &tc, -1, 0.0, NULL, NULL, &td, NULL, NULL, NULL, 0, 1) == dnnlk_success &&
         d[0] == 0.5f && d[1] == 0.5f && d[2] == 0 && d[3] == 0;
#elif ONE_OP_ID(ONE_OP) == ONE_OP_bias_dropout_residual
    float x[64], r[64], d[64];
    uint8_t mask[8];
    int i;
    dnnlk_rng in, out;
    dnnlk_tensor tx = vec1(x, dnnlk_f32, 64), tr = vec1(r, dnnlk_f32, 64), td = vec1(d, dnnlk_f32, 64);
    for (i = 0; i < 64; i++) x[i] = 1.0f, r[i] = 3.0f;
    ok = dnnlk_rng_init(&in, dnnlk_rng_mcg31m1, 7, 0) == dnnlk_success &&
         dnnlk_bias_dropout_residual_fwd(&tx, NULL, &tr, 0.5, &in, &out, &td, mask, 0, 1) == dnnlk_success;
    for (i = 0; i < 64; i++) ok = ok && (d[i] == 3.0f || d[i] == 5.0f) && (d[i] != 3.0f) == ((mask[i / 8] >> i % 8) & 1);
#else
#error "unknown ONE_OP"
#endif
    if (!ok) printf("one-op program: wrong answer\n");
    return ok ? 0 : 1;
}
