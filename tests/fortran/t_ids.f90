! ncp-test: RANKS 1 2 4
! Numbers the Fortran API takes and gives 1-based, as PnetCDF's binding
! does, and the ones it passes through unchanged: nfmpi_fill_var_rec's
! and nf90mpi_fill_var_rec's record number (recno = 2 fills the second
! record), attribute numbers, and an absent unlimited dimension, which
! nfmpi_inq and nfmpi_inq_unlimdim give as -1 (not shifted).  Statuses
! pass through nfmpi_wait_all unchanged, and the request ids are only read:
! the caller's array keeps them.  The file is in
! NOFILL mode, so only the filled record holds the fill value; each rank
! writes its own two elements of every record.
program t_ids
  use mpi
  use futil
  use pnetcdf, only: nf90mpi_fill_var_rec
  implicit none
  include 'pnetcdf.inc'
  integer(kind=MPI_OFFSET_KIND), parameter :: two = 2
  integer :: ncid, rank, nprocs, ierr, dx, dt, vv, vw, vu, unlim, i, r
  integer :: nd, nv, na, attnum, old, reqs(3), sts(3), held(3)
  integer :: v(2, 4), gv(2, 4)
  double precision :: w(2, 4), gw(2, 4)
  integer(kind=MPI_OFFSET_KIND) :: x0, st(2), ct(2), nrec
  character(len=NF_MAX_NAME) :: aname

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  x0 = 2 * rank + 1
  do r = 1, 4
    do i = 1, 2
      v(i, r) = 100 * r + 10 * rank + i
      w(i, r) = v(i, r) + 0.5d0
    end do
  end do

  call check(nfmpi_create(MPI_COMM_WORLD, outpath(), NF_CLOBBER, &
                          MPI_INFO_NULL, ncid), 'create')
  call check(nfmpi_set_fill(ncid, NF_NOFILL, old), 'set_fill')
  ! No unlimited dimension yet: -1, not 0.
  call check(nfmpi_inq_unlimdim(ncid, unlim), 'inq_unlimdim')
  call truth(unlim == -1, 'no unlimited dimension is -1 (inq_unlimdim)')
  call check(nfmpi_inq(ncid, nd, nv, na, unlim), 'inq')
  call truth(unlim == -1, 'no unlimited dimension is -1 (inq)')
  call check(nfmpi_def_dim(ncid, 'x', int(2 * nprocs, MPI_OFFSET_KIND), dx), &
             'def_dim x')
  call check(nfmpi_def_dim(ncid, 'time', NFMPI_UNLIMITED, dt), 'def_dim t')
  call check(nfmpi_inq_unlimdim(ncid, unlim), 'inq_unlimdim')
  call truth(unlim == dt .and. dt == 2, 'unlimited dimension id')
  call check(nfmpi_def_var(ncid, 'v', NF_INT, 2, [dx, dt], vv), 'def_var v')
  call check(nfmpi_def_var(ncid, 'w', NF_DOUBLE, 2, [dx, dt], vw), 'def_var w')
  call check(nfmpi_def_var(ncid, 'u', NF_INT, 2, [dx, dt], vu), 'def_var u')
  call check(nfmpi_put_att_text(ncid, vv, 'units', 1_8, 'm'), 'units')
  call check(nfmpi_put_att_int(ncid, vv, '_FillValue', NF_INT, 1_8, [-7]), &
             'v _FillValue')
  call check(nfmpi_put_att_double(ncid, vw, '_FillValue', NF_DOUBLE, 1_8, &
                                  [-9.5d0]), 'w _FillValue')
  ! Attribute numbers are 1-based both ways.
  call check(nfmpi_inq_attid(ncid, vv, '_FillValue', attnum), 'inq_attid')
  call truth(attnum == 2, 'inq_attid of the second attribute is 2')
  call check(nfmpi_inq_attname(ncid, vv, 1, aname), 'inq_attname')
  call truth(aname == 'units', 'inq_attname 1 is the first attribute')
  call check(nfmpi_enddef(ncid), 'enddef')

  ! Records 1, 3 and 4 written; record 2 only by fill_var_rec, after
  ! (u's record 2 stays unwritten).
  ct = [2_8, 1_8]
  do r = 1, 4
    if (r == 2) cycle
    st = [x0, int(r, MPI_OFFSET_KIND)]
    call check(nfmpi_iput_vara_int(ncid, vv, st, ct, v(:, r), reqs(1)), 'iv')
    call check(nfmpi_iput_vara_double(ncid, vw, st, ct, w(:, r), reqs(2)), &
               'iw')
    call check(nfmpi_iput_vara_int(ncid, vu, st, ct, v(:, r), reqs(3)), 'iu')
    held = reqs
    call check(nfmpi_wait_all(ncid, 3, reqs, sts), 'wait_all')
    call truth(all(sts == NF_NOERR), 'wait_all statuses')
    call truth(all(reqs == held), 'wait_all leaves the request ids')
  end do
  call check(nfmpi_fill_var_rec(ncid, vv, two), 'fill_var_rec v')
  call check(nf90mpi_fill_var_rec(ncid, vw, two), 'nf90mpi_fill_var_rec w')
  ! u has neither fill mode nor _FillValue.
  call expect(nfmpi_fill_var_rec(ncid, vu, two), NF_ENOTFILL, &
              'fill_var_rec without fill')
  call check(nfmpi_inq_dimlen(ncid, dt, nrec), 'inq_dimlen')
  call truth(nrec == 4, 'four records')

  st = [x0, 1_8]
  ct = [2_8, 4_8]
  gv = 0
  gw = 0
  call check(nfmpi_get_vara_int_all(ncid, vv, st, ct, gv), 'get v')
  call check(nfmpi_get_vara_double_all(ncid, vw, st, ct, gw), 'get w')
  call truth(all(gv(:, 2) == -7), 'record 2 of v is filled')
  call truth(all(gw(:, 2) == -9.5d0), 'record 2 of w is filled')
  call truth(all(gv(:, [1, 3, 4]) == v(:, [1, 3, 4])), 'v records kept')
  call truth(all(gw(:, [1, 3, 4]) == w(:, [1, 3, 4])), 'w records kept')
  call check(nfmpi_close(ncid), 'close')
  call finish()
end program t_ids
