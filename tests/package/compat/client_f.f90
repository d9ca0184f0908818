! client_f.f90 -- a Fortran 77-style PnetCDF program (pnetcdf.inc, the
! nfmpi_* API) linked with -lpnetcdf: each rank writes its row of a 2-D
! integer variable, reads it back, and rank 0 prints the library version.
program client_f
  implicit none
  include 'mpif.h'
  include 'pnetcdf.inc'
  integer :: ncid, dimids(2), varid, err, rank, nprocs, i
  integer :: row(4), back(4)
  integer(kind=MPI_OFFSET_KIND) :: start(2), cnt(2), nx, ny
  call MPI_Init(err)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, err)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, err)
  nx = 4
  ny = nprocs
  err = nfmpi_create(MPI_COMM_WORLD, 'client_f.nc', NF_CLOBBER, &
                     MPI_INFO_NULL, ncid)
  call check(err, 'create')
  err = nfmpi_def_dim(ncid, 'x', nx, dimids(1))
  call check(err, 'def_dim x')
  err = nfmpi_def_dim(ncid, 'y', ny, dimids(2))
  call check(err, 'def_dim y')
  err = nfmpi_def_var(ncid, 'v', NF_INT, 2, dimids, varid)
  call check(err, 'def_var')
  err = nfmpi_enddef(ncid)
  call check(err, 'enddef')
  do i = 1, 4
    row(i) = rank * 100 + i
  end do
  start = (/ 1_MPI_OFFSET_KIND, int(rank + 1, MPI_OFFSET_KIND) /)
  cnt = (/ 4_MPI_OFFSET_KIND, 1_MPI_OFFSET_KIND /)
  err = nfmpi_put_vara_int_all(ncid, varid, start, cnt, row)
  call check(err, 'put')
  err = nfmpi_get_vara_int_all(ncid, varid, start, cnt, back)
  call check(err, 'get')
  err = nfmpi_close(ncid)
  call check(err, 'close')
  if (any(back /= row)) stop 1
  if (rank == 0) print '(a)', 'client_f: ok, library ' // trim(nfmpi_inq_libvers())
  call MPI_Finalize(err)
contains
  subroutine check(status, what)
    integer, intent(in) :: status
    character(len=*), intent(in) :: what
    if (status /= NF_NOERR) then
      print '(a)', 'client_f: ' // what // ': ' // trim(nfmpi_strerror(status))
      stop 1
    end if
  end subroutine check
end program client_f
