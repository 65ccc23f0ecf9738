/* Shared by the oneDNN peer programs (built by run.sh with -ldnnl): the clock, the case filter
 * (the same words as the bench program's), and a status check that stops the peer on failure. */
#ifndef DNNLK_ONEDNN_PEER_COMMON_H
#define DNNLK_ONEDNN_PEER_COMMON_H

#include <dnnl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static inline double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Samples per case: 5, or DNNLK_BENCH_REPS, as in bench/harness.h. */
static inline int peer_reps(void) {
    const char *s = getenv("DNNLK_BENCH_REPS");
    int n = s ? atoi(s) : 0;
    return n > 0 && n <= 1000 ? n : 5;
}

/* 1 when no words were given, or one of them occurs in the case group's name. */
static inline int selected(int argc, char **argv, const char *group) {
    int i;
    if (argc <= 1) return 1;
    for (i = 1; i < argc; i++)
        if (strstr(group, argv[i])) return 1;
    return 0;
}

#define ONEDNN_CHK(x)                                                                      \
    do {                                                                                   \
        if ((x) != dnnl_success) {                                                         \
            fprintf(stderr, "onednn peer: %s failed (line %d)\n", #x, __LINE__);           \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)

#endif
