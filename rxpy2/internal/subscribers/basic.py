"""BasicSubscriber: the name the library's 1:1 stages use for the public base.

It is :class:`rxpy2.operator_kit.OperatorSubscriber` itself (typed upstream, §2.13
checks, one terminal signal, ``fail``/``complete_early``); see that module.
"""

from __future__ import annotations

from rxpy2.internal.subscribers.operator_subscriber import OperatorSubscriber as BasicSubscriber

__all__ = ["BasicSubscriber"]
