/* The arithmetic floor of the compute-bound rows: each kernel timed twice by thread CPU time, best
 * of REPS, one thread:
 *   - "dram": the bench's shape (src and dst far beyond the caches), as `make bench` runs it;
 *   - "cache": the same kernel on a slice of SLICE elements per tensor (128 KiB: every operand stays
 *             in L2), called back to back, so no memory traffic is left: what remains is the
 *             arithmetic at the accuracy the README states, the lowest time this kernel can reach
 *             at any memory speed;
 * against the copy bound of the bench row (memcpy of half the compulsory traffic, the bench's
 * definition) and the time the goal asks for (copy / GOAL, GOAL 0.9 for #27's rows, 0.85 for
 * #25's backward rows). "cache/goal" above 1 means the kernel cannot reach the goal on this
 * machine even with free memory traffic. With -DWITH_ONEDNN (run with OMP_NUM_THREADS=1), oneDNN
 * 2.6's eltwise gelu (erf, tanh) and softmax/logsoftmax forward and backward are timed on the
 * same slices: a peer's arithmetic floor, at its own (looser) accuracy.
 *   cc -O2 -I. tools/compute_floor.c -o compute_floor -lm && ./compute_floor [REPS]
 *   cc -O2 -I. -DWITH_ONEDNN tools/compute_floor.c -o compute_floor -ldnnl -lm &&
 *     OMP_NUM_THREADS=1 ./compute_floor [REPS] */
#include "dnnl_kernels.h"
#include "tools/cputime.h"

enum { OP_GELU_ERF, OP_GELU_TANH, OP_SOFTMAX, OP_LOG_SOFTMAX, OP_GELU_ERF_BWD, OP_GELU_TANH_BWD, OP_SOFTMAX_BWD,
       OP_LOG_SOFTMAX_BWD, NOPS };
static const char *const op_name[NOPS] = {"gelu erf",        "gelu tanh",          "softmax",    "log_softmax",
                                          "gelu erf bwd",    "gelu tanh bwd",      "softmax bwd", "log_softmax bwd"};
/* the bench rows: [4096,3072] for gelu, [49152,512] for the #27 softmax rows, [8,12,512,512] as
 * [49152,512] for softmax_bwd (#25); bytes per element of compulsory traffic; the goal's eff */
static const int64_t op_rows[NOPS] = {4096, 4096, 49152, 49152, 4096, 4096, 49152, 49152};
static const int64_t op_cols[NOPS] = {3072, 3072, 512, 512, 3072, 3072, 512, 512};
static const int op_bytes[NOPS] = {8, 8, 8, 8, 12, 12, 12, 12};
static const double op_goal[NOPS] = {0.9, 0.9, 0.9, 0.9, 0.85, 0.85, 0.85, 0.85};
enum { SLICE = 32768 };

typedef struct fl_call {
    int op;
    dnnlk_tensor a, b, y; /* a: src (dst for softmax bwd), b: diff_dst, y: dst / diff_src */
    int repeat;
} fl_call;

static int fl_run(void *p) {
    fl_call *c = (fl_call *)p;
    int r, st = 0;
    for (r = 0; r < c->repeat && !st; r++) switch (c->op) {
        case OP_GELU_ERF: st = dnnlk_gelu(&c->a, dnnlk_gelu_erf, &c->y, 0, 1); break;
        case OP_GELU_TANH: st = dnnlk_gelu(&c->a, dnnlk_gelu_tanh, &c->y, 0, 1); break;
        case OP_SOFTMAX: st = dnnlk_softmax(&c->a, -1, &c->y, 0, 1); break;
        case OP_LOG_SOFTMAX: st = dnnlk_log_softmax(&c->a, -1, &c->y, 0, 1); break;
        case OP_GELU_ERF_BWD: st = dnnlk_gelu_bwd(&c->a, &c->b, dnnlk_gelu_erf, &c->y, 0, 1); break;
        case OP_GELU_TANH_BWD: st = dnnlk_gelu_bwd(&c->a, &c->b, dnnlk_gelu_tanh, &c->y, 0, 1); break;
        case OP_SOFTMAX_BWD: st = dnnlk_softmax_bwd(&c->a, &c->b, -1, &c->y, 0, 1); break;
        default: st = dnnlk_log_softmax_bwd(&c->a, &c->b, -1, &c->y, 0, 1); break;
        }
    return st;
}

