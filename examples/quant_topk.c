/* Quantize logits to int8 and back, then take the top 3 classes of each row.
 *
 *   cc quant_topk.c -o quant_topk        (no -lm)
 *
 * logits [ROWS=2, CLASSES=10] f32.
 *   - quantize per tensor to s8: q = saturate(round_half_even(x / scale) + zero_point), ONNX
 *     QuantizeLinear; scale and zero_point are 0-d tensors. dequantize: (q - zero_point) * scale.
 *     The round trip is within scale / 2 of x, except where x lies beyond the s8 range, which
 *     saturates (two logits here do).
 *   - top_k (k = 3, largest, sorted) along the classes, on the logits and on their dequantized
 *     copy; values f32 and indices s64, their descriptors filled in by dnnlk_top_k_infer
 *     ([2, 3]). A k this small needs no workspace (NULL); dnnlk_top_k_workspace_bytes says how
 *     much a larger k needs.
 * Every result is checked against a plain loop. */
#include <stdint.h>
#include <stdio.h>

#include "../dnnl_kernels.h"

enum { ROWS = 2, CLASSES = 10, K = 3 };

/* the plain top-k: repeatedly the largest value not taken yet, the lower index on ties */
static void top_k_plain(const float *row, int64_t *idx) {
    int taken[CLASSES] = {0}, j, k;
    for (k = 0; k < K; k++) {
        int best = -1;
        for (j = 0; j < CLASSES; j++)
            if (!taken[j] && (best < 0 || row[j] > row[best])) best = j;
        taken[best] = 1;
        idx[k] = best;
    }
}

/* top_k of a [ROWS, CLASSES] f32 buffer; prints it and compares with the plain loop */
static int top3(const char *name, float (*data)[CLASSES]) {
    float values[ROWS][K];
    int64_t indices[ROWS][K], want[K];
    int r, k, bad = 0;
    dnnlk_tensor src = {data, dnnlk_f32, 2, {ROWS, CLASSES}, {CLASSES, 1}};
    dnnlk_tensor tv = {values, dnnlk_f32, DNNLK_UNKNOWN, {0}, {0}}, ti = {indices, dnnlk_s64, DNNLK_UNKNOWN, {0}, {0}};
    dnnlk_status st = dnnlk_top_k_infer(&src, K, 1, &tv, &ti);
    if (st == dnnlk_success) st = dnnlk_top_k(&src, K, 1, 1, 1, &tv, &ti, NULL, 0, 1);
    if (st != dnnlk_success) {
        printf("top_k: %s\n", dnnlk_status_str(st));
        return 0;
    }
    for (r = 0; r < ROWS; r++) {
        top_k_plain(data[r], want);
        printf("%s row %d: top %d classes", name, r, K);
        for (k = 0; k < K; k++) {
            printf(" %d (%g)", (int)indices[r][k], values[r][k]);
            bad += indices[r][k] != want[k] || values[r][k] != data[r][want[k]];
        }
        printf("\n");
    }
    return bad == 0;
}

int main(void) {
    float logits[ROWS][CLASSES] = {{1.25f, -0.5f, 3.1f, 0.0f, 2.95f, -2.0f, 0.4f, 3.1f, -7.0f, 1.0f},
                                   {0.3f, 9.0f, -1.2f, 4.4f, 0.05f, 4.45f, -3.3f, 2.2f, 1.7f, -0.6f}};
    float scale = 0.05f, back[ROWS][CLASSES];
    int8_t q[ROWS][CLASSES], zero_point = -10;
    int r, j, bad = 0, saturated = 0;
    dnnlk_tensor tx = {logits, dnnlk_f32, 2, {ROWS, CLASSES}, {CLASSES, 1}};
    dnnlk_tensor ts = {&scale, dnnlk_f32, 0, {0}, {0}}, tz = {&zero_point, dnnlk_s8, 0, {0}, {0}};
    /* y's dtype picks the quantized type; its dims and strides are filled in */
    dnnlk_tensor tq = {q, dnnlk_s8, DNNLK_UNKNOWN, {0}, {0}}, tb = {back, dnnlk_f32, DNNLK_UNKNOWN, {0}, {0}};

    dnnlk_status st = dnnlk_quantize(&tx, &ts, &tz, 0, &tq, 0, 1); /* axis: unused per tensor, in range */
    if (st == dnnlk_success) st = dnnlk_dequantize(&tq, &ts, &tz, 0, &tb, 0, 1);
    if (st != dnnlk_success) {
        printf("quantize/dequantize: %s\n", dnnlk_status_str(st));
        return 1;
    }
    for (r = 0; r < ROWS; r++) {
        printf("row %d q:", r);
        for (j = 0; j < CLASSES; j++) {
            /* the bound the round trip keeps: half a step, or saturation beyond the s8 range */
            float lo = (-128 - zero_point) * scale, hi = (127 - zero_point) * scale, x = logits[r][j];
            float want = x < lo ? lo : x > hi ? hi : x;
            double err = back[r][j] - want;
            if (err < 0) err = -err;
            saturated += x < lo || x > hi;
            bad += err > scale / 2 * 1.0001; /* the f32 division and multiply round once each */
            printf(" %d", q[r][j]);
        }
        printf("\n");
    }
    printf("round trip: within scale/2 of x, %d value(s) saturated at the s8 range [%g, %g]\n", saturated,
           (-128 - zero_point) * scale, (127 - zero_point) * scale);
    if (!top3("logits", logits) || !top3("dequantized", back)) bad++;
    printf("quant_topk: %s\n", bad ? "FAILED" : "ok");
    return bad != 0;
}
