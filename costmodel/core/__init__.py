"""Layer 1, core: units, pure finance functions, root finding, the engine's typed
inputs (:mod:`~costmodel.core.config`) and the vectorised engine (one function
per line item), with the intermediate rows of a tier.

No I/O, no plotting, no templates, no assumption schema: importable on numpy
alone. The :class:`~costmodel.inputs.model.Model` that runs the engine on
validated assumptions is a layer above, in :mod:`costmodel.inputs`.
"""
