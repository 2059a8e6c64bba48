"""Write ``tidekit-pdoc.pyz`` into the folder given as the first argument.

Used by the third-party pdoc recipes (``tp-pdoc-*.yaml``): a small Python package of our own,
"tidekit" (tide predictions from harmonic constituents, with stations, predictions and a
command line), whose API documentation pdoc generates from its docstrings. Packed by
``_sitepyz`` into one zip app that the recipe's Python (the venv with ``pdoc``) runs as
``python tidekit-pdoc.pyz PORT``: it runs ``pdoc`` over the package and serves the HTML on
127.0.0.1:PORT. pdoc's own pages carry no date and load nothing from outside (its search index
and scripts are written beside the pages).

    python make_pdoc_site.py OUT_DIR
"""

from __future__ import annotations

import sys
from pathlib import Path

from _sitepyz import write_pyz

INIT = '''\
"""
**tidekit** predicts the height of the tide at a harbour from its *harmonic constituents*,
and finds the times of high and low water.

It is small on purpose: one station file per harbour, one function to predict, one to find
the turning points.

```python
import datetime as dt
import tidekit

station = tidekit.stations.load("north-pier")
heights = tidekit.predict.heights(station, dt.datetime(2024, 7, 6), hours=24)
for turn in tidekit.predict.turning_points(heights):
    print(turn)
```

# Modules

- `tidekit.stations`: where the constituents of each harbour come from.
- `tidekit.predict`: heights of the tide and the times of high and low water.
- `tidekit.units`: metres, feet and chart datum.

# Accuracy

Predictions from a few constituents are good to about 10 cm in open water. Weather moves the
sea more than that: a strong onshore wind can raise the water by half a metre. Never use a
prediction alone to decide whether a boat can cross a bar.
"""

from . import predict, stations, units

__version__ = "1.4.2"
__all__ = ["predict", "stations", "units"]
'''

STATIONS = '''\
"""Stations: the harbours tidekit knows, and the constituents that describe their tide.

A station file is a small TOML document:

```toml
name = "North Pier"
latitude = 56.472
longitude = -2.918
datum_offset_m = 2.91

[constituents]
M2 = { amplitude_m = 1.82, phase_deg = 94.0 }
S2 = { amplitude_m = 0.61, phase_deg = 131.0 }
```
"""

from __future__ import annotations

from dataclasses import dataclass, field

BUILT_IN = ("north-pier", "gull-harbour", "saltmarsh-quay")
"""The stations shipped with tidekit, by file name."""


@dataclass(frozen=True)
class Constituent:
    """One harmonic constituent of the tide at a station."""

    name: str
    """Its Darwin symbol, such as `M2` (principal lunar) or `S2` (principal solar)."""
    amplitude_m: float
    """Half the range it adds, in metres."""
    phase_deg: float
    """Its phase lag at the station, in degrees."""

    @property
    def speed_deg_per_hour(self) -> float:
        """How fast its phase turns, in degrees per hour (`M2` turns 28.984 degrees an hour)."""
        return SPEEDS[self.name]


SPEEDS = {"M2": 28.984104, "S2": 30.0, "N2": 28.43973, "K1": 15.041069, "O1": 13.943035}
"""Angular speed of each constituent tidekit knows, in degrees per hour."""


@dataclass
class Station:
    """A harbour and the constituents of its tide."""

    name: str
    latitude: float
    longitude: float
    datum_offset_m: float = 0.0
    """Height of mean sea level above chart datum, in metres."""
    constituents: list[Constituent] = field(default_factory=list)

    def mean_range_m(self) -> float:
        """The mean spring range: twice the sum of the `M2` and `S2` amplitudes."""
        amp = {c.name: c.amplitude_m for c in self.constituents}
        return 2 * (amp.get("M2", 0.0) + amp.get("S2", 0.0))


class UnknownStation(LookupError):
    """Raised by `load` for a name that is neither built in nor a readable file."""


def load(name: str) -> Station:
    """Load a station by its built-in name (see `BUILT_IN`) or from a TOML file path.

    Raises `UnknownStation` when there is no such station.
    """
    raise UnknownStation(name)
'''

