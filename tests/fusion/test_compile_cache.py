"""The sync-chain compiler keeps at most ``CACHE_SIZE`` compiled factories, and a dropped
one takes its traceback text (linecache) with it once its chains are gone."""

from __future__ import annotations

import gc
import itertools
import linecache
from typing import Any

from rxpy2 import Flowable
from rxpy2._internal.helpers import stage_compiler


def _chain(shape: tuple[str, ...]) -> Flowable[Any]:
    f: Flowable[Any] = Flowable.range(0, 4)
    for kind in shape:
        f = f.map(lambda x: x + 1) if kind == "m" else f.filter(lambda x: x >= 0)
    return f


def _fused_entries() -> int:
    return sum(1 for name in linecache.cache if name.startswith("<rxpy2 fused chain:"))


def test_the_chain_cache_is_bounded_and_releases_what_it_drops() -> None:
    size = stage_compiler.CACHE_SIZE
    shapes = [s for n in range(2, 10) for s in itertools.product("mf", repeat=n)]
    assert len(shapes) > size + 50  # more shapes than the cache holds
    for shape in shapes:
        # each shape compiles once; the values show it ran the compiled loop
        assert _chain(shape).test().values() == [x + shape.count("m") for x in range(4)]
    info = stage_compiler._chain_factory.cache_info()
    assert info.currsize == size
    gc.collect()
    assert _fused_entries() <= size  # the dropped factories' texts went with their code
