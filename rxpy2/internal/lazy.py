"""Lazily imported names for the fluent API (``Flowable.map`` & co.).

The fluent methods of ``flowable.py``, ``single.py``, ``maybe.py``,
``completable.py`` and ``parallel/parallel_flowable.py`` reach their operator
classes (and a few helpers) through this module: ``_lazy.FlowableMap(self, f)``.
The first access to a name imports the module ``_WHERE`` gives for it and stores
the name in this module's globals, so every later access is a plain module
attribute lookup; ``import rxpy2`` still imports no operator module.

To add a name: one ``_WHERE`` line and the same import in the ``TYPE_CHECKING``
block, which gives mypy the real types (tests/internal/test_lazy.py checks that
the two agree and that every name resolves). Each import there is an explicit
re-export, ``from m import X as X``, which ``mypy --strict`` (no implicit
re-export) needs to let the fluent modules use ``_lazy.X``.
"""

# The TYPE_CHECKING imports exist for mypy alone, so none of them is "used" here:
# ruff: noqa: F401

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rxpy2.internal.fuseable import ScalarCallable as ScalarCallable
    from rxpy2.internal.helpers.error_mode import ErrorMode as ErrorMode
    from rxpy2.internal.helpers.function_names import returned_none as returned_none
    from rxpy2.internal.observers.blocking import BlockingMultiObserver as BlockingMultiObserver
    from rxpy2.internal.observers.callback import (
        CallbackCompletableObserver as CallbackCompletableObserver,
    )
    from rxpy2.internal.observers.callback import CallbackMaybeObserver as CallbackMaybeObserver
    from rxpy2.internal.observers.callback import ConsumerSingleObserver as ConsumerSingleObserver
    from rxpy2.internal.operators.completable.completable_amb import (
        CompletableAmb as CompletableAmb,
    )
    from rxpy2.internal.operators.completable.completable_and_then import (
        CompletableAndThenMaybe as CompletableAndThenMaybe,
    )
    from rxpy2.internal.operators.completable.completable_and_then import (
        CompletableAndThenPublisher as CompletableAndThenPublisher,
    )
    from rxpy2.internal.operators.completable.completable_and_then import (
        CompletableAndThenSingle as CompletableAndThenSingle,
    )
    from rxpy2.internal.operators.completable.completable_cache import (
        CompletableCache as CompletableCache,
    )
    from rxpy2.internal.operators.completable.completable_concat import (
        CompletableConcat as CompletableConcat,
    )
    from rxpy2.internal.operators.completable.completable_create import (
        CompletableCreate as CompletableCreate,
    )
    from rxpy2.internal.operators.completable.completable_create import (
        CompletableUnsafeCreate as CompletableUnsafeCreate,
    )
    from rxpy2.internal.operators.completable.completable_defer import (
        CompletableDefer as CompletableDefer,
    )
    from rxpy2.internal.operators.completable.completable_delay import (
        CompletableDelay as CompletableDelay,
    )
    from rxpy2.internal.operators.completable.completable_delay import (
        CompletableDelayWithPublisher as CompletableDelayWithPublisher,
    )
    from rxpy2.internal.operators.completable.completable_do_event import (
        CompletableDoAfter as CompletableDoAfter,
    )
    from rxpy2.internal.operators.completable.completable_do_event import (
        CompletableDoOnEvent as CompletableDoOnEvent,
    )
    from rxpy2.internal.operators.completable.completable_do_finally import (
        CompletableDoFinally as CompletableDoFinally,
    )
    from rxpy2.internal.operators.completable.completable_empty import (
        CompletableEmpty as CompletableEmpty,
    )
    from rxpy2.internal.operators.completable.completable_error import (
        CompletableError as CompletableError,
    )
    from rxpy2.internal.operators.completable.completable_from_action import (
        CompletableFromAction as CompletableFromAction,
    )
    from rxpy2.internal.operators.completable.completable_from_future import (
        CompletableFromFuture as CompletableFromFuture,
    )
    from rxpy2.internal.operators.completable.completable_from_publisher import (
        CompletableFromPublisher as CompletableFromPublisher,
    )
    from rxpy2.internal.operators.completable.completable_hide import (
        CompletableDetach as CompletableDetach,
    )
    from rxpy2.internal.operators.completable.completable_hide import (
        CompletableHide as CompletableHide,
    )
    from rxpy2.internal.operators.completable.completable_ignore_element import (
        CompletableIgnoreElement as CompletableIgnoreElement,
    )
    from rxpy2.internal.operators.completable.completable_lift import (
        CompletableLift as CompletableLift,
    )
    from rxpy2.internal.operators.completable.completable_merge import (
        CompletableMerge as CompletableMerge,
    )
    from rxpy2.internal.operators.completable.completable_never import (
        CompletableNever as CompletableNever,
    )
    from rxpy2.internal.operators.completable.completable_on_error import (
        CompletableOnErrorComplete as CompletableOnErrorComplete,
    )
    from rxpy2.internal.operators.completable.completable_on_error import (
        CompletableResumeNext as CompletableResumeNext,
    )
    from rxpy2.internal.operators.completable.completable_peek import (
        CompletablePeek as CompletablePeek,
    )
    from rxpy2.internal.operators.completable.completable_retry import (
        CompletableRepeatWhen as CompletableRepeatWhen,
    )
    from rxpy2.internal.operators.completable.completable_retry import (
        CompletableRetryBiPredicate as CompletableRetryBiPredicate,
    )
    from rxpy2.internal.operators.completable.completable_retry import (
        CompletableRetryWhen as CompletableRetryWhen,
    )
    from rxpy2.internal.operators.completable.completable_schedule import (
        CompletableObserveOn as CompletableObserveOn,
    )
    from rxpy2.internal.operators.completable.completable_schedule import (
        CompletableSubscribeOn as CompletableSubscribeOn,
    )
    from rxpy2.internal.operators.completable.completable_schedule import (
        CompletableUnsubscribeOn as CompletableUnsubscribeOn,
    )
    from rxpy2.internal.operators.completable.completable_take_until import (
        CompletableTakeUntil as CompletableTakeUntil,
    )
    from rxpy2.internal.operators.completable.completable_timeout import (
        CompletableTimeout as CompletableTimeout,
    )
    from rxpy2.internal.operators.completable.completable_timer import (
        CompletableTimer as CompletableTimer,
    )
    from rxpy2.internal.operators.completable.completable_to_flowable import (
        CompletableToFlowable as CompletableToFlowable,
    )
    from rxpy2.internal.operators.completable.completable_to_maybe import (
        CompletableToMaybe as CompletableToMaybe,
    )
    from rxpy2.internal.operators.completable.completable_to_single import (
        CompletableToSingle as CompletableToSingle,
    )
    from rxpy2.internal.operators.completable.completable_using import (
        CompletableUsing as CompletableUsing,
    )
    from rxpy2.internal.operators.flowable._time_args import check_duration as check_duration
    from rxpy2.internal.operators.flowable._time_args import (
        scheduler_or_computation as scheduler_or_computation,
    )
    from rxpy2.internal.operators.flowable.flowable_all import (
        FlowableAllSingle as FlowableAllSingle,
    )
    from rxpy2.internal.operators.flowable.flowable_amb import FlowableAmb as FlowableAmb
    from rxpy2.internal.operators.flowable.flowable_any import (
        FlowableAnySingle as FlowableAnySingle,
    )
    from rxpy2.internal.operators.flowable.flowable_asyncio import (
        FlowableAsyncIterable as FlowableAsyncIterable,
    )
    from rxpy2.internal.operators.flowable.flowable_asyncio import (
        FlowableFromAsyncIterable as FlowableFromAsyncIterable,
    )
    from rxpy2.internal.operators.flowable.flowable_blocking import (
        BlockingIterable as BlockingIterable,
    )
    from rxpy2.internal.operators.flowable.flowable_blocking import (
        blocking_latest as blocking_latest,
    )
    from rxpy2.internal.operators.flowable.flowable_blocking import (
        blocking_most_recent as blocking_most_recent,
    )
    from rxpy2.internal.operators.flowable.flowable_blocking import blocking_next as blocking_next
    from rxpy2.internal.operators.flowable.flowable_blocking import (
        blocking_subscribe as blocking_subscribe,
    )
    from rxpy2.internal.operators.flowable.flowable_blocking import blocking_value as blocking_value
    from rxpy2.internal.operators.flowable.flowable_buffer import FlowableBuffer as FlowableBuffer
    from rxpy2.internal.operators.flowable.flowable_buffer_boundary import (
        FlowableBufferBoundary as FlowableBufferBoundary,
    )
    from rxpy2.internal.operators.flowable.flowable_buffer_boundary_supplier import (
        FlowableBufferBoundarySupplier as FlowableBufferBoundarySupplier,
    )
    from rxpy2.internal.operators.flowable.flowable_buffer_exact_boundary import (
        FlowableBufferExactBoundary as FlowableBufferExactBoundary,
    )
    from rxpy2.internal.operators.flowable.flowable_buffer_timed import (
        FlowableBufferTimed as FlowableBufferTimed,
    )
    from rxpy2.internal.operators.flowable.flowable_collect import (
        FlowableCollectSingle as FlowableCollectSingle,
    )
    from rxpy2.internal.operators.flowable.flowable_combine_latest import (
        FlowableCombineLatest as FlowableCombineLatest,
    )
    from rxpy2.internal.operators.flowable.flowable_concat import (
        FlowableConcatArray as FlowableConcatArray,
    )
    from rxpy2.internal.operators.flowable.flowable_concat import (
        FlowableConcatIterable as FlowableConcatIterable,
    )
    from rxpy2.internal.operators.flowable.flowable_concat_map import (
        FlowableConcatMap as FlowableConcatMap,
    )
    from rxpy2.internal.operators.flowable.flowable_concat_map_completable import (
        FlowableConcatMapCompletable as FlowableConcatMapCompletable,
    )
    from rxpy2.internal.operators.flowable.flowable_concat_map_eager import (
        FlowableConcatMapEager as FlowableConcatMapEager,
    )
    from rxpy2.internal.operators.flowable.flowable_concat_map_maybe import (
        FlowableConcatMapMaybe as FlowableConcatMapMaybe,
    )
    from rxpy2.internal.operators.flowable.flowable_concat_map_maybe import (
        FlowableConcatMapSingle as FlowableConcatMapSingle,
    )
    from rxpy2.internal.operators.flowable.flowable_count import (
        FlowableCountSingle as FlowableCountSingle,
    )
    from rxpy2.internal.operators.flowable.flowable_create import FlowableCreate as FlowableCreate
    from rxpy2.internal.operators.flowable.flowable_debounce import (
        FlowableDebounce as FlowableDebounce,
    )
    from rxpy2.internal.operators.flowable.flowable_debounce_timed import (
        FlowableDebounceTimed as FlowableDebounceTimed,
    )
    from rxpy2.internal.operators.flowable.flowable_defer import FlowableDefer as FlowableDefer
    from rxpy2.internal.operators.flowable.flowable_delay import FlowableDelay as FlowableDelay
    from rxpy2.internal.operators.flowable.flowable_delay import (
        FlowableDelaySubscription as FlowableDelaySubscription,
    )
    from rxpy2.internal.operators.flowable.flowable_delay_subscription_other import (
        FlowableDelaySubscriptionOther as FlowableDelaySubscriptionOther,
    )
    from rxpy2.internal.operators.flowable.flowable_delay_subscription_other import (
        item_delay as item_delay,
    )
    from rxpy2.internal.operators.flowable.flowable_dematerialize import (
        FlowableDematerialize as FlowableDematerialize,
    )
    from rxpy2.internal.operators.flowable.flowable_detach import FlowableDetach as FlowableDetach
    from rxpy2.internal.operators.flowable.flowable_distinct import (
        FlowableDistinct as FlowableDistinct,
    )
    from rxpy2.internal.operators.flowable.flowable_distinct_until_changed import (
        FlowableDistinctUntilChanged as FlowableDistinctUntilChanged,
    )
    from rxpy2.internal.operators.flowable.flowable_do_after_next import (
        FlowableDoAfterNext as FlowableDoAfterNext,
    )
    from rxpy2.internal.operators.flowable.flowable_do_finally import (
        FlowableDoFinally as FlowableDoFinally,
    )
    from rxpy2.internal.operators.flowable.flowable_do_on_each import (
        FlowableDoOnEach as FlowableDoOnEach,
    )
    from rxpy2.internal.operators.flowable.flowable_do_on_lifecycle import (
        FlowableDoOnLifecycle as FlowableDoOnLifecycle,
    )
    from rxpy2.internal.operators.flowable.flowable_element_at import (
        FlowableElementAtMaybe as FlowableElementAtMaybe,
    )
    from rxpy2.internal.operators.flowable.flowable_element_at import (
        FlowableElementAtSingle as FlowableElementAtSingle,
    )
    from rxpy2.internal.operators.flowable.flowable_empty import FlowableEmpty as FlowableEmpty
    from rxpy2.internal.operators.flowable.flowable_error import FlowableError as FlowableError
    from rxpy2.internal.operators.flowable.flowable_filter import FlowableFilter as FlowableFilter
    from rxpy2.internal.operators.flowable.flowable_flat_map import (
        FlowableFlatMap as FlowableFlatMap,
    )
    from rxpy2.internal.operators.flowable.flowable_flat_map_completable import (
        FlowableFlatMapCompletable as FlowableFlatMapCompletable,
    )
    from rxpy2.internal.operators.flowable.flowable_flat_map_maybe import (
        FlowableFlatMapMaybe as FlowableFlatMapMaybe,
    )
    from rxpy2.internal.operators.flowable.flowable_flat_map_single import (
        FlowableFlatMapSingle as FlowableFlatMapSingle,
    )
    from rxpy2.internal.operators.flowable.flowable_flatten_iterable import (
        FlowableFlattenIterable as FlowableFlattenIterable,
    )
    from rxpy2.internal.operators.flowable.flowable_from_array import (
        FlowableFromArray as FlowableFromArray,
    )
    from rxpy2.internal.operators.flowable.flowable_from_callable import (
        FlowableFromCallable as FlowableFromCallable,
    )
    from rxpy2.internal.operators.flowable.flowable_from_iterable import (
        FlowableFromIterable as FlowableFromIterable,
    )
    from rxpy2.internal.operators.flowable.flowable_from_publisher import (
        FlowableFromPublisher as FlowableFromPublisher,
    )
    from rxpy2.internal.operators.flowable.flowable_from_publisher import (
        FlowableUnsafeCreate as FlowableUnsafeCreate,
    )
    from rxpy2.internal.operators.flowable.flowable_future import (
        FlowableFromFuture as FlowableFromFuture,
    )
    from rxpy2.internal.operators.flowable.flowable_future import to_future as to_future
    from rxpy2.internal.operators.flowable.flowable_generate import (
        FlowableGenerate as FlowableGenerate,
    )
    from rxpy2.internal.operators.flowable.flowable_group_by import (
        FlowableGroupBy as FlowableGroupBy,
    )
    from rxpy2.internal.operators.flowable.flowable_group_join import (
        FlowableGroupJoin as FlowableGroupJoin,
    )
    from rxpy2.internal.operators.flowable.flowable_hide import FlowableHide as FlowableHide
    from rxpy2.internal.operators.flowable.flowable_ignore_elements import (
        FlowableIgnoreElementsCompletable as FlowableIgnoreElementsCompletable,
    )
    from rxpy2.internal.operators.flowable.flowable_interval import (
        FlowableInterval as FlowableInterval,
    )
    from rxpy2.internal.operators.flowable.flowable_interval import (
        FlowableIntervalRange as FlowableIntervalRange,
    )
    from rxpy2.internal.operators.flowable.flowable_join import FlowableJoin as FlowableJoin
    from rxpy2.internal.operators.flowable.flowable_just import FlowableJust as FlowableJust
    from rxpy2.internal.operators.flowable.flowable_last import (
        FlowableLastMaybe as FlowableLastMaybe,
    )
    from rxpy2.internal.operators.flowable.flowable_last import (
        FlowableLastSingle as FlowableLastSingle,
    )
    from rxpy2.internal.operators.flowable.flowable_lift import FlowableLift as FlowableLift
    from rxpy2.internal.operators.flowable.flowable_limit import FlowableLimit as FlowableLimit
    from rxpy2.internal.operators.flowable.flowable_map import FlowableMap as FlowableMap
    from rxpy2.internal.operators.flowable.flowable_map_filter import (
        collapse_map_filter as collapse_map_filter,
    )
    from rxpy2.internal.operators.flowable.flowable_materialize import (
        FlowableMaterialize as FlowableMaterialize,
    )
    from rxpy2.internal.operators.flowable.flowable_multicast_selector import (
        ConnectableObserveOn as ConnectableObserveOn,
    )
    from rxpy2.internal.operators.flowable.flowable_multicast_selector import (
        FlowableMulticastSelector as FlowableMulticastSelector,
    )
    from rxpy2.internal.operators.flowable.flowable_never import FlowableNever as FlowableNever
    from rxpy2.internal.operators.flowable.flowable_observe_on import (
        FlowableObserveOn as FlowableObserveOn,
    )
    from rxpy2.internal.operators.flowable.flowable_on_backpressure import (
        FlowableOnBackpressureBuffer as FlowableOnBackpressureBuffer,
    )
    from rxpy2.internal.operators.flowable.flowable_on_backpressure import (
        FlowableOnBackpressureBufferStrategy as FlowableOnBackpressureBufferStrategy,
    )
    from rxpy2.internal.operators.flowable.flowable_on_backpressure import (
        FlowableOnBackpressureDrop as FlowableOnBackpressureDrop,
    )
    from rxpy2.internal.operators.flowable.flowable_on_backpressure import (
        FlowableOnBackpressureError as FlowableOnBackpressureError,
    )
    from rxpy2.internal.operators.flowable.flowable_on_backpressure import (
        FlowableOnBackpressureLatest as FlowableOnBackpressureLatest,
    )
    from rxpy2.internal.operators.flowable.flowable_on_error_next import (
        FlowableOnErrorNext as FlowableOnErrorNext,
    )
    from rxpy2.internal.operators.flowable.flowable_on_error_return import (
        FlowableOnErrorReturn as FlowableOnErrorReturn,
    )
    from rxpy2.internal.operators.flowable.flowable_publish import (
        FlowablePublish as FlowablePublish,
    )
    from rxpy2.internal.operators.flowable.flowable_publish_multicast import (
        FlowablePublishMulticast as FlowablePublishMulticast,
    )
    from rxpy2.internal.operators.flowable.flowable_range import FlowableRange as FlowableRange
    from rxpy2.internal.operators.flowable.flowable_rebatch_requests import (
        FlowableRebatchRequests as FlowableRebatchRequests,
    )
    from rxpy2.internal.operators.flowable.flowable_reduce import (
        FlowableReduceMaybe as FlowableReduceMaybe,
    )
    from rxpy2.internal.operators.flowable.flowable_reduce import (
        FlowableReduceSeedSingle as FlowableReduceSeedSingle,
    )
    from rxpy2.internal.operators.flowable.flowable_repeat import FlowableRepeat as FlowableRepeat
    from rxpy2.internal.operators.flowable.flowable_repeat import (
        FlowableRepeatUntil as FlowableRepeatUntil,
    )
    from rxpy2.internal.operators.flowable.flowable_replay import FlowableCache as FlowableCache
    from rxpy2.internal.operators.flowable.flowable_replay import FlowableReplay as FlowableReplay
    from rxpy2.internal.operators.flowable.flowable_retry import FlowableRetry as FlowableRetry
    from rxpy2.internal.operators.flowable.flowable_retry import (
        FlowableRetryBiPredicate as FlowableRetryBiPredicate,
    )
    from rxpy2.internal.operators.flowable.flowable_retry_when import (
        FlowableRepeatWhen as FlowableRepeatWhen,
    )
    from rxpy2.internal.operators.flowable.flowable_retry_when import (
        FlowableRetryWhen as FlowableRetryWhen,
    )
    from rxpy2.internal.operators.flowable.flowable_sample_publisher import (
        FlowableSamplePublisher as FlowableSamplePublisher,
    )
    from rxpy2.internal.operators.flowable.flowable_sample_timed import (
        FlowableSampleTimed as FlowableSampleTimed,
    )
    from rxpy2.internal.operators.flowable.flowable_scalar_x_map import scalar_x_map as scalar_x_map
    from rxpy2.internal.operators.flowable.flowable_scan import FlowableScan as FlowableScan
    from rxpy2.internal.operators.flowable.flowable_scan import FlowableScanSeed as FlowableScanSeed
    from rxpy2.internal.operators.flowable.flowable_sequence_equal import (
        FlowableSequenceEqualSingle as FlowableSequenceEqualSingle,
    )
    from rxpy2.internal.operators.flowable.flowable_serialize import (
        FlowableSerialize as FlowableSerialize,
    )
    from rxpy2.internal.operators.flowable.flowable_single import (
        FlowableSingleMaybe as FlowableSingleMaybe,
    )
    from rxpy2.internal.operators.flowable.flowable_single import (
        FlowableSingleSingle as FlowableSingleSingle,
    )
    from rxpy2.internal.operators.flowable.flowable_skip import FlowableSkip as FlowableSkip
    from rxpy2.internal.operators.flowable.flowable_skip_last import (
        FlowableSkipLast as FlowableSkipLast,
    )
    from rxpy2.internal.operators.flowable.flowable_skip_until import (
        FlowableSkipUntil as FlowableSkipUntil,
    )
    from rxpy2.internal.operators.flowable.flowable_skip_while import (
        FlowableSkipWhile as FlowableSkipWhile,
    )
    from rxpy2.internal.operators.flowable.flowable_subscribe_on import (
        FlowableSubscribeOn as FlowableSubscribeOn,
    )
    from rxpy2.internal.operators.flowable.flowable_switch_if_empty import (
        FlowableSwitchIfEmpty as FlowableSwitchIfEmpty,
    )
    from rxpy2.internal.operators.flowable.flowable_switch_map import (
        FlowableSwitchMap as FlowableSwitchMap,
    )
    from rxpy2.internal.operators.flowable.flowable_switch_map_completable import (
        FlowableSwitchMapCompletable as FlowableSwitchMapCompletable,
    )
    from rxpy2.internal.operators.flowable.flowable_switch_map_maybe import (
        FlowableSwitchMapMaybe as FlowableSwitchMapMaybe,
    )
    from rxpy2.internal.operators.flowable.flowable_switch_map_maybe import (
        FlowableSwitchMapSingle as FlowableSwitchMapSingle,
    )
    from rxpy2.internal.operators.flowable.flowable_sync_chain import (
        fuse_sync_stage as fuse_sync_stage,
    )
    from rxpy2.internal.operators.flowable.flowable_take import FlowableTake as FlowableTake
    from rxpy2.internal.operators.flowable.flowable_take_last import (
        FlowableTakeLast as FlowableTakeLast,
    )
    from rxpy2.internal.operators.flowable.flowable_take_last import (
        FlowableTakeLastOne as FlowableTakeLastOne,
    )
    from rxpy2.internal.operators.flowable.flowable_take_until import (
        FlowableTakeUntil as FlowableTakeUntil,
    )
    from rxpy2.internal.operators.flowable.flowable_take_until import (
        FlowableTakeUntilPredicate as FlowableTakeUntilPredicate,
    )
    from rxpy2.internal.operators.flowable.flowable_take_while import (
        FlowableTakeWhile as FlowableTakeWhile,
    )
    from rxpy2.internal.operators.flowable.flowable_throttle_first_timed import (
        FlowableThrottleFirstTimed as FlowableThrottleFirstTimed,
    )
    from rxpy2.internal.operators.flowable.flowable_throttle_latest import (
        FlowableThrottleLatest as FlowableThrottleLatest,
    )
    from rxpy2.internal.operators.flowable.flowable_time_interval import (
        FlowableTimeInterval as FlowableTimeInterval,
    )
    from rxpy2.internal.operators.flowable.flowable_timeout import (
        FlowableTimeout as FlowableTimeout,
    )
    from rxpy2.internal.operators.flowable.flowable_timeout_timed import (
        FlowableTimeoutTimed as FlowableTimeoutTimed,
    )
    from rxpy2.internal.operators.flowable.flowable_timer import FlowableTimer as FlowableTimer
    from rxpy2.internal.operators.flowable.flowable_to_list import (
        FlowableToListSingle as FlowableToListSingle,
    )
    from rxpy2.internal.operators.flowable.flowable_unsubscribe_on import (
        FlowableUnsubscribeOn as FlowableUnsubscribeOn,
    )
    from rxpy2.internal.operators.flowable.flowable_using import FlowableUsing as FlowableUsing
    from rxpy2.internal.operators.flowable.flowable_window import FlowableWindow as FlowableWindow
    from rxpy2.internal.operators.flowable.flowable_window_boundary import (
        FlowableWindowBoundary as FlowableWindowBoundary,
    )
    from rxpy2.internal.operators.flowable.flowable_window_boundary_selector import (
        FlowableWindowBoundarySelector as FlowableWindowBoundarySelector,
    )
    from rxpy2.internal.operators.flowable.flowable_window_boundary_supplier import (
        FlowableWindowBoundarySupplier as FlowableWindowBoundarySupplier,
    )
    from rxpy2.internal.operators.flowable.flowable_window_timed import (
        FlowableWindowTimed as FlowableWindowTimed,
    )
    from rxpy2.internal.operators.flowable.flowable_with_latest_from import (
        FlowableWithLatestFrom as FlowableWithLatestFrom,
    )
    from rxpy2.internal.operators.flowable.flowable_with_latest_from import (
        FlowableWithLatestFromMany as FlowableWithLatestFromMany,
    )
    from rxpy2.internal.operators.flowable.flowable_zip import FlowableZip as FlowableZip
    from rxpy2.internal.operators.flowable.flowable_zip import (
        FlowableZipIterable as FlowableZipIterable,
    )
    from rxpy2.internal.operators.maybe.maybe_amb import MaybeAmb as MaybeAmb
    from rxpy2.internal.operators.maybe.maybe_cache import MaybeCache as MaybeCache
    from rxpy2.internal.operators.maybe.maybe_concat import MaybeConcat as MaybeConcat
    from rxpy2.internal.operators.maybe.maybe_count import MaybeCount as MaybeCount
    from rxpy2.internal.operators.maybe.maybe_create import MaybeCreate as MaybeCreate
    from rxpy2.internal.operators.maybe.maybe_create import MaybeUnsafeCreate as MaybeUnsafeCreate
    from rxpy2.internal.operators.maybe.maybe_defer import MaybeDefer as MaybeDefer
    from rxpy2.internal.operators.maybe.maybe_delay import MaybeDelay as MaybeDelay
    from rxpy2.internal.operators.maybe.maybe_delay import (
        MaybeDelayOtherPublisher as MaybeDelayOtherPublisher,
    )
    from rxpy2.internal.operators.maybe.maybe_delay import (
        MaybeDelayWithPublisher as MaybeDelayWithPublisher,
    )
    from rxpy2.internal.operators.maybe.maybe_do_event import MaybeDoAfter as MaybeDoAfter
    from rxpy2.internal.operators.maybe.maybe_do_event import MaybeDoOnEvent as MaybeDoOnEvent
    from rxpy2.internal.operators.maybe.maybe_do_finally import MaybeDoFinally as MaybeDoFinally
    from rxpy2.internal.operators.maybe.maybe_empty import MaybeEmpty as MaybeEmpty
    from rxpy2.internal.operators.maybe.maybe_equal_single import (
        MaybeSequenceEqualSingle as MaybeSequenceEqualSingle,
    )
    from rxpy2.internal.operators.maybe.maybe_error import MaybeError as MaybeError
    from rxpy2.internal.operators.maybe.maybe_filter import MaybeFilter as MaybeFilter
    from rxpy2.internal.operators.maybe.maybe_filter import MaybeFilterSingle as MaybeFilterSingle
    from rxpy2.internal.operators.maybe.maybe_flat_map import MaybeFlatMap as MaybeFlatMap
    from rxpy2.internal.operators.maybe.maybe_flat_map import (
        MaybeFlatMapSingle as MaybeFlatMapSingle,
    )
    from rxpy2.internal.operators.maybe.maybe_flat_map_publisher import (
        MaybeFlatMapPublisher as MaybeFlatMapPublisher,
    )
    from rxpy2.internal.operators.maybe.maybe_flat_map_single_element import (
        MaybeFlatMapSingleElement as MaybeFlatMapSingleElement,
    )
    from rxpy2.internal.operators.maybe.maybe_from_callable import (
        MaybeFromCallable as MaybeFromCallable,
    )
    from rxpy2.internal.operators.maybe.maybe_from_future import MaybeFromFuture as MaybeFromFuture
    from rxpy2.internal.operators.maybe.maybe_from_single import MaybeFromSingle as MaybeFromSingle
    from rxpy2.internal.operators.maybe.maybe_hide import MaybeDetach as MaybeDetach
    from rxpy2.internal.operators.maybe.maybe_hide import MaybeHide as MaybeHide
    from rxpy2.internal.operators.maybe.maybe_is_empty import (
        MaybeIsEmptySingle as MaybeIsEmptySingle,
    )
    from rxpy2.internal.operators.maybe.maybe_just import MaybeJust as MaybeJust
    from rxpy2.internal.operators.maybe.maybe_lift import MaybeLift as MaybeLift
    from rxpy2.internal.operators.maybe.maybe_map import MaybeMap as MaybeMap
    from rxpy2.internal.operators.maybe.maybe_merge_array import MaybeMergeArray as MaybeMergeArray
    from rxpy2.internal.operators.maybe.maybe_never import MaybeNever as MaybeNever
    from rxpy2.internal.operators.maybe.maybe_on_error import (
        MaybeOnErrorComplete as MaybeOnErrorComplete,
    )
    from rxpy2.internal.operators.maybe.maybe_on_error import (
        MaybeOnErrorReturn as MaybeOnErrorReturn,
    )
    from rxpy2.internal.operators.maybe.maybe_on_error import (
        MaybeOnExceptionResumeNext as MaybeOnExceptionResumeNext,
    )
    from rxpy2.internal.operators.maybe.maybe_on_error import MaybeResumeNext as MaybeResumeNext
    from rxpy2.internal.operators.maybe.maybe_peek import MaybePeek as MaybePeek
    from rxpy2.internal.operators.maybe.maybe_retry import MaybeRepeatWhen as MaybeRepeatWhen
    from rxpy2.internal.operators.maybe.maybe_retry import (
        MaybeRetryBiPredicate as MaybeRetryBiPredicate,
    )
    from rxpy2.internal.operators.maybe.maybe_retry import MaybeRetryWhen as MaybeRetryWhen
    from rxpy2.internal.operators.maybe.maybe_schedule import MaybeObserveOn as MaybeObserveOn
    from rxpy2.internal.operators.maybe.maybe_schedule import MaybeSubscribeOn as MaybeSubscribeOn
    from rxpy2.internal.operators.maybe.maybe_schedule import (
        MaybeUnsubscribeOn as MaybeUnsubscribeOn,
    )
    from rxpy2.internal.operators.maybe.maybe_switch_if_empty import (
        MaybeSwitchIfEmpty as MaybeSwitchIfEmpty,
    )
    from rxpy2.internal.operators.maybe.maybe_switch_if_empty import (
        MaybeSwitchIfEmptySingle as MaybeSwitchIfEmptySingle,
    )
    from rxpy2.internal.operators.maybe.maybe_take_until import MaybeTakeUntil as MaybeTakeUntil
    from rxpy2.internal.operators.maybe.maybe_timeout import MaybeTimeout as MaybeTimeout
    from rxpy2.internal.operators.maybe.maybe_timeout import (
        MaybeTimeoutPublisher as MaybeTimeoutPublisher,
    )
    from rxpy2.internal.operators.maybe.maybe_timer import MaybeTimer as MaybeTimer
    from rxpy2.internal.operators.maybe.maybe_to_flowable import MaybeToFlowable as MaybeToFlowable
    from rxpy2.internal.operators.maybe.maybe_to_publisher import (
        COMPLETABLE_TO_FLOWABLE as COMPLETABLE_TO_FLOWABLE,
    )
    from rxpy2.internal.operators.maybe.maybe_to_publisher import (
        MAYBE_TO_FLOWABLE as MAYBE_TO_FLOWABLE,
    )
    from rxpy2.internal.operators.maybe.maybe_to_publisher import (
        SINGLE_TO_FLOWABLE as SINGLE_TO_FLOWABLE,
    )
    from rxpy2.internal.operators.maybe.maybe_to_publisher import (
        flowable_of_sources as flowable_of_sources,
    )
    from rxpy2.internal.operators.maybe.maybe_to_publisher import require_sources as require_sources
    from rxpy2.internal.operators.maybe.maybe_to_publisher import same_source as same_source
    from rxpy2.internal.operators.maybe.maybe_to_single import MaybeToSingle as MaybeToSingle
    from rxpy2.internal.operators.maybe.maybe_using import MaybeUsing as MaybeUsing
    from rxpy2.internal.operators.maybe.maybe_zip import MaybeZipArray as MaybeZipArray
    from rxpy2.internal.operators.parallel.parallel_concat_map import (
        ParallelConcatMap as ParallelConcatMap,
    )
    from rxpy2.internal.operators.parallel.parallel_do_on_next_try import (
        ParallelDoOnNextTry as ParallelDoOnNextTry,
    )
    from rxpy2.internal.operators.parallel.parallel_filter import ParallelFilter as ParallelFilter
    from rxpy2.internal.operators.parallel.parallel_filter_try import (
        ParallelFilterTry as ParallelFilterTry,
    )
    from rxpy2.internal.operators.parallel.parallel_flat_map import (
        ParallelFlatMap as ParallelFlatMap,
    )
    from rxpy2.internal.operators.parallel.parallel_from_array import (
        ParallelFromArray as ParallelFromArray,
    )
    from rxpy2.internal.operators.parallel.parallel_from_publisher import (
        ParallelFromPublisher as ParallelFromPublisher,
    )
    from rxpy2.internal.operators.parallel.parallel_join import ParallelJoin as ParallelJoin
    from rxpy2.internal.operators.parallel.parallel_map import ParallelMap as ParallelMap
    from rxpy2.internal.operators.parallel.parallel_map_try import ParallelMapTry as ParallelMapTry
    from rxpy2.internal.operators.parallel.parallel_peek import ParallelPeek as ParallelPeek
    from rxpy2.internal.operators.parallel.parallel_reduce import ParallelReduce as ParallelReduce
    from rxpy2.internal.operators.parallel.parallel_reduce import collecting as collecting
    from rxpy2.internal.operators.parallel.parallel_reduce_full import (
        ParallelReduceFull as ParallelReduceFull,
    )
    from rxpy2.internal.operators.parallel.parallel_run_on import ParallelRunOn as ParallelRunOn
    from rxpy2.internal.operators.parallel.parallel_sorted_join import (
        ParallelSortedJoin as ParallelSortedJoin,
    )
    from rxpy2.internal.operators.parallel.parallel_sorted_join import merger as merger
    from rxpy2.internal.operators.parallel.parallel_sorted_join import sorter as sorter
    from rxpy2.internal.operators.single.single_amb import SingleAmb as SingleAmb
    from rxpy2.internal.operators.single.single_cache import SingleCache as SingleCache
    from rxpy2.internal.operators.single.single_contains import SingleContains as SingleContains
    from rxpy2.internal.operators.single.single_create import SingleCreate as SingleCreate
    from rxpy2.internal.operators.single.single_create import (
        SingleUnsafeCreate as SingleUnsafeCreate,
    )
    from rxpy2.internal.operators.single.single_create import unsafe_source as unsafe_source
    from rxpy2.internal.operators.single.single_create import wrapped_subscribe as wrapped_subscribe
    from rxpy2.internal.operators.single.single_defer import SingleDefer as SingleDefer
    from rxpy2.internal.operators.single.single_delay import SingleDelay as SingleDelay
    from rxpy2.internal.operators.single.single_delay import (
        SingleDelayWithPublisher as SingleDelayWithPublisher,
    )
    from rxpy2.internal.operators.single.single_delay import (
        source_as_publisher as source_as_publisher,
    )
    from rxpy2.internal.operators.single.single_do_event import SingleDoAfter as SingleDoAfter
    from rxpy2.internal.operators.single.single_do_event import SingleDoOnEvent as SingleDoOnEvent
    from rxpy2.internal.operators.single.single_do_finally import SingleDoFinally as SingleDoFinally
    from rxpy2.internal.operators.single.single_error import SingleError as SingleError
    from rxpy2.internal.operators.single.single_flat_map import SingleFlatMap as SingleFlatMap
    from rxpy2.internal.operators.single.single_flat_map import (
        SingleFlatMapMaybe as SingleFlatMapMaybe,
    )
    from rxpy2.internal.operators.single.single_flat_map_completable import (
        SingleFlatMapCompletable as SingleFlatMapCompletable,
    )
    from rxpy2.internal.operators.single.single_flat_map_publisher import (
        SingleFlatMapPublisher as SingleFlatMapPublisher,
    )
    from rxpy2.internal.operators.single.single_flatten_as_flowable import (
        SingleFlattenAsFlowable as SingleFlattenAsFlowable,
    )
    from rxpy2.internal.operators.single.single_from_callable import (
        SingleFromCallable as SingleFromCallable,
    )
    from rxpy2.internal.operators.single.single_from_publisher import (
        SingleFromPublisher as SingleFromPublisher,
    )
    from rxpy2.internal.operators.single.single_future import SingleFromFuture as SingleFromFuture
    from rxpy2.internal.operators.single.single_future import check_future as check_future
    from rxpy2.internal.operators.single.single_future import single_to_future as single_to_future
    from rxpy2.internal.operators.single.single_hide import SingleDetach as SingleDetach
    from rxpy2.internal.operators.single.single_hide import SingleHide as SingleHide
    from rxpy2.internal.operators.single.single_just import SingleJust as SingleJust
    from rxpy2.internal.operators.single.single_lift import SingleLift as SingleLift
    from rxpy2.internal.operators.single.single_map import SingleMap as SingleMap
    from rxpy2.internal.operators.single.single_materialize import (
        SingleDematerialize as SingleDematerialize,
    )
    from rxpy2.internal.operators.single.single_materialize import (
        SingleMaterialize as SingleMaterialize,
    )
    from rxpy2.internal.operators.single.single_never import SingleNever as SingleNever
    from rxpy2.internal.operators.single.single_on_error import (
        SingleOnErrorReturn as SingleOnErrorReturn,
    )
    from rxpy2.internal.operators.single.single_on_error import SingleResumeNext as SingleResumeNext
    from rxpy2.internal.operators.single.single_peek import SinglePeek as SinglePeek
    from rxpy2.internal.operators.single.single_repeat_when import (
        SingleRepeatWhen as SingleRepeatWhen,
    )
    from rxpy2.internal.operators.single.single_retry import (
        SingleRetryBiPredicate as SingleRetryBiPredicate,
    )
    from rxpy2.internal.operators.single.single_retry import check_retry as check_retry
    from rxpy2.internal.operators.single.single_retry import check_times as check_times
    from rxpy2.internal.operators.single.single_retry_when import SingleRetryWhen as SingleRetryWhen
    from rxpy2.internal.operators.single.single_schedule import SingleObserveOn as SingleObserveOn
    from rxpy2.internal.operators.single.single_schedule import (
        SingleSubscribeOn as SingleSubscribeOn,
    )
    from rxpy2.internal.operators.single.single_schedule import (
        SingleUnsubscribeOn as SingleUnsubscribeOn,
    )
    from rxpy2.internal.operators.single.single_take_until import SingleTakeUntil as SingleTakeUntil
    from rxpy2.internal.operators.single.single_take_until import (
        take_until_other as take_until_other,
    )
    from rxpy2.internal.operators.single.single_timeout import SingleTimeout as SingleTimeout
    from rxpy2.internal.operators.single.single_timer import SingleTimer as SingleTimer
    from rxpy2.internal.operators.single.single_to_flowable import (
        SingleToFlowable as SingleToFlowable,
    )
    from rxpy2.internal.operators.single.single_using import SingleUsing as SingleUsing
    from rxpy2.internal.operators.single.single_zip import SingleZipArray as SingleZipArray
    from rxpy2.internal.subscribers.for_each_while import (
        ForEachWhileSubscriber as ForEachWhileSubscriber,
    )
    from rxpy2.internal.subscribers.lambda_subscriber import LambdaSubscriber as LambdaSubscriber
    from rxpy2.internal.subscribers.safe import SafeSubscriber as SafeSubscriber
    from rxpy2.internal.subscribers.strict import StrictSubscriber as StrictSubscriber
    from rxpy2.internal.subscriptions.empty import EmptySubscription as EmptySubscription
    from rxpy2.schedulers import Schedulers as Schedulers
    from rxpy2.schedulers.scheduler import Scheduler as Scheduler
    from rxpy2.schedulers.scheduler import check_time as check_time
    from rxpy2.testing import TestSubscriber as TestSubscriber

