! ncp-test: RANKS 1 2 4
! The Fortran 77 API end to end: a CDF-5 file with one variable of every
! Fortran type, attributes of every type, collective and independent
! vara/var1/vars/varm writes, nonblocking iput/iget/bput, and a read back
! of all of it after reopening.  Each rank writes its own rows.
program t_f77_core
  use mpi
  use futil
  implicit none
  include 'pnetcdf.inc'
  integer, parameter :: nx = 4, nyr = 2
  integer(kind=MPI_OFFSET_KIND) :: st(2), ct(2), sd(2), im(2), one(1), n8
  integer :: err, ncid, rank, nprocs, ierr, i, j, k
  integer :: dx, dy, dt, dims(2), vids(7), vrec, vsc, vsv, vtr, vnb
  integer :: reqs(3), sts(3), ndims, nvars, ngatts, unlim, xt, nd, na
  character(len=nx) :: ctext(nyr)
  integer(kind=1) :: i1(nx, nyr), gi1(nx, nyr)
  integer(kind=2) :: i2(nx, nyr), gi2(nx, nyr)
  integer :: i4(nx, nyr), gi4(nx, nyr), tr(nyr, nx), gtr(nyr, nx)
  real :: r4(nx, nyr), gr4(nx, nyr)
  double precision :: r8(nx, nyr), gr8(nx, nyr), sc, gsc
  integer(kind=8) :: i8(nx, nyr), gi8(nx, nyr)
  integer :: sv(4), gsv(4), nb(nx), gnb(nx), bp(nx), gbp(nx)
  integer :: rec(nx), grec(nx)
  character(len=1024) :: name
  character(len=1024) :: txt
  integer(kind=1) :: a1(3), ga1(3)
  integer(kind=2) :: a2(3), ga2(3)
  integer :: a4(3), ga4(3)
  real :: ar(3), gar(3)
  double precision :: ad(3), gad(3)
  integer(kind=8) :: a8(3), ga8(3)
  character(len=*), parameter :: vnames(7) = [character(len=8) :: &
      'v_text', 'v_int1', 'v_int2', 'v_int', 'v_real', 'v_double', 'v_int8']
  integer, parameter :: vtypes(7) = [NF_CHAR, NF_INT1, NF_INT2, NF_INT, &
      NF_REAL, NF_DOUBLE, NF_INT64]

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)

  do j = 1, nyr
    do i = 1, nx
      k = i + 10 * (j + rank * nyr)
      ctext(j)(i:i) = achar(iachar('a') + mod(k, 26))
      i1(i, j) = int(mod(k, 100), 1)
      i2(i, j) = int(-k, 2)
      i4(i, j) = 1000 * k
      r4(i, j) = real(k) + 0.5
      r8(i, j) = dble(k) / 3d0
      i8(i, j) = int(k, 8) * 10000000000_8
      tr(j, i) = -k
    end do
  end do
  a1 = [1_1, -2_1, 127_1]
  a2 = [300_2, -300_2, 32767_2]
  a4 = [70000, -70000, 2147483647]
  ar = [1.5, -2.25, 3e30]
  ad = [1d0 / 3d0, -2d100, 4d-300]
  a8 = [1_8, -9000000000_8, 9223372036854775807_8]

  ! ---------------------------------------------------------- define
  err = nfmpi_create(MPI_COMM_WORLD, outpath(), &
                     ior(NF_CLOBBER, NF_64BIT_DATA), MPI_INFO_NULL, ncid)
  call check(err, 'create')
  call check(nfmpi_def_dim(ncid, 'x', int(nx, MPI_OFFSET_KIND), dx), 'x')
  call check(nfmpi_def_dim(ncid, 'y', int(nyr * nprocs, MPI_OFFSET_KIND), &
                           dy), 'y')
  call check(nfmpi_def_dim(ncid, 'time', NFMPI_UNLIMITED, dt), 'time')
  dims = [dx, dy]
  do k = 1, 7
    call check(nfmpi_def_var(ncid, trim(vnames(k)), vtypes(k), 2, dims, &
                             vids(k)), 'def_var')
  end do
  call check(nfmpi_def_var(ncid, 'rec', NF_INT, 2, [dx, dt], vrec), 'rec')
  call check(nfmpi_def_var(ncid, 'scalar', NF_DOUBLE, 0, dims, vsc), 'sc')
  call check(nfmpi_def_var(ncid, 'strided', NF_INT, 1, [dx + 0], vsv), 'sv')
  call check(nfmpi_def_var(ncid, 'transposed', NF_INT, 2, dims, vtr), 'tr')
  call check(nfmpi_def_var(ncid, 'nonblocking', NF_INT, 2, [dx, dy], vnb), &
             'nb')

  n8 = 3
  call check(nfmpi_put_att_text(ncid, NF_GLOBAL, 'title   ', 11_8, &
                                'Fortran 77 '), 'title')
  call check(nfmpi_put_att_int1(ncid, NF_GLOBAL, 'g_int1', NF_INT1, n8, a1), &
             'a1')
  call check(nfmpi_put_att_int2(ncid, NF_GLOBAL, 'g_int2', NF_INT2, n8, a2), &
             'a2')
  call check(nfmpi_put_att_int(ncid, NF_GLOBAL, 'g_int', NF_INT, n8, a4), &
             'a4')
  call check(nfmpi_put_att_real(ncid, NF_GLOBAL, 'g_real', NF_REAL, n8, ar), &
             'ar')
  call check(nfmpi_put_att_double(ncid, NF_GLOBAL, 'g_double', NF_DOUBLE, &
                                  n8, ad), 'ad')
  call check(nfmpi_put_att_int8(ncid, NF_GLOBAL, 'g_int8', NF_INT64, n8, a8), &
             'a8')
  ! A type conversion on the way: doubles stored as shorts.
  call check(nfmpi_put_att_double(ncid, vids(4), 'valid_range', NF_SHORT, &
                                  2_8, [0d0, 1000d0]), 'range')
  call check(nfmpi_put_att_text(ncid, vids(6), 'units', 5_8, 'metre'), 'u')
  call check(nfmpi_enddef(ncid), 'enddef')

  ! ---------------------------------------------------- collective puts
  st = [1_8, int(rank * nyr + 1, 8)]
  ct = [int(nx, 8), int(nyr, 8)]
  call check(nfmpi_put_vara_text_all(ncid, vids(1), st, ct, ctext(1) // &
                                     ctext(2)), 'text')
  call check(nfmpi_put_vara_int1_all(ncid, vids(2), st, ct, i1), 'int1')
  call check(nfmpi_put_vara_int2_all(ncid, vids(3), st, ct, i2), 'int2')
  call check(nfmpi_put_vara_int_all(ncid, vids(4), st, ct, i4), 'int')
  call check(nfmpi_put_vara_real_all(ncid, vids(5), st, ct, r4), 'real')
  call check(nfmpi_put_vara_double_all(ncid, vids(6), st, ct, r8), 'double')
  call check(nfmpi_put_vara_int8_all(ncid, vids(7), st, ct, i8), 'int8')
  ! The transposed buffer: element (x=i, y=j) is tr(j, i).
  im = [int(nyr, 8), 1_8]
  sd = [1_8, 1_8]
  call check(nfmpi_put_varm_int_all(ncid, vtr, st, ct, sd, im, tr), 'varm')
  ! One record per rank.
  rec = [(100 * rank + i, i = 1, nx)]
  call check(nfmpi_put_vara_int_all(ncid, vrec, [1_8, int(rank + 1, 8)], &
                                    [int(nx, 8), 1_8], rec), 'rec')
  sc = 2.5d0
  call check(nfmpi_put_var1_double_all(ncid, vsc, one, sc), 'scalar')

  ! ------------------------------------------------- independent puts
  call check(nfmpi_begin_indep_data(ncid), 'begin_indep')
  if (rank == 0) then
    sv = [11, 33, 55, 77]
    call check(nfmpi_put_vars_int(ncid, vsv, [1_8], [2_8], [2_8], sv), 'vs')
    call check(nfmpi_put_var1_int(ncid, vsv, [2_8], 22), 'v1')
    call check(nfmpi_put_var1_int(ncid, vsv, [4_8], 44), 'v1b')
  end if
  call check(nfmpi_end_indep_data(ncid), 'end_indep')

  ! ----------------------------------------------------- nonblocking
  ! Row 1 of this rank by iput, row 2 by bput.
  nb = [(rank * 10 + i, i = 1, nx)]
  bp = -nb
  call check(nfmpi_buffer_attach(ncid, 1024_8), 'attach')
  call check(nfmpi_iput_vara_int(ncid, vnb, st, [int(nx, 8), 1_8], nb, &
                                 reqs(1)), 'iput')
  call check(nfmpi_bput_vara_int(ncid, vnb, st + [0_8, 1_8], &
                                 [int(nx, 8), 1_8], bp, reqs(2)), 'bput')
  call check(nfmpi_wait_all(ncid, 2, reqs, sts), 'wait_all')
  call check(sts(1), 'status 1')
  call check(sts(2), 'status 2')
  call check(nfmpi_buffer_detach(ncid), 'detach')

  ! --------------------------------------------------------- errors
  call expect(nfmpi_put_vara_int_all(ncid, 99, st, ct, i4), NF_ENOTVAR, &
              'bad varid')
  call expect(nfmpi_get_var1_int_all(ncid, vids(4), [1_8, 999_8], k), &
              NF_EINVALCOORDS, 'index past the end')
  call expect(nfmpi_inq_varid(ncid, 'nosuch', k), NF_ENOTVAR, 'inq_varid')
  txt = nfmpi_strerror(NF_ENOTVAR)
  call truth(len_trim(txt) > 0, 'strerror text')
  txt = nfmpi_inq_libvers()
  call truth(len_trim(txt) > 0, 'libvers text')
  ! Only the first pathlen characters: PnetCDF writes a NUL after them.
  call check(nfmpi_inq_path(ncid, k, txt), 'inq_path')
  name = outpath()
  call truth(k == len_trim(name), 'path length')
  call truth(txt(1:k) == name(1:k), 'path')
  call check(nfmpi_inq_format(ncid, k), 'inq_format')
  call truth(k == NF_FORMAT_CDF5, 'format')
  call check(nfmpi_inq_header_size(ncid, n8), 'header size')
  call truth(n8 > 0, 'header size value')
  call check(nfmpi_inq_varoffset(ncid, vids(1), n8), 'varoffset')
  call truth(n8 > 0, 'variable offset')
  call check(nfmpi_get_file_info(ncid, k), 'get_file_info')
  call truth(k /= MPI_INFO_NULL, 'file info handle')
  call MPI_Info_free(k, ierr)
  call check(nfmpi_inq_put_size(ncid, n8), 'inq_put_size')
  call truth(n8 > 0, 'bytes written')
  call check(nfmpi_sync(ncid), 'sync')
  call check(nfmpi_close(ncid), 'close')

  ! -------------------------------------------------------- read back
  call check(nfmpi_open(MPI_COMM_WORLD, outpath(), NF_NOWRITE, &
                        MPI_INFO_NULL, ncid), 'open')
  call check(nfmpi_inq(ncid, ndims, nvars, ngatts, unlim), 'inq')
  call truth(ndims == 3 .and. nvars == 12 .and. ngatts == 7, 'inq counts')
  call truth(unlim == dt, 'unlimited dim')
  call check(nfmpi_inq_varid(ncid, 'v_double', k), 'inq_varid')
  call truth(k == vids(6), 'varid')
  call check(nfmpi_inq_var(ncid, k, name, xt, nd, dims, na), 'inq_var')
  call truth(name == 'v_double' .and. xt == NF_DOUBLE .and. nd == 2 &
             .and. na == 1, 'inq_var values')
  call truth(dims(1) == dx .and. dims(2) == dy, 'dimids in Fortran order')
  call check(nfmpi_inq_dim(ncid, dy, name, n8), 'inq_dim')
  call truth(name == 'y' .and. n8 == nyr * nprocs, 'dim y')
  call check(nfmpi_inq_attlen(ncid, NF_GLOBAL, 'title', n8), 'attlen')
  call truth(n8 == 11, 'title length')
  txt = ' '
  call check(nfmpi_get_att_text(ncid, NF_GLOBAL, 'title', txt), 'get title')
  call truth(txt == 'Fortran 77', 'title value')
  call check(nfmpi_get_att_int1(ncid, NF_GLOBAL, 'g_int1', ga1), 'g1')
  call check(nfmpi_get_att_int2(ncid, NF_GLOBAL, 'g_int2', ga2), 'g2')
  call check(nfmpi_get_att_int(ncid, NF_GLOBAL, 'g_int', ga4), 'g4')
  call check(nfmpi_get_att_real(ncid, NF_GLOBAL, 'g_real', gar), 'gr')
  call check(nfmpi_get_att_double(ncid, NF_GLOBAL, 'g_double', gad), 'gd')
  call check(nfmpi_get_att_int8(ncid, NF_GLOBAL, 'g_int8', ga8), 'g8')
  call truth(all(ga1 == a1) .and. all(ga2 == a2) .and. all(ga4 == a4), &
             'integer attributes')
  call truth(all(gar == ar) .and. all(gad == ad) .and. all(ga8 == a8), &
             'real and int8 attributes')
  call check(nfmpi_get_att_int(ncid, vids(4), 'valid_range', ga4), 'range')
  call truth(ga4(1) == 0 .and. ga4(2) == 1000, 'converted attribute')
  call check(nfmpi_inq_atttype(ncid, vids(4), 'valid_range', xt), 'atttype')
  call truth(xt == NF_SHORT, 'attribute type')

  call check(nfmpi_get_vara_text_all(ncid, vids(1), st, ct, txt), 'g text')
  call truth(txt(1:2 * nx) == ctext(1) // ctext(2), 'text values')
  call check(nfmpi_get_vara_int1_all(ncid, vids(2), st, ct, gi1), 'g int1')
  call check(nfmpi_get_vara_int2_all(ncid, vids(3), st, ct, gi2), 'g int2')
  call check(nfmpi_get_vara_int_all(ncid, vids(4), st, ct, gi4), 'g int')
  call check(nfmpi_get_vara_real_all(ncid, vids(5), st, ct, gr4), 'g real')
  call check(nfmpi_get_vara_double_all(ncid, vids(6), st, ct, gr8), 'g dbl')
  call check(nfmpi_get_vara_int8_all(ncid, vids(7), st, ct, gi8), 'g int8')
  call truth(all(gi1 == i1) .and. all(gi2 == i2) .and. all(gi4 == i4), &
             'integer values')
  call truth(all(gr4 == r4) .and. all(gr8 == r8) .and. all(gi8 == i8), &
             'real and int8 values')
  ! The transposed variable holds what v_int holds, negated.
  call check(nfmpi_get_vara_int_all(ncid, vtr, st, ct, gi4), 'g tr')
  call truth(all(gi4 == -i4 / 1000), 'varm layout')
  call check(nfmpi_get_varm_int_all(ncid, vtr, st, ct, sd, im, gtr), 'g varm')
  call truth(all(gtr == tr), 'varm read')
  call check(nfmpi_get_var_int_all(ncid, vsv, gsv), 'g strided')
  call truth(all(gsv(1:4) == [11, 22, 33, 44]), 'strided')
  call check(nfmpi_get_var1_double_all(ncid, vsc, one, gsc), 'g scalar')
  call truth(gsc == sc, 'scalar')
  call check(nfmpi_inq_dimlen(ncid, dt, n8), 'numrecs')
  call truth(n8 == nprocs, 'record count')
  call check(nfmpi_get_vara_int_all(ncid, vrec, [1_8, int(rank + 1, 8)], &
                                    [int(nx, 8), 1_8], grec), 'g rec')
  call truth(all(grec == rec), 'record values')
  ! Nonblocking reads of the nonblocking variable.
  call check(nfmpi_iget_vara_int(ncid, vnb, st, [int(nx, 8), 1_8], gnb, &
                                 reqs(1)), 'iget 1')
  call check(nfmpi_iget_vara_int(ncid, vnb, st + [0_8, 1_8], &
                                 [int(nx, 8), 1_8], gbp, reqs(2)), 'iget 2')
  call check(nfmpi_wait_all(ncid, 2, reqs, sts), 'wait_all read')
  call truth(all(gnb == nb) .and. all(gbp == bp), 'nonblocking values')
  call check(nfmpi_close(ncid), 'close 2')
  call finish()
end program t_f77_core
