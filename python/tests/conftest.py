"""Shared inputs for the package's tests: small random inputs and the
brute-force oracles, written here in NumPy apart from the C++ (an
independent check of each family through its Python interface)."""

import numpy as np
import pytest

import adjacent


def runnable(family):
    """The names of the family's variants that can run here."""
    return [row["name"] for row in adjacent.variants()
            if row["family"] == family and row["runs_here"]]


@pytest.fixture
def rng():
    return np.random.default_rng(20261126)
