"""The text of a small Sphinx documentation project, "Ferrylog", shared by the Sphinx theme recipes.

Ferrylog is a made-up Python library that reads ferry timetables and fares; the project holds its
Python module (documented with ``sphinx.ext.autodoc``, so the API pages are generated from real
docstrings), a user guide, a fares table and a changelog. ``project(theme, options)`` returns the
files of the Sphinx project for one theme, plus the ``build.py`` that ``_sitepyz`` runs. Written for
the IWR-Bench suite; every word is ours.
"""

from __future__ import annotations

MODULE = '''\
"""Read ferry timetables and fares, and answer the questions passengers ask."""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass, field

__all__ = ["Sailing", "Timetable", "Fare", "load_timetable", "next_sailing", "fare_for"]


@dataclass(frozen=True)
class Sailing:
    """One crossing of one vessel.

    :param route: the route's short code, such as ``"NP-GH"`` (North Pier to Gull Harbour).
    :param departs: departure time, local to the port of departure.
    :param arrives: arrival time, local to the port of arrival.
    :param vessel: the name of the ship that sails it.
    :param days: the weekdays it runs, ``0`` for Monday to ``6`` for Sunday.
    """

    route: str
    departs: _dt.time
    arrives: _dt.time
    vessel: str
    days: frozenset[int] = field(default_factory=lambda: frozenset(range(7)))

    def runs_on(self, day: _dt.date) -> bool:
        """Whether this sailing runs on ``day``."""
        return day.weekday() in self.days

    @property
    def duration(self) -> _dt.timedelta:
        """How long the crossing takes (crossings never pass midnight)."""
        start = _dt.datetime.combine(_dt.date.min, self.departs)
        end = _dt.datetime.combine(_dt.date.min, self.arrives)
        return end - start


class Timetable:
    """All the sailings of one season, searchable by route and day.

    :param sailings: the season's sailings, in any order.
    :param season: a label printed in reports, such as ``"Summer 2024"``.
    """

    def __init__(self, sailings: list[Sailing], season: str = "") -> None:
        self.sailings = sorted(sailings, key=lambda s: (s.route, s.departs))
        self.season = season

    def routes(self) -> list[str]:
        """The route codes that have at least one sailing, sorted."""
        return sorted({s.route for s in self.sailings})

    def on(self, route: str, day: _dt.date) -> list[Sailing]:
        """The sailings of ``route`` that run on ``day``, earliest first."""
        return [s for s in self.sailings if s.route == route and s.runs_on(day)]


@dataclass(frozen=True)
class Fare:
    """The price of one ticket type on one route.

    :param route: the route's short code.
    :param ticket: ``"adult"``, ``"child"``, ``"bicycle"`` or ``"car"``.
    :param pence: the single fare in pence; returns cost ``1.8`` times as much.
    """

    route: str
    ticket: str
    pence: int

    def price(self, return_trip: bool = False) -> int:
        """The price in pence, for a single or a return ticket."""
        return round(self.pence * 1.8) if return_trip else self.pence


def load_timetable(path: str, season: str = "") -> Timetable:
    """Read a timetable from a CSV file with the columns ``route,departs,arrives,vessel,days``.

    ``days`` is a string of weekday letters such as ``MTWTFss`` (capitals run, small letters do not).

    :raises ValueError: when a line has a time that cannot be read; the message names the line.
    """
    import csv

    sailings = []
    with open(path, newline="", encoding="utf-8") as f:
        for n, row in enumerate(csv.DictReader(f), start=2):
            try:
                departs = _dt.time.fromisoformat(row["departs"])
                arrives = _dt.time.fromisoformat(row["arrives"])
            except ValueError:
                raise ValueError(f"{path}: line {n}: unreadable time") from None
            days = frozenset(i for i, c in enumerate(row["days"]) if c.isupper())
            sailings.append(Sailing(row["route"], departs, arrives, row["vessel"], days))
    return Timetable(sailings, season)


def next_sailing(timetable: Timetable, route: str, when: _dt.datetime) -> Sailing | None:
    """The first sailing of ``route`` that leaves at or after ``when``, looking up to a week ahead.

    Returns ``None`` when the route has no sailing in the next seven days.
    """
    for offset in range(8):
        day = when.date() + _dt.timedelta(days=offset)
        for s in timetable.on(route, day):
            if offset or s.departs >= when.time():
                return s
    return None


def fare_for(fares: list[Fare], route: str, ticket: str, return_trip: bool = False) -> int:
    """The price in pence of ``ticket`` on ``route``.

    :raises KeyError: when the route does not sell that ticket.
    """
    for f in fares:
        if f.route == route and f.ticket == ticket:
            return f.price(return_trip)
    raise KeyError(f"{route} sells no {ticket} ticket")
'''

