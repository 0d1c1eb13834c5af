"""What the subscriber and processor verifications share: a supply of helper Publishers.

:class:`HelperFedVerification` is the base of the verifications whose subject is
fed from :class:`~rxpy2.tck.helper_publisher.HelperPublisher` streams (the
whitebox and blackbox subscriber verifications, the identity processor one):
the user's hooks that make the elements and the executor, the helper Publisher
itself, and the lifecycle that cancels every helper stream a rule started.

:class:`HelperFedStage` is the base of the whitebox and blackbox stages: a
:class:`~rxpy2.tck.ManualPublisher` the Subscriber under test is subscribed to,
plus a supply of elements read from a helper Publisher.
"""

from __future__ import annotations

from concurrent.futures import Executor
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.tck.environment import ManualPublisher
from rxpy2.tck.environment import ManualSubscriber
from rxpy2.tck.environment import TestEnvironment
from rxpy2.tck.helper_publisher import HelperPublisher
from rxpy2.tck.helper_publisher import default_publisher_executor
from rxpy2.tck.verification import Verification

__all__ = ["HelperFedStage", "HelperFedVerification"]

T = TypeVar("T")


class HelperFedVerification(Verification, Generic[T]):
    """A verification whose subject is fed elements by helper Publishers (see the module doc)."""

    __test__ = False

    # ---- what a subclass provides ------------------------------------------------------------

    def create_element(self, element: int) -> T:
        """The element of id ``element`` the subject is fed (default: the id itself).

        May be called from several threads at once."""
        return element  # type: ignore[return-value]  # the default element is the int id (override for another T)

    def publisher_executor_service(self) -> Executor:
        """The executor the default helper Publisher signals on."""
        return default_publisher_executor()

    def create_helper_publisher(self, elements: int) -> Publisher[T]:
        """The Publisher of elements fed to the subject under test (``LONG_MAX``: unbounded).

        The default emits ``create_element(0), create_element(1), ...``
        asynchronously; an override must emit exactly ``elements`` items
        (``0``: complete at once) and be unbounded for ``LONG_MAX``.
        """
        pub: HelperPublisher[T] = HelperPublisher(self.create_element, elements,
                                                  self.publisher_executor_service())
        self._helpers().append(pub)
        return pub

    # ---- lifecycle -----------------------------------------------------------------------------

    def _helpers(self) -> list[HelperPublisher[Any]]:
        helpers = self.__dict__.get("_rxpy2_tck_helpers")
        if helpers is None:
            helpers = self.__dict__["_rxpy2_tck_helpers"] = []
        return helpers

    def setup_method(self, method: Any = None) -> None:
        """Before each rule: as :meth:`Verification.setup_method`, and forget the helper publishers of earlier rules."""
        super().setup_method(method)
        self._helpers().clear()

    def teardown_method(self, method: Any = None) -> None:
        """Cancel every helper stream the rule started."""
        helpers = self._helpers()
        while helpers:
            helpers.pop().cancel_all()
        super().teardown_method(method)


class HelperFedStage(ManualPublisher[T], Generic[T]):
    """A ManualPublisher for the Subscriber under test, plus a supply of elements to send it.

    ``start_supply`` (the usual case) subscribes to the unbounded helper Publisher
    at once; otherwise the supply starts with the first :meth:`next_t`.
    """

    def __init__(self, verification: HelperFedVerification[T], env: TestEnvironment,
                 start_supply: bool) -> None:
        super().__init__(env)
        self.verification = verification
        self.pub: Publisher[T] | None = None
        self.tees: ManualSubscriber[T] | None = None  # the supply of T values
        self.last_t: T | None = None
        if start_supply:
            self._start_supply()

    def _start_supply(self) -> ManualSubscriber[T]:
        self.pub = self.create_helper_publisher(LONG_MAX)
        tees = self.tees = self.env.new_manual_subscriber(self.pub)
        return tees

    def sub(self) -> Subscriber[T]:
        """The Subscriber this stage signals to."""
        return self.subscriber.value()  # type: ignore[return-value]  # set before any test step runs

    def create_helper_publisher(self, elements: int) -> Publisher[T]:
        """Return the verification's helper Publisher of ``elements`` items (see :meth:`HelperFedVerification.create_helper_publisher`)."""
        return self.verification.create_helper_publisher(elements)

    def signal_next(self) -> T:
        """Send the next element to the Subscriber under test; returns it."""
        element = self.next_t()
        self.send_next(element)
        return element

    def next_t(self) -> T:
        """The next element of the helper supply."""
        tees = self.tees
        if tees is None:
            tees = self._start_supply()
        self.last_t = tees.request_next_element()
        return self.last_t
