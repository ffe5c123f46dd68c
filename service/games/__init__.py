"""One package per game, the same shape for each: `convert` (protobuf messages <-> rules-model and solver objects),
`handlers` (one function per RPC), `examples` (a request per RPC); the package binds them as `SERVICE`, a
`protocol.GameService`, which the registry serves. Shared here: `shared` (proof labels, the hint contract, the
NewGame/Play flow), `review` (the Review RPC), `enum_maps` (proto enums <-> Python enums by name)."""
