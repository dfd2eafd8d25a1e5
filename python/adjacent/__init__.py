"""adjacent: the suite's variants on NumPy arrays.

Every family's variants are rows of a table (``variants()``); each call
names the row it runs (``variant=``). C++ errors arrive as
``adjacent.Error`` (a ValueError) with the C++ message, a variant that
cannot run here (a CUDA row without a GPU) as ``adjacent.Unavailable``,
work over the memory budget (``set_memory_budget``) as
``adjacent.ResourceError`` (an Error and a MemoryError). Integer arguments
are checked, never cast: a value that is not an integer or does not fit
(a negative index, 2**32 for a uint32) is an Error naming the element.
``adjacent.check`` holds your own code's output to the same oracles.
Variants run with the GIL released; the objects that keep state (hash_set
sets, sph states, fracture simulations) take a lock per object, so
threads may share them. Long calls stop on Ctrl-C (KeyboardInterrupt),
leaving their object usable.
"""

from . import _adjacent, check
from ._adjacent import (
    Error,
    ResourceError,
    Unavailable,
    families,
    memory_budget,
    set_memory_budget,
    variants,
    verify_cloud,
    verify_mesh,
)

# Every family's submodule (adjacent.hash_grid, ...), from the registry the
# build generates: a new family appears here once its bindings exist.
globals().update({name: getattr(_adjacent, name) for name in families()})

__all__ = [
    "Error",
    "ResourceError",
    "Unavailable",
    "check",
    "families",
    "memory_budget",
    "set_memory_budget",
    "variants",
    "verify",
    "verify_cloud",
    "verify_mesh",
    *families(),
]


def verify(points=None, radius=None, *, triangles=None, spacing=None):
    """Every variant that takes this input, against its family's oracle.

    ``verify(points, radius)``: the hash_grid variants on a cloud.
    ``verify(points, triangles=t)``: the mesh families on the mesh whose
    vertices are ``points``. Returns {'rows': [...], 'oracle_seconds', ...}
    with each row's outcome 'agrees', 'differs' or 'skipped'.
    """
    if points is None:
        raise ValueError("verify: points are required")
    if triangles is not None:
        if radius is not None:
            raise ValueError("verify: a radius (cloud) or triangles (mesh), "
                             "not both")
        return verify_mesh(points, triangles)
    if radius is None:
        raise ValueError("verify: a radius (cloud) or triangles (mesh)")
    return verify_cloud(points, radius, spacing)
