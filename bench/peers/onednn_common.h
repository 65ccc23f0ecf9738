/* Shared by the oneDNN peer programs (built by run.sh with -ldnnl): the clock, the case filter
 * (the same words as the bench program's), and a status check that stops the peer on failure. */
#ifndef DNNLK_ONEDNN_PEER_COMMON_H
#define DNNLK_ONEDNN_PEER_COMMON_H

/* sched_setaffinity and CPU_SET need _GNU_SOURCE before the first system header: run.sh passes it */
#include <dnnl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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

/* The thread count this process measures at, or 0 in the parent, once it has run itself as a child
 * for each of the bench's thread counts (1 and 2, or DNNLK_BENCH_THREADS, as bench/harness.h reads
 * it). A fresh process per count, with OMP_NUM_THREADS set before it starts, because both other
 * ways measure the default count (all cores) where they claim 1 thread: libgomp reads
 * OMP_NUM_THREADS once, when it loads, so setting it after a fork does nothing; and some primitives
 * (softmax) fix their thread count when they are created, so omp_set_num_threads between
 * executions does not reach them either. */
static inline int peer_threads(char **argv) {
    const char *child = getenv("DNNLK_PEER_THREADS"), *list = getenv("DNNLK_BENCH_THREADS");
    int counts[16] = {1, 2}, ncounts = 2, i;
    if (child) return atoi(child);
    if (list && *list) {
        ncounts = 0;
        while (*list && ncounts < 16) {
            char *end;
            long v = strtol(list, &end, 10);
            if (end == list) break;
            if (v >= 1 && v <= 64) counts[ncounts++] = (int)v;
            list = *end == ',' ? end + 1 : end;
        }
    }
    for (i = 0; i < ncounts; i++) {
        int t = counts[i];
        pid_t pid;
        fflush(stdout);
        pid = fork();
        if (pid == 0) {
            char v[8];
            cpu_set_t all;
            long cpu, ncpu = sysconf(_SC_NPROCESSORS_ONLN);
            /* every CPU again: with OMP_PROC_BIND set, libgomp bound this (parent) thread to one
             * core when it loaded, and a child inherits that mask through exec, which put all of a
             * 16-thread run's threads on one core */
            CPU_ZERO(&all);
            for (cpu = 0; cpu < ncpu && cpu < CPU_SETSIZE; cpu++) CPU_SET(cpu, &all);
            (void)sched_setaffinity(0, sizeof all, &all);
            snprintf(v, sizeof v, "%d", t);
            setenv("OMP_NUM_THREADS", v, 1);
            setenv("DNNLK_PEER_THREADS", v, 1);
            execv("/proc/self/exe", argv);
            _exit(127);
        }
        if (pid > 0) {
            int status = 0;
            waitpid(pid, &status, 0);
            if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
                fprintf(stderr, "onednn peer: the %d-thread run failed (status %d)\n", t, status);
        }
    }
    return 0;
}

#define ONEDNN_CHK(x)                                                                      \
    do {                                                                                   \
        if ((x) != dnnl_success) {                                                         \
            fprintf(stderr, "onednn peer: %s failed (line %d)\n", #x, __LINE__);           \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)

/* The best time in seconds of one execution of p, after a warm-up: the minimum over peer_reps()
 * samples, each >= 20 ms or 3 calls, as bench/harness.h times our kernels. */
static inline double peer_best(dnnl_primitive_t p, dnnl_stream_t st, int nargs, const dnnl_exec_arg_t *args) {
    double best = 1e30;
    int r;
    ONEDNN_CHK(dnnl_primitive_execute(p, st, nargs, args));
    ONEDNN_CHK(dnnl_stream_wait(st));
    for (r = 0; r < peer_reps(); r++) {
        double start = now();
        int calls = 0;
        while (calls < 3 || now() - start < 0.02) {
            double t0 = now(), t;
            ONEDNN_CHK(dnnl_primitive_execute(p, st, nargs, args));
            ONEDNN_CHK(dnnl_stream_wait(st));
            t = now() - t0;
            if (t < best) best = t;
            calls++;
        }
    }
    return best;
}

#endif
