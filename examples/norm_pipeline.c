/* layer_norm -> gelu -> softmax inference, with the outputs' shapes and layouts left to the ops.
 *
 *   cc norm_pipeline.c -o norm_pipeline -lm       (softmax calls libm's log)
 *
 * x is a feature map [N=2, C=4, H=2, W=3] in NCHW. Each op's output descriptor starts with what the
 * caller knows, everything else DNNLK_UNKNOWN, and the op's _infer fills in the rest:
 *   1. layer_norm over (C, H, W) per sample, with a per-channel weight and bias ([C, 1, 1],
 *      broadcast one way): y and the statistics mean and inv_std are fully unknown
 *      (ndims = DNNLK_UNKNOWN): y comes out [2, 4, 2, 3] dense NCHW, mean and inv_std [2, 1, 1, 1];
 *   2. gelu into a channels-last buffer: the dims are unknown and of the strides only C's is given,
 *      as 1; partial stride deduction puts C innermost and the rest dense outward: strides
 *      {H*W*C, 1, W*C, C}, i.e. NHWC memory for the same logical NCHW tensor;
 *   3. softmax over C (axis 1) reads the channels-last tensor (each pixel's channels contiguous)
 *      into a fully unknown output: dense NCHW again.
 * The program checks each stage against a plain double-precision loop. */
#include <math.h>
#include <stdio.h>

#include "../dnnl_kernels.h"

enum { N = 2, C = 4, H = 2, W = 3, NUMEL = N * C * H * W };

static void print_layout(const char *name, const dnnlk_tensor *t) {
    int i;
    printf("%-8s dims {", name);
    for (i = 0; i < t->ndims; i++) printf(i ? ", %d" : "%d", (int)t->dims[i]);
    printf("} strides {");
    for (i = 0; i < t->ndims; i++) printf(i ? ", %d" : "%d", (int)t->strides[i]);
    printf("}\n");
}

/* element (n, c, h, w) of a 4-d f32 tensor, whatever its strides */
static float at(const dnnlk_tensor *t, int n, int c, int h, int w) {
    return ((const float *)t->data)[n * t->strides[0] + c * t->strides[1] + h * t->strides[2] + w * t->strides[3]];
}

static int check(const char *stage, dnnlk_status st) {
    if (st != dnnlk_success) printf("%s: %s\n", stage, dnnlk_status_str(st));
    return st == dnnlk_success;
}

int main(void) {
    static float x[NUMEL], y[NUMEL], g[NUMEL], p[NUMEL], mean[N], inv_std[N];
    float weight[C] = {1.0f, 0.5f, 2.0f, -1.0f}, bias[C] = {0.0f, 0.25f, -0.5f, 1.0f};
    const int axes[3] = {1, 2, 3};
    const float eps = 1e-5f;
    double max_err = 0;
    int n, c, h, w, i;
    for (i = 0; i < NUMEL; i++) x[i] = (float)((i * 37) % 23) / 7.0f - 1.5f;

    dnnlk_tensor tx = {x, dnnlk_f32, 4, {N, C, H, W}, {C * H * W, H * W, W, 1}};
    dnnlk_tensor tw = {weight, dnnlk_f32, 3, {C, 1, 1}, {1, 1, 1}}, tb = {bias, dnnlk_f32, 3, {C, 1, 1}, {1, 1, 1}};
    /* 1. unknown everything: only the buffer and the dtype */
    dnnlk_tensor ty = {y, dnnlk_f32, DNNLK_UNKNOWN, {0}, {0}};
    dnnlk_tensor tmean = {mean, dnnlk_f32, DNNLK_UNKNOWN, {0}, {0}}, tinv = {inv_std, dnnlk_f32, DNNLK_UNKNOWN, {0}, {0}};
    /* 2. channels-last: four dims, all unknown, and C's stride 1 */
    const int64_t U = DNNLK_UNKNOWN;
    dnnlk_tensor tg = {g, dnnlk_f32, 4, {U, U, U, U}, {U, 1, U, U}};
    /* 3. unknown everything */
    dnnlk_tensor tp = {p, dnnlk_f32, DNNLK_UNKNOWN, {0}, {0}};

    /* _infer completes the descriptors (so buffers can be sized before running); the execute
     * functions would do the same, but then parts on several threads would each write them. */
    if (!check("layer_norm_infer", dnnlk_layer_norm_infer(&tx, &tw, &tb, 3, axes, eps, 0, &ty, &tmean, &tinv)) ||
        !check("gelu_infer", dnnlk_gelu_infer(&ty, dnnlk_gelu_none, &tg)) ||
        !check("softmax_infer", dnnlk_softmax_infer(&tg, 1, &tp)))
        return 1;
    print_layout("y", &ty);
    print_layout("mean", &tmean);
    print_layout("gelu", &tg);
    print_layout("softmax", &tp);

    if (!check("layer_norm", dnnlk_layer_norm(&tx, &tw, &tb, 3, axes, eps, 0, &ty, &tmean, &tinv, 0, 1)) ||
        !check("gelu", dnnlk_gelu(&ty, dnnlk_gelu_none, &tg, 0, 1)) || !check("softmax", dnnlk_softmax(&tg, 1, &tp, 0, 1)))
        return 1;

    /* the plain reference, in double, straight from the definitions */
    for (n = 0; n < N; n++) {
        double sum = 0, sq = 0, m, s;
        for (c = 0; c < C; c++)
            for (h = 0; h < H; h++)
                for (w = 0; w < W; w++) sum += at(&tx, n, c, h, w);
        m = sum / (C * H * W);
        for (c = 0; c < C; c++)
            for (h = 0; h < H; h++)
                for (w = 0; w < W; w++) sq += (at(&tx, n, c, h, w) - m) * (at(&tx, n, c, h, w) - m);
        s = 1 / sqrt(sq / (C * H * W) + eps);
        max_err = fmax(max_err, fabs(mean[n] - m));
        max_err = fmax(max_err, fabs(inv_std[n] - s) / s);
        for (h = 0; h < H; h++)
            for (w = 0; w < W; w++) {
                double ge[C], e, den = 0;
                for (c = 0; c < C; c++) {
                    double yr = (at(&tx, n, c, h, w) - m) * s * weight[c] + bias[c];
                    ge[c] = 0.5 * yr * (1 + erf(yr / sqrt(2.0)));
                    max_err = fmax(max_err, fabs(at(&ty, n, c, h, w) - yr));
                    max_err = fmax(max_err, fabs(at(&tg, n, c, h, w) - ge[c]));
                }
                for (c = 0; c < C; c++) den += exp(ge[c]);
                for (c = 0; c < C; c++) {
                    e = exp(ge[c]) / den;
                    max_err = fmax(max_err, fabs(at(&tp, n, c, h, w) - e));
                }
            }
    }
    printf("sample 0, pixel (0, 0): softmax over C = {%.4f, %.4f, %.4f, %.4f}\n", at(&tp, 0, 0, 0, 0),
           at(&tp, 0, 1, 0, 0), at(&tp, 0, 2, 0, 0), at(&tp, 0, 3, 0, 0));
    /* g holds NHWC memory: pixel (0, 0)'s four channels are its first four floats */
    printf("gelu memory starts {%.4f, %.4f, %.4f, %.4f}: pixel (0, 0)'s channels, channels-last\n", g[0], g[1], g[2],
           g[3]);
    if (max_err < 1e-5) printf("norm_pipeline: ok (every output within 1e-5 of the double reference)\n");
    else printf("norm_pipeline: FAILED (an output %g from the double reference)\n", max_err);
    return !(max_err < 1e-5);
}
