"""Write ``allotment-pelican.pyz`` into the folder given as the first argument.

Used by the third-party Pelican recipes (``tp-pelican-*.yaml``): "The Allotment Diary", a small
blog of our own (nine dated Markdown articles about a year on an allotment, in three categories,
with tags and an About page), built by ``pelican`` with its bundled ``notmyidea`` theme (its web
font is shipped with the theme, nothing is loaded from outside). Packed by ``_sitepyz`` into one
zip app that the recipe's Python (the venv with ``pelican`` and ``markdown``) runs as
``python allotment-pelican.pyz PORT``: it builds the blog and serves it on 127.0.0.1:PORT.
Every article carries its own date, and feeds (which would stamp the build time) are off, so
each build writes the same pages.

    python make_pelican_blog.py OUT_DIR
"""

from __future__ import annotations

import sys
from pathlib import Path

from _sitepyz import write_pyz

CONF = '''\
AUTHOR = "Maggie Rowe"
SITENAME = "The Allotment Diary"
SITESUBTITLE = "A year on plot 14, Gull Lane allotments"
SITEURL = ""
PATH = "content"
TIMEZONE = "Europe/London"
DEFAULT_LANG = "en"
DEFAULT_DATE_FORMAT = "%a %d %B %Y"
DEFAULT_PAGINATION = 4
RELATIVE_URLS = True
THEME = "notmyidea"
DISPLAY_CATEGORIES_ON_MENU = True
DISPLAY_PAGES_ON_MENU = True
FEED_ALL_ATOM = None
FEED_ALL_RSS = None
CATEGORY_FEED_ATOM = None
TRANSLATION_FEED_ATOM = None
AUTHOR_FEED_ATOM = None
AUTHOR_FEED_RSS = None
LINKS = ()
SOCIAL = ()
DEFAULT_CATEGORY = "Plot notes"
'''

BUILD = '''\
import subprocess, sys

site = sys.argv[1]
sys.exit(subprocess.call([sys.executable, "-m", "pelican", "content", "-o", site, "-s", "pelicanconf.py", "-q"]))
'''

