"""rxpy2: RxJava 2's Flowable for Python.

Reactive Streams with non-blocking backpressure, RxJava 2's operator catalogue
in snake_case, Single/Maybe/Completable, and the helpers to write operators.

``import rxpy2`` stays cheap (``tests/internal/test_import_cost.py``): the processors,
``ParallelFlowable``, the test consumers, ``TestScheduler`` and ``Timed`` are imported on
first use (module ``__getattr__``; every name stays importable from here), and so are
the operator modules (``rxpy2._internal.lazy_import``), ``asyncio`` and ``atomics``.
"""

from typing import TYPE_CHECKING

from rxpy2._internal.lazy_import import lazy_package

if not TYPE_CHECKING:  # type checkers see the imports below, and no catch-all
    # first, so that the modules imported below may ``from rxpy2 import testing`` (deferred)
    __getattr__, __dir__ = lazy_package(__name__, globals(), {
        **dict.fromkeys(["AsyncProcessor", "BehaviorProcessor", "FlowableProcessor",
                         "MulticastProcessor", "PublishProcessor", "ReplayProcessor",
                         "UnicastProcessor"], "rxpy2.processors"),
        **dict.fromkeys(["ParallelFailureHandling", "ParallelFlowable"], "rxpy2.parallel"),
        **dict.fromkeys(["TestObserver", "TestSubscriber"], "rxpy2.testing"),
        "TestScheduler": "rxpy2.schedulers.test_scheduler",
        "Timed": "rxpy2.timed",
    }, submodules={"parallel", "processors", "testing"})

from rxpy2 import plugins
from rxpy2.backpressure import BackpressureOverflowStrategy
from rxpy2.backpressure import BackpressureStrategy
from rxpy2.completable import Completable
from rxpy2.connectable_flowable import ConnectableFlowable
from rxpy2.disposables import CompositeDisposable
from rxpy2.disposables import Disposable
from rxpy2.disposables import Disposables
from rxpy2.disposables import SerialDisposable
from rxpy2.emitter import CompletableEmitter
from rxpy2.emitter import Emitter
from rxpy2.emitter import FlowableEmitter
from rxpy2.emitter import MaybeEmitter
from rxpy2.emitter import SingleEmitter
from rxpy2.exceptions import CompositeException
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.exceptions import OnErrorNotImplementedException
from rxpy2.exceptions import ProtocolViolationException
from rxpy2.exceptions import UndeliverableException
from rxpy2.flowable import Flowable
from rxpy2.grouped_flowable import GroupedFlowable
from rxpy2.maybe import Maybe
from rxpy2.notification import Notification
from rxpy2.observers import CompletableObserver
from rxpy2.observers import FlowableSubscriber
from rxpy2.observers import MaybeObserver
from rxpy2.observers import SingleObserver
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import LONG_MIN
from rxpy2.reactivestreams import Processor
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription
from rxpy2.schedulers import Scheduler
from rxpy2.schedulers import Schedulers
from rxpy2.single import Single

if TYPE_CHECKING:
    from rxpy2 import parallel as parallel
    from rxpy2 import processors as processors
    from rxpy2 import testing as testing
    from rxpy2.parallel import ParallelFailureHandling
    from rxpy2.parallel import ParallelFlowable
    from rxpy2.processors import AsyncProcessor
    from rxpy2.processors import BehaviorProcessor
    from rxpy2.processors import FlowableProcessor
    from rxpy2.processors import MulticastProcessor
    from rxpy2.processors import PublishProcessor
    from rxpy2.processors import ReplayProcessor
    from rxpy2.processors import UnicastProcessor
    from rxpy2.schedulers.test_scheduler import TestScheduler
    from rxpy2.testing import TestObserver
    from rxpy2.testing import TestSubscriber
    from rxpy2.timed import Timed

__version__ = "0.1.0"

__all__ = [
    "LONG_MAX",
    "LONG_MIN",
    "AsyncProcessor",
    "BackpressureOverflowStrategy",
    "BackpressureStrategy",
    "BehaviorProcessor",
    "Completable",
    "CompletableEmitter",
    "CompletableObserver",
    "CompositeDisposable",
    "CompositeException",
    "ConnectableFlowable",
    "Disposable",
    "Disposables",
    "Emitter",
    "Flowable",
    "FlowableEmitter",
    "FlowableProcessor",
    "FlowableSubscriber",
    "GroupedFlowable",
    "Maybe",
    "MaybeEmitter",
    "MaybeObserver",
    "MissingBackpressureException",
    "MulticastProcessor",
    "Notification",
    "OnErrorNotImplementedException",
    "ParallelFailureHandling",
    "ParallelFlowable",
    "Processor",
    "ProtocolViolationException",
    "PublishProcessor",
    "Publisher",
    "ReplayProcessor",
    "Scheduler",
    "Schedulers",
    "SerialDisposable",
    "Single",
    "SingleEmitter",
    "SingleObserver",
    "Subscriber",
    "Subscription",
    "TestObserver",
    "TestScheduler",
    "TestSubscriber",
    "Timed",
    "UndeliverableException",
    "UnicastProcessor",
    "plugins",
]
