"""Single operators."""
