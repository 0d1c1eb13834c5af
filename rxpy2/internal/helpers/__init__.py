"""Shared building blocks of operators (RxJava 2's ``internal.util`` and ``internal.subscriptions``).

Import from the submodules or from here::

    from rxpy2.internal.helpers import BackpressureHelper, SubscriptionHelper
"""

from rxpy2.internal.helpers.backpressure_helper import BackpressureHelper
from rxpy2.internal.helpers.disposable_helper import DISPOSED, DisposableHelper
from rxpy2.internal.helpers.exception_helper import TERMINATED, AtomicThrowable, ExceptionHelper
from rxpy2.internal.helpers.half_serializer import HalfSerializer
from rxpy2.internal.helpers.queue_drain_helper import QueueDrainHelper
from rxpy2.internal.helpers.subscription_helper import CANCELLED, SubscriptionHelper

__all__ = [
    "CANCELLED",
    "DISPOSED",
    "TERMINATED",
    "AtomicThrowable",
    "BackpressureHelper",
    "DisposableHelper",
    "ExceptionHelper",
    "HalfSerializer",
    "QueueDrainHelper",
    "SubscriptionHelper",
]
