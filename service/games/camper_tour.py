"""camper_tour handlers: filled in as the solver lands (until then every RPC answers UNIMPLEMENTED)."""

HANDLERS: dict = {}
EXAMPLES: dict = {}
