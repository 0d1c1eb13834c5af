"""Maybe operators."""
