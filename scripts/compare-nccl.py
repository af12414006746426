#!/usr/bin/env python3
"""Compares nccl-tests and railyard bench nccl outputs taken in one run: busbw ratio at >= 64 MB and the ratio of
small-message times (<= 64 KB), per size and as a median.

Usage: compare-nccl.py NCCL_TESTS_OUT RAILYARD_OUT
Each argument may be a glob ('small-nccl-tests-r*.txt'): with several files per tool, each size's value is the median
over that tool's files, so one repetition landing on a slow level of this shared host does not decide the ratio."""
import glob
import statistics
import sys


def rows(path):
    out = {}
    for line in open(path, encoding="utf-8", errors="replace"):
        f = line.split()
        if len(f) >= 13 and f[0].isdigit() and f[1].isdigit():
            # size count type redop root time algbw busbw #wrong time algbw busbw #wrong
            out[int(f[0])] = (float(f[5]), float(f[7]), float(f[9]), float(f[11]))
    return out


def pooled(pattern):
    files = sorted(glob.glob(pattern)) or [pattern]
    tables = [rows(f) for f in files]
    sizes = set.intersection(*(set(t) for t in tables))
    print(f"{pattern}: {len(files)} file(s)")
    return {s: tuple(statistics.median(t[s][i] for t in tables) for i in range(4)) for s in sizes}


a, b = pooled(sys.argv[1]), pooled(sys.argv[2])
big, small = [], []
for size in sorted(set(a) & set(b)):
    ta, bwa, tia, bwia = a[size]
    tb, bwb, tib, bwib = b[size]
    if size >= 64 << 20:
        big.append((size, bwa, bwb, bwb / bwa, bwia, bwib, bwib / bwia))
    if size <= 64 << 10:
        small.append((size, ta, tb, tb / ta, tia, tib, tib / tia))
if big:
    print("size(B)  nccl-tests busbw oop/ip  railyard busbw oop/ip  ratio oop/ip")
    for s, x, y, r, xi, yi, ri in big:
        print(f"{s:>10}  {x:8.2f} {xi:8.2f}  {y:8.2f} {yi:8.2f}  {r:5.3f} {ri:5.3f}")
    print(f"min busbw ratio at >= 64 MB: {min(min(r[3], r[6]) for r in big):.3f}")
print("size(B)  nccl-tests time oop/ip (us)  railyard time oop/ip (us)  ratio oop/ip")
for s, x, y, r, xi, yi, ri in small:
    print(f"{s:>10}  {x:8.2f} {xi:8.2f}  {y:8.2f} {yi:8.2f}  {r:5.3f} {ri:5.3f}")
ratios = [r[3] for r in small] + [r[6] for r in small]
print(f"median small-message time ratio (<= 64 KB, oop and ip): {statistics.median(ratios):.3f}")
print(f"sum of small-message times: nccl-tests {sum(r[1]+r[4] for r in small):.1f} us, railyard {sum(r[2]+r[5] for r in small):.1f} us, ratio {sum(r[2]+r[5] for r in small)/sum(r[1]+r[4] for r in small):.3f}")
