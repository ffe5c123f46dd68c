"""Benchmarks: speed and quality targets, printed as tables and written as JSON under bench/results/.

Not timed tests: the machines are shared and noisy, so compare ratios measured in one run.
"""
