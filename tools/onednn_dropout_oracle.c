/* tools/onednn_dropout_oracle.c — runs oneDNN's dropout attribute (a 1xN f32 matmul, ref:any on
 * the versions checked) and counts how many mask elements differ from three Philox layouts:
 *   A  counter {x, x+1, x+2, x+3}, key {s, s}, word i&3   (dnnlk_rng_philox4x32_10_ctr32)
 *   B  word 2 of {x, x+1, x, x+3}, key {s, s}             (oneDNN v3.11+ at offset 0: a defect)
 *   C  counter {off_lo, off_hi, x_lo, x_hi}, key {seed}   (dnnlk_rng_philox4x32_10)
 * keep = r > UINT32_MAX * (double)p_float. Not part of the build or the tests; the README's
 * version table and the known-answer masks in tests/test_dropout.c come from it.
 *
 * Build against any oneDNN 3.x headers and run against each libdnnl, e.g. PyPI's wheels
 * (onednn==2025.0.0 is v3.6 ... 2026.1.0 is v3.13; they are SYCL builds, so the CPU engine
 * also needs intel-sycl-rt, intel-cmplr-lib-rt, intel-cmplr-lib-ur and intel-opencl-rt of the
 * same year, OCL_ICD_FILENAMES=<lib>/libintelocl.so and ONEAPI_DEVICE_SELECTOR=opencl:cpu):
 *   cc -std=gnu11 -I<include> tools/onednn_dropout_oracle.c -o oracle -L<lib> -ldnnl -ldl
 *   ./oracle N SEED OFFSET P MODE   MODE 0: dnnl_primitive_attr_set_dropout (s32 seed, no offset)
 *                                   MODE 1: set_dropout_v2, s64 seed, use_offset = 1 (v3.11+)
 *                                   MODE 2: set_dropout_v2, s32 seed, use_offset = 0 (v3.11+) */
#include <dnnl.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CK(x) do { dnnl_status_t s_ = (x); if (s_ != dnnl_success) { printf("FAIL %s: %d\n", #x, (int)s_); return 2; } } while (0)
#define ARG_OFFSET 507

static void philox(uint32_t c[4], uint32_t k0, uint32_t k1) {
    int r;
    for (r = 0; r < 10; r++) {
        uint64_t a = (uint64_t)0xD2511F53u * c[0], b = (uint64_t)0xCD9E8D57u * c[2];
        uint32_t n0 = (uint32_t)(b >> 32) ^ c[1] ^ k0, n2 = (uint32_t)(a >> 32) ^ c[3] ^ k1;
        c[1] = (uint32_t)b, c[3] = (uint32_t)a, c[0] = n0, c[2] = n2;
        k0 += 0x9E3779B9u, k1 += 0xBB67AE85u;
    }
}
/* A: 32-bit layout */
static uint32_t cand_a(uint64_t i, int64_t seed) {
    uint32_t x = (uint32_t)i & ~3u, c[4] = {x, x + 1, x + 2, x + 3};
    philox(c, (uint32_t)seed, (uint32_t)seed);
    return c[i & 3];
}
/* B: 32-bit call routed through the 64-bit function: word 2 of {x, x+1, x, x+3} */
static uint32_t cand_b(uint64_t i, int64_t seed) {
    uint32_t x = (uint32_t)i & ~3u, c[4] = {x, x + 1, x, x + 3};
    philox(c, (uint32_t)seed, (uint32_t)seed);
    return c[2];
}
/* C: 64-bit layout */
static uint32_t cand_c(uint64_t i, int64_t seed, int64_t off) {
    uint64_t x = i & ~3ull;
    uint32_t c[4] = {(uint32_t)off, (uint32_t)((uint64_t)off >> 32), (uint32_t)x, (uint32_t)(x >> 32)};
    philox(c, (uint32_t)seed, (uint32_t)((uint64_t)seed >> 32));
    return c[i & 3];
}

