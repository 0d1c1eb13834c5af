"""The types a user's checker sees for the RxJava 2.2.21 overloads of issue 30: the timed
``take_last_time``/``skip_last_time``, the notification forms of ``flat_map``,
``flat_map_iterable``'s combiner, ``do_on_each(on_notification=)``, ``subscribe`` with
``on_subscribe``, ``blocking_subscribe``'s forms, ``Single.subscribe(on_callback=)``,
``Single``/``Maybe.zip_iterable`` and ``Maybe.flat_map``'s forms.

Checked by ``mypy --strict tests/typing/`` (``assert_type`` compares exactly); pytest runs
the examples once to show the code is real.
"""

from __future__ import annotations

from typing import assert_type

from rxpy2 import Disposable
from rxpy2 import Flowable
from rxpy2 import Maybe
from rxpy2 import Single
from rxpy2.notification import Notification
from rxpy2.reactivestreams import Subscription
from rxpy2.testing import TestSubscriber


def flowable_forms() -> None:
    f = Flowable.range(1, 5)
    assert_type(f.take_last_time(1.0), Flowable[int])
    assert_type(f.take_last_time(1.0, None, True, 16, count=2), Flowable[int])
    assert_type(f.skip_last_time(0.0), Flowable[int])
    assert_type(f.skip_last_time(0.0, delay_error=True, buffer_size=8), Flowable[int])
    assert_type(f.flat_map(lambda x: Flowable.just(str(x)),
                           on_error_mapper=lambda e: Flowable.just("e"),
                           on_complete_supplier=lambda: Flowable.just("c")), Flowable[str])
    assert_type(f.flat_map_iterable(lambda x: [x, x]), Flowable[int])
    assert_type(f.flat_map_iterable(lambda x: [x, x], 4), Flowable[int])
    assert_type(f.flat_map_iterable(lambda x: [str(x)], lambda t, u: (t, u)),
                Flowable[tuple[int, str]])
    assert_type(f.flat_map_iterable(lambda x: [str(x)], lambda t, u: len(u) + t, 8),
                Flowable[int])

    def notified(n: Notification[int]) -> None:
        pass

    assert_type(f.do_on_each(on_notification=notified), Flowable[int])

    def first_two(s: Subscription) -> None:
        s.request(2)

    assert_type(f.subscribe(print, None, None, first_two), Disposable)
    f.blocking_subscribe(print, buffer_size=2)
    f.blocking_subscribe(print, print, lambda: None, 4)
    f.blocking_subscribe(TestSubscriber[int]())


def zero_one_forms() -> None:
    def callback(item: int | None, error: BaseException | None) -> None:
        pass

    assert_type(Single.just(1).subscribe(on_callback=callback), Disposable)
    def total(*xs: int) -> int:
        return sum(xs)

    assert_type(Single.zip_iterable([Single.just(1), Single.just(2)], total), Single[int])
    assert_type(Maybe.zip_iterable([Maybe.just(1)], lambda *xs: len(xs)), Maybe[int])
    m = Maybe.just(2)
    assert_type(m.flat_map(lambda x: Maybe.just(str(x))), Maybe[str])
    assert_type(m.flat_map(lambda x: Maybe.just(str(x)), lambda t, u: (t, u)),
                Maybe[tuple[int, str]])
    assert_type(m.flat_map(lambda x: Maybe.just(str(x)), lambda e: Maybe.just("e"),
                           lambda: Maybe.just("c")), Maybe[str])


def test_the_examples_run() -> None:
    flowable_forms()
    zero_one_forms()