# slug: (title, date, category, tags, summary, body)
ARTICLES = {
    "clearing-the-plot": (
        "Clearing the plot", "2024-01-13", "Plot notes", "soil, planning",
        "Day one on plot 14: brambles, a buried bath and a lot of couch grass.",
        """\
The committee handed me the key to plot 14 on a grey Saturday in January. The last tenant left
in the autumn and the brambles have moved in since.

## What was there

- a shed with a sound roof and a door that does not close,
- an old enamel bath, half buried, that will become a pond,
- couch grass everywhere, roots a metre long.

I cleared a strip two metres wide along the path and covered the rest with black sheeting
weighed down with bricks. The sheeting stays on until April: whatever grows under it dies
without light, and the soil will be easy to dig by spring.
""",
    ),
    "planning-the-beds": (
        "Planning the beds", "2024-02-03", "Plot notes", "planning",
        "Four beds, a rotation and a list of what the family will actually eat.",
        """\
Before buying a single seed I asked everyone at home what they would eat. The answer decided
the plan: potatoes, onions, beans, courgettes, salad and as many raspberries as will fit.

| Bed | 2024 | 2025 |
| --- | --- | --- |
| 1 | Potatoes | Beans and peas |
| 2 | Beans and peas | Cabbages and kale |
| 3 | Cabbages and kale | Onions and roots |
| 4 | Onions and roots | Potatoes |

Each crop moves one bed along every year, so pests and diseases of one family do not build up
in the same soil.
""",
    ),
    "chitting-potatoes": (
        "Chitting potatoes on the windowsill", "2024-02-24", "Vegetables", "potatoes, seeds",
        "Two varieties in egg boxes, waiting for the soil to warm up.",
        """\
Seed potatoes arrived this week: 'Charlotte', a salad potato, and 'Desiree', a red maincrop
that keeps well. They sit in egg boxes on the spare-room windowsill, the end with most eyes
pointing up.

Chitting gives the plants a head start of two or three weeks. The shoots should be short,
dark and sturdy; long pale ones mean the room is too warm or too dark.
""",
    ),
    "first-sowings": (
        "First sowings under cover", "2024-03-16", "Vegetables", "seeds, onions",
        "Onion sets in modules, broad beans in root trainers and the first tomato seeds.",
        """\
The soil outside is still cold, so the first sowings happen in the shed on a bench by the
window:

1. 80 onion sets, one per module, to plant out in April.
2. 24 broad beans ('Aquadulce') in root trainers.
3. Tomato seeds on a heated mat at home, because the shed drops to 2 °C at night.

Everything is labelled with the date. Last year I lost track of which tray was which by May.
""",
    ),
    "planting-raspberries": (
        "Planting the raspberry canes", "2024-03-30", "Fruit", "raspberries, planning",
        "Ten canes of an autumn variety along the north fence.",
        """\
Ten bare-root canes of 'Autumn Bliss' went in along the north fence, 45 cm apart, each cut back
to a bud about 25 cm above the soil.

Autumn raspberries fruit on this year's canes, so there is no summer pruning to learn: in
February every cane is cut to the ground and the new ones do the work again.
""",
    ),
    "the-bath-pond": (
        "The bath becomes a pond", "2024-04-20", "Plot notes", "wildlife",
        "Frogs arrived within a fortnight. Slugs, beware.",
        """\
The enamel bath is now sunk level with the soil, with a slope of stones at one end so that
anything that falls in can climb out. I filled it with rain water from the shed's butt.

Two weeks later there were frogs. A pond is the cheapest slug control there is: a frog eats a
great many of them in a summer.
""",
    ),
    "courgette-glut": (
        "Too many courgettes", "2024-07-27", "Vegetables", "courgettes, harvest",
        "Three plants were two too many. Recipes welcome.",
        """\
Three courgette plants give about four courgettes a day in late July. Picked small, at 15 cm,
they are sweet and firm; missed for a weekend, they turn into marrows.

This week: courgette fritters, courgette soup, and a bag of them left on the committee's
bench with a sign saying *free to a good home*.
""",
    ),
    "first-raspberries": (
        "The first raspberries", "2024-08-24", "Fruit", "raspberries, harvest",
        "A bowlful a day from canes planted in March.",
        """\
The canes planted in March started fruiting this week, far earlier in their first year than I
expected. A bowlful a day, and the children eat half of it before it reaches the kitchen.

Netting went over the row on Tuesday after the blackbirds found it too.
""",
    ),
    "lifting-potatoes": (
        "Lifting the maincrop potatoes", "2024-09-14", "Vegetables", "potatoes, harvest",
        "'Desiree' gave 38 kg from two rows; into hessian sacks in the shed.",
        """\
The 'Desiree' haulms died back at the end of August, so I left the tubers in the ground two
more weeks for the skins to set, then lifted both rows in a morning: **38 kg** in all.

They dried on the soil for a few hours and went into hessian sacks in the dark corner of the
shed. Damaged ones are eaten first; a single rotten potato can spoil a whole sack.
""",
    ),
}

ABOUT = """\
Title: About
Slug: about

I'm Maggie, and plot 14 on the Gull Lane allotments has been mine since January 2024. This
diary keeps track of what I sowed, what grew and what the slugs ate, so that next year goes
better than this one.

The allotments have 42 plots, a water trough at each end and a committee that meets on the
first Sunday of the month.
"""


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python make_pelican_blog.py OUT_DIR", file=sys.stderr)
        return 2
    files = {"build.py": BUILD, "pelicanconf.py": CONF, "content/pages/about.md": ABOUT}
    for slug, (title, date, category, tags, summary, body) in ARTICLES.items():
        files[f"content/{date}-{slug}.md"] = (
            f"Title: {title}\nDate: {date} 10:00\nCategory: {category}\nTags: {tags}\nSlug: {slug}\n"
            f"Author: Maggie Rowe\nSummary: {summary}\n\n{body}")
    write_pyz(Path(argv[1]) / "allotment-pelican.pyz", files)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
