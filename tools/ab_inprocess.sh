#!/bin/sh
# Old code against new in ONE process, on the same buffers: a case's timing function compiled
# through the headers of commit OLD (one translation unit) and of the working tree (another),
# linked into one program that alternates them and keeps each side's best. Everything that differs
# between two processes (where the buffers and the stack land, which physical pages back them) is
# then the same for both sides; on this VM that alone moves a row by up to 50% from one process to
# the next, more than any code change bench_compare.sh was asked to judge.
#   tools/ab_inprocess.sh OLD CASE [RUNS [ARG]]   RUNS processes (default 3), ARG passed to each
# Cases: tools/ab/CASE_tu.c (the side built per header tree: AB_NAME, AB_CAP name its functions)
# and tools/ab/CASE_main.c (the program):
#   dropout   dropout forward [8,512,768], f32 and bf16, MT19937 and MCG31, parts 0/1 and 1/2: ms
#   rsb       resize_bwd linear x2 [4,32,128,128] -> [4,32,64,64] and one plane, bits compared:
#             ns per diff_dst element; ARG caps the ISA level (0 scalar .. 3 AVX-512)
#   cmp       compare lt, gt, ne, ge of f32 [4096,4096] and [16,4096] into boolean, bytes compared:
#             ns per element; ARG caps the ISA level
#   lnb       layer_norm_bwd [4096,768] and [64,768] (in cache) with weight, diff_weight and
#             diff_bias, beside a memcpy of the same bytes: ns per element, outputs compared (bits,
#             or the largest difference); ARG caps the ISA level
#   fp8q      quantize f32 -> fp8 e4m3 (saturate) [4096,4096] and [16,4096] (in cache), scales 0.25
#             (the bench's) and 0.3, bytes compared: ns per element; ARG caps the ISA level
#   tp        NCHW -> NHWC convert [8,C,128,128]: f32 C = 64 (the bench's row), 16, 48, 96, 128,
#             144, and 3, 8, 24, 40 (dst rows off 64-byte lines), bf16 C = 64, 48, u8 C = 64, 128,
#             beside a streaming copy of the same bytes, bytes compared: ns per element; ARG caps
#             the ISA level
#   small     calls on small tensors (compare s64 [8,1,1,512] and [1,1,1,8] == 0, select
#             [8,1,1,64], convert [1,768], layer_norm [1,768], softmax [1,1000], gelu [1,768]),
#             outputs compared: ns per call, where the descriptor checks weigh; ARG caps the ISA level
set -e
old=${1:?usage: tools/ab_inprocess.sh OLD CASE [RUNS [ARG]]}
case=${2:?usage: tools/ab_inprocess.sh OLD CASE [RUNS [ARG]]}
runs=${3:-3}
arg=${4:-}
[ -f "tools/ab/${case}_tu.c" ] || { echo "no case tools/ab/${case}_tu.c" >&2; exit 1; }
cc=${CC:-cc}
b=build/$(basename "$cc")/ab_$case
rm -rf "$b" && mkdir -p "$b/old"
git archive "$old" | tar -x -C "$b/old"
$cc -std=gnu11 -O2 -DAB_NAME=ab_old -DAB_CAP=ab_cap_old -I"$b/old" -c "tools/ab/${case}_tu.c" -o "$b/old.o"
$cc -std=gnu11 -O2 -DAB_NAME=ab_new -DAB_CAP=ab_cap_new -I. -c "tools/ab/${case}_tu.c" -o "$b/new.o"
$cc -std=gnu11 -O2 -I. "tools/ab/${case}_main.c" "$b/old.o" "$b/new.o" -o "$b/ab" -lm -lpthread
i=1
while [ $i -le "$runs" ]; do echo "process $i"; "$b/ab" $arg; i=$((i + 1)); done
