/* vec.h and simd_instantiate.h: a probe body compiled per level (the scalar level of vec_scalar.h
 * included); each level's bf16/f16 conversions, rounding, compares, blends and tail loads/stores
 * against the scalar definitions. */
#include "harness.h"

enum { vec_probe_bf16 = 0, vec_probe_f16 = 1, vec_probe_round = 2, vec_probe_floor = 3, vec_probe_copy_n = 4,
       vec_probe_load_f16 = 5 };

#define DNNLK__SIMD_BODY "../tests/vec_probe_simd.h"
#include "../kernels/simd_instantiate.h"

/* The levels this build has: the scalar level everywhere, the vector levels on x86, neon (level 1)
 * on aarch64. */
#if DNNLK__X86
#define VEC_LEVELS(name) {name##_scalar, name##_sse41, name##_avx2, name##_avx512}
#elif DNNLK__NEON
#define VEC_LEVELS(name) {name##_scalar, name##_neon, NULL, NULL}
#else
#define VEC_LEVELS(name) {name##_scalar, NULL, NULL, NULL}
#endif
typedef void (*probe_fn)(int, const float *, float *, uint16_t *, size_t);
typedef unsigned (*cmp_fn)(const float *, const float *, float *);
static const probe_fn probes[4] = VEC_LEVELS(vec_probe);
static const cmp_fn cmps[4] = VEC_LEVELS(vec_probe_cmp_blend);
static int (*const lanes[4])(void) = VEC_LEVELS(vec_probe_lanes);
typedef void (*int_fn)(const int32_t *, const int32_t *, const float *, const float *, const uint8_t *, int32_t *,
                       unsigned *);
static const int_fn ints[4] = VEC_LEVELS(vec_probe_int);
typedef void (*q8_fn)(const int32_t *, const int32_t *, int16_t, int, const float *, const int32_t *, const float *,
                      uint8_t *, float *, int32_t *);
static const q8_fn q8s[4] = VEC_LEVELS(vec_probe_q8);
typedef void (*order_fn)(const float *, const float *, float *, int32_t *);
static const order_fn orders[4] = VEC_LEVELS(vec_probe_x86_order);
typedef int (*transpose_fn)(void *, int64_t, const void *, int64_t, int);
static const transpose_fn transposes[4] = VEC_LEVELS(vec_probe_transpose);
typedef int (*zip_fn)(const unsigned char *, const unsigned char *, unsigned char *);
static const zip_fn zips[4] = VEC_LEVELS(vec_probe_zip);
typedef void (*permute2_fn)(const int32_t *, const int32_t *, const int32_t *, int32_t *);
static const permute2_fn permute2s[4] = VEC_LEVELS(vec_probe_permute2);
typedef int (*fzip_fn)(const float *, const float *, float *);
static const fzip_fn fzips[4] = VEC_LEVELS(vec_probe_fzip);

#define N 4096

/* Interesting floats: specials, denormals, f16/bf16 rounding boundaries, then random bits. */
static void fill(float *x, size_t n) {
    static const uint32_t special[] = {0, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0x7f800001u,
                                       0xff800001u, 0x00000001u, 0x807fffffu, 0x3f808000u, 0x3f818000u,
                                       0x477ff000u, 0x477fefffu, 0x33000000u, 0x33000001u, 0x387fe000u,
                                       0x3f000000u, 0x3fc00000u, 0x40200000u, 0xbfc00000u, 0x4b000001u,
                                       0x7f7fffffu, 0x7f7f8000u};
    size_t i, k = sizeof special / sizeof special[0];
    for (i = 0; i < n; i++) x[i] = dnnlk__f32_from_bits(i < k ? special[i] : th_rand32());
    for (i = k; i < n / 4; i++) x[i] = th_randf(-8.0f, 8.0f); /* values near small integers */
}

