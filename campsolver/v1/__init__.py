"""Generated protobuf and gRPC code for campsolver.v1 (`make protos`; do not edit)."""
