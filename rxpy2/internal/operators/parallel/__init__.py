"""ParallelFlowable operators: ``parallel_x.py`` holds ``ParallelX`` and its rail subscriber(s).

``per_rail.py``: the base of the operators that work rail by rail.
"""
