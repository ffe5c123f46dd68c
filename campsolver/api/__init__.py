"""What the server and its clients share about the `campsolver.v1` API, and nothing else: the games and their RPCs
read from the generated descriptors (`campsolver.api.rpcs`) and the error details every failure carries
(`campsolver.api.errors`).

It imports only the generated code, protobuf and `googleapis-common-protos`, so the client library
(`campsolver.clients`) builds on it without the service or the solvers.
"""
