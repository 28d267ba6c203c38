"""The what-if page (``costmodel serve``): one page that recomputes the real engine
on every change of a ranged input (methodology §14).

- :mod:`~costmodel.report.web.session`: the assumption paths given, the inputs the
  page may move, and each request's overrides validated as ``--set`` is;
- :mod:`~costmodel.report.web.view`: the option table, the memo's decision, its
  charts and the controls, in English and Chinese, from the memo's own code;
- :mod:`~costmodel.report.web.downloads`: the overlay of the moved inputs, the
  workbook and the memo of the current state;
- :mod:`~costmodel.report.web.jobs`: work on request in a thread, with progress
  (a Monte Carlo run);
- :mod:`~costmodel.report.web.scale`: the scale sweep on request, as a job;
- :mod:`~costmodel.report.web.server`: the Starlette application (the only module that
  imports Starlette; the ``serve`` extra).
"""
