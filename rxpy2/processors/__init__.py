"""Processors: Flowables that are also Subscribers (RxJava 2's ``io.reactivex.processors``).

* :class:`PublishProcessor` relays items to the current subscribers;
* :class:`BehaviorProcessor` also replays the latest item to a new subscriber;
* :class:`ReplayProcessor` replays a buffer (unbounded, by size, by age);
* :class:`UnicastProcessor` queues items for a single subscriber;
* :class:`AsyncProcessor` emits only the last item, at completion;
* :class:`MulticastProcessor` prefetches a bounded number of items from its
  upstream and emits each when every subscriber has demand (the slowest sets the pace);
* :meth:`FlowableProcessor.to_serialized` makes any of them safe to feed from
  several threads (:class:`SerializedProcessor`).

Every processor tracks demand per subscriber. See ``docs/processors.md``.
"""

from rxpy2.processors.async_processor import AsyncProcessor
from rxpy2.processors.behavior_processor import BehaviorProcessor
from rxpy2.processors.flowable_processor import FlowableProcessor
from rxpy2.processors.multicast_processor import MulticastProcessor
from rxpy2.processors.publish_processor import PublishProcessor
from rxpy2.processors.replay_processor import ReplayProcessor
from rxpy2.processors.serialized_processor import SerializedProcessor
from rxpy2.processors.unicast_processor import UnicastProcessor

__all__ = [
    "AsyncProcessor",
    "BehaviorProcessor",
    "FlowableProcessor",
    "MulticastProcessor",
    "PublishProcessor",
    "ReplayProcessor",
    "SerializedProcessor",
    "UnicastProcessor",
]
