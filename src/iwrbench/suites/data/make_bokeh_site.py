"""Write ``birds-bokeh.pyz`` into the folder given as the first argument.

Used by the third-party Bokeh recipes (``tp-bokeh-*.yaml``): a one-page report of a made-up
coastal bird survey (counts of six wader species at four sites, winter and summer; figures we
wrote for it), drawn with ``bokeh`` and saved as one standalone HTML file with BokehJS inline
(``INLINE`` resources: nothing is loaded from outside). Packed by ``_sitepyz`` into one zip app
that the recipe's Python (the venv with ``bokeh``) runs as ``python birds-bokeh.pyz PORT``: it
writes ``index.html`` with Bokeh and serves it on 127.0.0.1:PORT.

The page has three tabs: a bar chart of one species per site, chosen with a select box and a
season switch (a ``CustomJS`` callback recomputes the bars and a sentence under them); monthly
lines per site whose legend hides and shows lines; and a sortable data table of every count.

    python make_bokeh_site.py OUT_DIR
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from _sitepyz import write_pyz

SITES = ["Port Ellery", "Carrick Head", "Saltmarsh", "Gull Harbour"]
SPECIES = ["Oystercatcher", "Curlew", "Redshank", "Turnstone", "Dunlin", "Ringed plover"]
# species: per site, (winter count, summer count)
COUNTS = {
    "Oystercatcher": [(412, 168), (236, 94), (588, 203), (301, 122)],
    "Curlew": [(96, 21), (148, 37), (231, 44), (77, 15)],
    "Redshank": [(184, 52), (63, 18), (342, 97), (129, 40)],
    "Turnstone": [(137, 12), (205, 19), (41, 3), (168, 14)],
    "Dunlin": [(620, 8), (88, 0), (1450, 26), (390, 5)],
    "Ringed plover": [(58, 34), (22, 17), (112, 71), (46, 29)],
}
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
# all species together, per site and month
MONTHLY = {
    "Port Ellery": [1690, 1580, 1210, 640, 310, 280, 300, 520, 880, 1240, 1520, 1710],
    "Carrick Head": [790, 760, 610, 330, 170, 160, 180, 290, 450, 620, 720, 800],
    "Saltmarsh": [2890, 2720, 2110, 980, 460, 410, 450, 840, 1530, 2240, 2650, 2930],
    "Gull Harbour": [1180, 1110, 870, 450, 230, 210, 220, 380, 640, 900, 1070, 1190],
}

BUILD = r'''
import json, os, sys
from bokeh.embed import file_html
from bokeh.layouts import column, row
from bokeh.models import (ColumnDataSource, CustomJS, DataTable, Div, LabelSet, NumberFormatter, RadioButtonGroup,
                          Select, TabPanel, Tabs, TableColumn)
from bokeh.plotting import figure
from bokeh.resources import INLINE

d = json.load(open("birds.json", encoding="utf-8"))
sites, counts, months, monthly = d["sites"], d["counts"], d["months"], d["monthly"]
first = d["species"][0]

def values(species, season):
    return [c[0] + c[1] if season == 2 else c[season] for c in counts[species]]

def sentence(species, season):
    v = values(species, season)
    best = sites[v.index(max(v))]
    when = ["in winter", "in summer", "in the whole year"][season]
    return f"<p class='summary'><b>{species}</b>: {sum(v):,} birds counted {when}; most at <b>{best}</b> ({max(v):,}).</p>"

source = ColumnDataSource(dict(site=sites, count=values(first, 0), label=[str(x) for x in values(first, 0)]))
bars = figure(x_range=sites, height=360, width=820, title=f"{first}, winter count by site", toolbar_location=None,
              tools="", y_range=(0, 1700))
bars.vbar(x="site", top="count", width=0.6, source=source, color="#2b7bb9")
bars.add_layout(LabelSet(x="site", y="count", text="label", source=source, text_align="center", y_offset=4,
                         text_font_size="13px"))
bars.yaxis.axis_label = "birds counted"
bars.xgrid.grid_line_color = None
bars.title.text_font_size = "16px"

species = Select(title="Species", value=first, options=d["species"], width=220)
season = RadioButtonGroup(labels=["Winter", "Summer", "Whole year"], active=0, width=300)
summary = Div(text=sentence(first, 0), width=820)
callback = CustomJS(args=dict(source=source, species=species, season=season, summary=summary, title=bars.title,
                              counts=counts, sites=sites), code="""
    const s = species.value, k = season.active;
    const v = counts[s].map(c => k === 2 ? c[0] + c[1] : c[k]);
    source.data = {site: sites, count: v, label: v.map(String)};
    const when = ['winter count', 'summer count', 'whole-year count'][k];
    title.text = s + ', ' + when + ' by site';
    const total = v.reduce((a, b) => a + b, 0), top = Math.max(...v), best = sites[v.indexOf(top)];
    const words = ['in winter', 'in summer', 'in the whole year'][k];
    summary.text = "<p class='summary'><b>" + s + "</b>: " + total.toLocaleString('en-GB') + " birds counted " + words
        + "; most at <b>" + best + "</b> (" + top.toLocaleString('en-GB') + ").</p>";
""")
species.js_on_change("value", callback)
season.js_on_change("active", callback)
tab1 = TabPanel(title="By species", child=column(row(species, column(Div(text="<b>Season</b>"), season)), bars, summary))

lines = figure(x_range=months, height=420, width=820, title="All species, birds counted per month",
               toolbar_location=None, tools="")
for site, colour in zip(sites, ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"]):
    lines.line(months, monthly[site], line_width=3, color=colour, legend_label=site)
    lines.scatter(months, monthly[site], size=7, color=colour, legend_label=site)
lines.legend.click_policy = "hide"
lines.legend.location = "top_center"
lines.legend.title = "Sites (click to hide)"
lines.title.text_font_size = "16px"
tab2 = TabPanel(title="By month", child=lines)

rows = dict(species=[], site=[], winter=[], summer=[])
for sp in d["species"]:
    for site, c in zip(sites, counts[sp]):
        rows["species"].append(sp); rows["site"].append(site); rows["winter"].append(c[0]); rows["summer"].append(c[1])
table = DataTable(source=ColumnDataSource(rows), width=820, height=440, index_position=None, columns=[
    TableColumn(field="species", title="Species"), TableColumn(field="site", title="Site"),
    TableColumn(field="winter", title="Winter", formatter=NumberFormatter(format="0,0")),
    TableColumn(field="summer", title="Summer", formatter=NumberFormatter(format="0,0"))])
tab3 = TabPanel(title="All counts", child=table)

intro = Div(text="<h1>Coastal wader survey 2024</h1><p>Counts of six wader species at four sites on the island's "
                 "coast: one winter count (January) and one summer count (July) per site.</p>", width=820)
page = column(intro, Tabs(tabs=[tab1, tab2, tab3]))
html = file_html(page, INLINE, "Coastal wader survey 2024")
os.makedirs(sys.argv[1], exist_ok=True)
with open(os.path.join(sys.argv[1], "index.html"), "w", encoding="utf-8") as f:
    f.write(html)
'''


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python make_bokeh_site.py OUT_DIR", file=sys.stderr)
        return 2
    data = {"sites": SITES, "species": SPECIES, "counts": COUNTS, "months": MONTHS, "monthly": MONTHLY}
    write_pyz(Path(argv[1]) / "birds-bokeh.pyz", {
        "build.py": BUILD.lstrip(),
        "birds.json": json.dumps(data, indent=1) + "\n",
    })
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
