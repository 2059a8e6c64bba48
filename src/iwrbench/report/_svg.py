"""Grouped bar charts as inline SVG strings (no library, no script): one bar per model per group."""

from __future__ import annotations

from html import escape

#: model colours, assigned in leaderboard order (colour-blind-safe Okabe-Ito first, then Tableau)
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000",
           "#4E79A7", "#F28E2B", "#59A14F", "#B07AA1", "#9C755F", "#76B7B2", "#EDC948", "#FF9DA7")


def model_colours(models: list[str]) -> dict[str, str]:
    return {m: PALETTE[i % len(PALETTE)] for i, m in enumerate(models)}


def grouped_bars(groups: list[tuple[str, dict[str, float | None]]], models: list[str], colours: dict[str, str],
                 *, title: str, metric: str = "Final", chart_id: str = "",
                 details: dict[tuple[str, str], str] | None = None, compact: bool = False,
                 intervals: dict[tuple[str, str], tuple[float, float]] | None = None) -> str:
    """``groups``: (group label, {model: value 0-100 or None}) in display order; ``details``
    adds text to a bar's tooltip, keyed by (group, model); ``compact`` draws narrower bars;
    ``intervals`` (low, high), keyed like ``details``, draws a whisker over the bar."""
    details = details or {}
    intervals = intervals or {}
    n = max(1, len(models))
    bar = (12 if n <= 4 else 8 if n <= 8 else 5) if compact else (22 if n <= 4 else 14 if n <= 8 else 9)
    inner_gap, group_gap = (1, 16) if compact else (2, 28)
    group_w = n * bar + (n - 1) * inner_gap
    left, right, top, bottom = 40, 12, 40, 26
    plot_h = 150 if compact else 170
    width = max(300 if compact else 360, left + right + len(groups) * (group_w + group_gap))
    height = top + plot_h + bottom
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" viewBox="0 0 {width} {height}" '
           f'width="{width}" height="{height}"' + (f' id="{escape(chart_id)}"' if chart_id else "") + '>',
           f"<title>{escape(title)}</title>",
           f'<text x="8" y="16" class="ct">{escape(title)}</text>']
    for tick in (0, 25, 50, 75, 100):
        y = top + plot_h - plot_h * tick / 100
        out.append(f'<line x1="{left}" x2="{width - right}" y1="{y:.1f}" y2="{y:.1f}" class="grid"/>'
                   f'<text x="{left - 6}" y="{y + 3.5:.1f}" class="tick" text-anchor="end">{tick}</text>')
    for gi, (name, values) in enumerate(groups):
        x0 = left + group_gap / 2 + gi * (group_w + group_gap)
        for mi, m in enumerate(models):
            v = values.get(m)
            x = x0 + mi * (bar + inner_gap)
            if v is None:
                out.append(f'<text x="{x + bar / 2:.1f}" y="{top + plot_h - 3}" class="na" text-anchor="middle">-'
                           f'<title>{escape(m)} · {escape(name)}: no scored task</title></text>')
                continue
            h = max(0.0, min(100.0, v)) * plot_h / 100
            y = top + plot_h - h
            out.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{bar}" height="{max(h, 0.8):.1f}" fill="{colours.get(m, "#888")}">'
                       f'<title>{escape(m)} · {escape(name)}: {metric} {v:.2f}{escape(details.get((name, m), ""))}</title></rect>')
            ci = intervals.get((name, m))
            if ci is not None:
                lo, hi = (top + plot_h - max(0.0, min(100.0, c)) * plot_h / 100 for c in ci)
                cx, cap = x + bar / 2, min(4.0, bar / 2)
                out.append(f'<path class="ci" d="M{cx:.1f} {lo:.1f}V{hi:.1f}M{cx - cap:.1f} {lo:.1f}H{cx + cap:.1f}'
                           f'M{cx - cap:.1f} {hi:.1f}H{cx + cap:.1f}"><title>{escape(m)} · {escape(name)}: 95% interval '
                           f'{ci[0]:.2f} to {ci[1]:.2f}</title></path>')
                y = min(y, hi)
            if bar >= 12:
                out.append(f'<text x="{x + bar / 2:.1f}" y="{y - 3:.1f}" class="val{" sm" if compact else ""}" '
                           f'text-anchor="middle">{v:.0f}</text>')
        label = name if len(name) <= 18 else name[:17] + "…"
        out.append(f'<text x="{x0 + group_w / 2:.1f}" y="{top + plot_h + 16}" class="gl" text-anchor="middle">'
                   f'{escape(label)}<title>{escape(name)}</title></text>')
    out.append(f'<line x1="{left}" x2="{width - right}" y1="{top + plot_h}" y2="{top + plot_h}" class="axis"/>')
    out.append("</svg>")
    return "".join(out)
