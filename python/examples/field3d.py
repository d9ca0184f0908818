"""Write a 3-D field from every rank, read it back, open it in xarray.

    mpirun -np 4 python3 field3d.py field.nc

Each rank owns 8 z-levels of a (time, z, y, x) temperature field.
"""
import sys

import numpy as np
from mpi4py import MPI

import ncpario

comm = MPI.COMM_WORLD
rank, size = comm.rank, comm.size
path = sys.argv[1] if len(sys.argv) > 1 else "field.nc"
NZ, NY, NX, STEPS = 8 * size, 32, 64, 3
z0 = 8 * rank                                   # this rank's first level

# Create: define mode first, then data mode after enddef.
with ncpario.File(path, "w", format="64BIT_DATA", comm=comm,
                  info={"nc_header_align_size": "4096"}) as f:
    f.def_dim("time", None)                     # the record dimension
    f.def_dim("z", NZ)
    f.def_dim("y", NY)
    f.def_dim("x", NX)
    time = f.def_var("time", ncpario.NC_DOUBLE, ("time",))
    temp = f.def_var("temp", ncpario.NC_FLOAT, ("time", "z", "y", "x"))
    time.units = "seconds"
    temp.units = "K"
    temp.long_name = "temperature"
    f.title = "ncpario example"
    f.enddef()
    for step in range(STEPS):
        slab = np.full((8, NY, NX), 280.0 + step + rank, dtype=np.float32)
        temp[step, z0:z0 + 8, :, :] = slab      # one collective write
        time[step] = step * 3600.0              # same value on every rank
    written = f.profile()["bytes_written"]

# Read back, every rank its own slab of every step.
with ncpario.File(path, "r", comm=comm) as f:
    temp = f.variables["temp"]
    mine = temp[:, z0:z0 + 8]                   # numpy float32 array
    assert mine.shape == (STEPS, 8, NY, NX) and mine.dtype == np.float32
    assert np.all(mine[1] == 281.0 + rank)
    print("rank %d: wrote %d bytes, read back mean %.1f"
          % (rank, written, mine.mean()))

# Any netCDF reader sees an ordinary file.
comm.Barrier()
if rank == 0:
    import xarray as xr
    with xr.open_dataset(path, engine="netcdf4") as ds:
        print(ds)
        print(ds.temp.mean(dim=("y", "x")).values)
