"""Benchmarks: speed and quality targets, printed as tables and written as JSON under bench/results/.

Not timed tests: the machines are shared and noisy, so compare ratios measured in one run.
"""

import campsolver  # noqa: F401  (before numpy: one BLAS thread a process, see campsolver/__init__.py)
