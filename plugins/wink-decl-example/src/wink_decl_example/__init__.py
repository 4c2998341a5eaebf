"""Example wink-decl plugins: a handler, a policy, a predicate, an evaluator (docs/plugins.md)."""
