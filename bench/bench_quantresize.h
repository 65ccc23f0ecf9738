/* quantize / dequantize [4096,4096] per-tensor and per-channel (axis 0: one scale per row, as
 * torch.quantize_per_channel of a weight), and resize x2 of [8,64,128,128] NCHW, nearest and
 * linear (half_pixel, as F.interpolate with align_corners=False). ns/element counts output
 * elements. Compulsory bytes: quantize 4 + 1, dequantize 1 + 4, resize 4 per output element plus
 * the input once. */

#include <math.h>

typedef struct bench_qr_ctx {
    dnnlk_tensor x, s, z, y;
    int axis, dequant;
    dnnlk_resize_desc rd;
} bench_qr_ctx;

static inline void bench_qr_quant_part(void *p, int ith, int nth) {
    bench_qr_ctx *c = (bench_qr_ctx *)p;
    dnnlk_status st = c->dequant ? dnnlk_dequantize(&c->x, &c->s, &c->z, c->axis, &c->y, ith, nth)
                                 : dnnlk_quantize(&c->x, &c->s, &c->z, c->axis, &c->y, ith, nth);
    if (st != dnnlk_success) bench_check(0, "quantize status");
}

static inline void bench_qr_resize_part(void *p, int ith, int nth) {
    bench_qr_ctx *c = (bench_qr_ctx *)p;
    if (dnnlk_resize(&c->x, &c->rd, &c->y, ith, nth) != dnnlk_success) bench_check(0, "resize status");
}

/* ---- naive scalar loops (what a plain C port would do) ---- */

typedef struct bench_qr_naive {
    const float *x;
    int8_t *q;
    float *y;
    const float *s;
    const int8_t *z;
    int64_t rows, cols;
    int per_channel, dequant;
} bench_qr_naive;

static inline void bench_qr_naive_quant(void *p, int ith, int nth) {
    bench_qr_naive *c = (bench_qr_naive *)p;
    int64_t r, i;
    (void)ith; (void)nth;
    for (r = 0; r < c->rows; r++) {
        float s = c->s[c->per_channel ? r : 0];
        int z = c->z[c->per_channel ? r : 0];
        for (i = 0; i < c->cols; i++) {
            int64_t k = r * c->cols + i;
            if (c->dequant) {
                c->y[k] = (float)(c->q[k] - z) * s;
            } else {
                float v = nearbyintf(c->x[k] / s) + (float)z;
                if (v != v) v = (float)z;
                c->q[k] = (int8_t)(v < -128.0f ? -128 : v > 127.0f ? 127 : (int)v);
            }
        }
    }
}

typedef struct bench_qr_rnaive {
    const float *x;
    float *y;
    int64_t nc, h, w;
    int linear;
} bench_qr_rnaive;

static inline void bench_qr_naive_resize(void *p, int ith, int nth) {
    bench_qr_rnaive *c = (bench_qr_rnaive *)p;
    int64_t oh = 2 * c->h, ow = 2 * c->w, b, oy, ox;
    (void)ith; (void)nth;
    for (b = 0; b < c->nc; b++) {
        const float *x = c->x + b * c->h * c->w;
        float *y = c->y + b * oh * ow;
        for (oy = 0; oy < oh; oy++) {
            for (ox = 0; ox < ow; ox++) {
                if (!c->linear) {
                    /* half_pixel + round_prefer_floor at scale 2 picks o / 2 */
                    y[oy * ow + ox] = x[(oy / 2) * c->w + ox / 2];
                } else {
                    float sy = ((float)oy + 0.5f) * 0.5f - 0.5f, sx = ((float)ox + 0.5f) * 0.5f - 0.5f;
                    int64_t y0, x0, y1, x1;
                    float ty, tx, top, bot;
                    if (sy < 0) sy = 0;
                    if (sx < 0) sx = 0;
                    y0 = (int64_t)sy, x0 = (int64_t)sx;
                    y1 = y0 + 1 < c->h ? y0 + 1 : y0;
                    x1 = x0 + 1 < c->w ? x0 + 1 : x0;
                    ty = sy - (float)y0, tx = sx - (float)x0;
                    top = x[y0 * c->w + x0] * (1 - tx) + x[y0 * c->w + x1] * tx;
                    bot = x[y1 * c->w + x0] * (1 - tx) + x[y1 * c->w + x1] * tx;
                    y[oy * ow + ox] = top * (1 - ty) + bot * ty;
                }
            }
        }
    }
}

