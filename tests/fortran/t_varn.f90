! ncp-test: RANKS 1 2 4
! The varn family: several subarrays of one variable in one call, with
! starts(ndims, num) and counts(ndims, num) in Fortran order; typed
! collective, flexible (a Fortran named MPI type), nonblocking iput/bput
! and iget forms, each rank writing its own two rows.
program t_varn
  use mpi
  use futil
  implicit none
  include 'pnetcdf.inc'
  integer, parameter :: nx = 8, num = 3
  integer(kind=MPI_OFFSET_KIND) :: starts(2, num), counts(2, num)
  integer :: err, ncid, rank, nprocs, ierr, dx, dy, vi, vr, vd, i
  integer :: reqs(2), sts(2)
  integer :: ib(8), gib(8)
  real :: rb(8), grb(8)
  double precision :: db(8), gdb(8)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  ! Row 2*rank+1: x = 1..3 and x = 6..8; row 2*rank+2: x = 2..3.
  starts(:, 1) = [1_8, 2_8 * rank + 1]
  counts(:, 1) = [3_8, 1_8]
  starts(:, 2) = [6_8, 2_8 * rank + 1]
  counts(:, 2) = [3_8, 1_8]
  starts(:, 3) = [2_8, 2_8 * rank + 2]
  counts(:, 3) = [2_8, 1_8]
  ib = [(100 * rank + i, i = 1, 8)]
  rb = real(ib) + 0.25
  db = dble(ib) / 4d0

  err = nfmpi_create(MPI_COMM_WORLD, outpath(), NF_CLOBBER, MPI_INFO_NULL, &
                     ncid)
  call check(err, 'create')
  call check(nfmpi_def_dim(ncid, 'x', int(nx, 8), dx), 'x')
  call check(nfmpi_def_dim(ncid, 'y', 2_8 * nprocs, dy), 'y')
  call check(nfmpi_def_var(ncid, 'vi', NF_INT, 2, [dx, dy], vi), 'vi')
  call check(nfmpi_def_var(ncid, 'vr', NF_FLOAT, 2, [dx, dy], vr), 'vr')
  call check(nfmpi_def_var(ncid, 'vd', NF_DOUBLE, 2, [dx, dy], vd), 'vd')
  call check(nfmpi_set_fill(ncid, NF_FILL, i), 'fill')
  call check(nfmpi_enddef(ncid), 'enddef')

  call check(nfmpi_put_varn_int_all(ncid, vi, num, starts, counts, ib), &
             'put_varn_int_all')
  call check(nfmpi_put_varn_all(ncid, vr, num, starts, counts, rb, 8_8, &
                                MPI_REAL), 'put_varn_all')
  ! The first two subarrays by iput, the third by bput.
  call check(nfmpi_buffer_attach(ncid, 64_8), 'attach')
  call check(nfmpi_iput_varn_double(ncid, vd, 2, starts, counts, db, &
                                    reqs(1)), 'iput_varn')
  call check(nfmpi_bput_varn_double(ncid, vd, 1, starts(:, 3), counts(:, 3), &
                                    db(7:8), reqs(2)), 'bput_varn')
  call check(nfmpi_wait_all(ncid, 2, reqs, sts), 'wait_all')
  call check(sts(1), 'iput status')
  call check(sts(2), 'bput status')
  call check(nfmpi_buffer_detach(ncid), 'detach')

  gib = 0
  call check(nfmpi_get_varn_int_all(ncid, vi, num, starts, counts, gib), &
             'get_varn_int_all')
  call truth(all(gib == ib), 'int values')
  grb = 0
  call check(nfmpi_get_varn_all(ncid, vr, num, starts, counts, grb, 8_8, &
                                MPI_REAL), 'get_varn_all')
  call truth(all(grb == rb), 'real values')
  gdb = 0
  call check(nfmpi_iget_varn_double(ncid, vd, num, starts, counts, gdb, &
                                    reqs(1)), 'iget_varn')
  call check(nfmpi_wait_all(ncid, 1, reqs, sts), 'wait_all read')
  call truth(all(gdb == db), 'double values')
  ! The untouched element of each row is still the fill value.
  call check(nfmpi_get_var1_int_all(ncid, vi, [4_8, 2_8 * rank + 1], i), &
             'get hole')
  call truth(i == NF_FILL_INT, 'hole holds the fill value')
  call check(nfmpi_close(ncid), 'close')
  call finish()
end program t_varn
