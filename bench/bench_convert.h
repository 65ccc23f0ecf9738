/* convert and compare (kernels/convert.h, kernels/compare.h).
 *
 * Cases: f32 -> bf16 and f32 -> f16 [4096,4096] (4 read + 2 written per element); the NCHW -> NHWC
 * f32 transpose [8,64,128,128] (4 + 4); DistilBERT's `attention_mask == 0` from s64 [8,512] viewed
 * [8,1,1,512] against a 0-d zero (8 + 1); f32 `lt` [4096,4096] (4 + 4 + 1); logical `and` of two
 * boolean [4096,4096] (1 + 1 + 1). The limit is a copy of the same compulsory bytes
 * (bench/harness.h).
 *
 * The naive loop is the plain C a user would write (the library's scalar dnnlk_f32_to_bf16 /
 * _f16 per element, a 4-deep loop for the transpose, `d[i] = a[i] < b[i]`), built with the bench's
 * flags. Peers: bench/peers/convert_torch.py (numpy astype / transpose().copy() / == / < /
 * logical_and, and PyTorch .to() / .contiguous(memory_format=torch.channels_last) / torch.eq /
 * torch.lt / torch.logical_and; whichever is installed) and bench/peers/convert_onednn.c (oneDNN's reorder, when libdnnl is installed). */

typedef struct bench_convert_ctx {
    dnnlk_tensor a, b, d;
    int kind; /* 0 convert, 1 compare, 2 logical */
    dnnlk_compare_op op;
} bench_convert_ctx;

static inline void bench_convert_run(void *p, int ith, int nth) {
    bench_convert_ctx *x = (bench_convert_ctx *)p;
    dnnlk_status st = x->kind == 0   ? dnnlk_convert(&x->a, &x->d, ith, nth)
                      : x->kind == 1 ? dnnlk_compare(x->op, &x->a, &x->b, &x->d, ith, nth)
                                     : dnnlk_logical(dnnlk_logical_and, &x->a, &x->b, &x->d, ith, nth);
    if (st != dnnlk_success) {
        printf("convert/compare failed: %s\n", dnnlk_status_str(st));
        exit(2);
    }
}

/* The naive loops: case 0 f32->bf16, 1 f32->f16, 2 NCHW->NHWC, 3 s64 == 0, 4 f32 lt, 5 boolean and. */
typedef struct bench_convert_naive_ctx {
    const bench_convert_ctx *x;
    int which;
    void *out;
} bench_convert_naive_ctx;

static inline void bench_convert_naive_run(void *p, int ith, int nth) {
    bench_convert_naive_ctx *nv = (bench_convert_naive_ctx *)p;
    const bench_convert_ctx *x = nv->x;
    int64_t n = x->d.dims[0], i;
    (void)ith, (void)nth;
    for (i = 1; i < x->d.ndims; i++) n *= x->d.dims[i];
    switch (nv->which) {
    case 0: {
        const float *a = (const float *)x->a.data;
        uint16_t *d = (uint16_t *)nv->out;
        for (i = 0; i < n; i++) d[i] = dnnlk_f32_to_bf16(a[i]);
    } break;
    case 1: {
        const float *a = (const float *)x->a.data;
        uint16_t *d = (uint16_t *)nv->out;
        for (i = 0; i < n; i++) d[i] = dnnlk_f32_to_f16(a[i]);
    } break;
    case 2: {
        const float *a = (const float *)x->a.data;
        float *d = (float *)nv->out;
        int64_t N = x->a.dims[0], C = x->a.dims[1], HW = x->a.dims[2] * x->a.dims[3], b, c, s;
        for (b = 0; b < N; b++)
            for (s = 0; s < HW; s++)
                for (c = 0; c < C; c++) d[(b * HW + s) * C + c] = a[(b * C + c) * HW + s];
    } break;
    case 3: {
        const int64_t *a = (const int64_t *)x->a.data;
        unsigned char *d = (unsigned char *)nv->out;
        for (i = 0; i < n; i++) d[i] = a[i] == 0;
    } break;
    case 4: {
        const float *a = (const float *)x->a.data, *b = (const float *)x->b.data;
        unsigned char *d = (unsigned char *)nv->out;
        for (i = 0; i < n; i++) d[i] = a[i] < b[i];
    } break;
    default: {
        const unsigned char *a = (const unsigned char *)x->a.data, *b = (const unsigned char *)x->b.data;
        unsigned char *d = (unsigned char *)nv->out;
        for (i = 0; i < n; i++) d[i] = a[i] && b[i];
    } break;
    }
}

static inline void bench_convert_fill(void *p, size_t n, int kind) {
    size_t i;
    uint64_t s = 12345;
    for (i = 0; i < n; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        if (kind == 0) ((float *)p)[i] = (float)((int64_t)(s >> 40) - (1 << 23)) * 1e-3f;
        else if (kind == 1) ((int64_t *)p)[i] = (int64_t)((s >> 60) & 1);
        else ((unsigned char *)p)[i] = (unsigned char)((s >> 60) & 1);
    }
}

