"""Sentinel: a named marker that shares a queue (or a map) with real values.

Compared with ``is``; hashed by identity; its ``repr`` is its name. Used for
the timer and boundary signals of ``window_time``/``window(boundary)`` and the
map key of ``group_by``'s ``None`` key.
"""

from __future__ import annotations

__all__ = ["Sentinel"]


class Sentinel:
    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name
