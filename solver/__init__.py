"""campsolver's solvers: one package per game over a shared core (`solver.core`)."""
