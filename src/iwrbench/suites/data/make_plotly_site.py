"""Write ``climate-plotly.pyz`` into the folder given as the first argument.

Used by the third-party Plotly recipes (``tp-plotly-*.yaml``): a one-page climate dashboard for
four made-up weather stations on the coast of a made-up island (monthly mean temperature,
rainfall and sunshine we wrote for it), drawn with ``plotly`` and written as one standalone HTML
file with plotly.js inline (``include_plotlyjs=True``: nothing is loaded from outside). Packed by
``_sitepyz`` into one zip app that the recipe's Python (the venv with ``plotly``) runs as
``python climate-plotly.pyz PORT``: it writes ``index.html`` with plotly and serves it on
127.0.0.1:PORT.

The page holds two figures: monthly lines per station with buttons that switch the measure
(temperature, rainfall, sunshine) and a menu that shows one station or all; and a yearly-total bar
chart with a menu that orders the bars and buttons that show one measure or both. Legend clicks are
off: Plotly waits for a possible double click before it acts on one, which ties the result to the
page's timers. Every value is in this file, and the figures' div ids are fixed, so the page is the
same on every build.

    python make_plotly_site.py OUT_DIR
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from _sitepyz import write_pyz

MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

# station: (mean temperature in °C, rainfall in mm, sunshine in hours) for each month
STATIONS = {
    "Port Ellery": (
        [5.1, 5.3, 6.8, 8.9, 11.6, 14.2, 16.1, 16.0, 14.1, 11.2, 8.0, 5.9],
        [112, 84, 79, 61, 58, 62, 66, 81, 92, 128, 131, 119],
        [48, 71, 112, 163, 205, 198, 196, 178, 134, 96, 57, 41],
    ),
    "Carrick Head": (
        [4.2, 4.4, 5.9, 7.8, 10.4, 12.9, 14.8, 14.7, 12.9, 10.1, 6.9, 4.9],
        [148, 112, 104, 78, 71, 74, 82, 101, 119, 161, 166, 152],
        [35, 58, 97, 148, 187, 176, 168, 155, 117, 80, 44, 29],
    ),
    "Saltmarsh": (
        [6.0, 6.3, 8.1, 10.4, 13.5, 16.4, 18.6, 18.4, 16.0, 12.7, 9.0, 6.7],
        [71, 52, 55, 49, 51, 53, 49, 58, 60, 83, 86, 77],
        [62, 84, 128, 181, 222, 219, 227, 209, 160, 115, 72, 54],
    ),
    "Gull Harbour": (
        [5.6, 5.8, 7.3, 9.5, 12.3, 15.0, 17.0, 16.9, 14.9, 11.8, 8.5, 6.3],
        [96, 71, 68, 55, 54, 57, 58, 70, 79, 109, 113, 101],
        [54, 77, 119, 171, 214, 207, 208, 191, 145, 104, 63, 47],
    ),
}

COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"]

BUILD = r'''
import json, os, sys
import plotly.graph_objects as go

data = json.load(open("climate.json", encoding="utf-8"))
months, stations, colours = data["months"], data["stations"], data["colours"]
measures = [("Temperature", 0, "Mean temperature (°C)"), ("Rainfall", 1, "Rainfall (mm)"),
            ("Sunshine", 2, "Sunshine (hours)")]

lines = go.Figure()
for (name, series), colour in zip(stations.items(), colours):
    lines.add_trace(go.Scatter(x=months, y=series[0], name=name, mode="lines+markers",
                               line=dict(color=colour, width=2.5), marker=dict(size=7),
                               hovertemplate="%{y}"))
buttons = []
for label, k, title in measures:
    buttons.append(dict(label=label, method="update",
                        args=[{"y": [series[k] for series in stations.values()]},
                              {"yaxis.title.text": title, "title.text": label + " by month, 1991-2020 averages"}]))
lines.update_layout(
    title=dict(text="Temperature by month, 1991-2020 averages", x=0.02),
    yaxis=dict(title=dict(text="Mean temperature (°C)")),
    updatemenus=[dict(type="buttons", direction="right", x=0.0, xanchor="left", y=1.16, yanchor="top",
                      buttons=buttons, showactive=True, pad=dict(r=6, t=4)),
                 dict(type="dropdown", x=0.42, xanchor="left", y=1.16, yanchor="top", showactive=True,
                      buttons=[dict(label="All stations", method="restyle", args=[{"visible": [True] * len(stations)}])]
                      + [dict(label=name + " only", method="restyle",
                              args=[{"visible": [other == name for other in stations]}]) for name in stations])],
    legend=dict(title=dict(text="Stations"), itemclick=False, itemdoubleclick=False),
    margin=dict(t=110, l=70, r=20, b=50), height=430, template="plotly_white", hovermode="x unified",
)

totals = {name: (round(sum(s[1])), round(sum(s[2]))) for name, s in stations.items()}
names = list(totals)
bars = go.Figure()
bars.add_trace(go.Bar(x=names, y=[totals[n][0] for n in names], name="Rainfall (mm)", marker_color="#4c78a8",
                      text=[totals[n][0] for n in names], textposition="outside"))
bars.add_trace(go.Bar(x=names, y=[totals[n][1] for n in names], name="Sunshine (hours)", marker_color="#f2a541",
                      text=[totals[n][1] for n in names], textposition="outside"))
def order(key):
    ordered = sorted(names, key=key)
    return [{"x": [ordered, ordered], "y": [[totals[n][0] for n in ordered], [totals[n][1] for n in ordered]],
             "text": [[totals[n][0] for n in ordered], [totals[n][1] for n in ordered]]}]
bars.update_layout(
    title=dict(text="Yearly totals", x=0.02), barmode="group", height=430, template="plotly_white",
    margin=dict(t=110, l=70, r=20, b=50), yaxis=dict(title=dict(text="mm / hours"), range=[0, 2200]),
    updatemenus=[dict(type="dropdown", x=0.0, xanchor="left", y=1.16, yanchor="top", showactive=True,
                      buttons=[dict(label="Order: west to east", method="restyle", args=order(names.index)),
                               dict(label="Order: wettest first", method="restyle", args=order(lambda n: -totals[n][0])),
                               dict(label="Order: sunniest first", method="restyle", args=order(lambda n: -totals[n][1]))]),
                 dict(type="buttons", direction="right", x=0.42, xanchor="left", y=1.16, yanchor="top", showactive=True,
                      buttons=[dict(label="Both measures", method="restyle", args=[{"visible": [True, True]}]),
                               dict(label="Rainfall only", method="restyle", args=[{"visible": [True, False]}]),
                               dict(label="Sunshine only", method="restyle", args=[{"visible": [False, True]}])])],
    legend=dict(itemclick=False, itemdoubleclick=False),
)

config = {"displaylogo": False, "displayModeBar": False, "showTips": False, "responsive": True}
head = ('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Island climate dashboard</title>'
        '<style>body{font-family:Helvetica,Arial,sans-serif;margin:0;background:#f4f6f8;color:#1d2733}'
        'header{background:#17324d;color:#fff;padding:14px 28px}header h1{margin:0;font-size:22px}'
        'header p{margin:4px 0 0;font-size:14px;color:#c9d6e2}main{padding:18px 28px}'
        '.card{background:#fff;border-radius:6px;box-shadow:0 1px 3px rgba(0,0,0,.12);margin-bottom:18px;padding:8px}'
        'footer{font-size:12px;color:#5b6b7a;padding:0 28px 24px}</style></head><body>'
        '<header><h1>Island climate dashboard</h1><p>Four coastal stations, monthly averages 1991-2020</p></header><main>')
first = lines.to_html(full_html=False, include_plotlyjs=True, div_id="monthly", config=config)
second = bars.to_html(full_html=False, include_plotlyjs=False, div_id="totals", config=config)
foot = ('</main><footer>Station data: Island Met Office climate normals (made-up figures for this demo). '
        'Charts drawn with Plotly.</footer></body></html>')
os.makedirs(sys.argv[1], exist_ok=True)
with open(os.path.join(sys.argv[1], "index.html"), "w", encoding="utf-8") as f:
    f.write(head + '<div class="card">' + first + '</div><div class="card">' + second + '</div>' + foot)

'''


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python make_plotly_site.py OUT_DIR", file=sys.stderr)
        return 2
    data = {"months": MONTHS, "stations": STATIONS, "colours": COLOURS}
    write_pyz(Path(argv[1]) / "climate-plotly.pyz", {
        "build.py": BUILD.lstrip(),
        "climate.json": json.dumps(data, indent=1, ensure_ascii=False) + "\n",
    })
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