static inline void bench_convert_case(const char *name, int which) {
    bench_convert_ctx x;
    bench_convert_naive_ctx nv;
    int64_t big[2] = {4096, 4096}, nchw[4] = {8, 64, 128, 128}, md[4] = {8, 1, 1, 512}, n;
    double bytes_per;
    size_t des;
    char shape[64];
    const char *dtn;
    int nth;
    memset(&x, 0, sizeof x);
    memset(&x.d, 0, sizeof x.d);
    x.d.ndims = DNNLK_UNKNOWN;
    if (which <= 1) {
        x.a = bench_dense_tensor(bench_alloc((size_t)4096 * 4096 * 4), dnnlk_f32, 2, big);
        bench_convert_fill(x.a.data, (size_t)4096 * 4096, 0);
        x.d.dtype = which == 0 ? dnnlk_bf16 : dnnlk_f16;
        bytes_per = 6, dtn = which == 0 ? "f32>bf16" : "f32>f16";
    } else if (which == 2) {
        x.a = bench_dense_tensor(bench_alloc((size_t)8 * 64 * 128 * 128 * 4), dnnlk_f32, 4, nchw);
        bench_convert_fill(x.a.data, (size_t)8 * 64 * 128 * 128, 0);
        x.d.dtype = dnnlk_f32;
        x.d.ndims = 4; /* channels-last: C innermost, the rest deduced */
        x.d.dims[0] = x.d.dims[1] = x.d.dims[2] = x.d.dims[3] = DNNLK_UNKNOWN;
        x.d.strides[0] = x.d.strides[2] = x.d.strides[3] = DNNLK_UNKNOWN, x.d.strides[1] = 1;
        bytes_per = 8, dtn = "f32";
    } else if (which == 3) {
        x.kind = 1, x.op = dnnlk_compare_eq;
        x.a = bench_dense_tensor(bench_alloc(8 * 512 * 8), dnnlk_s64, 4, md);
        x.b = bench_dense_tensor(bench_alloc(8), dnnlk_s64, 0, NULL);
        bench_convert_fill(x.a.data, 8 * 512, 1);
        bytes_per = 9, dtn = "s64";
    } else if (which == 5) {
        x.kind = 2;
        x.a = bench_dense_tensor(bench_alloc((size_t)4096 * 4096), dnnlk_boolean, 2, big);
        x.b = bench_dense_tensor(bench_alloc((size_t)4096 * 4096), dnnlk_boolean, 2, big);
        bench_convert_fill(x.a.data, (size_t)4096 * 4096, 2);
        bench_convert_fill((char *)x.b.data + 1, (size_t)4096 * 4096 - 1, 2); /* not a's bytes */
        ((unsigned char *)x.b.data)[0] = 1;
        bytes_per = 3, dtn = "bool";
    } else {
        x.kind = 1, x.op = dnnlk_compare_lt;
        x.a = bench_dense_tensor(bench_alloc((size_t)4096 * 4096 * 4), dnnlk_f32, 2, big);
        x.b = bench_dense_tensor(bench_alloc((size_t)4096 * 4096 * 4), dnnlk_f32, 2, big);
        bench_convert_fill(x.a.data, (size_t)4096 * 4096, 0);
        bench_convert_fill(x.b.data, (size_t)4096 * 4096, 0);
        ((float *)x.b.data)[7] = ((float *)x.a.data)[7]; /* one tie */
        bytes_per = 9, dtn = "f32";
    }
    if ((x.kind == 0   ? dnnlk_convert_infer(&x.a, &x.d)
         : x.kind == 1 ? dnnlk_compare_infer(x.op, &x.a, &x.b, &x.d)
                       : dnnlk_logical_infer(dnnlk_logical_and, &x.a, &x.b, &x.d)) != dnnlk_success) {
        printf("convert/compare infer failed\n");
        exit(2);
    }
    n = x.d.dims[0];
    {
        int i;
        for (i = 1; i < x.d.ndims; i++) n *= x.d.dims[i];
    }
    des = dnnlk_dtype_size(x.d.dtype);
    x.d.data = bench_alloc((size_t)n * des);
    nv.x = &x, nv.which = which, nv.out = bench_alloc((size_t)n * des);
    bench_convert_naive_run(&nv, 0, 1);
    bench_convert_run(&x, 0, 1);
    bench_check(memcmp(nv.out, x.d.data, (size_t)n * des) == 0, name);
    bench_shape_str(shape, sizeof shape, x.a.ndims, x.a.dims);
    {
        double naive_t = bench_time(bench_convert_naive_run, &nv, 1);
        for (nth = bench_threads_first(); nth; nth = bench_threads_next(nth)) {
            double t = bench_time(bench_convert_run, &x, nth), bytes = bytes_per * (double)n;
            double copy_t = bench_copy_time((size_t)bytes, nth);
            char note[160] = "";
            bench_peer_note(note, sizeof note, name, nth, 1e9 * t / (double)n);
            /* lt (two f32 inputs) and mask == 0 (one s64 input) read 8 bytes an element and write 1:
             * reading them may be the bound */
            if (which == 3 || which == 4)
                bench_bound_ceiling_note(note, sizeof note, "read", (double)n, t, copy_t,
                                         bench_read_time(x.a.data, (size_t)n * dnnlk_dtype_size(x.a.dtype), nth) +
                                             (which == 4 ? bench_read_time(x.b.data, (size_t)n * 4, nth) : 0));
            bench_row(name, shape, dtn, nth, (double)n, bytes, t, copy_t, nth == 1 ? naive_t : 0, note);
        }
    }
    free(x.a.data), free(x.d.data), free(nv.out);
    if (x.b.data) free(x.b.data);
}

static inline void bench_convert(void) {
    if (!bench_selected("convert compare")) return;
    bench_convert_case("convert f32->bf16", 0);
    bench_convert_case("convert f32->f16", 1);
    bench_convert_case("convert NCHW->NHWC", 2);
    bench_convert_case("compare mask==0 s64", 3);
    bench_convert_case("compare lt f32", 4);
    bench_convert_case("logical and bool", 5);
}
