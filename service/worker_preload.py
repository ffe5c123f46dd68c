"""Imported by the solver workers' forkserver: every game module loaded and warmed up once, before any fork.

A module (not a function) because `multiprocessing` preloads by module name.
"""

from campsolver.service.workers import preload

preload()
