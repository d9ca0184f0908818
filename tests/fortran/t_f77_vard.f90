! ncp-test: RANKS 1 2 4
! The vard family and the inquiry functions around it: each rank writes
! its row of a double variable through a subarray file type and a halo
! buffer type, both built on MPI_DOUBLE_PRECISION, collectively, and its
! row of an int variable independently from a double buffer (converted);
! everything is read back through the same file types.  Then the version,
! the open files, the allocation counters and PnetCDF's string helpers.
program t_f77_vard
  use mpi
  use futil
  implicit none
  include 'pnetcdf.inc'
  integer, parameter :: nx = 6
  integer :: nfmpi_inq_version, nfmpi_xstrerror, nfmpi_xstrerrno
  integer :: nfmpi_xinq_libvers
  external nfmpi_inq_version, nfmpi_xstrerror, nfmpi_xstrerrno
  external nfmpi_xinq_libvers
  integer :: err, ncid, rank, nprocs, ierr, dx, dr, vd, vi, i, mode, num
  integer :: ftd, fti, halo
  integer :: ids(64)
  integer(kind=MPI_OFFSET_KIND) :: sz
  double precision :: buf(nx + 2), got(nx), want(nx)
  character(len=80) :: msg

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  want = [(100d0 * rank + i + 0.5d0, i = 1, nx)]
  buf = -1d0
  buf(2:nx + 1) = want
  call MPI_Type_create_subarray(2, [nx, nprocs], [nx, 1], [0, rank], &
                                MPI_ORDER_FORTRAN, MPI_DOUBLE_PRECISION, ftd, &
                                ierr)
  call MPI_Type_commit(ftd, ierr)
  call MPI_Type_create_subarray(2, [nx, nprocs], [nx, 1], [0, rank], &
                                MPI_ORDER_FORTRAN, MPI_INTEGER, fti, ierr)
  call MPI_Type_commit(fti, ierr)
  call MPI_Type_create_subarray(1, [nx + 2], [nx], [1], MPI_ORDER_FORTRAN, &
                                MPI_DOUBLE_PRECISION, halo, ierr)
  call MPI_Type_commit(halo, ierr)

  err = nfmpi_create(MPI_COMM_WORLD, outpath(), &
                     ior(NF_CLOBBER, NF_64BIT_DATA), MPI_INFO_NULL, ncid)
  call check(err, 'create')
  call check(nfmpi_def_dim(ncid, 'x', int(nx, 8), dx), 'x')
  call check(nfmpi_def_dim(ncid, 'rank', int(nprocs, 8), dr), 'rank')
  call check(nfmpi_def_var(ncid, 'vd', NF_DOUBLE, 2, [dx, dr], vd), 'vd')
  call check(nfmpi_def_var(ncid, 'vi', NF_INT, 2, [dx, dr], vi), 'vi')
  call check(nfmpi_enddef(ncid), 'enddef')

  call check(nfmpi_put_vard_all(ncid, vd, ftd, buf, 1_8, halo), 'put_vard_all')
  call check(nfmpi_begin_indep_data(ncid), 'begin_indep')
  call check(nfmpi_put_vard(ncid, vi, fti, want, int(nx, 8), &
                            MPI_DOUBLE_PRECISION), 'put_vard')
  call check(nfmpi_end_indep_data(ncid), 'end_indep')
  call check(nfmpi_sync(ncid), 'sync')
  call MPI_Barrier(MPI_COMM_WORLD, ierr)

  got = 0d0
  call check(nfmpi_get_vard_all(ncid, vd, ftd, got, int(nx, 8), &
                                MPI_DOUBLE_PRECISION), 'get_vard_all')
  call truth(all(got == want), 'vard double values')
  buf = -2d0
  call check(nfmpi_get_vard_all(ncid, vd, ftd, buf, 1_8, halo), &
             'get_vard_all halo')
  call truth(all(buf(2:nx + 1) == want) .and. buf(1) == -2d0 .and. &
             buf(nx + 2) == -2d0, 'vard halo values')
  call check(nfmpi_begin_indep_data(ncid), 'begin_indep')
  got = 0d0
  call check(nfmpi_get_vard(ncid, vi, fti, got, int(nx, 8), &
                            MPI_DOUBLE_PRECISION), 'get_vard')
  call truth(all(got == aint(want)), 'vard int values')
  call check(nfmpi_end_indep_data(ncid), 'end_indep')
  ! A file type of another element type than the variable's.
  call expect(nfmpi_put_vard_all(ncid, vi, ftd, want, int(nx, 8), &
                                 MPI_DOUBLE_PRECISION), NF_ETYPE_MISMATCH, &
              'put_vard_all wrong file type')

  call check(nfmpi_inq_version(ncid, mode), 'inq_version')
  call truth(mode == NF_64BIT_DATA, 'version of a CDF-5 file')
  ! PnetCDF's wrapper reads num on the way in (as the room in ids).
  num = size(ids)
  call check(nfmpi_inq_files_opened(num, ids), 'inq_files_opened')
  call truth(num >= 1, 'one file open at least')
  if (num >= 1 .and. num <= size(ids)) &
    call truth(any(ids(1:num) == ncid), 'ncid among the open files')
  call check(nfmpi_close(ncid), 'close')
  num = size(ids)
  call check(nfmpi_inq_files_opened(num, ids), 'inq_files_opened after close')
  call truth(num == 0, 'no file open after close')

  ! Neither library counts its allocations in an ordinary build.
  call expect(nfmpi_inq_malloc_size(sz), NF_ENOTENABLED, 'inq_malloc_size')
  call expect(nfmpi_inq_malloc_max_size(sz), NF_ENOTENABLED, &
              'inq_malloc_max_size')
  call expect(nfmpi_inq_malloc_list(), NF_ENOTENABLED, 'inq_malloc_list')

  call check(nfmpi_xstrerror(NF_EBADID, msg), 'xstrerror')
  call truth(msg == nfmpi_strerror(NF_EBADID), 'xstrerror message')
  call check(nfmpi_xstrerrno(NF_EBADID, msg), 'xstrerrno')
  call truth(index(msg, 'EBADID') > 0, 'xstrerrno name')
  call check(nfmpi_xinq_libvers(msg), 'xinq_libvers')
  call truth(len_trim(msg) > 0, 'xinq_libvers string')

  call MPI_Type_free(ftd, ierr)
  call MPI_Type_free(fti, ierr)
  call MPI_Type_free(halo, ierr)
  call finish()
end program t_f77_vard
