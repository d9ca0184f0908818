! ncp-test: RANKS 1 2 4
! Module pnetcdf's nf90mpi_* generics: put_var/get_var on arrays of rank 0
! to 4 and every numeric kind (each rank writing its own slice of a
! variable one dimension larger, so the default count is the array's
! shape padded with 1), put_att/get_att of every kind, nonblocking
! iput_var/iget_var with wait_all, and the inquiry functions.
program t_nf90
  use mpi
  use pnetcdf
  use futil, only: check, truth, finish, outpath
  implicit none
  integer, parameter :: nx = 4, ny = 3, nz = 2, nw = 2
  integer(kind=MPI_OFFSET_KIND) :: len
  integer :: ncid, rank, nprocs, ierr, i, j, k, l, xt, nd, na
  integer :: dx, dy, dz, dw, dr, dd(5), v0, v1, v2, v3, v4, vd, v8, vnb
  integer :: reqs(2), sts(2), nvars, unl
  integer :: s0, gs0
  integer(kind=1) :: a1(nx), ga1(nx), at1(2), gat1(2)
  integer(kind=2) :: a2(nx, ny), ga2(nx, ny), at2, gat2
  real :: a3(nx, ny, nz), ga3(nx, ny, nz), atr(3), gatr(3)
  double precision :: a4(nx, ny, nz, nw), ga4(nx, ny, nz, nw), atd, gatd
  double precision :: d2(nx, ny), gd2(nx, ny), t2(ny, nx / 2)
  integer(kind=8) :: a8(nx), ga8(nx), at8(2), gat8(2)
  integer :: nb(nx, ny), gnb(nx, ny), gnb2(nx, ny), ati, gati
  character(len=32) :: title, name

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  s0 = 42
  do l = 1, nw
    do k = 1, nz
      do j = 1, ny
        do i = 1, nx
          a4(i, j, k, l) = i + 10 * j + 100 * k + 1000 * l + 1d4 * rank
        end do
      end do
    end do
  end do
  a3 = real(a4(:, :, :, 1)) + 0.5
  a2 = int(a4(:, :, 1, 1), 2)
  ! d2 is written whole by every rank: the same values everywhere.
  d2 = (a4(:, :, 1, 1) - 1d4 * rank) / 8d0
  nb = int(a4(:, :, 1, 1)) * 3
  a1 = int([(i + rank, i = 1, nx)], 1)
  a8 = [(int(i, 8) * 3000000000_8 + rank, i = 1, nx)]
  at1 = [-1_1, 1_1]
  at2 = 7_2
  ati = -123456
  atr = [0.5, 1.5, 2.5]
  atd = 1d0 / 7d0
  at8 = [-1_8, 5000000000_8]

  call check(nf90mpi_create(MPI_COMM_WORLD, outpath(), &
                            ior(NF90_CLOBBER, NF90_64BIT_DATA), &
                            MPI_INFO_NULL, ncid), 'create')
  call check(nf90mpi_def_dim(ncid, 'x', int(nx, MPI_OFFSET_KIND), dx), 'x')
  call check(nf90mpi_def_dim(ncid, 'y', int(ny, MPI_OFFSET_KIND), dy), 'y')
  call check(nf90mpi_def_dim(ncid, 'z', int(nz, MPI_OFFSET_KIND), dz), 'z')
  call check(nf90mpi_def_dim(ncid, 'w', int(nw, MPI_OFFSET_KIND), dw), 'w')
  call check(nf90mpi_def_dim(ncid, 'rank', NF90MPI_UNLIMITED, dr), 'rank')
  call check(nf90mpi_def_var(ncid, 'v0', NF90_INT, v0), 'v0')
  call check(nf90mpi_def_var(ncid, 'v1', NF90_BYTE, [dx, dr], v1), 'v1')
  call check(nf90mpi_def_var(ncid, 'v2', NF90_SHORT, [dx, dy, dr], v2), 'v2')
  dd = [dx, dy, dz, dr, 0]
  call check(nf90mpi_def_var(ncid, 'v3', NF90_FLOAT, dd(1:4), v3), 'v3')
  dd = [dx, dy, dz, dw, dr]
  call check(nf90mpi_def_var(ncid, 'v4', NF90_DOUBLE, dd, v4), 'v4')
  call check(nf90mpi_def_var(ncid, 'd2', NF90_DOUBLE, [dx, dy], vd), 'd2')
  call check(nf90mpi_def_var(ncid, 'v8', NF90_INT64, [dx, dr], v8), 'v8')
  call check(nf90mpi_def_var(ncid, 'nb', NF90_INT, [dx, dy, dr], vnb), 'nb')
  call check(nf90mpi_put_att(ncid, NF90_GLOBAL, 'title', 'nf90 generics'), &
             'title')
  call check(nf90mpi_put_att(ncid, NF90_GLOBAL, 'a_int1', at1), 'at1')
  call check(nf90mpi_put_att(ncid, NF90_GLOBAL, 'a_int2', at2), 'at2')
  call check(nf90mpi_put_att(ncid, NF90_GLOBAL, 'a_int', ati), 'ati')
  call check(nf90mpi_put_att(ncid, NF90_GLOBAL, 'a_real', atr), 'atr')
  call check(nf90mpi_put_att(ncid, v4, 'a_double', atd), 'atd')
  call check(nf90mpi_put_att(ncid, v8, 'a_int8', at8), 'at8')
  call check(nf90mpi_copy_att(ncid, NF90_GLOBAL, 'a_int', ncid, v0), 'copy')
  call check(nf90mpi_rename_att(ncid, v0, 'a_int', 'copied'), 'rename_att')
  call check(nf90mpi_put_att(ncid, v0, 'tmp', 1.0), 'tmp')
  call check(nf90mpi_del_att(ncid, v0, 'tmp'), 'del_att')
  call check(nf90mpi_enddef(ncid), 'enddef')

  call check(nf90mpi_put_var_all(ncid, v0, s0), 'put v0')
  call check(nf90mpi_put_var_all(ncid, v1, a1, start=[1_8, rank + 1_8]), &
             'put v1')
  call check(nf90mpi_put_var_all(ncid, v2, a2, start=[1_8, 1_8, rank + 1_8]), &
             'put v2')
  call check(nf90mpi_put_var_all(ncid, v3, a3, &
                                 start=[1_8, 1_8, 1_8, rank + 1_8]), 'put v3')
  call check(nf90mpi_put_var_all(ncid, v4, a4, &
                                 start=[1_8, 1_8, 1_8, 1_8, rank + 1_8], &
                                 count=[int(nx, 8), int(ny, 8), int(nz, 8), &
                                        int(nw, 8), 1_8]), 'put v4')
  ! Every rank writes the same values into d2, one row of it per call
  ! with a stride, the other by a map that reads a transposed copy.
  call check(nf90mpi_put_var_all(ncid, vd, d2(1:nx:2, :), &
                                 start=[1_8, 1_8], stride=[2_8, 1_8]), 'vd1')
  t2 = transpose(d2(2:nx:2, :))
  call check(nf90mpi_put_var_all(ncid, vd, t2, &
                                 start=[2_8, 1_8], &
                                 count=[int(nx / 2, 8), int(ny, 8)], &
                                 stride=[2_8, 1_8], &
                                 map=[int(ny, 8), 1_8]), 'vd2')
  call check(nf90mpi_put_var_all(ncid, v8, a8, start=[1_8, rank + 1_8]), &
             'put v8')
  call check(nf90mpi_iput_var(ncid, vnb, nb, reqs(1), &
                              start=[1_8, 1_8, rank + 1_8]), 'iput')
  call check(nf90mpi_wait_all(ncid, 1, reqs, sts), 'wait_all')
  call check(sts(1), 'iput status')
  call check(nf90mpi_close(ncid), 'close')

  call check(nf90mpi_open(MPI_COMM_WORLD, outpath(), NF90_NOWRITE, &
                          MPI_INFO_NULL, ncid), 'open')
  call check(nf90mpi_inquire(ncid, nVariables=nvars, unlimitedDimId=unl), &
             'inquire')
  call truth(nvars == 8 .and. unl == dr, 'inquire values')
  call check(nf90mpi_inquire_dimension(ncid, dr, name, len), 'inq dim')
  call truth(name == 'rank' .and. len == nprocs, 'dimension')
  call check(nf90mpi_inq_varid(ncid, 'v4', k), 'inq_varid')
  call check(nf90mpi_inquire_variable(ncid, k, name, xt, nd, dd, na), &
             'inq var')
  call truth(name == 'v4' .and. xt == NF90_DOUBLE .and. nd == 5 .and. &
             na == 1 .and. all(dd == [dx, dy, dz, dw, dr]), 'variable')
  call check(nf90mpi_inquire_attribute(ncid, v0, 'copied', xt, len, na), &
             'inquire_attribute')
  call truth(xt == NF90_INT .and. len == 1 .and. na == 1, 'copied attribute')
  call check(nf90mpi_inq_attname(ncid, v0, 1, name), 'inq_attname')
  call truth(name == 'copied', 'attribute name')
  call check(nf90mpi_get_att(ncid, NF90_GLOBAL, 'title', title), 'g title')
  call truth(title == 'nf90 generics', 'title')
  call check(nf90mpi_get_att(ncid, NF90_GLOBAL, 'a_int1', gat1), 'g at1')
  call check(nf90mpi_get_att(ncid, NF90_GLOBAL, 'a_int2', gat2), 'g at2')
  call check(nf90mpi_get_att(ncid, NF90_GLOBAL, 'a_int', gati), 'g ati')
  call check(nf90mpi_get_att(ncid, NF90_GLOBAL, 'a_real', gatr), 'g atr')
  call check(nf90mpi_get_att(ncid, v4, 'a_double', gatd), 'g atd')
  call check(nf90mpi_get_att(ncid, v8, 'a_int8', gat8), 'g at8')
  call truth(all(gat1 == at1) .and. gat2 == at2 .and. gati == ati .and. &
             all(gatr == atr) .and. gatd == atd .and. all(gat8 == at8), &
             'attributes')

  call check(nf90mpi_get_var_all(ncid, v0, gs0), 'get v0')
  call check(nf90mpi_get_var_all(ncid, v1, ga1, start=[1_8, rank + 1_8]), &
             'get v1')
  call check(nf90mpi_get_var_all(ncid, v2, ga2, start=[1_8, 1_8, rank + 1_8]), &
             'get v2')
  call check(nf90mpi_get_var_all(ncid, v3, ga3, &
                                 start=[1_8, 1_8, 1_8, rank + 1_8]), 'get v3')
  call check(nf90mpi_get_var_all(ncid, v4, ga4, &
                                 start=[1_8, 1_8, 1_8, 1_8, rank + 1_8]), &
             'get v4')
  call check(nf90mpi_get_var_all(ncid, vd, gd2), 'get d2')
  call check(nf90mpi_get_var_all(ncid, v8, ga8, start=[1_8, rank + 1_8]), &
             'get v8')
  call check(nf90mpi_begin_indep_data(ncid), 'begin indep')
  call check(nf90mpi_get_var(ncid, vnb, gnb, start=[1_8, 1_8, rank + 1_8]), &
             'get nb')
  call check(nf90mpi_end_indep_data(ncid), 'end indep')
  ! A nonblocking read into a contiguous array: the request holds the
  ! array's own address, so had the binding copied it on the way, the
  ! values would land in a temporary long gone by the wait.
  gnb2 = 0
  call check(nf90mpi_iget_var(ncid, vnb, gnb2, reqs(1), &
                              start=[1_8, 1_8, rank + 1_8]), 'iget')
  call check(nf90mpi_wait_all(ncid, 1, reqs, sts), 'wait_all read')
  call check(sts(1), 'iget status')
  call truth(all(gnb2 == nb), 'iget lands in the caller''s array')
  call truth(gs0 == s0 .and. all(ga1 == a1) .and. all(ga2 == a2), 'v0-v2')
  call truth(all(ga3 == a3) .and. all(ga4 == a4) .and. all(ga8 == a8), &
             'v3, v4, v8')
  call truth(all(gd2 == d2), 'strided and mapped d2')
  call truth(all(gnb == nb), 'nonblocking')
  call check(nf90mpi_close(ncid), 'close 2')
  call finish()
end program t_nf90
