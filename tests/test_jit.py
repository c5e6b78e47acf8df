"""riverboat's kernels load numba without SciPy's linear algebra and cffi
(riverboat._jit): a kernel read from numba's cache leaves scipy.linalg and cffi
unimported (numba imports the bare scipy package itself, for its version), both still
import afterwards, and a kernel using BLAS (np.dot) still compiles and runs."""

import os
import subprocess
import sys
from pathlib import Path

_CODE = """
import sys
import numpy as np
from riverboat.hands import _kernels
from riverboat._jit import nb
table = np.arange(3, dtype=np.int16)
out = np.empty(1, dtype=np.int32)
assert _kernels.lookup3(np.array([[0, 1, 2]], dtype=np.uint8), table, out) == -1
print(sorted(name for name in sys.modules if name.startswith(("scipy.linalg", "cffi"))))
import scipy.linalg.cython_blas
import cffi
cffi.FFI()
dot = nb.njit(lambda a, b: np.dot(a, b))
print(dot(np.ones(3), np.arange(3.0)))
"""


def test_a_kernel_loads_no_scipy_linalg_nor_cffi_and_both_still_work(tmp_path: Path) -> None:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", _CODE], env=env, capture_output=True, text=True, check=True
    )
    assert done.stdout.split("\n")[:2] == ["[]", "3.0"]