PREDICT = '''\
"""Predict the height of the tide and find high and low water.

The height at time *t* is the datum offset plus the sum, over the constituents, of
`amplitude * cos(speed * t - phase)`. Heights are in metres above chart datum.
"""

from __future__ import annotations

import datetime as dt
import math
from typing import NamedTuple

from .stations import Station


class Height(NamedTuple):
    """The predicted height of the tide at one moment."""

    when: dt.datetime
    metres: float


class Turn(NamedTuple):
    """A high or a low water."""

    when: dt.datetime
    metres: float
    kind: str
    """`"high"` or `"low"`."""

    def __str__(self) -> str:
        return f"{self.kind} water {self.when:%H:%M} {self.metres:.2f} m"


def height_at(station: Station, when: dt.datetime) -> float:
    """The height of the tide at `station` at `when`, in metres above chart datum."""
    hours = (when - dt.datetime(2000, 1, 1)).total_seconds() / 3600
    total = station.datum_offset_m
    for c in station.constituents:
        total += c.amplitude_m * math.cos(math.radians(c.speed_deg_per_hour * hours - c.phase_deg))
    return total


def heights(station: Station, start: dt.datetime, hours: int = 24, step_minutes: int = 10) -> list[Height]:
    """Heights every `step_minutes` from `start` for `hours` hours.

    >>> len(heights(station, dt.datetime(2024, 7, 6), hours=1))
    7
    """
    n = hours * 60 // step_minutes + 1
    return [Height(t, height_at(station, t))
            for t in (start + dt.timedelta(minutes=step_minutes * i) for i in range(n))]


def turning_points(series: list[Height]) -> list[Turn]:
    """The high and low waters in a series of heights, in time order.

    A point is a high water when it is higher than both neighbours, a low water when it is
    lower than both. Two turns are never closer than three hours; use a finer
    `step_minutes` in `heights` for times to the minute.
    """
    turns = []
    for a, b, c in zip(series, series[1:], series[2:]):
        if b.metres > a.metres and b.metres >= c.metres:
            turns.append(Turn(b.when, b.metres, "high"))
        elif b.metres < a.metres and b.metres <= c.metres:
            turns.append(Turn(b.when, b.metres, "low"))
    return turns


def tidal_range(series: list[Height]) -> float:
    """The difference between the highest and the lowest height of the series, in metres."""
    values = [h.metres for h in series]
    return max(values) - min(values) if values else 0.0
'''

UNITS = '''\
"""Units: metres and feet, chart datum and mean sea level."""

FEET_PER_METRE = 3.28084
"""Feet in one metre."""


def to_feet(metres: float) -> float:
    """Metres to feet, rounded to two decimals.

    >>> to_feet(1.82)
    5.97
    """
    return round(metres * FEET_PER_METRE, 2)


def above_mean_sea_level(metres_above_datum: float, datum_offset_m: float) -> float:
    """A height above chart datum as a height above mean sea level (negative below it)."""
    return metres_above_datum - datum_offset_m
'''

BUILD = '''\
import subprocess, sys

site = sys.argv[1]
sys.exit(subprocess.call([sys.executable, "-m", "pdoc", "--docformat", "markdown", "--footer-text", "tidekit 1.4.2",
                          "-o", site, "tidekit"]))
'''


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python make_pdoc_site.py OUT_DIR", file=sys.stderr)
        return 2
    write_pyz(Path(argv[1]) / "tidekit-pdoc.pyz", {
        "build.py": BUILD,
        "tidekit/__init__.py": INIT,
        "tidekit/stations.py": STATIONS,
        "tidekit/predict.py": PREDICT,
        "tidekit/units.py": UNITS,
    })
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
