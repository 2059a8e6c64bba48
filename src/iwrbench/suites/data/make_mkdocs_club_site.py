"""Write ``wheelers-mkdocs.pyz`` into the folder given as the first argument.

Used by the third-party MkDocs recipes (``tp-mkdocs-*.yaml``, the ``mkdocs`` package and its
built-in ``mkdocs`` theme, not Material): the members' handbook of a made-up cycling club,
"Hillside Wheelers" (rides, grades, safety, membership and fees; every word ours), as an MkDocs
project. Packed by ``_sitepyz`` into one zip app that the recipe's Python (the venv with
``mkdocs``) runs as ``python wheelers-mkdocs.pyz PORT``: it builds the site with ``mkdocs build``
and serves it on 127.0.0.1:PORT.

The theme's code highlighting is switched off (``highlightjs: false``): it loads highlight.js
from a CDN, which a recording blocks. The search box is not used by the recipes (MkDocs search
answers from a Web Worker, see THIRD_PARTY.md), so the pages do not depend on it.

    python make_mkdocs_club_site.py OUT_DIR
"""

from __future__ import annotations

import sys
from pathlib import Path

from _sitepyz import write_pyz

MKDOCS_YML = """\
site_name: Hillside Wheelers
site_description: The members' handbook of Hillside Wheelers cycling club.
copyright: Hillside Wheelers, a made-up club written for the IWR-Bench suite
use_directory_urls: false
theme:
  name: mkdocs
  highlightjs: false
  user_color_mode_toggle: true
  color_mode: light
  navigation_depth: 2
markdown_extensions:
  - admonition
  - tables
  - toc:
      permalink: false
nav:
  - Home: index.md
  - Rides:
      - Weekly rides: rides/weekly.md
      - Ride grades: rides/grades.md
      - Winter rides: rides/winter.md
  - Safety:
      - Riding in a group: safety/group-riding.md
      - Kit checklist: safety/kit.md
  - Membership:
      - Joining: membership/joining.md
      - Fees: membership/fees.md
  - FAQ: faq.md
"""