int main(int argc, char **argv) {
    int64_t n = argc > 1 ? atoll(argv[1]) : 4096;
    int64_t seed = argc > 2 ? atoll(argv[2]) : 1234;
    int64_t off = argc > 3 ? atoll(argv[3]) : 0;
    float p = argc > 4 ? strtof(argv[4], 0) : 0.5f;
    int want_v2 = argc > 5 ? atoi(argv[5]) : 0; /* 0: set_dropout; 1: v2 s64 seed use_offset=1; 2: v2 s32 use_offset=0 */
    const dnnl_version_t *v = dnnl_version();
    dnnl_engine_t eng; dnnl_stream_t str;
    dnnl_memory_desc_t src_md, wei_md, dst_md, mask_md, p_md, seed_md, off_md;
    dnnl_primitive_attr_t attr; dnnl_primitive_desc_t pd; dnnl_primitive_t prim;
    dnnl_dims_t sd = {1, 1}, wd = {1, n}, dd = {1, n}, one = {1};
    int64_t i, bad_a = 0, bad_b = 0, bad_c = 0, kept = 0;
    float *s, *w, *d; uint8_t *m;
    dnnl_memory_t ms, mw, md, mm, mp, mseed, moff;
    printf("oneDNN %d.%d.%d (%s) n=%lld seed=%lld offset=%lld p=%.9g mode=%d\n", v->major, v->minor, v->patch, v->hash,
           (long long)n, (long long)seed, (long long)off, p, want_v2);
    CK(dnnl_engine_create(&eng, dnnl_cpu, 0));
    CK(dnnl_stream_create(&str, eng, dnnl_stream_default_flags));
    CK(dnnl_memory_desc_create_with_tag(&src_md, 2, sd, dnnl_f32, dnnl_ab));
    CK(dnnl_memory_desc_create_with_tag(&wei_md, 2, wd, dnnl_f32, dnnl_ab));
    CK(dnnl_memory_desc_create_with_tag(&dst_md, 2, dd, dnnl_f32, dnnl_ab));
    CK(dnnl_memory_desc_create_with_tag(&mask_md, 2, dd, dnnl_u8, dnnl_ab));
    CK(dnnl_memory_desc_create_with_tag(&p_md, 1, one, dnnl_f32, dnnl_a));
    CK(dnnl_memory_desc_create_with_tag(&seed_md, 1, one, want_v2 == 1 ? dnnl_s64 : dnnl_s32, dnnl_a));
    CK(dnnl_memory_desc_create_with_tag(&off_md, 1, one, want_v2 == 1 ? dnnl_s64 : dnnl_s32, dnnl_a));
    CK(dnnl_primitive_attr_create(&attr));
    if (want_v2) {
        typedef dnnl_status_t (*v2_t)(dnnl_primitive_attr_t, const_dnnl_memory_desc_t, dnnl_data_type_t, int, int);
        v2_t f = (v2_t)dlsym(RTLD_DEFAULT, "dnnl_primitive_attr_set_dropout_v2");
        if (!f) { printf("no set_dropout_v2 in this version\n"); return 3; }
        CK(f(attr, mask_md, want_v2 == 1 ? dnnl_s64 : dnnl_s32, want_v2 == 1, 0));
    } else CK(dnnl_primitive_attr_set_dropout(attr, mask_md));
    CK(dnnl_matmul_primitive_desc_create(&pd, eng, src_md, wei_md, NULL, dst_md, attr));
    { const char *name; dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &name); printf("impl: %s\n", name); }
    CK(dnnl_primitive_create(&prim, pd));
    CK(dnnl_memory_create(&ms, src_md, eng, DNNL_MEMORY_ALLOCATE));
    CK(dnnl_memory_create(&mw, wei_md, eng, DNNL_MEMORY_ALLOCATE));
    CK(dnnl_memory_create(&md, dst_md, eng, DNNL_MEMORY_ALLOCATE));
    CK(dnnl_memory_create(&mm, mask_md, eng, DNNL_MEMORY_ALLOCATE));
    CK(dnnl_memory_create(&mp, p_md, eng, DNNL_MEMORY_ALLOCATE));
    CK(dnnl_memory_create(&mseed, seed_md, eng, DNNL_MEMORY_ALLOCATE));
    CK(dnnl_memory_create(&moff, off_md, eng, DNNL_MEMORY_ALLOCATE));
    dnnl_memory_get_data_handle(ms, (void **)&s); s[0] = 1.f;
    dnnl_memory_get_data_handle(mw, (void **)&w); for (i = 0; i < n; i++) w[i] = 1.f;
    dnnl_memory_get_data_handle(mm, (void **)&m); memset(m, 0xAA, (size_t)n);
    { float *pp; dnnl_memory_get_data_handle(mp, (void **)&pp); pp[0] = p; }
    { void *sp; dnnl_memory_get_data_handle(mseed, &sp); if (want_v2 == 1) *(int64_t *)sp = seed; else *(int32_t *)sp = (int32_t)seed; }
    { void *op; dnnl_memory_get_data_handle(moff, &op); if (want_v2 == 1) *(int64_t *)op = off; }
    {
        dnnl_exec_arg_t args[8] = {{DNNL_ARG_SRC, ms}, {DNNL_ARG_WEIGHTS, mw}, {DNNL_ARG_DST, md},
                                   {DNNL_ARG_ATTR_DROPOUT_MASK, mm}, {DNNL_ARG_ATTR_DROPOUT_PROBABILITY, mp},
                                   {DNNL_ARG_ATTR_DROPOUT_SEED, mseed}, {ARG_OFFSET, moff}};
        CK(dnnl_primitive_execute(prim, str, want_v2 == 1 ? 7 : 6, args));
        CK(dnnl_stream_wait(str));
    }
    dnnl_memory_get_data_handle(md, (void **)&d);
    {
        double th = 4294967295.0 * (double)p;
        for (i = 0; i < n; i++) {
            int got = m[i];
            kept += got;
            bad_a += got != (cand_a((uint64_t)i, seed) > th);
            bad_b += got != (cand_b((uint64_t)i, seed) > th);
            bad_c += got != (cand_c((uint64_t)i, seed, off) > th);
        }
    }
    printf("kept %lld/%lld; mismatches: A(32-bit {x..x+3},{s,s}) %lld  B(word 2 of {x,x+1,x,x+3}) %lld  C(64-bit offset layout) %lld\n",
           (long long)kept, (long long)n, (long long)bad_a, (long long)bad_b, (long long)bad_c);
    printf("first 16 mask:");
    for (i = 0; i < 16 && i < n; i++) printf(" %d", m[i]);
    { uint64_t w = 0; for (i = 0; i < 64 && i < n; i++) w |= (uint64_t)(m[i] != 0) << i; printf("\nmask bits 0..63 LSB-first: 0x%016llxull", (unsigned long long)w); }
    printf("\ndst[0..3] = %g %g %g %g\n", d[0], d[1], d[2], d[3]);
    return 0;
}