static double fl_best(int (*run)(void *), void *ctx, int reps) {
    double best = 1e9;
    int r;
    for (r = 0; r < reps; r++) {
        double t = cpu();
        if (run(ctx)) { printf("kernel failed\n"); exit(1); }
        t = cpu() - t;
        if (t < best) best = t;
    }
    return best;
}

/* plausible operands: src in [-4, 4) (gelu's interesting range, softmax logits), a softmax output
 * row (positive, summing to about 1) for the backward rows' dst, diff_dst in [-1, 1) */
static void fl_fill(float *x, int64_t n, float lo, float span, uint32_t seed) {
    int64_t i;
    for (i = 0; i < n; i++) {
        seed = seed * 1664525u + 1013904223u;
        x[i] = lo + span * (float)(seed >> 8) * (1.0f / 16777216.0f);
    }
}

#ifdef WITH_ONEDNN
typedef struct fl_onednn {
    dnnl_primitive_t prim;
    dnnl_stream_t s;
    dnnl_exec_arg_t args[3];
    int nargs, repeat;
} fl_onednn;
static int fl_onednn_run(void *p) {
    fl_onednn *o = (fl_onednn *)p;
    int r;
    for (r = 0; r < o->repeat; r++)
        if (dnnl_primitive_execute(o->prim, o->s, o->nargs, o->args) != dnnl_success) return 1;
    return dnnl_stream_wait(o->s) != dnnl_success;
}
/* oneDNN's primitive for op on [rows, cols] over the buffers a (src, or dst for softmax bwd), b
 * (diff_dst), y (dst or diff_src); 0 where oneDNN 2.6 has no such primitive. */
static double fl_onednn_time(dnnl_engine_t eng, dnnl_stream_t s, int op, int64_t rows, int64_t cols, float *a,
                             float *b, float *y, int repeat, int reps) {
    dnnl_memory_desc_t md;
    dnnl_primitive_desc_t pd, hint = NULL;
    dnnl_dims_t dims = {rows, cols};
    dnnl_memory_t ma, mb, my;
    fl_onednn o;
    double t;
    int fwd = op <= OP_LOG_SOFTMAX, soft = op == OP_SOFTMAX || op == OP_LOG_SOFTMAX || op == OP_SOFTMAX_BWD ||
                                               op == OP_LOG_SOFTMAX_BWD;
    dnnl_alg_kind_t alg = soft ? ((op == OP_SOFTMAX || op == OP_SOFTMAX_BWD) ? dnnl_softmax_accurate : dnnl_softmax_log)
                               : ((op == OP_GELU_ERF || op == OP_GELU_ERF_BWD) ? dnnl_eltwise_gelu_erf
                                                                               : dnnl_eltwise_gelu_tanh);
    CHK(dnnl_memory_desc_init_by_tag(&md, 2, dims, dnnl_f32, dnnl_ab));
    if (soft) {
        dnnl_softmax_v2_desc_t fd, bd;
        CHK(dnnl_softmax_v2_forward_desc_init(&fd, dnnl_forward_training, alg, &md, &md, 1));
        CHK(dnnl_primitive_desc_create(fwd ? &pd : &hint, &fd, NULL, eng, NULL));
        if (!fwd) {
            CHK(dnnl_softmax_v2_backward_desc_init(&bd, alg, &md, &md, &md, 1));
            CHK(dnnl_primitive_desc_create(&pd, &bd, NULL, eng, hint));
        }
    } else {
        dnnl_eltwise_desc_t fd, bd;
        CHK(dnnl_eltwise_forward_desc_init(&fd, dnnl_forward_training, alg, &md, 0.f, 0.f));
        CHK(dnnl_primitive_desc_create(fwd ? &pd : &hint, &fd, NULL, eng, NULL));
        if (!fwd) {
            CHK(dnnl_eltwise_backward_desc_init(&bd, alg, &md, &md, 0.f, 0.f));
            CHK(dnnl_primitive_desc_create(&pd, &bd, NULL, eng, hint));
        }
    }
    CHK(dnnl_primitive_create(&o.prim, pd));
    CHK(dnnl_memory_create(&ma, &md, eng, a));
    CHK(dnnl_memory_create(&mb, &md, eng, b));
    CHK(dnnl_memory_create(&my, &md, eng, y));
    o.s = s, o.repeat = repeat;
    if (fwd) {
        o.nargs = 2;
        o.args[0].arg = DNNL_ARG_SRC, o.args[0].memory = ma;
        o.args[1].arg = DNNL_ARG_DST, o.args[1].memory = my;
    } else {
        o.nargs = 3;
        o.args[0].arg = soft ? DNNL_ARG_DST : DNNL_ARG_SRC, o.args[0].memory = ma;
        o.args[1].arg = DNNL_ARG_DIFF_DST, o.args[1].memory = mb;
        o.args[2].arg = DNNL_ARG_DIFF_SRC, o.args[2].memory = my;
    }
    t = fl_best(fl_onednn_run, &o, reps);
    dnnl_memory_destroy(ma), dnnl_memory_destroy(mb), dnnl_memory_destroy(my);
    dnnl_primitive_destroy(o.prim);
    dnnl_primitive_desc_destroy(pd);
    if (hint) dnnl_primitive_desc_destroy(hint);
    return t;
}
#endif