TEST(vector_layer_matches_scalar) {
    static float src[N], dst[N];
    static uint16_t half[N];
    int l = (int)th_isa;
    size_t i;
    th_seed(7 + (uint64_t)l);
    fill(src, N);
    probes[l](0, src, dst, half, N);
    for (i = 0; i < N; i++) {
        uint16_t want = dnnlk_f32_to_bf16(src[i]);
        CHECK_MSG(half[i] == want, "bf16 of %08x: %04x, want %04x", dnnlk__f32_bits(src[i]), half[i], want);
        CHECK_MSG(dnnlk__f32_bits(dst[i]) == (uint32_t)half[i] << 16, "bf16 load %04x", half[i]);
    }
    probes[l](1, src, dst, half, N);
    for (i = 0; i < N; i++) {
        uint16_t want = dnnlk_f32_to_f16(src[i]);
        float back = dnnlk_f16_to_f32(half[i]);
        int ok = half[i] == want || ((want & 0x7c00) == 0x7c00 && (want & 0x3ff) && (half[i] & 0x7e00) == 0x7e00 &&
                                     (half[i] >> 15) == (want >> 15));
        CHECK_MSG(ok, "f16 of %08x: %04x, want %04x", dnnlk__f32_bits(src[i]), half[i], want);
        CHECK_MSG(dnnlk__f32_bits(dst[i]) == dnnlk__f32_bits(back) || (back != back && dst[i] != dst[i]), "f16 load %04x", half[i]);
    }
    probes[l](2, src, dst, half, N);
    for (i = 0; i < N; i++)
        CHECK_MSG(dnnlk__f32_bits(dst[i]) == dnnlk__f32_bits(nearbyintf(src[i])) || (src[i] != src[i] && dst[i] != dst[i]),
                  "round_even(%g) = %g", src[i], dst[i]);
    probes[l](3, src, dst, half, N);
    for (i = 0; i < N; i++)
        CHECK_MSG(dnnlk__f32_bits(dst[i]) == dnnlk__f32_bits(floorf(src[i])) || (src[i] != src[i] && dst[i] != dst[i]),
                  "floor(%g) = %g", src[i], dst[i]);
}

TEST(tails_touch_nothing_past_n) {
    int l = (int)th_isa, w;
    size_t n;
    w = lanes[l]();
    CHECK_EQ(w, l ? 2 << l : 1); /* 1, 4, 8, 16 lanes */
    for (n = 0; n <= (size_t)(2 * w + 1); n++) {
        /* The source ends exactly at the end of its guarded allocation: any over-read of a masked
         * load would show under ASan; any over-write shows in the destination's guard. */
        th_buf s = th_alloc(n * 4, 4), d = th_alloc(n * 4, 12);
        size_t i;
        for (i = 0; i < n; i++) ((float *)s.p)[i] = (float)i + 0.5f;
        probes[l](4, (const float *)s.p, (float *)d.p, NULL, n);
        for (i = 0; i < n; i++) CHECK(((float *)d.p)[i] == (float)i + 0.5f);
        CHECK_MSG(th_guards_ok(&d), "tail n=%zu wrote outside", n);
        th_free(&s);
        th_free(&d);
    }
}

TEST(compare_bits_and_blend_by_lane) {
    float a[16], b[16], out[16];
    int l = (int)th_isa, w, i, r;
    w = lanes[l]();
    for (r = 0; r < 50; r++) {
        unsigned want = 0, got;
        for (i = 0; i < 16; i++) {
            a[i] = (float)th_randint(0, 3);
            b[i] = (float)th_randint(0, 3);
            if (th_randint(0, 7) == 0) a[i] = NAN;
            if (i < w && a[i] < b[i]) want |= 1u << i;
        }
        got = cmps[l](a, b, out);
        CHECK_EQ(got, want);
        for (i = 0; i < w; i++) CHECK(dnnlk__f32_bits(out[i]) == dnnlk__f32_bits(a[i] < b[i] ? a[i] : b[i]));
    }
}