INDEX = """\
Ferrylog
========

Ferrylog reads ferry timetables and fares and answers the questions passengers ask: *when
does the next boat leave?*, *how long is the crossing?*, *what does a return ticket cost
with a bicycle?*

It was written for the island ferry service between North Pier, Gull Harbour and Saltmarsh
Quay, and works for any service whose timetable fits in a spreadsheet.

.. code-block:: python

   import datetime, ferrylog

   table = ferrylog.load_timetable("summer.csv", season="Summer 2024")
   boat = ferrylog.next_sailing(table, "NP-GH", datetime.datetime(2024, 7, 6, 9, 40))
   print(boat.departs, boat.vessel)    # 10:15 Saltire

.. toctree::
   :maxdepth: 2
   :caption: Getting started

   installation
   quickstart

.. toctree::
   :maxdepth: 2
   :caption: User guide

   guide/timetables
   guide/fares
   guide/cli

.. toctree::
   :maxdepth: 1
   :caption: Reference

   api
   changelog
"""

INSTALLATION = """\
Installation
============

Ferrylog needs Python 3.10 or newer and nothing else.

From PyPI
---------

.. code-block:: console

   $ python -m pip install ferrylog

From a checkout
---------------

.. code-block:: console

   $ git clone https://example.org/ferrylog.git
   $ cd ferrylog
   $ python -m pip install -e .

Checking the install
--------------------

.. code-block:: console

   $ ferrylog --version
   ferrylog 2.3.0

.. note::

   The command ``ferrylog`` is installed next to your Python. If your shell cannot find it,
   run ``python -m ferrylog`` instead.
"""

QUICKSTART = """\
Quickstart
==========

This page takes you from a timetable file to your first answer in five minutes.

Write a timetable
-----------------

A timetable is a CSV file with one line per sailing:

.. code-block:: text

   route,departs,arrives,vessel,days
   NP-GH,07:30,08:05,Saltire,MTWTFss
   NP-GH,10:15,10:50,Saltire,MTWTFSS
   GH-SQ,11:20,12:45,Kittiwake,MTWTFSS

The ``days`` column has one letter per weekday, Monday first: a capital letter means the
sailing runs that day.

Ask for the next boat
---------------------

.. code-block:: python

   >>> import datetime, ferrylog
   >>> table = ferrylog.load_timetable("summer.csv")
   >>> ferrylog.next_sailing(table, "NP-GH", datetime.datetime(2024, 7, 6, 9, 40))
   Sailing(route='NP-GH', departs=datetime.time(10, 15), ...)

.. tip::

   Saturday 6 July 2024 is a Saturday, so the 07:30 sailing (which runs Monday to Friday)
   is skipped even though it leaves earlier.

Price a ticket
--------------

.. code-block:: python

   >>> fares = [ferrylog.Fare("NP-GH", "adult", 640)]
   >>> ferrylog.fare_for(fares, "NP-GH", "adult", return_trip=True)
   1152

Next, read :doc:`/guide/timetables` for the whole file format.
"""

TIMETABLES = """\
Timetables
==========

A :class:`ferrylog.Timetable` holds the sailings of one season.

Routes
------

Routes are named by their two ports' codes, departure first:

=========  ==================  ================  ==========
Code       From                To                Crossing
=========  ==================  ================  ==========
``NP-GH``  North Pier          Gull Harbour      35 minutes
``GH-NP``  Gull Harbour        North Pier        35 minutes
``GH-SQ``  Gull Harbour        Saltmarsh Quay    1 h 25 min
``SQ-GH``  Saltmarsh Quay      Gull Harbour      1 h 25 min
=========  ==================  ================  ==========

Weekdays
--------

Each sailing runs on the weekdays its ``days`` column names. A timetable for the winter often
drops the Sunday boats: write ``MTWTFSs`` for a sailing that runs every day but Sunday.

.. warning::

   Bank holidays are not weekdays of their own. Publish a separate timetable for them and
   load it on the day.

Seasons
-------

Load one timetable per season and keep them apart; Ferrylog never merges seasons, because
the same departure time can belong to different vessels in summer and in winter.
"""

FARES = """\
Fares
=====

Fares are kept per route and ticket type, in pence, for a single journey. A return ticket
costs 1.8 times the single fare, rounded to the nearest penny.

.. list-table:: Summer 2024 single fares
   :header-rows: 1

   * - Route
     - Adult
     - Child
     - Bicycle
     - Car
   * - North Pier - Gull Harbour
     - £6.40
     - £3.20
     - £2.00
     - £24.50
   * - Gull Harbour - Saltmarsh Quay
     - £9.80
     - £4.90
     - £2.00
     - £38.00

Children under five travel free and need no ticket.

Concessions
-----------

Residents of the islands pay half the adult fare on every route. Ferrylog does not know who
is a resident: apply the discount in your own code, after :func:`ferrylog.fare_for`.
"""