static inline void bench_qr_quant_case(const char *name, int dequant, int per_channel) {
    const int64_t R = 4096, C = 4096, n = R * C;
    int64_t dims[2] = {R, C}, sd = R;
    float *x = (float *)bench_alloc((size_t)n * 4), *y = (float *)bench_alloc((size_t)n * 4);
    float *yn = (float *)bench_alloc((size_t)n * 4), *s = (float *)bench_alloc((size_t)R * 4);
    int8_t *q = (int8_t *)bench_alloc((size_t)n), *qn = (int8_t *)bench_alloc((size_t)n), *z = (int8_t *)bench_alloc((size_t)R);
    bench_qr_ctx c;
    bench_qr_naive nv;
    int64_t i;
    int nth;
    for (i = 0; i < n; i++) x[i] = (float)((i * 2654435761u) % 10007u) * 0.01f - 50.0f;
    for (i = 0; i < R; i++) s[i] = 0.25f + 0.001f * (float)(i % 100), z[i] = (int8_t)(i % 7 - 3);
    for (i = 0; i < n; i++) q[i] = (int8_t)((i * 2654435761u) >> 24);
    memset(&c, 0, sizeof c);
    c.dequant = dequant;
    c.axis = 0;
    c.x = dequant ? (dnnlk_tensor){q, dnnlk_s8, 2, {R, C}, {C, 1}} : (dnnlk_tensor){x, dnnlk_f32, 2, {R, C}, {C, 1}};
    c.y = dequant ? (dnnlk_tensor){y, dnnlk_f32, 2, {R, C}, {C, 1}} : (dnnlk_tensor){qn, dnnlk_s8, 2, {R, C}, {C, 1}};
    if (per_channel) {
        c.s = (dnnlk_tensor){s, dnnlk_f32, 1, {sd}, {1}};
        c.z = (dnnlk_tensor){z, dnnlk_s8, 1, {sd}, {1}};
    } else {
        c.s = (dnnlk_tensor){s, dnnlk_f32, 0, {0}, {0}};
        c.z = (dnnlk_tensor){z, dnnlk_s8, 0, {0}, {0}};
    }
    (void)dims;
    nv.x = x; nv.q = q; nv.y = yn; nv.s = s; nv.z = z;
    nv.rows = R; nv.cols = C; nv.per_channel = per_channel; nv.dequant = dequant;
    /* check once against the naive loop (exact for both directions) */
    bench_qr_quant_part(&c, 0, 1);
    if (!dequant) {
        nv.q = q;
        bench_qr_naive_quant(&nv, 0, 1);
        bench_check(memcmp(q, qn, (size_t)n) == 0, name);
    } else {
        bench_qr_naive_quant(&nv, 0, 1);
        bench_check(memcmp(y, yn, (size_t)n * 4) == 0, name);
    }
    for (nth = bench_threads_first(); nth; nth = bench_threads_next(nth)) {
        double t = bench_time(bench_qr_quant_part, &c, nth);
        double copy_t = bench_copy_time((size_t)(n * 5), nth);
        double naive_t = nth == 1 ? bench_time(bench_qr_naive_quant, &nv, 1) : 0;
        char note[160] = "";
        bench_peer_note(note, sizeof note, name, nth, 1e9 * t / (double)n);
        if (dequant) bench_bound_ceiling_note(note, sizeof note, "NT fill", (double)n, t, copy_t, bench_fill_time((size_t)n * 4, nth, 0x5a));
        bench_row(name, "4096x4096", dequant ? "s8>f32" : "f32>s8", nth, (double)n, (double)n * 5, t, copy_t, naive_t,
                  note);
    }
    free(x); free(y); free(yn); free(s); free(q); free(qn); free(z);
}

