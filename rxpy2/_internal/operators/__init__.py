"""Operator implementations, one module per operator family."""