_WHERE: dict[str, str] = {
    # name: the module that defines it
    "CompletableFromFuture": "rxpy2.internal.operators.completable.completable_from_future",
    "CompletableFromPublisher": "rxpy2.internal.operators.completable.completable_from_publisher",
    "CompletableIgnoreElement": "rxpy2.internal.operators.completable.completable_ignore_element",
    "MaybeCount": "rxpy2.internal.operators.maybe.maybe_count",
    "MaybeFlatMapSingleElement": "rxpy2.internal.operators.maybe.maybe_flat_map_single_element",
    "MaybeFromFuture": "rxpy2.internal.operators.maybe.maybe_from_future",
    "MaybeFromSingle": "rxpy2.internal.operators.maybe.maybe_from_single",
    "ScalarCallable": "rxpy2.internal.fuseable",
    "ErrorMode": "rxpy2.internal.helpers.error_mode",
    "BlockingMultiObserver": "rxpy2.internal.observers.blocking",
    "CallbackCompletableObserver": "rxpy2.internal.observers.callback",
    "CallbackMaybeObserver": "rxpy2.internal.observers.callback",
    "ConsumerSingleObserver": "rxpy2.internal.observers.callback",
    "CompletableAmb": "rxpy2.internal.operators.completable.completable_amb",
    "CompletableCache": "rxpy2.internal.operators.completable.completable_cache",
    "CompletableAndThenMaybe": "rxpy2.internal.operators.completable.completable_and_then",
    "CompletableAndThenPublisher": "rxpy2.internal.operators.completable.completable_and_then",
    "CompletableAndThenSingle": "rxpy2.internal.operators.completable.completable_and_then",
    "CompletableConcat": "rxpy2.internal.operators.completable.completable_concat",
    "CompletableCreate": "rxpy2.internal.operators.completable.completable_create",
    "CompletableUnsafeCreate": "rxpy2.internal.operators.completable.completable_create",
    "CompletableDefer": "rxpy2.internal.operators.completable.completable_defer",
    "CompletableDoAfter": "rxpy2.internal.operators.completable.completable_do_event",
    "CompletableDoOnEvent": "rxpy2.internal.operators.completable.completable_do_event",
    "CompletableDelay": "rxpy2.internal.operators.completable.completable_delay",
    "CompletableDelayWithPublisher": "rxpy2.internal.operators.completable.completable_delay",
    "CompletableDoFinally": "rxpy2.internal.operators.completable.completable_do_finally",
    "CompletableEmpty": "rxpy2.internal.operators.completable.completable_empty",
    "CompletableError": "rxpy2.internal.operators.completable.completable_error",
    "CompletableFromAction": "rxpy2.internal.operators.completable.completable_from_action",
    "CompletableDetach": "rxpy2.internal.operators.completable.completable_hide",
    "CompletableHide": "rxpy2.internal.operators.completable.completable_hide",
    "CompletableLift": "rxpy2.internal.operators.completable.completable_lift",
    "CompletableMerge": "rxpy2.internal.operators.completable.completable_merge",
    "CompletableNever": "rxpy2.internal.operators.completable.completable_never",
    "CompletableOnErrorComplete": "rxpy2.internal.operators.completable.completable_on_error",
    "CompletableResumeNext": "rxpy2.internal.operators.completable.completable_on_error",
    "CompletablePeek": "rxpy2.internal.operators.completable.completable_peek",
    "CompletableTakeUntil": "rxpy2.internal.operators.completable.completable_take_until",
    "CompletableRepeatWhen": "rxpy2.internal.operators.completable.completable_retry",
    "CompletableRetryBiPredicate": "rxpy2.internal.operators.completable.completable_retry",
    "CompletableRetryWhen": "rxpy2.internal.operators.completable.completable_retry",
    "CompletableObserveOn": "rxpy2.internal.operators.completable.completable_schedule",
    "CompletableSubscribeOn": "rxpy2.internal.operators.completable.completable_schedule",
    "CompletableUnsubscribeOn": "rxpy2.internal.operators.completable.completable_schedule",
    "CompletableTimeout": "rxpy2.internal.operators.completable.completable_timeout",
    "CompletableTimer": "rxpy2.internal.operators.completable.completable_timer",
    "CompletableToFlowable": "rxpy2.internal.operators.completable.completable_to_flowable",
    "CompletableToMaybe": "rxpy2.internal.operators.completable.completable_to_maybe",
    "CompletableToSingle": "rxpy2.internal.operators.completable.completable_to_single",
    "CompletableUsing": "rxpy2.internal.operators.completable.completable_using",
    "SingleContains": "rxpy2.internal.operators.single.single_contains",
    "SingleDematerialize": "rxpy2.internal.operators.single.single_materialize",
    "SingleFlatMapCompletable": "rxpy2.internal.operators.single.single_flat_map_completable",
    "SingleFlattenAsFlowable": "rxpy2.internal.operators.single.single_flatten_as_flowable",
    "SingleFromFuture": "rxpy2.internal.operators.single.single_future",
    "check_future": "rxpy2.internal.operators.single.single_future",
    "SingleFromPublisher": "rxpy2.internal.operators.single.single_from_publisher",
    "SingleMaterialize": "rxpy2.internal.operators.single.single_materialize",
    "check_duration": "rxpy2.internal.operators.flowable._time_args",
    "scheduler_or_computation": "rxpy2.internal.operators.flowable._time_args",
    "FlowableAllSingle": "rxpy2.internal.operators.flowable.flowable_all",
    "FlowableAmb": "rxpy2.internal.operators.flowable.flowable_amb",
    "FlowableAnySingle": "rxpy2.internal.operators.flowable.flowable_any",
    "FlowableAsyncIterable": "rxpy2.internal.operators.flowable.flowable_asyncio",
    "FlowableFromAsyncIterable": "rxpy2.internal.operators.flowable.flowable_asyncio",
    "BlockingIterable": "rxpy2.internal.operators.flowable.flowable_blocking",
    "blocking_latest": "rxpy2.internal.operators.flowable.flowable_blocking",
    "blocking_most_recent": "rxpy2.internal.operators.flowable.flowable_blocking",
    "blocking_next": "rxpy2.internal.operators.flowable.flowable_blocking",
    "blocking_subscribe": "rxpy2.internal.operators.flowable.flowable_blocking",
    "blocking_value": "rxpy2.internal.operators.flowable.flowable_blocking",
    "FlowableBuffer": "rxpy2.internal.operators.flowable.flowable_buffer",
    "FlowableBufferBoundary": "rxpy2.internal.operators.flowable.flowable_buffer_boundary",
    "FlowableBufferBoundarySupplier": "rxpy2.internal.operators.flowable.flowable_buffer_boundary_supplier",
    "FlowableBufferExactBoundary": "rxpy2.internal.operators.flowable.flowable_buffer_exact_boundary",
    "FlowableBufferTimed": "rxpy2.internal.operators.flowable.flowable_buffer_timed",
    "FlowableCollectSingle": "rxpy2.internal.operators.flowable.flowable_collect",
    "FlowableCombineLatest": "rxpy2.internal.operators.flowable.flowable_combine_latest",
    "FlowableConcatArray": "rxpy2.internal.operators.flowable.flowable_concat",
    "FlowableConcatIterable": "rxpy2.internal.operators.flowable.flowable_concat",
    "FlowableConcatMap": "rxpy2.internal.operators.flowable.flowable_concat_map",
    "FlowableConcatMapCompletable": "rxpy2.internal.operators.flowable.flowable_concat_map_completable",
    "FlowableConcatMapEager": "rxpy2.internal.operators.flowable.flowable_concat_map_eager",
    "FlowableConcatMapMaybe": "rxpy2.internal.operators.flowable.flowable_concat_map_maybe",
    "FlowableConcatMapSingle": "rxpy2.internal.operators.flowable.flowable_concat_map_maybe",
    "FlowableCountSingle": "rxpy2.internal.operators.flowable.flowable_count",
    "FlowableCreate": "rxpy2.internal.operators.flowable.flowable_create",
    "FlowableDebounce": "rxpy2.internal.operators.flowable.flowable_debounce",
    "FlowableDebounceTimed": "rxpy2.internal.operators.flowable.flowable_debounce_timed",
    "FlowableDefer": "rxpy2.internal.operators.flowable.flowable_defer",
    "FlowableDelay": "rxpy2.internal.operators.flowable.flowable_delay",
    "FlowableDelaySubscription": "rxpy2.internal.operators.flowable.flowable_delay",
    "FlowableDelaySubscriptionOther": "rxpy2.internal.operators.flowable.flowable_delay_subscription_other",
    "item_delay": "rxpy2.internal.operators.flowable.flowable_delay_subscription_other",
    "FlowableDematerialize": "rxpy2.internal.operators.flowable.flowable_dematerialize",
    "FlowableDetach": "rxpy2.internal.operators.flowable.flowable_detach",
    "FlowableDistinct": "rxpy2.internal.operators.flowable.flowable_distinct",
    "FlowableDistinctUntilChanged": "rxpy2.internal.operators.flowable.flowable_distinct_until_changed",
    "FlowableDoAfterNext": "rxpy2.internal.operators.flowable.flowable_do_after_next",
    "FlowableDoFinally": "rxpy2.internal.operators.flowable.flowable_do_finally",
    "FlowableDoOnEach": "rxpy2.internal.operators.flowable.flowable_do_on_each",
    "FlowableDoOnLifecycle": "rxpy2.internal.operators.flowable.flowable_do_on_lifecycle",
    "FlowableElementAtMaybe": "rxpy2.internal.operators.flowable.flowable_element_at",
    "FlowableElementAtSingle": "rxpy2.internal.operators.flowable.flowable_element_at",
    "FlowableEmpty": "rxpy2.internal.operators.flowable.flowable_empty",
    "FlowableError": "rxpy2.internal.operators.flowable.flowable_error",
    "FlowableFilter": "rxpy2.internal.operators.flowable.flowable_filter",
    "FlowableFlatMap": "rxpy2.internal.operators.flowable.flowable_flat_map",
    "FlowableFlatMapCompletable": "rxpy2.internal.operators.flowable.flowable_flat_map_completable",
    "FlowableFlatMapMaybe": "rxpy2.internal.operators.flowable.flowable_flat_map_maybe",
    "FlowableFlatMapSingle": "rxpy2.internal.operators.flowable.flowable_flat_map_single",
    "FlowableFlattenIterable": "rxpy2.internal.operators.flowable.flowable_flatten_iterable",
    "FlowableFromArray": "rxpy2.internal.operators.flowable.flowable_from_array",
    "FlowableFromCallable": "rxpy2.internal.operators.flowable.flowable_from_callable",
    "FlowableFromIterable": "rxpy2.internal.operators.flowable.flowable_from_iterable",
    "FlowableFromPublisher": "rxpy2.internal.operators.flowable.flowable_from_publisher",
    "FlowableUnsafeCreate": "rxpy2.internal.operators.flowable.flowable_from_publisher",
    "FlowableFromFuture": "rxpy2.internal.operators.flowable.flowable_future",
    "single_to_future": "rxpy2.internal.operators.single.single_future",
    "to_future": "rxpy2.internal.operators.flowable.flowable_future",
    "FlowableGenerate": "rxpy2.internal.operators.flowable.flowable_generate",
    "FlowableGroupBy": "rxpy2.internal.operators.flowable.flowable_group_by",
    "FlowableGroupJoin": "rxpy2.internal.operators.flowable.flowable_group_join",
    "FlowableHide": "rxpy2.internal.operators.flowable.flowable_hide",
    "FlowableIgnoreElementsCompletable": "rxpy2.internal.operators.flowable.flowable_ignore_elements",
    "FlowableInterval": "rxpy2.internal.operators.flowable.flowable_interval",
    "FlowableIntervalRange": "rxpy2.internal.operators.flowable.flowable_interval",
    "FlowableJoin": "rxpy2.internal.operators.flowable.flowable_join",
    "FlowableJust": "rxpy2.internal.operators.flowable.flowable_just",
    "FlowableLastMaybe": "rxpy2.internal.operators.flowable.flowable_last",
    "FlowableLastSingle": "rxpy2.internal.operators.flowable.flowable_last",
    "FlowableLift": "rxpy2.internal.operators.flowable.flowable_lift",
    "FlowableLimit": "rxpy2.internal.operators.flowable.flowable_limit",
    "FlowableMap": "rxpy2.internal.operators.flowable.flowable_map",
    "collapse_map_filter": "rxpy2.internal.operators.flowable.flowable_map_filter",
    "fuse_sync_stage": "rxpy2.internal.operators.flowable.flowable_sync_chain",
    "FlowableMaterialize": "rxpy2.internal.operators.flowable.flowable_materialize",
    "FlowableNever": "rxpy2.internal.operators.flowable.flowable_never",
    "FlowableObserveOn": "rxpy2.internal.operators.flowable.flowable_observe_on",
    "FlowableOnBackpressureBuffer": "rxpy2.internal.operators.flowable.flowable_on_backpressure",
    "FlowableOnBackpressureBufferStrategy": "rxpy2.internal.operators.flowable.flowable_on_backpressure",
    "FlowableOnBackpressureDrop": "rxpy2.internal.operators.flowable.flowable_on_backpressure",
    "FlowableOnBackpressureError": "rxpy2.internal.operators.flowable.flowable_on_backpressure",
    "FlowableOnBackpressureLatest": "rxpy2.internal.operators.flowable.flowable_on_backpressure",
    "FlowableOnErrorNext": "rxpy2.internal.operators.flowable.flowable_on_error_next",
    "FlowableOnErrorReturn": "rxpy2.internal.operators.flowable.flowable_on_error_return",
    "ConnectableObserveOn": "rxpy2.internal.operators.flowable.flowable_multicast_selector",
    "FlowableMulticastSelector": "rxpy2.internal.operators.flowable.flowable_multicast_selector",
    "FlowablePublish": "rxpy2.internal.operators.flowable.flowable_publish",
    "FlowablePublishMulticast": "rxpy2.internal.operators.flowable.flowable_publish_multicast",
    "FlowableRange": "rxpy2.internal.operators.flowable.flowable_range",
    "FlowableRebatchRequests": "rxpy2.internal.operators.flowable.flowable_rebatch_requests",
    "FlowableReduceMaybe": "rxpy2.internal.operators.flowable.flowable_reduce",
    "FlowableReduceSeedSingle": "rxpy2.internal.operators.flowable.flowable_reduce",
    "FlowableRepeat": "rxpy2.internal.operators.flowable.flowable_repeat",
    "FlowableRepeatUntil": "rxpy2.internal.operators.flowable.flowable_repeat",
    "FlowableCache": "rxpy2.internal.operators.flowable.flowable_replay",
    "FlowableReplay": "rxpy2.internal.operators.flowable.flowable_replay",
    "FlowableRetry": "rxpy2.internal.operators.flowable.flowable_retry",
    "FlowableRetryBiPredicate": "rxpy2.internal.operators.flowable.flowable_retry",
    "FlowableRepeatWhen": "rxpy2.internal.operators.flowable.flowable_retry_when",
    "FlowableRetryWhen": "rxpy2.internal.operators.flowable.flowable_retry_when",
    "FlowableSamplePublisher": "rxpy2.internal.operators.flowable.flowable_sample_publisher",
    "FlowableSampleTimed": "rxpy2.internal.operators.flowable.flowable_sample_timed",
    "scalar_x_map": "rxpy2.internal.operators.flowable.flowable_scalar_x_map",
    "FlowableScan": "rxpy2.internal.operators.flowable.flowable_scan",
    "FlowableScanSeed": "rxpy2.internal.operators.flowable.flowable_scan",
    "FlowableSequenceEqualSingle": "rxpy2.internal.operators.flowable.flowable_sequence_equal",
    "FlowableSerialize": "rxpy2.internal.operators.flowable.flowable_serialize",
    "FlowableSingleMaybe": "rxpy2.internal.operators.flowable.flowable_single",
    "FlowableSingleSingle": "rxpy2.internal.operators.flowable.flowable_single",
    "FlowableSkip": "rxpy2.internal.operators.flowable.flowable_skip",
    "FlowableSkipLast": "rxpy2.internal.operators.flowable.flowable_skip_last",
    "FlowableSkipUntil": "rxpy2.internal.operators.flowable.flowable_skip_until",
    "FlowableSkipWhile": "rxpy2.internal.operators.flowable.flowable_skip_while",
    "FlowableSubscribeOn": "rxpy2.internal.operators.flowable.flowable_subscribe_on",
    "FlowableSwitchIfEmpty": "rxpy2.internal.operators.flowable.flowable_switch_if_empty",
    "FlowableSwitchMap": "rxpy2.internal.operators.flowable.flowable_switch_map",
    "FlowableSwitchMapCompletable": "rxpy2.internal.operators.flowable.flowable_switch_map_completable",
    "FlowableSwitchMapMaybe": "rxpy2.internal.operators.flowable.flowable_switch_map_maybe",
    "FlowableSwitchMapSingle": "rxpy2.internal.operators.flowable.flowable_switch_map_maybe",
    "FlowableTake": "rxpy2.internal.operators.flowable.flowable_take",
    "FlowableTakeLast": "rxpy2.internal.operators.flowable.flowable_take_last",
    "FlowableTakeLastOne": "rxpy2.internal.operators.flowable.flowable_take_last",
    "FlowableTakeUntil": "rxpy2.internal.operators.flowable.flowable_take_until",
    "FlowableTakeUntilPredicate": "rxpy2.internal.operators.flowable.flowable_take_until",
    "FlowableTakeWhile": "rxpy2.internal.operators.flowable.flowable_take_while",
    "FlowableThrottleFirstTimed": "rxpy2.internal.operators.flowable.flowable_throttle_first_timed",
    "FlowableThrottleLatest": "rxpy2.internal.operators.flowable.flowable_throttle_latest",
    "FlowableTimeInterval": "rxpy2.internal.operators.flowable.flowable_time_interval",
    "FlowableTimeout": "rxpy2.internal.operators.flowable.flowable_timeout",
    "FlowableTimeoutTimed": "rxpy2.internal.operators.flowable.flowable_timeout_timed",
    "FlowableTimer": "rxpy2.internal.operators.flowable.flowable_timer",
    "FlowableToListSingle": "rxpy2.internal.operators.flowable.flowable_to_list",
    "FlowableUnsubscribeOn": "rxpy2.internal.operators.flowable.flowable_unsubscribe_on",
    "FlowableUsing": "rxpy2.internal.operators.flowable.flowable_using",
    "FlowableWindow": "rxpy2.internal.operators.flowable.flowable_window",
    "FlowableWindowBoundary": "rxpy2.internal.operators.flowable.flowable_window_boundary",
    "FlowableWindowBoundarySelector": "rxpy2.internal.operators.flowable.flowable_window_boundary_selector",
    "FlowableWindowBoundarySupplier": "rxpy2.internal.operators.flowable.flowable_window_boundary_supplier",
    "FlowableWindowTimed": "rxpy2.internal.operators.flowable.flowable_window_timed",
    "FlowableWithLatestFrom": "rxpy2.internal.operators.flowable.flowable_with_latest_from",
    "FlowableWithLatestFromMany": "rxpy2.internal.operators.flowable.flowable_with_latest_from",
    "FlowableZip": "rxpy2.internal.operators.flowable.flowable_zip",
    "FlowableZipIterable": "rxpy2.internal.operators.flowable.flowable_zip",
    "MaybeAmb": "rxpy2.internal.operators.maybe.maybe_amb",
    "MaybeCache": "rxpy2.internal.operators.maybe.maybe_cache",
    "MaybeConcat": "rxpy2.internal.operators.maybe.maybe_concat",
    "MaybeCreate": "rxpy2.internal.operators.maybe.maybe_create",
    "MaybeUnsafeCreate": "rxpy2.internal.operators.maybe.maybe_create",
    "MaybeDefer": "rxpy2.internal.operators.maybe.maybe_defer",
    "MaybeDelay": "rxpy2.internal.operators.maybe.maybe_delay",
    "MaybeDelayOtherPublisher": "rxpy2.internal.operators.maybe.maybe_delay",
    "MaybeDelayWithPublisher": "rxpy2.internal.operators.maybe.maybe_delay",
    "MaybeDoAfter": "rxpy2.internal.operators.maybe.maybe_do_event",
    "MaybeDoOnEvent": "rxpy2.internal.operators.maybe.maybe_do_event",
    "MaybeDoFinally": "rxpy2.internal.operators.maybe.maybe_do_finally",
    "MaybeEmpty": "rxpy2.internal.operators.maybe.maybe_empty",
    "MaybeSequenceEqualSingle": "rxpy2.internal.operators.maybe.maybe_equal_single",
    "MaybeError": "rxpy2.internal.operators.maybe.maybe_error",
    "MaybeFilter": "rxpy2.internal.operators.maybe.maybe_filter",
    "MaybeFilterSingle": "rxpy2.internal.operators.maybe.maybe_filter",
    "MaybeFlatMap": "rxpy2.internal.operators.maybe.maybe_flat_map",
    "MaybeFlatMapSingle": "rxpy2.internal.operators.maybe.maybe_flat_map",
    "MaybeFlatMapPublisher": "rxpy2.internal.operators.maybe.maybe_flat_map_publisher",
    "MaybeFromCallable": "rxpy2.internal.operators.maybe.maybe_from_callable",
    "MaybeDetach": "rxpy2.internal.operators.maybe.maybe_hide",
    "MaybeHide": "rxpy2.internal.operators.maybe.maybe_hide",
    "MaybeIsEmptySingle": "rxpy2.internal.operators.maybe.maybe_is_empty",
    "MaybeJust": "rxpy2.internal.operators.maybe.maybe_just",
    "MaybeLift": "rxpy2.internal.operators.maybe.maybe_lift",
    "MaybeMap": "rxpy2.internal.operators.maybe.maybe_map",
    "MaybeMergeArray": "rxpy2.internal.operators.maybe.maybe_merge_array",
    "MaybeNever": "rxpy2.internal.operators.maybe.maybe_never",
    "MaybeOnErrorComplete": "rxpy2.internal.operators.maybe.maybe_on_error",
    "MaybeOnErrorReturn": "rxpy2.internal.operators.maybe.maybe_on_error",
    "MaybeOnExceptionResumeNext": "rxpy2.internal.operators.maybe.maybe_on_error",
    "MaybeResumeNext": "rxpy2.internal.operators.maybe.maybe_on_error",
    "MaybePeek": "rxpy2.internal.operators.maybe.maybe_peek",
    "MaybeRepeatWhen": "rxpy2.internal.operators.maybe.maybe_retry",
    "MaybeRetryBiPredicate": "rxpy2.internal.operators.maybe.maybe_retry",
    "MaybeRetryWhen": "rxpy2.internal.operators.maybe.maybe_retry",
    "MaybeObserveOn": "rxpy2.internal.operators.maybe.maybe_schedule",
    "MaybeSubscribeOn": "rxpy2.internal.operators.maybe.maybe_schedule",
    "MaybeUnsubscribeOn": "rxpy2.internal.operators.maybe.maybe_schedule",
    "MaybeSwitchIfEmpty": "rxpy2.internal.operators.maybe.maybe_switch_if_empty",
    "MaybeSwitchIfEmptySingle": "rxpy2.internal.operators.maybe.maybe_switch_if_empty",
    "MaybeTimeout": "rxpy2.internal.operators.maybe.maybe_timeout",
    "MaybeTimeoutPublisher": "rxpy2.internal.operators.maybe.maybe_timeout",
    "MaybeTimer": "rxpy2.internal.operators.maybe.maybe_timer",
    "MaybeTakeUntil": "rxpy2.internal.operators.maybe.maybe_take_until",
    "MaybeToFlowable": "rxpy2.internal.operators.maybe.maybe_to_flowable",
    "COMPLETABLE_TO_FLOWABLE": "rxpy2.internal.operators.maybe.maybe_to_publisher",
    "MAYBE_TO_FLOWABLE": "rxpy2.internal.operators.maybe.maybe_to_publisher",
    "SINGLE_TO_FLOWABLE": "rxpy2.internal.operators.maybe.maybe_to_publisher",
    "flowable_of_sources": "rxpy2.internal.operators.maybe.maybe_to_publisher",
    "require_sources": "rxpy2.internal.operators.maybe.maybe_to_publisher",
    "same_source": "rxpy2.internal.operators.maybe.maybe_to_publisher",
    "MaybeToSingle": "rxpy2.internal.operators.maybe.maybe_to_single",
    "MaybeUsing": "rxpy2.internal.operators.maybe.maybe_using",
    "MaybeZipArray": "rxpy2.internal.operators.maybe.maybe_zip",
    "ParallelConcatMap": "rxpy2.internal.operators.parallel.parallel_concat_map",
    "ParallelDoOnNextTry": "rxpy2.internal.operators.parallel.parallel_do_on_next_try",
    "ParallelFilter": "rxpy2.internal.operators.parallel.parallel_filter",
    "ParallelFilterTry": "rxpy2.internal.operators.parallel.parallel_filter_try",
    "ParallelFlatMap": "rxpy2.internal.operators.parallel.parallel_flat_map",
    "ParallelFromArray": "rxpy2.internal.operators.parallel.parallel_from_array",
    "ParallelFromPublisher": "rxpy2.internal.operators.parallel.parallel_from_publisher",
    "ParallelJoin": "rxpy2.internal.operators.parallel.parallel_join",
    "ParallelMap": "rxpy2.internal.operators.parallel.parallel_map",
    "ParallelMapTry": "rxpy2.internal.operators.parallel.parallel_map_try",
    "ParallelPeek": "rxpy2.internal.operators.parallel.parallel_peek",
    "ParallelReduce": "rxpy2.internal.operators.parallel.parallel_reduce",
    "collecting": "rxpy2.internal.operators.parallel.parallel_reduce",
    "ParallelReduceFull": "rxpy2.internal.operators.parallel.parallel_reduce_full",
    "ParallelRunOn": "rxpy2.internal.operators.parallel.parallel_run_on",
    "ParallelSortedJoin": "rxpy2.internal.operators.parallel.parallel_sorted_join",
    "merger": "rxpy2.internal.operators.parallel.parallel_sorted_join",
    "sorter": "rxpy2.internal.operators.parallel.parallel_sorted_join",
    "SingleAmb": "rxpy2.internal.operators.single.single_amb",
    "SingleCache": "rxpy2.internal.operators.single.single_cache",
    "SingleCreate": "rxpy2.internal.operators.single.single_create",
    "SingleUnsafeCreate": "rxpy2.internal.operators.single.single_create",
    "unsafe_source": "rxpy2.internal.operators.single.single_create",
    "wrapped_subscribe": "rxpy2.internal.operators.single.single_create",
    "SingleDefer": "rxpy2.internal.operators.single.single_defer",
    "SingleDoFinally": "rxpy2.internal.operators.single.single_do_finally",
    "SingleDelay": "rxpy2.internal.operators.single.single_delay",
    "SingleDelayWithPublisher": "rxpy2.internal.operators.single.single_delay",
    "source_as_publisher": "rxpy2.internal.operators.single.single_delay",
    "SingleDoAfter": "rxpy2.internal.operators.single.single_do_event",
    "SingleDoOnEvent": "rxpy2.internal.operators.single.single_do_event",
    "SingleError": "rxpy2.internal.operators.single.single_error",
    "SingleFlatMap": "rxpy2.internal.operators.single.single_flat_map",
    "SingleFlatMapMaybe": "rxpy2.internal.operators.single.single_flat_map",
    "SingleFlatMapPublisher": "rxpy2.internal.operators.single.single_flat_map_publisher",
    "SingleFromCallable": "rxpy2.internal.operators.single.single_from_callable",
    "SingleDetach": "rxpy2.internal.operators.single.single_hide",
    "SingleHide": "rxpy2.internal.operators.single.single_hide",
    "SingleJust": "rxpy2.internal.operators.single.single_just",
    "SingleLift": "rxpy2.internal.operators.single.single_lift",
    "SingleMap": "rxpy2.internal.operators.single.single_map",
    "SingleNever": "rxpy2.internal.operators.single.single_never",
    "SingleOnErrorReturn": "rxpy2.internal.operators.single.single_on_error",
    "SingleResumeNext": "rxpy2.internal.operators.single.single_on_error",
    "SinglePeek": "rxpy2.internal.operators.single.single_peek",
    "SingleRepeatWhen": "rxpy2.internal.operators.single.single_repeat_when",
    "SingleRetryBiPredicate": "rxpy2.internal.operators.single.single_retry",
    "check_retry": "rxpy2.internal.operators.single.single_retry",
    "check_times": "rxpy2.internal.operators.single.single_retry",
    "SingleRetryWhen": "rxpy2.internal.operators.single.single_retry_when",
    "SingleObserveOn": "rxpy2.internal.operators.single.single_schedule",
    "SingleSubscribeOn": "rxpy2.internal.operators.single.single_schedule",
    "SingleUnsubscribeOn": "rxpy2.internal.operators.single.single_schedule",
    "SingleTakeUntil": "rxpy2.internal.operators.single.single_take_until",
    "take_until_other": "rxpy2.internal.operators.single.single_take_until",
    "SingleTimeout": "rxpy2.internal.operators.single.single_timeout",
    "SingleTimer": "rxpy2.internal.operators.single.single_timer",
    "SingleToFlowable": "rxpy2.internal.operators.single.single_to_flowable",
    "SingleUsing": "rxpy2.internal.operators.single.single_using",
    "SingleZipArray": "rxpy2.internal.operators.single.single_zip",
    "ForEachWhileSubscriber": "rxpy2.internal.subscribers.for_each_while",
    "LambdaSubscriber": "rxpy2.internal.subscribers.lambda_subscriber",
    "SafeSubscriber": "rxpy2.internal.subscribers.safe",
    "StrictSubscriber": "rxpy2.internal.subscribers.strict",
    "EmptySubscription": "rxpy2.internal.subscriptions.empty",
    "Schedulers": "rxpy2.schedulers",
    "Scheduler": "rxpy2.schedulers.scheduler",
    "check_time": "rxpy2.schedulers.scheduler",
    "returned_none": "rxpy2.internal.helpers.function_names",
    "TestSubscriber": "rxpy2.testing",
}


if not TYPE_CHECKING:  # mypy sees the imports above; an unknown name stays an error for it

    def __getattr__(name: str) -> Any:
        try:
            module = _WHERE[name]
        except KeyError:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
        value = getattr(importlib.import_module(module), name)
        globals()[name] = value  # later lookups find it without calling __getattr__
        return value
