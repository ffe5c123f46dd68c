"""campsolver: hints, proven maximum scores and unique-solution puzzles for five camping tabletop games.

The installed namespace holds everything: `campsolver.solver` (rules models and solvers), `campsolver.service`
(the gRPC service), `campsolver.clients` (client library and CLI), `campsolver.v1` (generated protobuf code) and
`campsolver.api` (what server and clients share: the RPC table from the descriptors, the error details).
"""

__version__ = "0.2.0"

import os as _os

# One BLAS thread per process, set before numpy is first imported. The service runs one solver process per core
# and a batch one per Ray worker, so a multi-threaded BLAS only oversubscribes the cores, and OpenBLAS threads
# spin while they wait: measured on the Camper Tour best response (a batched matrix product), with a second
# process busy on the other core, one call took p50 0.08 s and up to 0.42 s with the default threads, against
# 0.04 s steady with one. A user who wants more threads sets the variable before importing campsolver.
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    _os.environ.setdefault(_variable, "1")
