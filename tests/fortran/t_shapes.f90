! ncp-test: RANKS 1 2 4
! Fortran's dimension order against the file's: a variable defined with
! Fortran dimids (x, y, z) is z(slowest), y, x in the file, and Fortran
! element (i, j, k) is the file's [k-1][j-1][i-1].  t_shapes.cdl spells
! out the C layout the writes below must produce, so the reversal of
! dimids, start, count, stride and imap is checked against C order, not
! only against PnetCDF's binding.
program t_shapes
  use mpi
  use futil
  implicit none
  include 'pnetcdf.inc'
  integer, parameter :: nx = 4, ny = 3, nz = 2
  integer :: f(nx, ny), g(nx, ny), h(nx, ny, nz), gh(nx, ny, nz), e(2, 2)
  integer :: err, ncid, rank, ierr, i, j, k, dx, dy, dz, va, vb, vc, v
  integer :: dims(3)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  do j = 1, ny
    do i = 1, nx
      f(i, j) = 10 * j + i
      do k = 1, nz
        h(i, j, k) = 100 * k + 10 * j + i
      end do
    end do
  end do

  err = nfmpi_create(MPI_COMM_WORLD, outpath(), NF_CLOBBER, MPI_INFO_NULL, &
                     ncid)
  call check(err, 'create')
  call check(nfmpi_def_dim(ncid, 'x', int(nx, 8), dx), 'x')
  call check(nfmpi_def_dim(ncid, 'y', int(ny, 8), dy), 'y')
  call check(nfmpi_def_dim(ncid, 'z', int(nz, 8), dz), 'z')
  call check(nfmpi_def_var(ncid, 'a', NF_INT, 2, [dx, dy], va), 'a')
  call check(nfmpi_def_var(ncid, 'b', NF_INT, 3, [dx, dy, dz], vb), 'b')
  call check(nfmpi_def_var(ncid, 'c', NF_INT, 2, [dx, dy], vc), 'c')
  ! Filled, so that what is never written shows as _ in t_shapes.cdl.
  call check(nfmpi_set_fill(ncid, NF_FILL, v), 'set_fill')
  call check(nfmpi_enddef(ncid), 'enddef')
  call check(nfmpi_inq_vardimid(ncid, vb, dims), 'vardimid')
  call truth(all(dims == [dx, dy, dz]), 'dimids come back in Fortran order')

  ! Every rank writes the same values, so the file is the same at any
  ! rank count.
  call check(nfmpi_put_var_int_all(ncid, va, f), 'put a')
  ! b: the k = 2 plane whole, then of the k = 1 plane only x = 2..3 of
  ! rows y = 1..3 (start and count reversed to [0][0][1] / [1][3][2]).
  call check(nfmpi_put_vara_int_all(ncid, vb, [1_8, 1_8, 2_8], &
                                    [int(nx, 8), int(ny, 8), 1_8], &
                                    h(:, :, 2)), 'put b plane')
  call check(nfmpi_put_vara_int_all(ncid, vb, [2_8, 1_8, 1_8], &
                                    [2_8, int(ny, 8), 1_8], &
                                    h(2:3, :, 1)), 'put b part')
  ! c: every other x of rows 1 and 3 (stride 2 along x and y) from a 2x2
  ! buffer read transposed (imap [2, 1]).
  e = reshape([1, 2, 3, 4], [2, 2])
  call check(nfmpi_put_varm_int_all(ncid, vc, [1_8, 1_8], [2_8, 2_8], &
                                    [2_8, 2_8], [2_8, 1_8], e), 'put c')
  ! One element by Fortran index (4, 2): the file's [1][3].
  call check(nfmpi_put_var1_int_all(ncid, vc, [4_8, 2_8], 99), 'put c 1')

  call check(nfmpi_get_var_int_all(ncid, va, g), 'get a')
  call truth(all(g == f), 'a read back')
  do j = 1, ny
    do i = 1, nx
      call check(nfmpi_get_var1_int_all(ncid, va, [int(i, 8), int(j, 8)], v), &
                 'get a 1')
      call truth(v == f(i, j), 'a element by index')
    end do
  end do
  gh = -1
  call check(nfmpi_get_var_int_all(ncid, vb, gh), 'get b')
  call truth(all(gh(:, :, 2) == h(:, :, 2)), 'b plane 2')
  call truth(all(gh(2:3, :, 1) == h(2:3, :, 1)), 'b part of plane 1')
  call check(nfmpi_close(ncid), 'close')
  call finish()
end program t_shapes
