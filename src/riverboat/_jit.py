"""numba, as riverboat's compiled kernels import it: without SciPy's linear algebra
and without cffi.

The first kernel a process compiles or reads from numba's cache loads every
implementation numba has, and two of them import a library no kernel of riverboat
uses: ``numba.np.arraymath`` imports SciPy's BLAS (all of ``scipy.linalg``) only to
decide whether ``np.correlate`` and ``np.convolve`` of floats may call it, and
``numba.core.typing.cffi_utils`` imports cffi and pycparser to type functions made
with it: 0.30 and 0.035 CPU seconds on the idle 2-core build machine
(``time.process_time()`` around ``import scipy.linalg.cython_blas`` and ``import
numba.core.typing.cffi_utils``, numpy and numba imported before). So both are
loaded here with those libraries hidden from them for that moment: the two numpy
functions then take numba's own loop, and cffi's functions are not typed, as where
neither is installed. numba's linear algebra (``np.dot``, ``np.linalg``) imports
SciPy itself when a kernel uses it, and either library imports as usual afterwards.
A process that has one of them loaded already keeps it. (numba itself imports the
bare ``scipy`` package, for its version: a few hundredths of a second.)

>>> import sys
>>> "numba.np.arraymath" in sys.modules and "numba.core.typing.cffi_utils" in sys.modules
True
"""

from __future__ import annotations

import sys
from importlib import import_module

import numba as nb

__all__ = ["nb"]

#: numba's modules, each with the library hidden while it loads
_WITHOUT = {
    "numba.np.arraymath": "scipy.linalg.cython_blas",
    "numba.core.typing.cffi_utils": "cffi",
}


def _load_without(module: str, hidden: str) -> None:
    """Import ``module`` with ``hidden`` unimportable, unless either is loaded already."""
    if module in sys.modules or hidden in sys.modules:
        return
    sys.modules[hidden] = None  # type: ignore[assignment]  # an import of it fails at once
    try:
        import_module(module)
    finally:
        if sys.modules.get(hidden, False) is None:
            del sys.modules[hidden]


for _module, _hidden in _WITHOUT.items():
    _load_without(_module, _hidden)
