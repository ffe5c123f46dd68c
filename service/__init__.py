"""The campsolver gRPC service: one servicer per game, all mapped through `service.dispatch`."""