PAGES = {
    "index.md": """\
# Hillside Wheelers

Welcome to the members' handbook of **Hillside Wheelers**, a friendly road cycling club
that has met at the Market Cross every Saturday morning since 1987.

We ride in small groups of similar pace, we wait at the top of every hill, and nobody is
left behind. Café stops are not optional.

## New to the club?

1. Read [Ride grades](rides/grades.md) and pick the grade that suits you.
2. Come to a Saturday ride as a guest: your first three rides are free.
3. Read [Riding in a group](safety/group-riding.md) before you come.

## This month

| Date | Ride | Grade | Distance |
| --- | --- | --- | --- |
| Sat 6 July | Three Reservoirs | B | 72 km |
| Sat 13 July | Coast road to Port Ellery | C | 48 km |
| Sat 20 July | The Long Climb | A | 104 km |
| Sat 27 July | Family ride to the lido | D | 22 km |
""",
    "rides/weekly.md": """\
# Weekly rides

Every ride starts at the **Market Cross** and ends at a café. Ride leaders post the route on
the club noticeboard by Thursday evening.

## Saturday club rides

All four grades leave at 08:30 sharp, fastest first, two minutes apart.

## Wednesday evening chain gang

From April to August, a fast 30 km loop on closed estate roads, leaving at 18:30. Grade A
riders only: the pace is over 32 km/h and nobody waits.

## Sunday social

A slow ride of about 30 km at 10:00 on the first Sunday of each month, open to families and
to anyone who has not ridden for a while.
""",
    "rides/grades.md": """\
# Ride grades

Every ride has a grade. The grade is a promise about pace and distance: the leader rides at
the grade's pace, and the group waits at the top of each climb.

| Grade | Average speed | Typical distance | Café stop |
| --- | --- | --- | --- |
| A | 28-30 km/h | 90-120 km | at halfway |
| B | 24-26 km/h | 60-90 km | at halfway |
| C | 20-22 km/h | 40-60 km | at the end |
| D | 15-18 km/h | 20-35 km | at the end |

## Grade A

For riders who train through the week. Expect long climbs and few stops.

## Grade B

Our biggest group. You should be comfortable riding 80 km with one café stop.

## Grade C

A steady pace on quieter roads. A good first grade for anyone who rides regularly.

## Grade D

A gentle ride for new riders, families and anyone coming back from an injury. No one is
dropped, ever.

!!! tip "Not sure?"
    Start one grade slower than you think. Moving up is easy; limping home is not.
""",
    "rides/winter.md": """\
# Winter rides

From November to February the Saturday rides start at **09:30** and are cut to two grades,
B and D, so that the groups stay big enough to be seen.

## Lights and mudguards

Front and rear lights are required on every winter ride, even in daylight. Mudguards are
required too: the rider behind you will thank you.

## Ice and snow

The ride is cancelled when the road temperature at 08:00 is below 1 °C. The cancellation is
posted on the noticeboard and sent by text message to every member.
""",
    "safety/group-riding.md": """\
# Riding in a group

A group is safe when everyone in it is predictable. These are the club's five rules.

1. Ride two abreast on open roads, single file when the leader calls "single out".
2. Point out holes and gravel, and call "car back" or "car up".
3. Never half-wheel: keep your front wheel level with your partner's.
4. Stop pedalling gently, never brake hard in the middle of the group.
5. Wait at the top of every climb until the last rider is up.

!!! warning "Headphones"
    No headphones on club rides. You need to hear the calls and the traffic.
""",
    "safety/kit.md": """\
# Kit checklist

Bring all of this on every club ride:

- a helmet,
- a spare inner tube that fits your tyres, tyre levers and a pump,
- a multi-tool,
- water and something to eat,
- a rain jacket between October and April,
- money or a card for the café.

## Bike check

Before each ride, squeeze both brakes, spin both wheels and check the tyre pressure. A
ride leader may turn away a bike that is not safe.
""",
    "membership/joining.md": """\
# Joining

Anyone aged 16 or over can join; riders under 16 ride with a parent or guardian who is a
member.

## How to join

1. Ride with us three times as a guest.
2. Fill in the membership form on the club noticeboard or give it to a ride leader.
3. Pay the year's fee (see [Fees](fees.md)).

Membership runs from 1 April to 31 March.
""",
    "membership/fees.md": """\
# Fees

| Membership | Per year | Includes |
| --- | --- | --- |
| Adult | £32 | club insurance, newsletter |
| Concession (student, over 65) | £18 | club insurance, newsletter |
| Family (two adults, children) | £55 | club insurance for all, newsletter |
| Second-claim (member of another club) | £12 | newsletter |

Fees are due on 1 April. Members who join after 1 October pay half.

!!! note "Club kit"
    The club jersey costs £45 and the gilet £38, for members only.
""",
    "faq.md": """\
# Frequently asked questions

## Do I need a racing bike?

No. Any road-worthy bike with gears will do for grades C and D.

## What happens if I get a puncture?

The group stops and waits while you fix it, and someone will help if you ask.

## Can I bring a friend?

Yes: every guest gets three free rides before joining.
""",
}

BUILD = """\
import subprocess, sys

site = sys.argv[1]
sys.exit(subprocess.call([sys.executable, "-m", "mkdocs", "build", "-q", "-f", "mkdocs.yml", "-d", site]))
"""


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python make_mkdocs_club_site.py OUT_DIR", file=sys.stderr)
        return 2
    files = {"build.py": BUILD, "mkdocs.yml": MKDOCS_YML}
    files.update({f"docs/{name}": text for name, text in PAGES.items()})
    write_pyz(Path(argv[1]) / "wheelers-mkdocs.pyz", files)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
