"""Layer 2, core: units, pure finance functions, root finding, the vectorised
engine (one function per line item) and the :class:`~costmodel.core.model.Model`.

No I/O, no plotting, no templates: importable in milliseconds on numpy and pandas.
"""
