! ncp-test: RANKS 1 2 4
! Module pnetcdf's generics called as programs written for PnetCDF call
! them: by keyword with PnetCDF's dummy argument names (dimids= for one
! dimension, nf90mpi_enddef's alignment arguments, req=/st= of the waits,
! the nfmpi_* functions' own names), nf90mpi_put_varn_all and
! nf90mpi_get_varn_all with start and count arrays larger than num
! requests (only the first num columns count), and one-element arrays and
! characters on scalar variables, collective and independent.  The module
! leaves out what PnetCDF's leaves out, so a program declares
! nfmpi_put_var_int_all itself.  Each rank writes row rank+1 of vn, two
! requests a row.
program t_nf90_args
  use mpi
  use pnetcdf
  use futil
  implicit none
  integer, external :: nfmpi_put_var_int_all
  integer :: ncid, rank, nprocs, ierr, dx, dr, va, vb, vn, sv, sc, sd, st2(2)
  integer :: rq(2), fmt, natts, ndims, xt, dids(2), i
  integer(kind=MPI_OFFSET_KIND) :: row, starts(2, 5), counts(2, 3), hsize
  integer :: iv(6), giv(6), one(1), gone(1), a(4), ga(4)
  double precision :: d1(1), gd1(1)
  character(len=1) :: gc
  character(len=NF90_MAX_NAME) :: vname

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  row = rank + 1
  ! Columns 1 and 2 are the requests: x = 1..2 and x = 3..6 of the row.
  ! The rest must not be read (as a request they would be out of range).
  starts = 99
  counts = 99
  starts(:, 1) = [1_8, row]
  starts(:, 2) = [3_8, row]
  counts(:, 1) = [2_8, 1_8]
  counts(:, 2) = [4_8, 1_8]
  iv = [(100 * rank + i, i = 1, 6)]
  a = [1, 2, 3, 4]
  dids = 0

  call check(nf90mpi_create(mpi_comm=MPI_COMM_WORLD, path=outpath(), &
                            cmode=NF90_CLOBBER, mpi_info=MPI_INFO_NULL, &
                            ncid=ncid), 'create')
  call check(nf90mpi_def_dim(ncid, 'x', 6_8, dx), 'def_dim x')
  call check(nf90mpi_def_dim(ncid, 'rank', int(nprocs, 8), dr), 'def_dim r')
  call check(nf90mpi_def_var(ncid, 'a', NF90_INT, dimids=dx, varid=va), &
             'def_var dimids= one dimension')
  call check(nf90mpi_def_var(ncid, 'b', NF90_INT, [dx], vb), 'def_var b')
  call check(nf90mpi_def_var(ncid, name='vn', xtype=NF90_INT, &
                             dimids=[dx, dr], varid=vn), 'def_var vn')
  call check(nf90mpi_def_var(ncid, 'sv', NF90_INT, sv), 'def_var sv')
  call check(nf90mpi_def_var(ncid, 'sc', NF90_CHAR, sc), 'def_var sc')
  call check(nfmpi_def_var(ncid=ncid, name='sd', datatype=NF90_DOUBLE, &
                           ndims=0, dimids=dids, varid=sd), 'def_var sd')
  ! Room before the header's end and the data aligned to 256 bytes.
  call check(nf90mpi_enddef(ncid, h_minfree=64_8, v_align=256_8), 'enddef')
  call check(nf90mpi_inq_header_size(ncid, h_size=hsize), 'header_size')
  call truth(hsize > 0, 'header size')
  call check(nfmpi_inq_format(ncid, fmt=fmt), 'inq_format')
  call truth(fmt == NF90_FORMAT_CLASSIC, 'classic format')

  call check(nf90mpi_put_var_all(ncid, va, a, start=[1_8], count=[4_8]), &
             'put a')
  call check(nfmpi_put_var_int_all(ncid, vb, [(7 * i, i = 1, 6)]), 'put b')
  call check(nf90mpi_put_varn_all(ncid, vn, iv, num=2, start=starts, &
                                  count=counts), 'put_varn_all num=2')
  ! Scalar variables: a one-element array, a character.
  one = 42
  call check(nf90mpi_put_var_all(ncid, sv, one), 'put_var_all sv [42]')
  call check(nf90mpi_put_var_all(ncid, sc, 'q'), 'put_var_all sc char')
  call check(nf90mpi_begin_indep_data(ncid), 'begin_indep_data')
  if (rank == 0) then
    d1 = 2.5d0
    call check(nf90mpi_put_var(ncid, sd, d1), 'put_var sd [2.5]')
  end if
  call check(nf90mpi_end_indep_data(ncid), 'end_indep_data')
  call check(nf90mpi_sync(ncid), 'sync')

  giv = 0
  call check(nf90mpi_get_varn_all(ncid, vn, giv, num=2, start=starts, &
                                  count=counts), 'get_varn_all num=2')
  call truth(all(giv == iv), 'varn values')
  ! Without count each of the num requests is one element.
  giv = 0
  call check(nf90mpi_get_varn_all(ncid, vn, giv, num=2, start=starts), &
             'get_varn_all without count')
  call truth(giv(1) == iv(1) .and. giv(2) == iv(3), 'varn single values')
  gone = 0
  call check(nf90mpi_get_var_all(ncid, sv, gone), 'get_var_all sv')
  call truth(gone(1) == 42, 'scalar through a one-element array')
  gc = ' '
  call check(nf90mpi_get_var_all(ncid, sc, gc), 'get_var_all sc')
  call truth(gc == 'q', 'scalar character')
  call check(nf90mpi_begin_indep_data(ncid), 'begin_indep_data')
  gd1 = 0
  call check(nf90mpi_get_var(ncid, sd, gd1), 'get_var sd')
  call truth(gd1(1) == 2.5d0, 'independent scalar')
  gone = 0
  ga = 0
  call check(nf90mpi_iget_var(ncid, sv, gone, rq(1)), 'iget_var sv')
  call check(nf90mpi_iget_var(ncid, va, ga, rq(2)), 'iget_var a')
  call check(nf90mpi_end_indep_data(ncid), 'end_indep_data')
  call check(nf90mpi_wait_all(ncid, num=2, req=rq, st=st2), 'wait_all')
  call truth(all(st2 == NF90_NOERR), 'wait_all statuses')
  call truth(gone(1) == 42 .and. all(ga == a), 'nonblocking values')

  call check(nf90mpi_inquire_variable(ncid, sd, name=vname, xtype=xt, &
                                      ndims=ndims, nAtts=natts), 'inq sd')
  call truth(vname == 'sd' .and. xt == NF90_DOUBLE .and. ndims == 0 .and. &
             natts == 0, 'sd is a scalar double')
  call check(nf90mpi_close(ncid), 'close')
  call finish()
end program t_nf90_args