static inline void bench_qr_resize_case(const char *name, int linear) {
    const int64_t N = 8, C = 64, H = 128, W = 128, nin = N * C * H * W, nout = nin * 4;
    float *x = (float *)bench_alloc((size_t)nin * 4), *y = (float *)bench_alloc((size_t)nout * 4);
    float *yn = (float *)bench_alloc((size_t)nout * 4);
    static const int axes[2] = {2, 3};
    static const float scales[2] = {2, 2};
    bench_qr_ctx c;
    bench_qr_rnaive nv;
    int64_t i;
    int nth, ok = 1;
    for (i = 0; i < nin; i++) x[i] = (float)((i * 2654435761u) % 1000u) * 0.001f;
    memset(&c, 0, sizeof c);
    c.x = (dnnlk_tensor){x, dnnlk_f32, 4, {N, C, H, W}, {C * H * W, H * W, W, 1}};
    c.y = (dnnlk_tensor){y, dnnlk_f32, 4, {N, C, 2 * H, 2 * W}, {C * 4 * H * W, 4 * H * W, 2 * W, 1}};
    c.rd.mode = linear ? dnnlk_resize_linear : dnnlk_resize_nearest;
    c.rd.coord = dnnlk_resize_half_pixel;
    c.rd.nearest = dnnlk_resize_round_prefer_floor;
    c.rd.naxes = 2;
    c.rd.axes = axes;
    c.rd.scales = scales;
    nv.x = x; nv.y = yn; nv.nc = N * C; nv.h = H; nv.w = W; nv.linear = linear;
    bench_qr_resize_part(&c, 0, 1);
    bench_qr_naive_resize(&nv, 0, 1);
    for (i = 0; i < nout && ok; i++) ok = fabsf(y[i] - yn[i]) <= 1e-6f;
    bench_check(ok, name);
    for (nth = bench_threads_first(); nth; nth = bench_threads_next(nth)) {
        double bytes = (double)(nin + nout) * 4;
        double t = bench_time(bench_qr_resize_part, &c, nth);
        double copy_t = bench_copy_time((size_t)bytes, nth);
        double naive_t = nth == 1 ? bench_time(bench_qr_naive_resize, &nv, 1) : 0;
        char note[160] = "";
        /* "NT fill 0.9x": the time of a pure non-temporal fill of the output / ours */
        snprintf(note, sizeof note, "NT fill %.2fx", bench_fill_time((size_t)nout * 4, nth, 0x5a) / t);
        bench_peer_note(note, sizeof note, name, nth, 1e9 * t / (double)nout);
        bench_row(name, "8x64x128x128 x2", "f32", nth, (double)nout, bytes, t, copy_t, naive_t, note);
    }
    free(x); free(y); free(yn);
}

/* The general path: bicubic x2 of [8,64,128,128] (as F.interpolate(mode="bicubic",
 * align_corners=False)) and an antialiased bilinear x0.5 of [8,64,256,256] (as
 * F.interpolate(mode="bilinear", antialias=True): ONNX's antialias with exclude_outside). */
static inline void bench_qr_resize_general_case(const char *name, int cubic) {
    const int64_t N = 8, C = 64, H = cubic ? 128 : 256, W = H, OH = cubic ? 2 * H : H / 2, OW = OH;
    const int64_t nin = N * C * H * W, nout = N * C * OH * OW;
    float *x = (float *)bench_alloc((size_t)nin * 4), *y = (float *)bench_alloc((size_t)nout * 4);
    static const int axes[2] = {2, 3};
    static const float up[2] = {2, 2}, down[2] = {0.5f, 0.5f};
    bench_qr_ctx c;
    int64_t i;
    int nth;
    for (i = 0; i < nin; i++) x[i] = (float)((i * 2654435761u) % 1000u) * 0.001f;
    memset(&c, 0, sizeof c);
    c.x = (dnnlk_tensor){x, dnnlk_f32, 4, {N, C, H, W}, {C * H * W, H * W, W, 1}};
    c.y = (dnnlk_tensor){y, dnnlk_f32, 4, {N, C, OH, OW}, {C * OH * OW, OH * OW, OW, 1}};
    c.rd.mode = cubic ? dnnlk_resize_cubic : dnnlk_resize_linear;
    c.rd.coord = dnnlk_resize_pytorch_half_pixel;
    c.rd.naxes = 2;
    c.rd.axes = axes;
    c.rd.scales = cubic ? up : down;
    c.rd.antialias = !cubic;
    c.rd.exclude_outside = !cubic;
    bench_qr_resize_part(&c, 0, 1);
    {
        /* one output element by hand: row 1, column 1 of the first image */
        double want = 0, wsum = 0;
        int a, b;
        if (cubic) { /* x = 0.25 along both axes: taps -1..2, clamped */
            static const double w4[4] = {-0.10546875, 0.87890625, 0.26171875, -0.03515625};
            for (a = 0; a < 4; a++)
                for (b = 0; b < 4; b++) {
                    int64_t r = a - 1 < 0 ? 0 : a - 1, q = b - 1 < 0 ? 0 : b - 1;
                    want += w4[a] * w4[b] * x[r * W + q];
                }
            wsum = 1;
        } else { /* x = 2.5: the hat of half-width 2 at 1..4 (weights 1, 3, 3, 1) / 8 per axis */
            static const double w4[4] = {1, 3, 3, 1};
            for (a = 0; a < 4; a++)
                for (b = 0; b < 4; b++) want += w4[a] * w4[b] * x[(a + 1) * W + b + 1], wsum += w4[a] * w4[b];
        }
        bench_check(fabs(y[OW + 1] - want / wsum) <= 1e-5, name);
    }
    for (nth = bench_threads_first(); nth; nth = bench_threads_next(nth)) {
        double bytes = (double)(nin + nout) * 4;
        double t = bench_time(bench_qr_resize_part, &c, nth);
        double copy_t = bench_copy_time((size_t)bytes, nth);
        char note[200] = "";
        /* the arithmetic alone: one plane and two, in L2; their difference leaves out what a call
         * costs once (its tables), which the whole call spreads over its 512 planes */
        bench_qr_ctx s1 = c, s2 = c;
        double plane = (double)(OH * OW), t1, t2;
        s1.x.dims[0] = s1.y.dims[0] = s1.x.dims[1] = s1.y.dims[1] = 1;
        s2.x.dims[0] = s2.y.dims[0] = 1, s2.x.dims[1] = s2.y.dims[1] = 2;
        t1 = bench_cached_time(bench_qr_resize_part, &s1, plane, nth) * plane;
        t2 = bench_cached_time(bench_qr_resize_part, &s2, 2 * plane, nth) * 2 * plane;
        bench_peer_note(note, sizeof note, name, nth, 1e9 * t / (double)nout);
        bench_bound_ceiling_note(note, sizeof note, "NT fill", (double)nout, t, copy_t, bench_fill_time((size_t)nout * 4, nth, 0x5a));
        bench_compute_ceiling_note(note, sizeof note, (double)nout, t, copy_t, (t2 - t1) / plane, 0);
        bench_row(name, cubic ? "8x64x128x128 x2" : "8x64x256x256 x0.5", "f32", nth, (double)nout, bytes, t, copy_t, 0, note);
    }
    free(x); free(y);
}

