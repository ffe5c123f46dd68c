"""campsolver: hints, proven maximum scores and unique-solution puzzles for five camping tabletop games.

The installed namespace holds everything: `campsolver.solver` (rules models and solvers), `campsolver.service`
(the gRPC service), `campsolver.clients` (client library and CLI) and `campsolver.v1` (generated protobuf code).
"""

__version__ = "0.2.0"
