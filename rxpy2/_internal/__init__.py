"""rxpy2's internals: private like RxJava's ``io.reactivex.internal``, but documented and
meant to be read and reused by operator authors."""
