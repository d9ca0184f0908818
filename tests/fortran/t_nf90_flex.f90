! ncp-test: RANKS 1 2 4
! Module pnetcdf's generics beyond plain put/get_var: nf90mpi_put_varn and
! its kin (numeric, text, a scalar), nf90mpi_put_vard/get_vard,
! nf90mpi_def_var_fill/inq_var_fill, text through nf90mpi_put_var and
! nf90mpi_get_var, the optional bufcount/buftype of the var generics
! (a halo buffer type built on MPI_REAL), and the library-wide inquiries.
! Each rank writes row rank+1 of every two-dimensional variable.  vt's row
! is four bytes, so that no padding follows it: PnetCDF leaves the padding
! after a variable with its own _FillValue uninitialized.
program t_nf90_flex
  use mpi
  use pnetcdf
  use futil
  implicit none
  integer, parameter :: nx = 6, slen = 4
  integer :: ncid, rank, nprocs, ierr, dx, dr, ds, vn, vc, vd, vb, vt, vf
  integer :: i, old, nofill, ifill, rq(3), st(3), ft, halo, nfiles
  integer :: ids(64)
  integer(kind=MPI_OFFSET_KIND) :: row, starts(2, 2), counts(2, 2), one(2, 1)
  integer(kind=MPI_OFFSET_KIND) :: sz
  integer :: iv(5), giv(nx), i77, gi77
  character(len=1) :: cv(5), gcv(nx)
  character(len=slen) :: str, gstr
  character(len=1) :: cfill
  double precision :: dv(nx), gdv(nx)
  real :: rb(nx + 2), grb(nx + 2), gr(nx)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  row = rank + 1
  ! x = 1..2 and x = 4..6 of the row; x = 3 by a scalar request.
  starts(:, 1) = [1_8, row]
  counts(:, 1) = [2_8, 1_8]
  starts(:, 2) = [4_8, row]
  counts(:, 2) = [3_8, 1_8]
  one(:, 1) = [3_8, row]
  iv = [(10 * rank + i, i = 1, 5)]
  i77 = 77 + rank
  cv = ['a', 'b', 'c', 'd', 'e']
  dv = [(rank + i / 4d0, i = 1, nx)]
  rb = -1.0
  rb(2:nx + 1) = [(rank * 100.0 + i, i = 1, nx)]
  str = 'hi' // achar(iachar('0') + rank)
  call MPI_Type_create_subarray(2, [nx, nprocs], [nx, 1], [0, rank], &
                                MPI_ORDER_FORTRAN, MPI_DOUBLE_PRECISION, ft, &
                                ierr)
  call MPI_Type_commit(ft, ierr)
  call MPI_Type_create_subarray(1, [nx + 2], [nx], [1], MPI_ORDER_FORTRAN, &
                                MPI_REAL, halo, ierr)
  call MPI_Type_commit(halo, ierr)

  call check(nf90mpi_create(MPI_COMM_WORLD, outpath(), NF90_CLOBBER, &
                            MPI_INFO_NULL, ncid), 'create')
  call check(nf90mpi_def_dim(ncid, 'x', int(nx, 8), dx), 'x')
  call check(nf90mpi_def_dim(ncid, 'rank', int(nprocs, 8), dr), 'rank')
  call check(nf90mpi_def_dim(ncid, 's', int(slen, 8), ds), 's')
  call check(nf90mpi_def_var(ncid, 'vn', NF90_INT, [dx, dr], vn), 'vn')
  call check(nf90mpi_def_var(ncid, 'vc', NF90_CHAR, [dx, dr], vc), 'vc')
  call check(nf90mpi_def_var(ncid, 'vd', NF90_DOUBLE, [dx, dr], vd), 'vd')
  call check(nf90mpi_def_var(ncid, 'vb', NF90_FLOAT, [dx, dr], vb), 'vb')
  call check(nf90mpi_def_var(ncid, 'vt', NF90_CHAR, [ds, dr], vt), 'vt')
  call check(nf90mpi_def_var(ncid, 'vf', NF90_INT, [dx], vf), 'vf')
  call check(nf90mpi_set_fill(ncid, NF90_FILL, old), 'set_fill')
  call check(nf90mpi_def_var_fill(ncid, vf, 0, -5), 'def_var_fill int')
  call check(nf90mpi_def_var_fill(ncid, vt, 0, '*'), 'def_var_fill text')
  call check(nf90mpi_enddef(ncid), 'enddef')

  call check(nf90mpi_inq_var_fill(ncid, vf, nofill, ifill), 'inq_var_fill')
  call truth(nofill == 0 .and. ifill == -5, 'int fill value')
  call check(nf90mpi_inq_var_fill(ncid, vt, nofill, cfill), 'inq_var_fill t')
  call truth(nofill == 0 .and. cfill == '*', 'text fill value')

  ! varn: numeric and text, collective; the scalar by iput.
  call check(nf90mpi_put_varn_all(ncid, vn, iv, num=2, start=starts, &
                                  count=counts), 'put_varn_all int')
  call check(nf90mpi_put_varn_all(ncid, vc, cv, num=2, start=starts, &
                                  count=counts), 'put_varn_all text')
  call check(nf90mpi_iput_varn(ncid, vn, i77, rq(1), one), 'iput_varn scalar')
  call check(nf90mpi_wait_all(ncid, 1, rq, st), 'wait_all')
  call check(st(1), 'iput_varn status')
  ! vard: a subarray file type of MPI_DOUBLE_PRECISION.
  call check(nf90mpi_put_vard_all(ncid, vd, ft, dv, int(nx, 8), &
                                  MPI_DOUBLE_PRECISION), 'put_vard_all')
  ! bufcount/buftype: one halo type's worth.
  call check(nf90mpi_put_var_all(ncid, vb, rb, start=[1_8, row], &
                                 count=[int(nx, 8), 1_8], bufcount=1_8, &
                                 buftype=halo), 'put_var_all buftype')
  ! Text through put_var: a string into the row of vt.
  call check(nf90mpi_put_var_all(ncid, vt, str, start=[1_8, row], &
                                 count=[int(slen, 8), 1_8]), 'put_var text')
  ! One element of vf; the rest keep the fill value.
  if (rank == 0) then
    call check(nf90mpi_begin_indep_data(ncid), 'begin_indep')
    call check(nf90mpi_put_var(ncid, vf, i77, start=[2_8]), 'put_var scalar')
    call check(nf90mpi_end_indep_data(ncid), 'end_indep')
  else
    call check(nf90mpi_begin_indep_data(ncid), 'begin_indep')
    call check(nf90mpi_end_indep_data(ncid), 'end_indep')
  end if
  call check(nf90mpi_sync(ncid), 'sync')
  call MPI_Barrier(MPI_COMM_WORLD, ierr)

  giv = 0
  call check(nf90mpi_get_varn_all(ncid, vn, giv, num=2, start=starts, &
                                  count=counts), 'get_varn_all int')
  call truth(all(giv(1:5) == iv), 'varn int values')
  gi77 = 0
  call check(nf90mpi_iget_varn(ncid, vn, gi77, rq(1), one), 'iget_varn')
  call check(nf90mpi_wait_all(ncid, 1, rq, st), 'wait_all read')
  call truth(gi77 == i77, 'varn scalar value')
  gcv = ' '
  call check(nf90mpi_get_varn_all(ncid, vc, gcv, num=2, start=starts, &
                                  count=counts), 'get_varn_all text')
  call truth(all(gcv(1:5) == cv), 'varn text values')
  gdv = 0
  call check(nf90mpi_get_vard_all(ncid, vd, ft, gdv, int(nx, 8), &
                                  MPI_DOUBLE_PRECISION), 'get_vard_all')
  call truth(all(gdv == dv), 'vard values')
  gr = 0
  call check(nf90mpi_get_var_all(ncid, vb, gr, start=[1_8, row], &
                                 count=[int(nx, 8), 1_8], &
                                 bufcount=int(nx, 8), buftype=MPI_REAL), &
             'get_var_all buftype')
  call truth(all(gr == rb(2:nx + 1)), 'buftype values')
  grb = -3.0
  call check(nf90mpi_iget_var(ncid, vb, grb, rq(2), start=[1_8, row], &
                              count=[int(nx, 8), 1_8], bufcount=1_8, &
                              buftype=halo), 'iget_var buftype')
  call check(nf90mpi_wait_all(ncid, 1, rq(2:2), st), 'wait_all halo')
  call truth(all(grb(2:nx + 1) == rb(2:nx + 1)) .and. grb(1) == -3.0 .and. &
             grb(nx + 2) == -3.0, 'halo values')
  gstr = ' '
  call check(nf90mpi_get_var_all(ncid, vt, gstr, start=[1_8, row], &
                                 count=[int(slen, 8), 1_8]), 'get_var text')
  call truth(gstr == str, 'text values')
  gcv = ' '
  call check(nf90mpi_get_var_all(ncid, vt, gcv(1:slen), start=[1_8, row], &
                                 count=[int(slen, 8), 1_8]), 'get_var text(:)')
  call truth(all(gcv(1:3) == [str(1:1), str(2:2), str(3:3)]), &
             'text array values')
  call check(nf90mpi_get_var_all(ncid, vf, giv, start=[1_8], &
                                 count=[int(nx, 8)]), 'get vf')
  call truth(giv(2) == 77 .and. giv(1) == -5 .and. giv(nx) == -5, &
             'fill values')

  ! PnetCDF's wrapper reads nfiles on the way in (as the room in ids).
  nfiles = size(ids)
  call check(nf90mpi_inq_files_opened(nfiles, ids), 'inq_files_opened')
  call truth(nfiles >= 1, 'a file is open')
  call check(nf90mpi_close(ncid), 'close')
  call expect(nf90mpi_inq_malloc_size(sz), NF90_ENOTENABLED, 'malloc_size')
  call expect(nf90mpi_inq_malloc_max_size(sz), NF90_ENOTENABLED, &
              'malloc_max_size')
  call expect(nf90mpi_inq_malloc_list(), NF90_ENOTENABLED, 'malloc_list')
  call MPI_Type_free(ft, ierr)
  call MPI_Type_free(halo, ierr)
  call finish()
end program t_nf90_flex
