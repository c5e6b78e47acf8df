"""numba, as riverboat's compiled kernels import it: without SciPy's linear algebra.

The first kernel a process compiles or reads from numba's cache loads every
implementation numba has, and one of them, ``numba.np.arraymath``, imports SciPy's
BLAS (all of ``scipy.linalg``: 0.25 s of CPU on the 2-core build machine) only to
decide whether ``np.correlate`` and ``np.convolve`` of floats may call it. No kernel
of riverboat calls them, and numba's linear algebra (``np.dot``, ``np.linalg``)
imports SciPy itself when a kernel uses it. So ``arraymath`` is loaded here with
SciPy's BLAS hidden from it for that moment: those two then take numba's own loop.
A process that has SciPy's BLAS loaded already keeps it. (numba itself imports the
bare ``scipy`` package, for its version: a few hundredths of a second.)

>>> import sys
>>> "numba.np.arraymath" in sys.modules
True
"""

from __future__ import annotations

import sys

import numba as nb

__all__ = ["nb"]

_BLAS = "scipy.linalg.cython_blas"


def _load_without_blas() -> None:
    if "numba.np.arraymath" in sys.modules or _BLAS in sys.modules:
        return
    sys.modules[_BLAS] = None  # type: ignore[assignment]  # an import of it fails at once
    try:
        import numba.np.arraymath  # noqa: F401
    finally:
        if sys.modules.get(_BLAS, False) is None:
            del sys.modules[_BLAS]


_load_without_blas()