CLI = """\
Command line
============

Ferrylog installs a ``ferrylog`` command with three subcommands.

``ferrylog next``
-----------------

.. code-block:: console

   $ ferrylog next summer.csv NP-GH --at "2024-07-06 09:40"
   10:15  Saltire  (arrives 10:50)

``ferrylog routes``
-------------------

Lists every route of a timetable with its number of sailings per week.

``ferrylog check``
------------------

Reads a timetable and reports every line it cannot read, with its line number, and every
sailing that arrives before it departs. It exits with status 1 when it found a problem, so
it can guard a timetable in a script.
"""

API = """\
API reference
=============

.. automodule:: ferrylog

Timetables
----------

.. autoclass:: ferrylog.Sailing
   :members:

.. autoclass:: ferrylog.Timetable
   :members:

.. autofunction:: ferrylog.load_timetable

.. autofunction:: ferrylog.next_sailing

Fares
-----

.. autoclass:: ferrylog.Fare
   :members:

.. autofunction:: ferrylog.fare_for
"""

CHANGELOG = """\
Changelog
=========

2.3.0 (June 2024)
-----------------

* :func:`ferrylog.next_sailing` looks up to a week ahead instead of one day.
* New ticket type ``bicycle``.

2.2.1 (March 2024)
------------------

* ``ferrylog check`` names the line of an unreadable time.

2.2.0 (November 2023)
---------------------

* Winter timetables: sailings can skip any weekday.
* Fares are kept in pence, never in floating-point pounds.

2.0.0 (May 2023)
----------------

* First public release.
"""

CONF = """\
import os, sys

sys.path.insert(0, os.path.abspath("."))

project = "Ferrylog"
author = "The Ferrylog authors"
copyright = "2024, The Ferrylog authors"
release = "2.3.0"
version = "2.3"
extensions = ["sphinx.ext.autodoc"]
autodoc_member_order = "bysource"
html_theme = THEME
html_theme_options = OPTIONS
html_title = "Ferrylog 2.3"
html_show_sphinx = True
html_last_updated_fmt = None
templates_path = []
exclude_patterns = ["_build", "build.py"]
"""

BUILD = """\
import subprocess, sys

site = sys.argv[1]
sys.exit(subprocess.call([sys.executable, "-m", "sphinx", "-b", "html", "-q", "-E", ".", site]))
"""


NESTED_INDEX = """\
Ferrylog
========

Ferrylog reads ferry timetables and fares and answers the questions passengers ask: *when
does the next boat leave?*, *how long is the crossing?*, *what does a return ticket cost
with a bicycle?*

It was written for the island ferry service between North Pier, Gull Harbour and Saltmarsh
Quay, and works for any service whose timetable fits in a spreadsheet.

.. toctree::
   :maxdepth: 1

   start/index
   guide/index
   api
   changelog
"""

START_INDEX = """\
Getting started
===============

Install Ferrylog, then follow the quickstart to answer your first question from a timetable.

.. toctree::
   :maxdepth: 2

   installation
   quickstart
"""

GUIDE_INDEX = """\
User guide
==========

The guide explains the timetable file, fares and the command line in turn.

.. toctree::
   :maxdepth: 2

   timetables
   fares
   cli
"""


def project(theme: str, options: dict | None = None, nested: bool = False) -> dict[str, str]:
    """The files of the Ferrylog Sphinx project built with ``theme`` (and its ``html_theme_options``).

    ``nested`` puts the pages in two sections with pages of their own ("Getting started", "User
    guide"), the layout that themes with a top navigation bar show best."""
    conf = CONF.replace("THEME", repr(theme)).replace("OPTIONS", repr(dict(sorted((options or {}).items()))))
    files = {
        "build.py": BUILD,
        "conf.py": conf,
        "ferrylog.py": MODULE,
        "index.rst": INDEX,
        "installation.rst": INSTALLATION,
        "quickstart.rst": QUICKSTART,
        "guide/timetables.rst": TIMETABLES,
        "guide/fares.rst": FARES,
        "guide/cli.rst": CLI,
        "api.rst": API,
        "changelog.rst": CHANGELOG,
    }
    if nested:
        files["index.rst"] = NESTED_INDEX
        files["start/index.rst"] = START_INDEX
        files["start/installation.rst"] = files.pop("installation.rst")
        files["start/quickstart.rst"] = files.pop("quickstart.rst")
        files["guide/index.rst"] = GUIDE_INDEX
    return files
