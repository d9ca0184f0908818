! A user's program: writes one record of a 2-D variable through module
! pnetcdf and reads it back (the example in docs/FORTRAN.md).
program consumer
  use mpi
  use pnetcdf
  implicit none
  integer :: ncid, dimids(2), varid, rank, ierr, v(4), back(4)
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  ierr = nf90mpi_create(MPI_COMM_WORLD, 'consumer.nc', NF90_CLOBBER, &
                        MPI_INFO_NULL, ncid)
  ierr = nf90mpi_def_dim(ncid, 'x', 4_MPI_OFFSET_KIND, dimids(1))
  ierr = nf90mpi_def_dim(ncid, 'time', NF90MPI_UNLIMITED, dimids(2))
  ierr = nf90mpi_def_var(ncid, 'v', NF90_INT, dimids, varid)
  ierr = nf90mpi_enddef(ncid)
  v = [1, 2, 3, 4] + 10 * rank
  ierr = nf90mpi_put_var_all(ncid, varid, v, start=[1_8, rank + 1_8])
  ierr = nf90mpi_get_var_all(ncid, varid, back, start=[1_8, rank + 1_8])
  if (ierr /= NF90_NOERR) print *, trim(nf90mpi_strerror(ierr))
  if (any(back /= v)) stop 1
  ierr = nf90mpi_close(ncid)
  print '(a)', 'consumer: ' // trim(nfmpi_inq_libvers())
  call MPI_Finalize(ierr)
end program consumer
