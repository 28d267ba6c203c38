"""Layer 2, inputs: assumption schema, YAML loading and merging, cross-section
rules, bundled resources, the resolution of each tier's engine inputs into the
engine's types (:mod:`costmodel.core.config`), and the engine run on them: the
:class:`~costmodel.inputs.model.Model` of a set of assumptions and
:func:`~costmodel.inputs.runs.run_variants` (inputs varied by dotted path)."""
