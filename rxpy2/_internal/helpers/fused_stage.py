"""What a fusable operator declares about its stage in a macro-fused chain.

Each fusable operator's module declares its stage as one :class:`FusedStage` (the code
it compiles to, the state it keeps, whether it runs user code, its unfused operator,
RxJava 2's fusion flags), next to the operator class, as that class's ``STAGE``; an
aggregation's subscriber declares the fold a chain runs into (:class:`FusedFold`,
:func:`declare_fold`). The stage compiler and the sync chain read these declarations
only, so adding a fused stage touches its operator's module alone (docs/fusion.md).
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any

from rxpy2._internal.helpers.sentinel import Sentinel

__all__ = ["NOTHING", "FusedFlatten", "FusedFold", "FusedStage", "Lines", "declare_fold",
           "fold_of"]

#: Lines of generated code (at indent 0; the compiler indents them).
Lines = Sequence[str]


#: The state of a running-state stage (scan, distinct_until_changed) before its first item.
NOTHING: Any = Sentinel("NOTHING")


class FusedFlatten:
    """A flattening stage (a chain's last stage, run under unbounded demand):

    * ``leaf(i, source, emit, derive)``: the lines flattening ``x`` through stage ``i``
      (``emit``: the lines emitting ``y``; ``derive``: the scalar inners are derived
      from the source's position rather than counted, see ``counts_scalars``);
    * ``hand_over(rest, mapper, arg, subscriber, scalars)``: subscribes the operator
      over ``rest`` (the rest of the chain) to ``subscriber``; ``scalars`` is the
      count of scalar inners met before a hand-over in the middle, None from the start;
    * ``counts_scalars``: its operator counts scalar inners (flat_map's demand);
    * ``polls_sync``: its operator polls a SYNC-fuseable upstream and offers SYNC
      fusion itself (flat_map_iterable), so it emits at the request that moves the
      demand off zero.
    """

    __slots__ = ("leaf", "hand_over", "counts_scalars", "polls_sync")

    def __init__(self, *, leaf: Callable[[int, str, Lines, bool], Lines],
                 hand_over: Callable[[Any, Any, Any, Any, int | None], None],
                 counts_scalars: bool = False, polls_sync: bool = False) -> None:
        self.leaf = leaf
        self.hand_over = hand_over
        self.counts_scalars = counts_scalars
        self.polls_sync = polls_sync


class FusedStage:
    """One fusable stage, as its operator declares it (read-only once built).

    Code templates (``i`` the stage's index; ``x`` the item; the names ``fN``/``gN``...
    of ``params`` its functions, those of ``state`` its per-subscription state):

    * ``loop(i, stop)``: its lines per item; ``stop`` the lines ending the chain;
      ``nests``: the rest of the chain runs under its last line (a filter's ``if``);
    * ``after(i, stop)``: lines run after the rest of the chain for the item (take's
      end check), at the stage's own indent;
    * ``load(i)``: lines at each run's start (a collection made at the first run);
    * ``prologue(i)``: lines (in a one-pass loop) that set ``x`` to an item going out
      before the source is read (scan's seed); the rest of the chain runs under them;
    * ``epilogue(i)``: ``(held, take)``: when ``held`` is true once the chain ended,
      ``take`` sets ``x`` to a last item going out (buffer's partial list);
    * ``step(i)``: its lines in a ``step(x)`` function returning ``DROP`` or ``x``
      (only map and filter have one).

    Declarations: ``params``/``arguments(arg)`` the factory's parameters and their
    values from the stage's argument (None: the argument is the one function);
    ``state``/``initial(arg)`` the state variables and their start; ``names`` what its
    templates use besides (errors, markers);
    ``operator(upstream, arg)`` the ordinary operator it stands for; ``user_code`` (a
    thread BOUNDARY refuses fusion over it); ``rxjava_fuseable`` (its RxJava 2
    operator is fuseable, so a chain of such stages offers SYNC fusion); ``stops``
    (it may end the chain early); ``done(state)`` (from its state: it lets no item
    through any more, take at 0); ``late_request`` (as a chain's first stage, the
    demand made in the consumer's ``on_subscribe`` is drained once that returned, as
    RxJava 2's skip asks for its items then); ``before_flatten`` (a flattening stage may
    follow it); ``one_to_one`` (every item passes, so flat_map may derive its scalar
    count); ``flatten`` (a flattening stage: :class:`FusedFlatten`).
    """

    __slots__ = ("name", "operator", "loop", "nests", "after", "load", "prologue", "epilogue",
                 "step", "params", "arguments", "state", "initial", "names", "user_code",
                 "rxjava_fuseable", "stops", "done", "late_request", "before_flatten",
                 "one_to_one", "flatten")

    def __init__(self, name: str, *, operator: Callable[[Any, Any], Any],
                 loop: Callable[[int, Lines], Lines] | None = None, nests: bool = False,
                 after: Callable[[int, Lines], Lines] | None = None,
                 load: Callable[[int], Lines] | None = None,
                 prologue: Callable[[int], Lines] | None = None,
                 epilogue: Callable[[int], tuple[str, Lines]] | None = None,
                 step: Callable[[int], Lines] | None = None,
                 params: tuple[str, ...] = ("f",),
                 arguments: Callable[[Any], tuple[Any, ...]] | None = None,
                 state: tuple[str, ...] = (),
                 initial: Callable[[Any], tuple[Any, ...]] | None = None,
                 names: Mapping[str, Any] | None = None, user_code: bool = True,
                 rxjava_fuseable: bool = False, stops: bool = False,
                 done: Callable[[tuple[Any, ...]], bool] | None = None,
                 late_request: bool = False, before_flatten: bool = False, one_to_one: bool = False,
                 flatten: FusedFlatten | None = None) -> None:
        if name in _declared:
            raise ValueError(f"a fused stage named {name!r} is declared already")
        if (initial is None) != (not state):
            raise ValueError("a stage with state declares its initial state, and only then")
        if arguments is None and len(params) > 1:
            raise ValueError("a stage with several functions declares its arguments")
        self.name = name
        self.operator = operator
        self.loop = loop
        self.nests = nests
        self.after = after
        self.load = load
        self.prologue = prologue
        self.epilogue = epilogue
        self.step = step
        self.params = params
        self.arguments = arguments
        self.state = state
        self.initial = initial
        self.names: Mapping[str, Any] = names or {}
        self.user_code = user_code
        self.rxjava_fuseable = rxjava_fuseable
        self.stops = stops
        self.done = done
        self.late_request = late_request
        self.before_flatten = before_flatten
        self.one_to_one = one_to_one
        self.flatten = flatten
        _declared[name] = self

    def __repr__(self) -> str:
        return f"FusedStage({self.name})"


#: Every stage declared so far, by name: a name is declared once (it names the generated
#: code and the stage in ``repr``/``explain``).
_declared: dict[str, FusedStage] = {}


class FusedFold:
    """What an aggregation does with each item of a chain it folds (``lines``: ``acc``
    the result so far, ``g`` the aggregation's function, as its ``on_next`` does it), and
    the names those lines use. A subscriber class declaring it (:func:`declare_fold`)
    has ``fold_start() -> (acc, g)`` and ``fold_end(acc)`` giving and taking the result."""

    __slots__ = ("name", "lines", "names")

    def __init__(self, name: str, lines: Lines, names: Mapping[str, Any] | None = None) -> None:
        self.name = name
        self.lines = tuple(lines)
        self.names: Mapping[str, Any] = names or {}

    def __repr__(self) -> str:
        return f"FusedFold({self.name})"


#: The aggregating subscribers' types -> their fold (filled as their modules load).
_folds: dict[type, FusedFold] = {}


def declare_fold(subscriber_type: type, fold: FusedFold) -> None:
    """``subscriber_type`` (with ``fold_start``/``fold_end``) folds a chain with ``fold``."""
    _folds[subscriber_type] = fold


def fold_of(subscriber: Any) -> FusedFold | None:
    """The fold ``subscriber``'s type declared, or None."""
    return _folds.get(type(subscriber))
