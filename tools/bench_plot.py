#!/usr/bin/env python3
"""Draws the CSV of `make bench` (build/<cc>/bench.csv) as an SVG: one panel per case group, and
per table row a cluster of horizontal bars, in ns per element on a log scale (shorter is faster):
ours, the copy limit of the same traffic and threads (where the row has one), and each peer timed
in the same run. Python's standard library only.

    python3 tools/bench_plot.py build/gcc/bench.csv build/gcc/bench.svg     (make plot)
"""
import csv
import math
import sys
from xml.sax.saxutils import escape

COLORS = {'ours': '#1f77b4', 'copy limit': '#9a9a9a'}
PEER_COLORS = ['#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf', '#bcbd22']

LABEL_W = 360   # row labels, left of the bars
BAR_W = 560     # the log axis
VALUE_W = 80    # value text right of the longest bar
BAR_H = 9
BAR_GAP = 2
ROW_GAP = 8
PANEL_HEAD = 34
PANEL_GAP = 18
WIDTH = LABEL_W + BAR_W + VALUE_W + 20


def read_rows(path):
    with open(path, newline='', encoding='utf-8') as f:
        rows = list(csv.DictReader(f))
    need = {'group', 'case', 'shape', 'dtype', 'threads', 'ns_per_elem', 'copy_ns_per_elem', 'peers'}
    if rows and not need <= set(rows[0]):
        raise SystemExit('bench_plot: %s lacks the columns %s' % (path, ', '.join(sorted(need - set(rows[0])))))
    return rows


def series_of(row):
    """[(name, ns per element)] for one table row: ours, the copy limit, then the peers."""
    out = [('ours', float(row['ns_per_elem']))]
    if row['copy_ns_per_elem']:
        out.append(('copy limit', float(row['copy_ns_per_elem'])))
    for item in filter(None, row['peers'].split(';')):
        name, _, ns = item.partition('=')
        out.append((name, float(ns)))
    return [(n, v) for n, v in out if v > 0]


def fmt(ns):
    return '%.3g' % ns


def render(rows, title):
    groups, order = {}, []
    for r in rows:
        if r['group'] not in groups:
            groups[r['group']] = []
            order.append(r['group'])
        groups[r['group']].append(r)
    peers = []
    for r in rows:
        for name, _ in series_of(r)[1:]:
            if name not in COLORS and name not in peers:
                peers.append(name)
    color = dict(COLORS)
    for i, p in enumerate(peers):
        color[p] = PEER_COLORS[i % len(PEER_COLORS)]
    values = [v for r in rows for _, v in series_of(r)]
    if not values:
        raise SystemExit('bench_plot: no rows with times')
    lo = 10 ** math.floor(math.log10(min(values)))
    hi = 10 ** math.ceil(math.log10(max(values)))
    if hi <= lo:
        hi = lo * 10
    span = math.log10(hi) - math.log10(lo)

    def x_of(v):
        return LABEL_W + BAR_W * (math.log10(v) - math.log10(lo)) / span

    svg, y = [], 0
    # title and legend
    y += 24
    svg.append('<text x="10" y="%d" font-size="15" font-weight="bold">%s</text>' % (y, escape(title)))
    y += 22
    lx = 10
    for name in ['ours', 'copy limit'] + peers:
        svg.append('<rect x="%d" y="%d" width="12" height="12" fill="%s"/>' % (lx, y - 10, color[name]))
        svg.append('<text x="%d" y="%d" font-size="12">%s</text>' % (lx + 16, y, escape(name)))
        lx += 24 + 7 * len(name)
    svg.append('<text x="%d" y="%d" font-size="12" fill="#555">ns per element, log scale: shorter is faster</text>'
               % (lx + 10, y))
    y += 16
    for g in order:
        grows = groups[g]
        heights = [len(series_of(r)) * (BAR_H + BAR_GAP) + ROW_GAP for r in grows]
        panel_h = PANEL_HEAD + sum(heights) + 18
        top = y
        svg.append('<g class="panel" data-group="%s">' % escape(g, {'"': '&quot;'}))
        svg.append('<rect x="2" y="%d" width="%d" height="%d" fill="#fafafa" stroke="#ccc"/>'
                   % (top, WIDTH - 4, panel_h))
        svg.append('<text x="10" y="%d" font-size="14" font-weight="bold">%s</text>' % (top + 20, escape(g)))
        # decade grid lines and their labels
        d = lo
        while d <= hi * 1.0001:
            x = x_of(d)
            svg.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/>'
                       % (x, top + PANEL_HEAD - 6, x, top + panel_h - 16))
            svg.append('<text x="%.1f" y="%d" font-size="10" fill="#555" text-anchor="middle">%s</text>'
                       % (x, top + panel_h - 5, fmt(d)))
            d *= 10
        ry = top + PANEL_HEAD
        for r, h in zip(grows, heights):
            label = '%s  %s %s, %s thr' % (r['case'], r['shape'], r['dtype'], r['threads'])
            svg.append('<text x="10" y="%d" font-size="11">%s</text>' % (ry + BAR_H, escape(label)))
            by = ry
            for name, v in series_of(r):
                w = max(1.0, x_of(v) - LABEL_W)
                svg.append('<rect class="bar" data-series="%s" data-ns="%s" x="%d" y="%d" width="%.1f" height="%d" '
                           'fill="%s"><title>%s: %s ns/element</title></rect>'
                           % (escape(name, {'"': '&quot;'}), fmt(v), LABEL_W, by, w, BAR_H, color[name],
                              escape(name), fmt(v)))
                svg.append('<text x="%.1f" y="%d" font-size="9" fill="#333">%s</text>'
                           % (LABEL_W + w + 3, by + BAR_H - 1, fmt(v)))
                by += BAR_H + BAR_GAP
            ry += h
        svg.append('</g>')
        y = top + panel_h + PANEL_GAP
    head = ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
            'font-family="sans-serif">' % (WIDTH, y, WIDTH, y))
    return '\n'.join([head, '<rect width="100%" height="100%" fill="white"/>'] + svg + ['</svg>']) + '\n'


def main():
    if len(sys.argv) != 3:
        raise SystemExit('usage: bench_plot.py BENCH_CSV OUT_SVG')
    rows = read_rows(sys.argv[1])
    isa = sorted({r.get('isa', '') for r in rows} - {''})
    title = 'dnnl_kernels bench: time per element, ours against the copy limit and the peers (%s)' % ', '.join(isa)
    with open(sys.argv[2], 'w', encoding='utf-8') as f:
        f.write(render(rows, title))
    print('bench_plot: %d rows in %d groups -> %s' % (len(rows), len({r['group'] for r in rows}), sys.argv[2]))


if __name__ == '__main__':
    main()