int main(int argc, char **argv) {
    int op, reps = argc > 1 ? atoi(argv[1]) : 7;
#ifdef WITH_ONEDNN
    dnnl_engine_t eng;
    dnnl_stream_t s;
    onednn_open(&eng, &s);
#endif
    printf("one thread, ns/element, best of %d (thread CPU time); goal time = copy / goal eff\n", reps);
    printf("%-16s %8s %8s %8s %8s %10s %10s\n", "op", "dram", "cache", "copy", "goal", "cache/goal", "peer cache");
    for (op = 0; op < NOPS; op++) {
        const int64_t R = op_rows[op], C = op_cols[op], n = R * C, sr = SLICE / C ? SLICE / C : 1, sn = sr * C;
        const size_t half = (size_t)n * (size_t)op_bytes[op] / 2;
        float *a = al((size_t)n * 4), *b = al((size_t)n * 4), *y = al((size_t)n * 4);
        char *c0 = al(half), *c1 = al(half);
        fl_call big, small;
        double td, tl, tc = 1e9, goal, peer = 0;
        int r;
        fl_fill(a, n, -4.0f, 8.0f, 1u);
        fl_fill(b, n, -1.0f, 2.0f, 2u);
        if (op == OP_SOFTMAX_BWD || op == OP_LOG_SOFTMAX_BWD) { /* dst of a forward call: a real softmax output */
            dnnlk_tensor t = {a, dnnlk_f32, 2, {R, C}, {C, 1}};
            if ((op == OP_SOFTMAX_BWD ? dnnlk_softmax : dnnlk_log_softmax)(&t, -1, &t, 0, 1)) return 1;
        }
        big.op = small.op = op;
        big.a = (dnnlk_tensor){a, dnnlk_f32, 2, {R, C}, {C, 1}};
        big.b = (dnnlk_tensor){b, dnnlk_f32, 2, {R, C}, {C, 1}};
        big.y = (dnnlk_tensor){y, dnnlk_f32, 2, {R, C}, {C, 1}};
        big.repeat = 1;
        small = big;
        small.a.dims[0] = small.b.dims[0] = small.y.dims[0] = sr;
        small.repeat = (int)(4 * n / sn < 20000 ? 4 * n / sn : 20000); /* about 4 bench calls of work */
        for (r = 0; r < 3 * reps; r++) { /* the copy swings most with other jobs: more samples */
            double t = cpu();
            memcpy(c0, c1, half);
            t = cpu() - t;
            if (t < tc) tc = t;
        }
        td = fl_best(fl_run, &big, reps) / (double)n;
        tl = fl_best(fl_run, &small, reps) / ((double)sn * small.repeat);
        tc /= (double)n;
        goal = tc / op_goal[op];
#ifdef WITH_ONEDNN
        peer = fl_onednn_time(eng, s, op, sr, C, a, b, y, small.repeat, reps) / ((double)sn * small.repeat);
#endif
        printf("%-16s %8.3f %8.3f %8.3f %8.3f %10.2f", op_name[op], 1e9 * td, 1e9 * tl, 1e9 * tc, 1e9 * goal, tl / goal);
        if (peer > 0) printf(" %10.3f", 1e9 * peer);
        printf("\n");
        free(a), free(b), free(y), free(c0), free(c1);
    }
    return 0;
}
