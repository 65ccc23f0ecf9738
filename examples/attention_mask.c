/* Attention masking with select: masked_fill(scores, mask, -inf) as dst = mask ? -inf : scores.
 *
 *   cc attention_mask.c -o attention_mask        (no -lm, no -m flags: the header picks the ISA)
 *
 * scores [B=2, H=2, Lq=3, Lk=4] f32. Two masks, each broadcast by select to the scores' shape:
 *   - a key-padding mask [B, 1, 1, Lk]: batch b has valid_len[b] real keys, the rest is padding;
 *   - a causal mask [Lq, Lk]: query q may not see keys k > q (the same for every batch and head).
 * The fill value is a 0-d tensor (one float, ndims 0): numpy broadcasting stretches it over
 * everything. The output descriptor starts unknown (ndims = DNNLK_UNKNOWN) and select fills in its
 * dims and dense strides. The program checks every element against a plain loop. */
#include <math.h>
#include <stdio.h>

#include "../dnnl_kernels.h"

enum { B = 2, H = 2, LQ = 3, LK = 4 };

/* dst = cond ? fill : src, numpy broadcasting; reports a failure by name. */
static int masked_fill(const dnnlk_tensor *cond, const dnnlk_tensor *fill, const dnnlk_tensor *src, dnnlk_tensor *dst,
                       const char *what) {
    dnnlk_status st = dnnlk_select(cond, fill, src, dst, dnnlk_broadcast_numpy, 0, 1); /* one part: (0, 1) */
    if (st != dnnlk_success) printf("%s: %s\n", what, dnnlk_status_str(st));
    return st == dnnlk_success;
}

int main(void) {
    static float scores[B][H][LQ][LK], padded[B][H][LQ][LK], causal[B][H][LQ][LK];
    const int valid_len[B] = {4, 2};
    unsigned char pad_mask[B][LK], causal_mask[LQ][LK];
    float minus_inf = -INFINITY;
    int b, h, q, k, bad = 0;

    for (b = 0; b < B; b++)
        for (h = 0; h < H; h++)
            for (q = 0; q < LQ; q++)
                for (k = 0; k < LK; k++) scores[b][h][q][k] = (float)(b * 1000 + h * 100 + q * 10 + k);
    for (b = 0; b < B; b++)
        for (k = 0; k < LK; k++) pad_mask[b][k] = k >= valid_len[b]; /* true = padding = masked */
    for (q = 0; q < LQ; q++)
        for (k = 0; k < LK; k++) causal_mask[q][k] = k > q;

    /* Dense inputs: dims and row-major strides in elements. */
    dnnlk_tensor t_scores = {scores, dnnlk_f32, 4, {B, H, LQ, LK}, {H * LQ * LK, LQ * LK, LK, 1}};
    dnnlk_tensor t_pad = {pad_mask, dnnlk_boolean, 4, {B, 1, 1, LK}, {LK, LK, LK, 1}};
    dnnlk_tensor t_causal = {causal_mask, dnnlk_boolean, 2, {LQ, LK}, {LK, 1}};
    dnnlk_tensor t_fill = {&minus_inf, dnnlk_f32, 0, {0}, {0}}; /* 0-d: a scalar */
    /* Outputs: only data and dtype known; select completes the rest. */
    dnnlk_tensor t_padded = {padded, dnnlk_f32, DNNLK_UNKNOWN, {0}, {0}};
    dnnlk_tensor t_out = {causal, dnnlk_f32, DNNLK_UNKNOWN, {0}, {0}};

    if (!masked_fill(&t_pad, &t_fill, &t_scores, &t_padded, "padding mask")) return 1;
    printf("padded: dims {%d, %d, %d, %d}, strides {%d, %d, %d, %d} (filled in by select)\n", (int)t_padded.dims[0],
           (int)t_padded.dims[1], (int)t_padded.dims[2], (int)t_padded.dims[3], (int)t_padded.strides[0],
           (int)t_padded.strides[1], (int)t_padded.strides[2], (int)t_padded.strides[3]);
    /* The causal mask on top: the second select reads the first one's output. */
    if (!masked_fill(&t_causal, &t_fill, &t_padded, &t_out, "causal mask")) return 1;

    for (b = 0; b < B; b++)
        for (h = 0; h < H; h++)
            for (q = 0; q < LQ; q++)
                for (k = 0; k < LK; k++) {
                    int masked = k >= valid_len[b] || k > q;
                    float want = masked ? -INFINITY : scores[b][h][q][k];
                    if (causal[b][h][q][k] != want) bad++;
                }
    for (b = 0; b < B; b++) {
        printf("batch %d, head 1 (valid keys %d):\n", b, valid_len[b]);
        for (q = 0; q < LQ; q++) {
            printf("  q%d:", q);
            for (k = 0; k < LK; k++) printf(" %7g", causal[b][1][q][k]);
            printf("\n");
        }
    }
    printf("attention_mask: %s (%d of %d elements differ from the plain loop)\n", bad ? "FAILED" : "ok", bad,
           B * H * LQ * LK);
    return bad != 0;
}