TEST(integer_ops_and_unordered_compares_by_lane) {
    int32_t a[16], b[16], out[80];
    float fa[16], fb[16];
    uint8_t bytes[16];
    unsigned bits[7];
    int l = (int)th_isa, w, i, r;
    w = lanes[l]();
    for (r = 0; r < 200; r++) {
        unsigned want[7] = {0, 0, 0, 0, 0, 0, 0};
        for (i = 0; i < 16; i++) {
            /* small values so that equal lanes are common; the extremes now and then */
            a[i] = (int32_t)th_randint(-3, 3);
            b[i] = (int32_t)th_randint(-3, 3);
            if (th_randint(0, 9) == 0) a[i] = th_randint(0, 1) ? INT32_MAX : INT32_MIN;
            fa[i] = (float)th_randint(-2, 2);
            fb[i] = (float)th_randint(-2, 2);
            if (th_randint(0, 5) == 0) fa[i] = NAN;
            if (th_randint(0, 5) == 0) fb[i] = NAN;
            bytes[i] = (uint8_t)th_rand32();
        }
        ints[l](a, b, fa, fb, bytes, out, bits);
        for (i = 0; i < w; i++) {
            int nle = !(fa[i] <= fb[i]), ord = fa[i] == fa[i] && fb[i] == fb[i];
            CHECK_EQ(out[i], a[i] < b[i] ? a[i] : b[i]);
            CHECK_EQ(out[w + i], a[i] > b[i] ? a[i] : b[i]);
            CHECK_EQ(out[2 * w + i], a[i] > b[i] ? a[i] : b[i]);
            CHECK_EQ(out[3 * w + i], (int32_t)(int8_t)bytes[i]);
            CHECK_EQ(out[4 * w + i], (int32_t)bytes[i]);
            want[0] |= (unsigned)(a[i] == b[i]) << i;
            want[1] |= (unsigned)(a[i] > b[i]) << i;
            want[2] |= (unsigned)nle << i;
            want[3] |= (unsigned)!(fa[i] >= fb[i]) << i;
            want[4] |= (unsigned)ord << i;
            want[5] |= (unsigned)(nle && ord) << i;
            want[6] |= (unsigned)(nle || a[i] > b[i]) << i;
        }
        for (i = 0; i < 7; i++) CHECK_MSG(bits[i] == want[i], "bits %d: %x, want %x", i, bits[i], want[i]);
    }
}

/* min/max with x86's operand order, max(-0, x) and truncation, on pairs of specials, against their
 * one-lane definitions (what vec_scalar.h and SSE4.1 do): a level whose instructions order NaN or
 * zeros otherwise (AArch64's FMIN/FMAX, FCVTZS's saturation) must emulate them. */
TEST(x86_operand_order_and_truncation_by_lane) {
    static const float sp[] = {NAN, -NAN, 0.0f, -0.0f, 1.0f, -1.0f, INFINITY, -INFINITY, 2.5f, -2.5f,
                               2147483648.0f, -2147483648.0f, 2147483520.0f, -2147483904.0f, 3e9f, -3e9f, 1e-45f, -7.0f};
    const int ns = (int)(sizeof sp / sizeof sp[0]);
    float a[16], b[16], outf[48];
    int32_t outi[16];
    int l = (int)th_isa, w = lanes[l](), i, r;
    for (r = 0; r < 400; r++) {
        for (i = 0; i < 16; i++) a[i] = sp[th_randint(0, ns - 1)], b[i] = sp[th_randint(0, ns - 1)];
        orders[l](a, b, outf, outi);
        for (i = 0; i < w; i++) {
            /* max(-0, a) from the bits: clang 14 -O2 folds the select against the constant -0 as if
             * the sign of a zero did not matter (as vec_scalar.h notes) */
            uint32_t ab = dnnlk__f32_bits(a[i]);
            float mn = a[i] < b[i] ? a[i] : b[i], mx = a[i] > b[i] ? a[i] : b[i];
            float m0 = ab >= 0x80000000u && ab <= 0xff800000u ? -0.0f : a[i];
            int32_t t = (a[i] > -2147483648.0f && a[i] < 2147483648.0f) ? (int32_t)a[i] : INT32_MIN;
            CHECK_MSG(dnnlk__f32_bits(outf[i]) == dnnlk__f32_bits(mn), "min(%a, %a): %a", (double)a[i], (double)b[i],
                      (double)outf[i]);
            CHECK_MSG(dnnlk__f32_bits(outf[w + i]) == dnnlk__f32_bits(mx), "max(%a, %a): %a", (double)a[i],
                      (double)b[i], (double)outf[w + i]);
            CHECK_MSG(dnnlk__f32_bits(outf[2 * w + i]) == dnnlk__f32_bits(m0), "max_neg0(%a): %a", (double)a[i],
                      (double)outf[2 * w + i]);
            CHECK_MSG(outi[i] == t, "trunc(%a): %d, want %d", (double)a[i], outi[i], t);
        }
    }
}

static int32_t sat32(int32_t v, int32_t lo, int32_t hi) { return v < lo ? lo : v > hi ? hi : v; }

