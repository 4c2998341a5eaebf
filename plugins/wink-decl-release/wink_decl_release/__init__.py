"""Simulated release steps for wink-decl prompts."""
