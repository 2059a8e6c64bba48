"""What a step must show, read the way a person reads a screen: shared by the recorder and the judge.

- ``view``: the visible text of the viewport grouped into lines and paragraphs, phrases found in it;
- ``change``: where two screenshots differ, on a grid of cells;
- ``evidence``: the evidence of a step derived on the source (recorder) and judged on a page (judge);
- ``author``: the checks a recipe author wrote (``checks:``) and the DOM facts derived for the report.

Below record and judge, above the records: nothing here drives a browser or knows a stage.
"""