/* ---- issue #29 rows: dequantize u4 blocked 32 (f16 scales) -> f32, quantize f32 -> fp8 e4m3fn
 * per-tensor, dequantize s8 blocked 128 (f32 scales) -> f32; [4096,4096], no zero point.
 * Compulsory bytes count the packed data: u4 half a byte per element, plus the scales. ---- */

typedef struct bench_qr_lin {
    dnnlk_tensor x, s, y;
    int kind; /* 0 u4 blocked 32, 1 f32 -> e4m3, 2 s8 blocked 128 */
    int64_t block;
} bench_qr_lin;

static inline void bench_qr_lin_part(void *p, int ith, int nth) {
    bench_qr_lin *c = (bench_qr_lin *)p;
    dnnlk_status st = c->kind == 1 ? dnnlk_quantize_linear(&c->x, &c->s, NULL, 1, 0, 1, &c->y, ith, nth)
                                   : dnnlk_dequantize_linear(&c->x, &c->s, NULL, 1, c->block, &c->y, ith, nth);
    if (st != dnnlk_success) bench_check(0, "quantize_linear status");
}

/* the plain loops a C port would write (one thread) */
static inline void bench_qr_lin_naive(void *p, int ith, int nth) {
    bench_qr_lin *c = (bench_qr_lin *)p;
    const int64_t R = c->x.dims[0], C = c->x.dims[1];
    int64_t r, i;
    (void)ith; (void)nth;
    for (r = 0; r < R; r++)
        for (i = 0; i < C; i++) {
            int64_t k = r * C + i;
            if (c->kind == 0) {
                uint8_t b = ((const uint8_t *)c->x.data)[k >> 1];
                float sc = dnnlk_f16_to_f32(((const uint16_t *)c->s.data)[r * (C / 32) + i / 32]);
                ((float *)c->y.data)[k] = (float)((k & 1) ? b >> 4 : b & 15) * sc;
            } else if (c->kind == 2) {
                ((float *)c->y.data)[k] = (float)((const int8_t *)c->x.data)[k] * ((const float *)c->s.data)[r * (C / 128) + i / 128];
            } else {
                ((uint8_t *)c->y.data)[k] = (uint8_t)dnnlk__fp8_encode(((const float *)c->x.data)[k] / *(const float *)c->s.data, 1, 1);
            }
        }
}

