! f90_dropin.f90 -- a Fortran 90 program on PnetCDF's module (use pnetcdf),
! built against Debian's pnetcdf.mod and libpnetcdf.so.0d; the drop-in
! test runs the one binary on PnetCDF and on ncpario and compares the
! files and what rank 0 prints.  It calls the file-level functions and
! every scalar data form (blocking, nonblocking, buffered, varn), whose
! module procedures PnetCDF names differently from ncpario's own module.
program f90_dropin
  use mpi
  use pnetcdf
  implicit none
  integer :: nc, dx, dy, dt, va, vs, vc, vr, rank, np, err
  integer :: req(3), st(3), a(4), ival, nd, nv, na, ul, xt, n, ids(2)
  integer(kind=MPI_OFFSET_KIND) :: len, one = 1, startn(2, 1)
  real(8) :: dval, dback
  character(len=16) :: name
  character(len=1) :: c1
  character(len=*), parameter :: path = 'f90_dropin.nc'

  call MPI_Init(err)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, err)
  call MPI_Comm_size(MPI_COMM_WORLD, np, err)
  call chk(nf90mpi_create(MPI_COMM_WORLD, path, NF90_CLOBBER, &
                          MPI_INFO_NULL, nc))
  call chk(nf90mpi_def_dim(nc, 'x', 4_MPI_OFFSET_KIND, dx))
  call chk(nf90mpi_def_dim(nc, 'y', int(np, MPI_OFFSET_KIND), dy))
  call chk(nf90mpi_def_dim(nc, 't', NF90MPI_UNLIMITED, dt))
  call chk(nf90mpi_def_var(nc, 'a', NF90_INT, (/dx, dy/), va))
  call chk(nf90mpi_def_var(nc, 's', NF90_DOUBLE, vs))
  call chk(nf90mpi_def_var(nc, 'c', NF90_CHAR, dy, vc))
  call chk(nf90mpi_def_var(nc, 'r', NF90_INT, (/dy, dt/), vr))
  call chk(nf90mpi_put_att(nc, NF90_GLOBAL, 'title', 'drop-in'))
  call chk(nf90mpi_enddef(nc))

  a = (/1, 2, 3, 4/) + 10 * rank
  call chk(nf90mpi_put_var_all(nc, va, a, start=(/one, rank + one/)))
  dval = 2.5d0                                     ! scalar, collective
  call chk(nf90mpi_put_var_all(nc, vs, dval))
  c1 = achar(iachar('a') + rank)                   ! scalar text
  call chk(nf90mpi_put_var_all(nc, vc, c1, start=(/rank + one/)))
  ival = 100 + rank                                ! scalar iput, record 1
  call chk(nf90mpi_iput_var(nc, vr, ival, req(1), start=(/rank + one, one/)))
  call chk(nf90mpi_wait_all(nc, 1, req, st))
  call chk(st(1))
  call chk(nf90mpi_buffer_attach(nc, 64_MPI_OFFSET_KIND))
  ival = 200 + rank                                ! scalar bput, record 2
  call chk(nf90mpi_bput_var(nc, vr, ival, req(1), start=(/rank + one, 2 * one/)))
  call chk(nf90mpi_wait_all(nc, 1, req, st))
  call chk(nf90mpi_buffer_detach(nc))
  startn(:, 1) = (/rank + one, 3 * one/)           ! scalar varn, record 3
  ival = 300 + rank
  call chk(nf90mpi_put_varn_all(nc, vr, ival, startn))
  call chk(nf90mpi_begin_indep_data(nc))
  ival = 400 + rank                                ! scalar, independent
  call chk(nf90mpi_put_var(nc, vr, ival, start=(/rank + one, 4 * one/)))
  call chk(nf90mpi_end_indep_data(nc))
  call chk(nf90mpi_sync(nc))
  call chk(nf90mpi_close(nc))

  call chk(nf90mpi_open(MPI_COMM_WORLD, path, NF90_NOWRITE, MPI_INFO_NULL, nc))
  call chk(nf90mpi_inquire(nc, nd, nv, na, ul))
  call chk(nf90mpi_inq_varid(nc, 'r', vr))
  call chk(nf90mpi_inquire_variable(nc, vr, name, xt, n, ids))
  call chk(nf90mpi_inquire_dimension(nc, ids(2), len=len))
  n = int(len)
  call chk(nf90mpi_inquire_attribute(nc, NF90_GLOBAL, 'title', len=len))
  call chk(nf90mpi_get_var_all(nc, vs, dback))     ! scalar gets
  call chk(nf90mpi_iget_var(nc, vr, ival, req(1), start=(/rank + one, 2 * one/)))
  call chk(nf90mpi_wait_all(nc, 1, req, st))
  if (dback /= dval .or. ival /= 200 + rank) call MPI_Abort(MPI_COMM_WORLD, 2, err)
  if (rank == 0) then
    print '(a,4i3,1x,a,i3,i3,i3,i3)', 'inquire:', nd, nv, na, ul, &
          trim(name), xt, n, ids(2), int(len)
    print '(a)', 'strerror: ' // trim(nf90mpi_strerror(NF90_EINVALCOORDS))
    print '(a)', 'strerrno: ' // trim(nf90mpi_strerrno(NF90_EINVALCOORDS))
    print '(a)', 'f77 strerrno: ' // trim(nfmpi_strerrno(NF_EINVALCOORDS))
    print '(a,l2)', 'issyserr:', nf90mpi_issyserr(NF90_EINVALCOORDS)
    print '(a)', 'libvers: ' // trim(nf90mpi_inq_libvers())
  end if
  call chk(nf90mpi_close(nc))
  call MPI_Finalize(err)
contains
  subroutine chk(e)
    integer, intent(in) :: e
    if (e /= NF90_NOERR) then
      print '(a)', trim(nf90mpi_strerror(e))
      call MPI_Abort(MPI_COMM_WORLD, 1, err)
    end if
  end subroutine chk
end program f90_dropin
