"""Shared building blocks of operators (RxJava 2's ``internal.util`` and ``internal.subscriptions``).

Import from the submodules or from here::

    from rxpy2._internal.helpers import BackpressureHelper, SubscriptionHelper
"""

from rxpy2._internal.helpers.backpressure_helper import BackpressureHelper
from rxpy2._internal.helpers.disposable_helper import DISPOSED
from rxpy2._internal.helpers.disposable_helper import DisposableHelper
from rxpy2._internal.helpers.error_mode import ErrorMode
from rxpy2._internal.helpers.exception_helper import TERMINATED
from rxpy2._internal.helpers.exception_helper import AtomicThrowable
from rxpy2._internal.helpers.exception_helper import ExceptionHelper
from rxpy2._internal.helpers.half_serializer import HalfSerializer
from rxpy2._internal.helpers.parker import Parker
from rxpy2._internal.helpers.queue_drain_helper import QueueDrainHelper
from rxpy2._internal.helpers.sentinel import Sentinel
from rxpy2._internal.helpers.subscription_helper import CANCELLED
from rxpy2._internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2._internal.helpers.upstream_ref_count import UpstreamRefCount

__all__ = [
    "CANCELLED",
    "DISPOSED",
    "TERMINATED",
    "AtomicThrowable",
    "BackpressureHelper",
    "DisposableHelper",
    "ErrorMode",
    "ExceptionHelper",
    "HalfSerializer",
    "Parker",
    "QueueDrainHelper",
    "Sentinel",
    "SubscriptionHelper",
    "UpstreamRefCount",
]