static inline void bench_qr_lin_case(const char *name, int kind) {
    const int64_t R = 4096, C = 4096, n = R * C, B = kind == 0 ? 32 : 128, ns = kind == 1 ? 1 : R * (C / B);
    size_t xbytes = kind == 0 ? (size_t)n / 2 : kind == 1 ? (size_t)n * 4 : (size_t)n;
    size_t ybytes = kind == 1 ? (size_t)n : (size_t)n * 4, sbytes = (size_t)ns * (kind == 0 ? 2 : 4);
    void *x = bench_alloc(xbytes), *y = bench_alloc(ybytes), *yn = bench_alloc(ybytes), *s = bench_alloc(sbytes);
    bench_qr_lin c, nv;
    int64_t i;
    int nth;
    for (i = 0; i < (int64_t)xbytes; i++) ((uint8_t *)x)[i] = (uint8_t)((i * 2654435761u) >> 24);
    if (kind == 1)
        for (i = 0; i < n; i++) ((float *)x)[i] = (float)((i * 2654435761u) % 10007u) * 0.01f - 50.0f;
    for (i = 0; i < ns; i++) {
        float v = 0.25f + 0.001f * (float)(i % 100);
        if (kind == 0) ((uint16_t *)s)[i] = dnnlk_f32_to_f16(v);
        else ((float *)s)[i] = v;
    }
    memset(&c, 0, sizeof c);
    c.kind = kind;
    c.block = kind == 1 ? 0 : B;
    c.x = (dnnlk_tensor){x, kind == 0 ? dnnlk_u4 : kind == 1 ? dnnlk_f32 : dnnlk_s8, 2, {R, C}, {C, 1}};
    c.y = (dnnlk_tensor){y, kind == 1 ? dnnlk_f8_e4m3 : dnnlk_f32, 2, {R, C}, {C, 1}};
    c.s = kind == 1 ? (dnnlk_tensor){s, dnnlk_f32, 0, {0}, {0}}
                    : (dnnlk_tensor){s, kind == 0 ? dnnlk_f16 : dnnlk_f32, 2, {R, C / B}, {C / B, 1}};
    nv = c;
    nv.y.data = yn;
    bench_qr_lin_part(&c, 0, 1);
    bench_qr_lin_naive(&nv, 0, 1);
    bench_check(memcmp(y, yn, ybytes) == 0, name);
    for (nth = bench_threads_first(); nth; nth = bench_threads_next(nth)) {
        double traffic = (double)(xbytes + ybytes + sbytes);
        double t = bench_time(bench_qr_lin_part, &c, nth);
        double copy_t = bench_copy_time((size_t)traffic, nth);
        double naive_t = nth == 1 ? bench_time(bench_qr_lin_naive, &nv, 1) : 0;
        char note[160] = "";
        bench_peer_note(note, sizeof note, name, nth, 1e9 * t / (double)n);
        /* dequantize writes 4 bytes an element, reads 0.5 (u4) or 1 (s8) */
        if (kind != 1) bench_bound_ceiling_note(note, sizeof note, "NT fill", (double)n, t, copy_t, bench_fill_time(ybytes, nth, 0x5a));
        else { /* fp8 encoding is compute-bound: its arithmetic alone, on the first rows */
            bench_qr_lin sl = c;
            sl.x.dims[0] = sl.y.dims[0] = bench_cached_rows(R, C);
            bench_compute_ceiling_note(note, sizeof note, (double)n, t, copy_t,
                                       bench_cached_time(bench_qr_lin_part, &sl, (double)(sl.x.dims[0] * C), nth), 0);
            /* it reads 4 bytes an element and writes 1: whether reading them alone is a ceiling */
            bench_bound_ceiling_note(note, sizeof note, "read", (double)n, t, copy_t, bench_read_time(x, xbytes, nth));
        }
        bench_row(name, "4096x4096", kind == 0 ? "u4>f32" : kind == 1 ? "f32>e4m3" : "s8>f32", nth, (double)n, traffic, t,
                  copy_t, naive_t, note);
    }
    free(x); free(y); free(yn); free(s);
}

static inline void bench_quantresize(void) {
    if (!bench_selected("quantresize")) return;
    bench_qr_quant_case("quantize per-tensor", 0, 0);
    bench_qr_quant_case("quantize per-channel", 0, 1);
    bench_qr_quant_case("dequantize per-tensor", 1, 0);
    bench_qr_quant_case("dequantize per-channel", 1, 1);
    bench_qr_resize_case("resize nearest x2 NCHW", 0);
    bench_qr_resize_case("resize linear x2 NCHW", 1);
    bench_qr_resize_general_case("resize bicubic x2 NCHW", 1);
    bench_qr_resize_general_case("resize bilinear antialias x0.5 NCHW", 0);
    bench_qr_lin_case("dequantize u4 blocked 32", 0);
    bench_qr_lin_case("quantize fp8 e4m3", 1);
    bench_qr_lin_case("dequantize s8 blocked 128", 2);
}
