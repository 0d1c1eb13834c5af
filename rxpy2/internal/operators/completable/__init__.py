"""Completable operators."""
