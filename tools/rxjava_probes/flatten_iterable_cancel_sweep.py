"""The rxpy2 side of FlattenIterableCancelSweep.java: the same 540 chains, the same lines.

    diff <(tools/rxjava_probes/run RXJAVA_GIT_DIR FlattenIterableCancelSweep | tail -n +2) \\
         <(.venv/bin/python tools/rxjava_probes/flatten_iterable_cancel_sweep.py)

Each chain: ``range(1, 10)`` under ``flat_map_iterable``/``concat_map_iterable`` of lists of
``length`` items with ``prefetch``, consumed in requests of ``batch``, cancelled on the last item
of the ``k``-th list; a line gives the items seen and the upstream's requests.
"""

from __future__ import annotations

import functools
from typing import Any

from rxpy2 import Flowable
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription


class _Consumer(Subscriber[int]):
    def __init__(self, batch: int, stop: int, got: list[int]) -> None:
        self.batch = batch
        self.stop = stop
        self.got = got
        self.left = batch
        self.s: Subscription | None = None

    def on_subscribe(self, s: Subscription) -> None:
        self.s = s
        s.request(self.batch)

    def on_next(self, item: int) -> None:
        assert self.s is not None
        self.got.append(item)
        if item == self.stop:
            self.s.cancel()
            return
        self.left -= 1
        if self.left == 0:
            self.left = self.batch
            self.s.request(self.batch)

    def on_error(self, error: BaseException) -> None:
        self.got.append(-1)

    def on_complete(self) -> None:
        self.got.append(-2)


def main() -> None:
    for op in ("flat_map_iterable", "concat_map_iterable"):
        for prefetch in (1, 2, 3, 4, 128):
            for length in (1, 2, 3):
                for k in range(1, 7):
                    for batch in (1, 2, 5):
                        requests: list[int] = []
                        events: list[str] = []
                        got: list[int] = []
                        up = Flowable.range(1, 10).do_on_request(requests.append) \
                            .do_on_cancel(functools.partial(events.append, "cancel"))

                        def items(x: int, n: int = length) -> list[int]:
                            return [x * 100 + i for i in range(n)]

                        f: Any = getattr(up, op)(items, prefetch)
                        f.subscribe(_Consumer(batch, k * 100 + length - 1, got))
                        print(f"{op} p={prefetch} len={length} k={k} b={batch} items={len(got)} "
                              f"req=[{', '.join(map(str, requests))}] [{', '.join(events)}]")


if __name__ == "__main__":
    main()