/* Round half to even of a finite float below 2^23 in magnitude, by the definition. */
static float rne_ref(float v) {
    double f = floor((double)v), r = (double)v - f;
    if (r > 0.5 || (r == 0.5 && fmod(f, 2.0) != 0.0)) f += 1.0;
    return (float)f;
}

TEST(byte_packing_permute_gather_by_lane) {
    int32_t abcd[64], w[64], idx[16], outi[16];
    float x[16], g[64], outf[48];
    uint8_t out8[3 * 64 + 16];
    int l = (int)th_isa, n, i, r, nb;
    n = lanes[l]();
    nb = 4 * n;
    for (i = 0; i < 64; i++) g[i] = (float)i * 1.5f - 7.0f;
    for (r = 0; r < 300; r++) {
        int16_t z = (int16_t)th_randint(-300, 300);
        int sgn = r & 1;
        if (r % 7 == 0) z = (int16_t)(th_randint(0, 1) ? 32767 : -32768);
        for (i = 0; i < 64; i++) {
            abcd[i] = (int32_t)th_randint(-600, 600);
            if (th_randint(0, 7) == 0) abcd[i] = (int32_t)th_rand32(); /* past int16 too */
            w[i] = (int32_t)th_randint(-128, 255);
        }
        for (i = 0; i < 16; i++) {
            x[i] = th_randint(0, 1) ? (float)th_randint(-40, 40) * 0.5f : th_randf(-1e6f, 1e6f);
            if (th_randint(0, 15) == 0) x[i] = th_randint(0, 1) ? NAN : 3e9f;
            idx[i] = (int32_t)th_randint(0, n - 1);
        }
        memset(out8, 0x5a, sizeof out8);
        q8s[l](abcd, w, z, sgn, x, idx, g, out8, outf, outi);
        for (i = 0; i < nb; i++) {
            int32_t s = sat32(sat32(abcd[i], -32768, 32767) + z, -32768, 32767);
            int32_t want = sgn ? sat32(s, -128, 127) : sat32(s, 0, 255);
            CHECK_MSG(out8[i] == (uint8_t)want, "pack4_sat_i8 lane %d of %d (z %d sgn %d): %d, want %d", i, abcd[i], z,
                      sgn, out8[i], (int)(uint8_t)want);
            CHECK_EQ(out8[nb + i], (uint8_t)w[i]);
        }
        for (i = 0; i < n; i++) CHECK_EQ(out8[2 * nb + i], (uint8_t)abcd[i]);
        CHECK_EQ(out8[2 * nb + n], 0x5a); /* nothing past the N bytes */
        for (i = 0; i < n; i++) {
            int32_t want_i = x[i] == x[i] && fabsf(x[i]) < 2147483648.0f ? (int32_t)rne_ref(x[i]) : INT32_MIN;
            if (x[i] == x[i] && fabsf(x[i]) < 8388608.0f)
                CHECK_MSG(outf[i] == x[i] - rne_ref(x[i]), "sub_round_even(%a): %a", (double)x[i], (double)outf[i]);
            CHECK_MSG(outi[i] == want_i, "to_vi_round_even(%a): %d, want %d", (double)x[i], outi[i], want_i);
            CHECK(dnnlk__f32_bits(outf[n + i]) == dnnlk__f32_bits(x[idx[i]]));
            CHECK(outf[2 * n + i] == g[idx[i]]);
        }
    }
}

/* dnnlk__v32_transpose: row j of dst is column j of src, bit for bit (NaN payloads and all),
 * through pitches wider than the tile and 4-byte-aligned bases (plain stores), and through
 * 64-byte-aligned ones (streaming stores); nothing between the rows or past the tile written. */
