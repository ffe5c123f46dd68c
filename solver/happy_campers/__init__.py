"""Happy Campers: rules model (`rules`), single/solo/multi-player states (`modes`), brute-force oracles
(`exhaustive`) and the CP-SAT maximiser (`maximise`).

The rules model is kept apart from the solvers: every solver answer is re-checked by `rules`.
"""
