#!/usr/bin/env python3
"""tools/bench_plot.py on tests/data/bench_sample.csv (quoted fields, rows with and without a copy
limit and peers): the SVG parses, has one panel per group in order, one bar per series of each
row (ours, the copy limit where given, each peer) carrying its time, and bar lengths that grow
with the time on the log axis. Fails with the first difference.
    python3 tests/compile/check_plot.py OUT_DIR"""
import csv
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sample = os.path.join(root, 'tests', 'data', 'bench_sample.csv')
out = os.path.join(sys.argv[1], 'bench_sample.svg')
os.makedirs(sys.argv[1], exist_ok=True)
subprocess.run([sys.executable, os.path.join(root, 'tools', 'bench_plot.py'), sample, out], check=True,
               stdout=subprocess.DEVNULL)
ns = {'s': 'http://www.w3.org/2000/svg'}
svg = ET.parse(out).getroot()
rows = list(csv.DictReader(open(sample, newline='')))


def fail(msg):
    sys.exit('check_plot: ' + msg)


want_groups = []
for r in rows:
    if r['group'] not in want_groups:
        want_groups.append(r['group'])
panels = [g for g in svg.iter('{http://www.w3.org/2000/svg}g') if g.get('class') == 'panel']
if [p.get('data-group') for p in panels] != want_groups:
    fail('panels %s, want %s' % ([p.get('data-group') for p in panels], want_groups))
bars = []
for p in panels:
    bars += [(p.get('data-group'), b) for b in p.findall('s:rect', ns) if b.get('class') == 'bar']
want = []
for r in rows:
    want.append((r['group'], 'ours', float(r['ns_per_elem'])))
    if r['copy_ns_per_elem']:
        want.append((r['group'], 'copy limit', float(r['copy_ns_per_elem'])))
    for item in filter(None, r['peers'].split(';')):
        name, _, v = item.partition('=')
        want.append((r['group'], name, float(v)))
got = [(g, b.get('data-series'), float(b.get('data-ns'))) for g, b in bars]
if len(got) != len(want) or any(a[:2] != b[:2] or abs(a[2] - b[2]) > 0.005 * b[2] for a, b in zip(got, want)):
    fail('bars %s,\n want %s' % (got, want))
by_time = sorted((float(b.get('data-ns')), float(b.get('width'))) for _, b in bars)
if any(w1 > w2 for (_, w1), (_, w2) in zip(by_time, by_time[1:])) or by_time[0][1] >= by_time[-1][1]:
    fail('bar lengths do not grow with the time: %s' % by_time)
print('bench plot: %d panels, %d bars, lengths in the order of the times (tests/data/bench_sample.csv)'
      % (len(panels), len(bars)))
