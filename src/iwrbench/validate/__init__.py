"""Proving tasks on their oracle: above record and judge, because it records and judges.

- ``oracle``: a task's source site, from the recipe it was recorded from (never from the task folder),
  and the ``oracle`` baseline model that serves it;
- ``check``: ``iwr validate`` (a task folder is complete; ``--oracle``: its source scores IFS 100 and
  reproduces every visual checkpoint);
- ``make``: ``iwr record`` (record, then prove the recording on its oracle before installing it);
- ``build``: ``iwr suite build`` (every recipe of a bundled suite, recorded and proven).
"""