TEST(transpose_tile_by_lane) {
    static uint32_t src[16 * 24 + 16], dst[16 * 32 + 32];
    int l = (int)th_isa, T, j, k, nt, rep;
    for (rep = 0; rep < 20; rep++)
        for (nt = 0; nt < 2; nt++) {
            /* pitches in 4-byte words: past the tile, multiples of 16 words when streaming */
            int64_t sw = nt ? 16 : 16 + th_randint(1, 7), dw = nt ? 32 : 16 + th_randint(1, 15);
            int64_t so = nt ? 0 : th_randint(0, 3), dofs = nt ? 0 : th_randint(0, 3);
            uint32_t *s = src + so, *d = dst + dofs;
            char *base = (char *)dst;
            size_t i;
            if (nt) { /* 64-byte-aligned views of the same arrays */
                s = (uint32_t *)(void *)(((uintptr_t)src + 63) & ~(uintptr_t)63);
                d = (uint32_t *)(void *)(((uintptr_t)dst + 63) & ~(uintptr_t)63);
            }
            for (i = 0; i < sizeof src / 4; i++) src[i] = th_rand32() | (i % 5 == 0 ? 0x7f800001u : 0);
            memset(dst, 0xA5, sizeof dst);
            T = transposes[l](d, dw * 4, s, sw * 4, nt);
            CHECK(T == 4 || T == 8 || T == 16);
            for (j = 0; j < T; j++)
                for (k = 0; k < T; k++)
                    CHECK_MSG(d[j * dw + k] == s[k * sw + j], "level %d nt %d: dst[%d][%d] = %08x, want %08x", l, nt, j, k,
                              d[j * dw + k], s[k * sw + j]);
            for (i = 0; i < sizeof dst; i++) { /* every byte outside the tile's rows untouched */
                int64_t w = (int64_t)(i / 4) - (int64_t)(d - dst);
                if (w >= 0 && w / dw < T && w % dw < T) continue;
                if ((unsigned char)base[i] != 0xA5) {
                    CHECK_MSG(0, "level %d nt %d: byte %d outside the tile written", l, nt, (int)i);
                    break;
                }
            }
        }
}

/* dnnlk__vb_ziplo_elem / _ziphi_elem: lane j of two vectors of es-byte lanes interleaved, a's
 * lanes at even places, in memory order, against a plain loop; every byte of the inputs distinct,
 * so a lane taken from the wrong place or vector shows. */
TEST(zip_by_lane) {
    unsigned char a[64], b[64], out[6 * 64];
    int l = (int)th_isa, V, e, es, h, j, rep;
    for (rep = 0; rep < 4; rep++) {
        for (j = 0; j < 64; j++) a[j] = (unsigned char)(2 * j + rep), b[j] = (unsigned char)(2 * j + 1 + rep);
        memset(out, 0xA5, sizeof out);
        V = zips[l](a, b, out);
        CHECK(V == 8 || V == 16 || V == 32 || V == 64);
        for (e = 0; e < 3; e++)
            for (h = 0; h < 2; h++) {
                const unsigned char *o = out + (2 * e + h) * V;
                es = 1 << e;
                for (j = 0; j < V / es; j++) { /* lane j of the result: lane h V/(2 es) + j/2 of a (even j) or b */
                    const unsigned char *want = (j % 2 ? b : a) + (h * V / (2 * es) + j / 2) * es;
                    CHECK_MSG(memcmp(o + j * es, want, (size_t)es) == 0, "level %d es %d %s: lane %d", l, es, h ? "hi" : "lo", j);
                }
            }
    }
}

/* dnnlk__vf_ziplo / _ziphi: the 2N floats a0 b0 a1 b1 ... split into two vectors, against a
 * plain loop; every input distinct. */
TEST(fzip_by_lane) {
    float a[16], b[16], out[32];
    int l = (int)th_isa, V, j;
    for (j = 0; j < 16; j++) a[j] = (float)(2 * j), b[j] = (float)(2 * j + 1);
    for (j = 0; j < 32; j++) out[j] = -1.0f;
    V = fzips[l](a, b, out);
    CHECK(V == 1 || V == 4 || V == 8 || V == 16);
    for (j = 0; j < 2 * V; j++) CHECK_MSG(out[j] == (float)j, "level %d: lane %d of the interleave is %g", l, j, out[j]);
    CHECK_MSG(2 * V == 32 || out[2 * V] == -1.0f, "level %d: wrote past the two vectors", l);
}

/* dnnlk__vf_load_f16 of every f16 NaN (signalling ones included) gives the same quiet f32 at
 * every level: sign, quiet bit and payload, as F16C's vcvtph2ps (SSE4.1 and the scalar level
 * convert in C, which kept a signalling NaN signalling). */
