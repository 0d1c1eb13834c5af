"""Flowable operators: ``flowable_x.py`` holds ``FlowableX`` and its subscriber(s)."""

from typing import TYPE_CHECKING

from rxpy2._internal.lazy_import import lazy_package

if not TYPE_CHECKING:  # type checkers see each module where it is imported
    __getattr__, __dir__ = lazy_package(__name__, globals())  # the modules load on first use
