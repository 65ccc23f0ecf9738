/* Dropout training steps on several threads, with the RNG state chained from step to step.
 *
 *   cc dropout_threads.c -o dropout_threads -lpthread              (pthreads only)
 *   cc -fopenmp dropout_threads.c -o dropout_threads -lpthread     (pthreads and OpenMP)
 *
 * The library creates no threads: each thread calls the op with its part (ith, nth) and writes a
 * disjoint share of dst and of the mask. The RNG state comes in const (rng_in) and part 0 writes
 * the state after this step's draws to rng_out; the next step starts from it. Parts must not write
 * the state they read, so each step reads `state` and part 0 writes `next`, swapped after the join.
 *
 * The program runs STEPS steps three ways -- one part, NTHREADS pthreads, an OpenMP parallel
 * region -- and prints, per step, how many elements were kept and a hash of the mask: the three
 * ways give the same masks bit for bit (the masks depend on the seed and the stream position,
 * never on the part count or the instruction set). Finally one call over all steps' elements at
 * once gives the steps' masks one after the other: chaining the state continues one stream. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "../dnnl_kernels.h"

enum { STEPS = 3, ROWS = 16, COLS = 1000, N = ROWS * COLS, NTHREADS = 4 };
#define RATE 0.25
#define SEED 2024

static float src[N], dst[N];
static uint8_t masks[3][STEPS][N / 8]; /* [way][step]: N is a multiple of 8, so each byte is one step's */

/* One training step's forward dropout, as part ith of nth. */
typedef struct step_args {
    const dnnlk_rng *state; /* read by every part */
    dnnlk_rng *next;        /* written by part 0 only */
    uint8_t *mask;
    int ith, nth;
    dnnlk_status st;
} step_args;

static void step_part(step_args *a) {
    dnnlk_tensor s = {src, dnnlk_f32, 2, {ROWS, COLS}, {COLS, 1}};
    dnnlk_tensor d = {dst, dnnlk_f32, 2, {ROWS, COLS}, {COLS, 1}};
    a->st = dnnlk_dropout_fwd(&s, &d, a->mask, RATE, 0, NULL, a->state, a->next, a->ith, a->nth);
}

static void *step_thread(void *p) {
    step_part((step_args *)p);
    return NULL;
}

/* Runs the steps on nth pthreads (nth = 1: on this thread); 0 on success. */
static int run_pthreads(int nth, uint8_t (*mask)[N / 8]) {
    dnnlk_rng state, next;
    pthread_t tid[NTHREADS];
    step_args args[NTHREADS];
    int step, i;
    dnnlk_rng_init(&state, dnnlk_rng_mcg31m1, SEED, 0);
    for (step = 0; step < STEPS; step++) {
        for (i = 0; i < nth; i++) {
            step_args a = {&state, &next, mask[step], i, nth, dnnlk_success};
            args[i] = a;
            if (nth == 1) step_part(&args[i]);
            else if (pthread_create(&tid[i], NULL, step_thread, &args[i]) != 0) return 1;
        }
        if (nth > 1)
            for (i = 0; i < nth; i++) pthread_join(tid[i], NULL);
        for (i = 0; i < nth; i++)
            if (args[i].st != dnnlk_success) return 1;
        state = next; /* the chain: the next step continues the stream where this one ended */
    }
    return 0;
}

#ifdef _OPENMP
static int run_openmp(uint8_t (*mask)[N / 8]) {
    dnnlk_rng state, next;
    int step, failed = 0;
    dnnlk_rng_init(&state, dnnlk_rng_mcg31m1, SEED, 0);
    for (step = 0; step < STEPS; step++) {
#pragma omp parallel num_threads(NTHREADS) reduction(+ : failed)
        {
            step_args a = {&state, &next, mask[step], omp_get_thread_num(), omp_get_num_threads(), dnnlk_success};
            step_part(&a);
            failed += a.st != dnnlk_success;
        }
        state = next;
    }
    return failed != 0;
}
#endif

static uint32_t fnv1a(const uint8_t *p, size_t n) {
    uint32_t h = 2166136261u;
    while (n--) h = (h ^ *p++) * 16777619u;
    return h;
}

static int popcount(const uint8_t *p, size_t n) {
    int c = 0, b;
    while (n--)
        for (b = 0; b < 8; b++) c += (p[n] >> b) & 1;
    return c;
}

int main(void) {
    static float all_src[STEPS * N], all_dst[STEPS * N];
    static uint8_t all_mask[STEPS * N / 8];
    dnnlk_rng rng;
    int i, step, ways = 2, same = 1, dst_ok = 1;
    for (i = 0; i < N; i++) src[i] = (float)(i % 7) - 3.0f;

    if (run_pthreads(1, masks[0]) || run_pthreads(NTHREADS, masks[1])) {
        printf("dropout failed\n");
        return 1;
    }
#ifdef _OPENMP
    if (run_openmp(masks[2])) {
        printf("dropout (OpenMP) failed\n");
        return 1;
    }
    ways = 3;
#else
    printf("OpenMP: not enabled in this build (compile with -fopenmp), that part skipped\n");
#endif
    for (step = 0; step < STEPS; step++) {
        printf("step %d: kept %d of %d, mask hash %08x\n", step, popcount(masks[0][step], N / 8), N,
               (unsigned)fnv1a(masks[0][step], N / 8));
        for (i = 1; i < ways; i++) same &= memcmp(masks[i][step], masks[0][step], N / 8) == 0;
    }
    /* dst of the last step: src * (m ? scale : 0) in f32, scale = (float)(1 / (1 - rate)) */
    for (i = 0; i < N; i++) {
        int kept = (masks[0][STEPS - 1][i / 8] >> (i % 8)) & 1; /* bit i % 8 of byte i / 8 */
        dst_ok &= dst[i] == src[i] * (kept ? (float)(1 / (1 - RATE)) : 0.0f);
    }
    printf("masks of 1 part, %d pthreads%s: %s\n", NTHREADS, ways == 3 ? " and OpenMP" : "",
           same ? "identical" : "DIFFERENT");

    /* The chain is one stream: one call over STEPS * N elements from the seed gives the same bits. */
    dnnlk_tensor s = {all_src, dnnlk_f32, 1, {STEPS * N}, {1}}, d = {all_dst, dnnlk_f32, 1, {STEPS * N}, {1}};
    dnnlk_rng_init(&rng, dnnlk_rng_mcg31m1, SEED, 0);
    if (dnnlk_dropout_fwd(&s, &d, all_mask, RATE, 0, NULL, &rng, NULL, 0, 1) != dnnlk_success) return 1;
    int chained = memcmp(all_mask, masks[0], sizeof all_mask) == 0;
    printf("one call over %d steps' elements: %s\n", STEPS, chained ? "the same masks, one after the other" : "DIFFERENT");
    printf("dropout_threads: %s\n", same && chained && dst_ok ? "ok" : "FAILED");
    return !(same && chained && dst_ok);
}