TEST(f16_nan_load_quiet_every_level) {
    static uint16_t half[2048];
    static float dst[2048];
    int l = (int)th_isa, i;
    for (i = 0; i < 2048; i++) half[i] = (uint16_t)((i & 1024 ? 0xfc00 : 0x7c00) | (i & 1023 ? i & 1023 : 1));
    probes[l](vec_probe_load_f16, dst, dst, half, 2048); /* src only read, then overwritten */
    for (i = 0; i < 2048; i++) {
        uint32_t want = (uint32_t)(half[i] & 0x8000) << 16 | 0x7fc00000u | (uint32_t)(half[i] & 0x3ff) << 13;
        CHECK_MSG(dnnlk__f32_bits(dst[i]) == want, "f16 %04x: %08x, want %08x", half[i], dnnlk__f32_bits(dst[i]), want);
    }
}

/* dnnlk__vi_permute2: lane j is lane idx[j] of a then b, against a plain loop, random indices over
 * both vectors; every input lane distinct, so a lane from the wrong place or vector shows. */
TEST(permute2_by_lane) {
    int32_t a[16], b[16], idx[16], out[16];
    int l = (int)th_isa, n = lanes[l](), j, rep;
    for (rep = 0; rep < 200; rep++) {
        for (j = 0; j < 16; j++) {
            a[j] = (int32_t)(0x1000 * rep + j), b[j] = (int32_t)(0x1000 * rep + 0x100 + j);
            idx[j] = (int32_t)th_randint(0, 2 * n - 1);
        }
        if (rep == 0)
            for (j = 0; j < n; j++) idx[j] = 2 * n - 1 - j; /* b reversed, then a reversed */
        permute2s[l](a, b, idx, out);
        for (j = 0; j < n; j++)
            CHECK_MSG(out[j] == (idx[j] < n ? a[idx[j]] : b[idx[j] - n]), "level %d lane %d of idx %d: %d", l, j, idx[j],
                      out[j]);
    }
}

TEST(no_vector_names_leak) {
    int leaked = 0;
    /* vec_end.h must remove every name vec.h defines (a name it missed would also be redefined
     * with another meaning by the next level's header: a compile error under -Werror). */
#if defined(dnnlk__vf) || defined(dnnlk__vf_add) || defined(DNNLK__VF_N) || defined(DNNLK__VEC_FMA) || defined(dnnlk__vmask_bits) || \
    defined(dnnlk__vi_set1) || defined(dnnlk__vi_blend) || defined(dnnlk__vmask_or) || defined(dnnlk__vi_load_i8) || \
    defined(dnnlk__vf_mul) || defined(dnnlk__vf_fmadd) || defined(dnnlk__vf_nofuse) || defined(dnnlk__vf_floor) || \
    defined(dnnlk__vb) || defined(DNNLK__VB_N) || defined(dnnlk__vi_pack4_sat_i8) || defined(dnnlk__vf_gather) || \
    defined(DNNLK__ISA) || defined(DNNLK__SFX) || defined(DNNLK__SIMD_BODY) || defined(dnnlk__v32_transpose) || defined(DNNLK__VT_N) || \
    defined(dnnlk__vb_ziplo_elem) || defined(dnnlk__vb_ziphi_elem) || defined(dnnlk__vi_permute2) || defined(dnnlk__vperm2) || \
    defined(dnnlk__vf_ziplo) || defined(dnnlk__vf_ziphi)
    leaked = 1;
#endif
    CHECK_MSG(!leaked, "a vector-layer name is still defined after simd_instantiate.h");
}

int main(void) {
    RUN_EACH_ISA(vector_layer_matches_scalar);
    RUN_EACH_ISA(tails_touch_nothing_past_n);
    RUN_EACH_ISA(byte_packing_permute_gather_by_lane);
    RUN_EACH_ISA(compare_bits_and_blend_by_lane);
    RUN_EACH_ISA(integer_ops_and_unordered_compares_by_lane);
    RUN_EACH_ISA(x86_operand_order_and_truncation_by_lane);
    RUN_EACH_ISA(transpose_tile_by_lane);
    RUN_EACH_ISA(zip_by_lane);
    RUN_EACH_ISA(permute2_by_lane);
    RUN_EACH_ISA(fzip_by_lane);
    RUN_EACH_ISA(f16_nan_load_quiet_every_level);
    RUN(no_vector_names_leak);
    return th_summary();
}
