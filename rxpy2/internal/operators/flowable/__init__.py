"""Flowable operators: ``flowable_x.py`` holds ``FlowableX`` and its subscriber(s)."""
