"""Example wink-decl plugins: a handler, a policy and a predicate (docs/plugins.md)."""
