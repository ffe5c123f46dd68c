"""Batch work on Ray: puzzle books, maxima sweeps and tournaments that resume after a kill.

`campsolver batch JOB [options] --out DIR`. A job is a list of independent tasks, each named by a key (job, game,
kind, parameters). Tasks run as Ray tasks (a local Ray instance by default, `--address` joins a cluster) or in
this process (`--in-process`), each under its own time budget. Every finished task is written at once to the
SQLite store `DIR/batch.sqlite` (one row per key), so rerunning the same command skips what is done. The output
files are written from the store in the job's own task order, so they do not depend on the order of completion.
"""
