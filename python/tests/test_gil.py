"""The GIL is released while the library works: another thread keeps
running Python while one waits inside a collective write."""
import os
import threading
import time

import numpy as np
import pytest

import ncpario
from conftest import COMM


def test_gil_released_during_io(shared_dir):
    if COMM.size < 2:
        pytest.skip("needs a second rank to keep the call waiting")
    path = os.path.join(shared_dir, "gil.nc")
    with ncpario.File(path, "w") as f:
        f.def_dim("x", COMM.size)
        v = f.def_var("v", "f8", ("x",))
        f.enddef()
        data = np.ones(1)
        if COMM.rank != 0:
            time.sleep(0.5)             # rank 0 waits in the call
            v.put_var_all(data, start=(COMM.rank,), count=(1,))
            return
        t = threading.Thread(target=v.put_var_all, args=(data,),
                             kwargs={"start": (0,), "count": (1,)})
        spins = 0
        t.start()
        time.sleep(0.05)                # let it enter the library
        t0 = time.perf_counter()
        while t.is_alive():
            spins += 1
        waited = time.perf_counter() - t0
        t.join()
    # Had the call kept the GIL, this thread would not have run at all
    # while it waited.
    assert waited > 0.2 and spins > 1000, (waited, spins)
