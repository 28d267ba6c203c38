"""Layer 3, analysis: what is computed beyond one build (sensitivity,
break-even, Monte Carlo, scenarios, build versus rent, workload sizing, priced
risks) and the :class:`~costmodel.analysis.bundle.Analysis` the writers read."""
