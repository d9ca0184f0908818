! ncp-test: RANKS 1 2 4
! A BTIO-like checkpoint: a 5-D record variable u(5, nx, ny, nz, time),
! each rank owning a slab of z, written record by record with nonblocking
! flexible puts whose buffer type is an MPI subarray that skips two ghost
! cells on every side, all completed by one wait_all; read back both into
! a plain array and, through the same subarray type, into a ghosted one.
program t_btio
  use mpi
  use futil
  implicit none
  include 'pnetcdf.inc'
  integer, parameter :: nc = 5, nx = 6, ny = 5, nzl = 3, ng = 2, nrec = 3
  double precision :: u(nc, 1-ng:nx+ng, 1-ng:ny+ng, 1-ng:nzl+ng, nrec)
  double precision :: g(nc, 1-ng:nx+ng, 1-ng:ny+ng, 1-ng:nzl+ng)
  double precision :: plain(nc, nx, ny, nzl)
  integer(kind=MPI_OFFSET_KIND) :: st(5), ct(5)
  integer :: err, ncid, rank, nprocs, ierr, sub, r, m, i, j, k
  integer :: dims(5), vid, reqs(nrec), sts(nrec)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)

  ! Ghost cells hold a value that must never reach the file.
  u = -1d0
  do r = 1, nrec
    do k = 1, nzl
      do j = 1, ny
        do i = 1, nx
          do m = 1, nc
            u(m, i, j, k, r) = m + 10d0 * i + 100d0 * j + &
                               1000d0 * (k + rank * nzl) + 1d5 * r
          end do
        end do
      end do
    end do
  end do
  call MPI_Type_create_subarray(4, [nc, nx + 2*ng, ny + 2*ng, nzl + 2*ng], &
                                [nc, nx, ny, nzl], [0, ng, ng, ng], &
                                MPI_ORDER_FORTRAN, MPI_DOUBLE_PRECISION, &
                                sub, ierr)
  call MPI_Type_commit(sub, ierr)

  err = nfmpi_create(MPI_COMM_WORLD, outpath(), NF_CLOBBER, MPI_INFO_NULL, &
                     ncid)
  call check(err, 'create')
  call check(nfmpi_def_dim(ncid, 'nc', int(nc, 8), dims(1)), 'nc')
  call check(nfmpi_def_dim(ncid, 'nx', int(nx, 8), dims(2)), 'nx')
  call check(nfmpi_def_dim(ncid, 'ny', int(ny, 8), dims(3)), 'ny')
  call check(nfmpi_def_dim(ncid, 'nz', int(nzl * nprocs, 8), dims(4)), 'nz')
  call check(nfmpi_def_dim(ncid, 'time', NFMPI_UNLIMITED, dims(5)), 'time')
  call check(nfmpi_def_var(ncid, 'u', NF_DOUBLE, 5, dims, vid), 'def_var')
  call check(nfmpi_enddef(ncid), 'enddef')

  ct = [int(nc, 8), int(nx, 8), int(ny, 8), int(nzl, 8), 1_8]
  do r = 1, nrec
    st = [1_8, 1_8, 1_8, int(rank * nzl + 1, 8), int(r, 8)]
    call check(nfmpi_iput_vara(ncid, vid, st, ct, u(:, :, :, :, r), 1_8, &
                               sub, reqs(r)), 'iput_vara')
  end do
  call check(nfmpi_wait_all(ncid, nrec, reqs, sts), 'wait_all')
  do r = 1, nrec
    call check(sts(r), 'request status')
  end do
  call check(nfmpi_close(ncid), 'close')

  call check(nfmpi_open(MPI_COMM_WORLD, outpath(), NF_NOWRITE, &
                        MPI_INFO_NULL, ncid), 'open')
  call check(nfmpi_inq_varid(ncid, 'u', vid), 'inq_varid')
  do r = 1, nrec
    st = [1_8, 1_8, 1_8, int(rank * nzl + 1, 8), int(r, 8)]
    call check(nfmpi_get_vara_double_all(ncid, vid, st, ct, plain), 'get')
    call truth(all(plain == u(:, 1:nx, 1:ny, 1:nzl, r)), 'plain read back')
    ! The flexible form with a Fortran named type.
    plain = 0d0
    call check(nfmpi_get_vara_all(ncid, vid, st, ct, plain, &
                                  int(size(plain), 8), MPI_DOUBLE_PRECISION), &
               'get_vara_all')
    call truth(all(plain == u(:, 1:nx, 1:ny, 1:nzl, r)), 'flexible read')
    g = -7d0
    call check(nfmpi_iget_vara(ncid, vid, st, ct, g, 1_8, sub, reqs(1)), &
               'iget_vara')
    call check(nfmpi_wait_all(ncid, 1, reqs, sts), 'wait_all read')
    call check(sts(1), 'read status')
    call truth(all(g(:, 1:nx, 1:ny, 1:nzl) == u(:, 1:nx, 1:ny, 1:nzl, r)), &
               'ghosted read back')
    call truth(count(g == -7d0) == size(g) - nc * nx * ny * nzl, &
               'ghost cells untouched')
  end do
  call check(nfmpi_close(ncid), 'close 2')
  call MPI_Type_free(sub, ierr)
  call finish()
end program t_btio
