! flash_io_f.F90 -- the FLASH-IO checkpoint (seeds 000 and 001) in
! Fortran against the PnetCDF Fortran API (nfmpi_*): the checkpoint file
! of bench/flash_io.c, for measuring what the Fortran binding adds over
! the C API. Every rank holds nb blocks (base + mod(rank+1, 3) - 1, as
! flash_io.c deals them) of FLASH's solution array
!
!     unk(24, 1-4:nxb+4, 1-4:nyb+4, 1-4:nzb+4, nb)
!
! with 4 guard cells around each block interior and the 24 variables
! innermost, and writes, after the previous rank's blocks, the 24 double
! variables unk_<name>(nxb, nyb, nzb, blocks) and the per-block metadata
! (lrefine, nodetype, gid, coordinates, blocksize, bndbox). A variable's
! interior is an MPI subarray of unk passed as the buffer type of the
! flexible API, unk itself passed whole, so nothing is copied; the
! metadata are contiguous arrays. The file, the values and the methods
! are flash_io.c's chk file, so a file written here is byte-identical to
! the C program's of the same case:
!   pervar    one collective put per variable (nfmpi_put_vara_all, or the
!             typed _all call for the metadata)
!   combined  one nonblocking put per variable, one nfmpi_wait_all
!   indep     one independent put per variable
! Every repetition writes, reads back and checks every value, guard
! cells of the read buffer included (exit status 1 on a wrong one); the
! csv lines (-c) are flash_io.c's for its "chk" case.
program flash_io_f
  use mpi
  use pnetcdf
  use fbench_mod
  implicit none
  integer, parameter :: NUNK = 24, NG = 4, NGID = 15, NDIM = 3, NMETA = 6
  integer, parameter :: NCHK = NUNK + NMETA, MAX_REPORTS = 5
  double precision, parameter :: WRITE_GUARD = -7777d0, READ_FILL = -9999d0
  character(len=4), parameter :: unk_names(NUNK) = [character(len=4) :: &
      'dens', 'velx', 'vely', 'velz', 'pres', 'ener', 'temp', 'gamc', &
      'game', 'enuc', 'gpot', 'eint', 'divv', 'vort', 'mach', 'shok', &
      'cool', 'heat', 'flam', 'fuel', 'ash_', 'sumy', 'yeel', 'abar']
  integer :: rank, nprocs, ierr, status, info, i, n, rep, k, idx, m
  integer(8) :: v8, nb, first, tot, bytes, bad, nbad
  double precision, allocatable :: unk(:, :, :, :, :), unk_r(:, :, :, :, :)
  integer, allocatable :: lref(:), ntype(:), gid(:, :)
  integer, allocatable :: lref_r(:), ntype_r(:), gid_r(:, :)
  double precision, allocatable :: coord(:, :), bsize(:, :), bbox(:, :, :)
  double precision, allocatable :: coord_r(:, :), bsize_r(:, :)
  double precision, allocatable :: bbox_r(:, :, :), times(:, :, :)
  integer :: subtype(NUNK)
  double precision :: t(NPHASES)
  character(len=:), allocatable :: base, path
  character(len=64) :: what
  logical :: ok

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  status = 0
  nb = 80
  n = 8
  ok = parse_options('flash_io_f', 'nb', rank, &
      'usage: flash_io_f [-n blocks per rank] [-b block edge 1..64]')
  do i = 1, nown
    select case (own_flag(i))
    case ('n')
      call parse_i8(own_val(i), 1_8, 100000_8, nb, ok)
    case ('b')
      call parse_i8(own_val(i), 1_8, 64_8, v8, ok)
      n = int(v8)
    end select
  end do
  if (.not. ok) then
    status = EXIT_USAGE
  else
    info = env_info()
    base = file_base('flash_io_f')
    call decompose()
    call fill()
    call make_types()
    allocate(times(NPHASES, opt_reps, NMETHODS))
    do rep = 1 - opt_warmup, opt_reps
      do k = 0, nmeth - 1
        idx = mod(k + rep + nmeth * 100000, nmeth) + 1
        m = meth(idx)
        write (what, '(a,i0,1x,a,a)') 'rep ', rep, trim(method_names(m)), &
            ' chk'
        path = base // '.' // trim(method_names(m)) // '_chk.nc'
        call clear_read()
        call write_file(m, t(1:3))
        call read_file(m, t(4:6))
        bad = fail_count(count_wrong())
        if (bad /= 0) then
          if (rank == 0) write (0, '(a,a,a,i0,a)') 'flash_io_f: FAILED: ', &
              trim(what), ': ', bad, ' wrong values read back'
          status = 1
        end if
        if (rank == 0 .and. .not. (opt_keep .and. (rep == opt_reps .or. &
            status /= 0))) call remove_file(path)
        if (status /= 0) exit
        if (rep >= 1) times(:, rep, m + 1) = t
      end do
      if (status /= 0) exit
    end do
    if (status == 0 .and. rank == 0) call report()
    do i = 1, NUNK
      if (nb > 0) call MPI_Type_free(subtype(i), ierr)
    end do
    if (info /= MPI_INFO_NULL) call MPI_Info_free(info, ierr)
    ! A main program's allocatables live to the end; freed here so that a
    ! leak checker sees only real leaks.
    deallocate(unk, unk_r, lref, ntype, gid, coord, bsize, bbox, lref_r, &
               ntype_r, gid_r, coord_r, bsize_r, bbox_r, times, base)
    if (allocated(path)) deallocate(path)
  end if
  call MPI_Finalize(ierr)
  if (status /= 0) stop status

contains

  ! flash_io.c's decompose: blocks vary by one around the base.
  subroutine decompose()
    integer(8) :: before

    nb = nb + mod(rank + 1, 3) - 1
    before = 0
    call MPI_Exscan(nb, before, 1, MPI_INTEGER8, MPI_SUM, MPI_COMM_WORLD, &
                    ierr)
    first = 0
    if (rank > 0) first = before
    call MPI_Allreduce(nb, tot, 1, MPI_INTEGER8, MPI_SUM, MPI_COMM_WORLD, &
                       ierr)
    bytes = tot * (NUNK * int(n, 8)**3 * 8 + 4 + 4 + NGID * 4 + &
                   NDIM * 8 * 2 + NDIM * 2 * 8)
  end subroutine decompose

  ! The values of flash_io.c, 0-based block gb, variable v and cell.
  double precision function unk_value(v, gb, z, y, x)
    integer, intent(in) :: v, z, y, x
    integer(8), intent(in) :: gb

    unk_value = dble(v + 1) * 1d4 + &
                dble(((gb * n + z) * n + y) * n + x) * 0.5d0
  end function unk_value

  integer function lrefine_of(gb)
    integer(8), intent(in) :: gb

    lrefine_of = 1 + int(mod(gb, 6_8))
  end function lrefine_of

  double precision function coord_of(gb, d)
    integer(8), intent(in) :: gb
    integer, intent(in) :: d

    coord_of = 0.5d0 + dble(gb) * 0.25d0 + dble(d) * 0.125d0
  end function coord_of

  double precision function bsize_of(gb)
    integer(8), intent(in) :: gb

    bsize_of = 1d0 / dble(2**(lrefine_of(gb) - 1))
  end function bsize_of

  ! The write buffers, and the read ones (allocated, filled later).
  subroutine fill()
    integer :: v, x, y, z, d, kk
    integer(8) :: b, gb

    allocate(unk(NUNK, 1-NG:n+NG, 1-NG:n+NG, 1-NG:n+NG, nb))
    allocate(unk_r, mold=unk)
    allocate(lref(nb), ntype(nb), gid(NGID, nb), coord(NDIM, nb), &
             bsize(NDIM, nb), bbox(2, NDIM, nb))
    allocate(lref_r(nb), ntype_r(nb), gid_r(NGID, nb), coord_r(NDIM, nb), &
             bsize_r(NDIM, nb), bbox_r(2, NDIM, nb))
    unk = WRITE_GUARD
    do b = 1, nb
      gb = first + b - 1
      do z = 0, n - 1
        do y = 0, n - 1
          do x = 0, n - 1
            do v = 0, NUNK - 1
              unk(v + 1, x + 1, y + 1, z + 1, b) = unk_value(v, gb, z, y, x)
            end do
          end do
        end do
      end do
      lref(b) = lrefine_of(gb)
      ntype(b) = 1
      if (mod(gb, 4_8) == 0) ntype(b) = 2
      do kk = 0, NGID - 1
        gid(kk + 1, b) = int(mod((gb * NGID + kk) * 7919, 65536_8)) - 1
      end do
      do d = 0, NDIM - 1
        coord(d + 1, b) = coord_of(gb, d)
        bsize(d + 1, b) = bsize_of(gb)
        bbox(1, d + 1, b) = coord_of(gb, d) - 0.5d0 * bsize_of(gb)
        bbox(2, d + 1, b) = coord_of(gb, d) + 0.5d0 * bsize_of(gb)
      end do
    end do
  end subroutine fill

  ! Variable v's interiors in every block of unk (or unk_r).
  subroutine make_types()
    integer :: v, w

    w = n + 2 * NG
    if (nb == 0) return
    do v = 1, NUNK
      call MPI_Type_create_subarray(5, [NUNK, w, w, w, int(nb)], &
          [1, n, n, n, int(nb)], [v - 1, NG, NG, NG, 0], MPI_ORDER_FORTRAN, &
          MPI_DOUBLE_PRECISION, subtype(v), ierr)
      call MPI_Type_commit(subtype(v), ierr)
    end do
  end subroutine make_types

  subroutine clear_read()
    unk_r = READ_FILL
    lref_r = -1
    ntype_r = -1
    gid_r = huge(0)
    coord_r = READ_FILL
    bsize_r = READ_FILL
    bbox_r = READ_FILL
  end subroutine clear_read

  ! Create + define (open_w), the variables (write), close (close_w).
  subroutine write_file(mm, tw)
    integer, intent(in) :: mm
    double precision, intent(out) :: tw(3)
    integer :: ncid, dims(7), varids(NCHK), v
    integer, parameter :: BLK = 1, NZB = 2, NYB = 3, NXB = 4, GL = 5, &
                          ND = 6, TWO = 7
    double precision :: t0

    t0 = phase_start()
    call check(nfmpi_create(MPI_COMM_WORLD, path, create_mode(opt_format), &
                            info, ncid), 'nfmpi_create')
    ! flash_io.c's order: each dimension as a variable first uses it.
    call def_dim(ncid, 'blocks', tot, dims(BLK))
    call def_dim(ncid, 'nzb', int(n, 8), dims(NZB))
    call def_dim(ncid, 'nyb', int(n, 8), dims(NYB))
    call def_dim(ncid, 'nxb', int(n, 8), dims(NXB))
    do v = 1, NUNK
      call def_var(ncid, 'unk_' // unk_names(v), NF_DOUBLE, &
                   [dims(NXB), dims(NYB), dims(NZB), dims(BLK)], varids(v))
    end do
    call def_var(ncid, 'lrefine', NF_INT, [dims(BLK)], varids(NUNK + 1))
    call def_var(ncid, 'nodetype', NF_INT, [dims(BLK)], varids(NUNK + 2))
    call def_dim(ncid, 'gid_len', int(NGID, 8), dims(GL))
    call def_var(ncid, 'gid', NF_INT, [dims(GL), dims(BLK)], varids(NUNK + 3))
    call def_dim(ncid, 'ndim', int(NDIM, 8), dims(ND))
    call def_var(ncid, 'coordinates', NF_DOUBLE, [dims(ND), dims(BLK)], &
                 varids(NUNK + 4))
    call def_var(ncid, 'blocksize', NF_DOUBLE, [dims(ND), dims(BLK)], &
                 varids(NUNK + 5))
    call def_dim(ncid, 'two', 2_8, dims(TWO))
    call def_var(ncid, 'bndbox', NF_DOUBLE, [dims(TWO), dims(ND), &
                 dims(BLK)], varids(NUNK + 6))
    call check(nfmpi_enddef(ncid), 'nfmpi_enddef')
    tw(1) = phase_end(t0)
    t0 = phase_start()
    call move(ncid, varids, mm, .true.)
    tw(2) = phase_end(t0)
    t0 = phase_start()
    call check(nfmpi_close(ncid), 'nfmpi_close')
    tw(3) = phase_end(t0)
  end subroutine write_file

  subroutine def_dim(ncid, name, len, id)
    integer, intent(in) :: ncid
    character(len=*), intent(in) :: name
    integer(8), intent(in) :: len
    integer, intent(out) :: id

    call check(nfmpi_def_dim(ncid, name, int(len, MPI_OFFSET_KIND), id), &
               'nfmpi_def_dim ' // name)
  end subroutine def_dim

  subroutine def_var(ncid, name, xtype, dimids, id)
    integer, intent(in) :: ncid, xtype, dimids(:)
    character(len=*), intent(in) :: name
    integer, intent(out) :: id

    call check(nfmpi_def_var(ncid, name, xtype, size(dimids), dimids, id), &
               'nfmpi_def_var ' // name)
  end subroutine def_var

  subroutine read_file(mm, tr)
    integer, intent(in) :: mm
    double precision, intent(out) :: tr(3)
    integer :: ncid, varids(NCHK), v
    double precision :: t0

    t0 = phase_start()
    call check(nfmpi_open(MPI_COMM_WORLD, path, NF_NOWRITE, info, ncid), &
               'nfmpi_open')
    do v = 1, NUNK
      call check(nfmpi_inq_varid(ncid, 'unk_' // unk_names(v), varids(v)), &
                 'nfmpi_inq_varid')
    end do
    call check(nfmpi_inq_varid(ncid, 'lrefine', varids(NUNK + 1)), 'inq')
    call check(nfmpi_inq_varid(ncid, 'nodetype', varids(NUNK + 2)), 'inq')
    call check(nfmpi_inq_varid(ncid, 'gid', varids(NUNK + 3)), 'inq')
    call check(nfmpi_inq_varid(ncid, 'coordinates', varids(NUNK + 4)), 'inq')
    call check(nfmpi_inq_varid(ncid, 'blocksize', varids(NUNK + 5)), 'inq')
    call check(nfmpi_inq_varid(ncid, 'bndbox', varids(NUNK + 6)), 'inq')
    tr(1) = phase_end(t0)
    t0 = phase_start()
    call move(ncid, varids, mm, .false.)
    tr(2) = phase_end(t0)
    t0 = phase_start()
    call check(nfmpi_close(ncid), 'nfmpi_close')
    tr(3) = phase_end(t0)
  end subroutine read_file

  ! Every variable of the checkpoint by method mm, in schema order.
  subroutine move(ncid, varids, mm, writing)
    integer, intent(in) :: ncid, varids(NCHK), mm
    logical, intent(in) :: writing
    integer(MPI_OFFSET_KIND) :: st(4), ct(4), cnt1, s1(1), c1(1), s2(2)
    integer(MPI_OFFSET_KIND) :: s3(3)
    integer :: reqs(NCHK), sts(NCHK), v, btype

    if (mm == M_INDEP) call check(nfmpi_begin_indep_data(ncid), &
                                  'nfmpi_begin_indep_data')
    st = [1_8, 1_8, 1_8, first + 1]
    ct = [int(n, 8), int(n, 8), int(n, 8), nb]
    cnt1 = 1
    do v = 1, NUNK
      if (nb > 0) then
        btype = subtype(v)
      else
        btype = MPI_DOUBLE_PRECISION
        cnt1 = 0
      end if
      if (writing) then
        call put_flex(ncid, varids(v), mm, st, ct, unk, cnt1, btype, reqs(v))
      else
        call get_flex(ncid, varids(v), mm, st, ct, unk_r, cnt1, btype, &
                      reqs(v))
      end if
    end do
    s1 = [first + 1]
    c1 = [nb]
    s2 = [1_8, first + 1]
    s3 = [1_8, 1_8, first + 1]
    if (writing) then
      call put_int(ncid, varids(NUNK + 1), mm, s1, c1, lref, reqs(NUNK + 1))
      call put_int(ncid, varids(NUNK + 2), mm, s1, c1, ntype, reqs(NUNK + 2))
      call put_int(ncid, varids(NUNK + 3), mm, s2, [int(NGID, 8), nb], gid, &
                   reqs(NUNK + 3))
      call put_dbl(ncid, varids(NUNK + 4), mm, s2, [int(NDIM, 8), nb], &
                   coord, reqs(NUNK + 4))
      call put_dbl(ncid, varids(NUNK + 5), mm, s2, [int(NDIM, 8), nb], &
                   bsize, reqs(NUNK + 5))
      call put_dbl(ncid, varids(NUNK + 6), mm, s3, [2_8, int(NDIM, 8), nb], &
                   bbox, reqs(NUNK + 6))
    else
      call get_int(ncid, varids(NUNK + 1), mm, s1, c1, lref_r, reqs(NUNK + 1))
      call get_int(ncid, varids(NUNK + 2), mm, s1, c1, ntype_r, &
                   reqs(NUNK + 2))
      call get_int(ncid, varids(NUNK + 3), mm, s2, [int(NGID, 8), nb], &
                   gid_r, reqs(NUNK + 3))
      call get_dbl(ncid, varids(NUNK + 4), mm, s2, [int(NDIM, 8), nb], &
                   coord_r, reqs(NUNK + 4))
      call get_dbl(ncid, varids(NUNK + 5), mm, s2, [int(NDIM, 8), nb], &
                   bsize_r, reqs(NUNK + 5))
      call get_dbl(ncid, varids(NUNK + 6), mm, s3, [2_8, int(NDIM, 8), nb], &
                   bbox_r, reqs(NUNK + 6))
    end if
    if (mm == M_COMBINED) then
      call check(nfmpi_wait_all(ncid, NCHK, reqs, sts), 'nfmpi_wait_all')
      do v = 1, NCHK
        call check(sts(v), 'a request of nfmpi_wait_all')
      end do
    end if
    if (mm == M_INDEP) call check(nfmpi_end_indep_data(ncid), &
                                  'nfmpi_end_indep_data')

  end subroutine move


  subroutine put_int(ncid, varid, mm, s, c, buf, req)
    integer, intent(in) :: ncid, varid, mm
    integer, intent(inout) :: req
    integer(MPI_OFFSET_KIND), intent(in) :: s(:), c(:)
    ! PnetCDF's module declares a put's buffer intent(inout).
    integer :: buf(*)

    select case (mm)
    case (M_PERVAR)
      call check(nfmpi_put_vara_int_all(ncid, varid, s, c, &
                 buf), 'nfmpi_put_vara_int_all')
    case (M_COMBINED)
      call check(nfmpi_iput_vara_int(ncid, varid, s, c, buf, &
                 req), 'nfmpi_iput_vara_int')
    case default
      call check(nfmpi_put_vara_int(ncid, varid, s, c, buf), &
                 'nfmpi_put_vara_int')
    end select
  end subroutine put_int

  subroutine get_int(ncid, varid, mm, s, c, buf, req)
    integer, intent(in) :: ncid, varid, mm
    integer, intent(inout) :: req
    integer(MPI_OFFSET_KIND), intent(in) :: s(:), c(:)
    integer, intent(inout) :: buf(*)

    select case (mm)
    case (M_PERVAR)
      call check(nfmpi_get_vara_int_all(ncid, varid, s, c, &
                 buf), 'nfmpi_get_vara_int_all')
    case (M_COMBINED)
      call check(nfmpi_iget_vara_int(ncid, varid, s, c, buf, &
                 req), 'nfmpi_iget_vara_int')
    case default
      call check(nfmpi_get_vara_int(ncid, varid, s, c, buf), &
                 'nfmpi_get_vara_int')
    end select
  end subroutine get_int

  subroutine put_dbl(ncid, varid, mm, s, c, buf, req)
    integer, intent(in) :: ncid, varid, mm
    integer, intent(inout) :: req
    integer(MPI_OFFSET_KIND), intent(in) :: s(:), c(:)
    double precision :: buf(*)

    select case (mm)
    case (M_PERVAR)
      call check(nfmpi_put_vara_double_all(ncid, varid, s, c, &
                 buf), 'nfmpi_put_vara_double_all')
    case (M_COMBINED)
      call check(nfmpi_iput_vara_double(ncid, varid, s, c, &
                 buf, req), 'nfmpi_iput_vara_double')
    case default
      call check(nfmpi_put_vara_double(ncid, varid, s, c, &
                 buf), 'nfmpi_put_vara_double')
    end select
  end subroutine put_dbl

  subroutine get_dbl(ncid, varid, mm, s, c, buf, req)
    integer, intent(in) :: ncid, varid, mm
    integer, intent(inout) :: req
    integer(MPI_OFFSET_KIND), intent(in) :: s(:), c(:)
    double precision, intent(inout) :: buf(*)

    select case (mm)
    case (M_PERVAR)
      call check(nfmpi_get_vara_double_all(ncid, varid, s, c, &
                 buf), 'nfmpi_get_vara_double_all')
    case (M_COMBINED)
      call check(nfmpi_iget_vara_double(ncid, varid, s, c, &
                 buf, req), 'nfmpi_iget_vara_double')
    case default
      call check(nfmpi_get_vara_double(ncid, varid, s, c, &
                 buf), 'nfmpi_get_vara_double')
    end select
  end subroutine get_dbl

  ! One flexible put of unk (whole, no copy) through buffer type bt.
  subroutine put_flex(ncid, varid, mm, st, ct, buf, cnt, bt, req)
    integer, intent(in) :: ncid, varid, mm, bt
    integer(MPI_OFFSET_KIND), intent(in) :: st(4), ct(4), cnt
    double precision :: buf(*)
    integer, intent(out) :: req

    req = NF_REQ_NULL
    select case (mm)
    case (M_PERVAR)
      call check(nfmpi_put_vara_all(ncid, varid, st, ct, buf, cnt, bt), &
                 'nfmpi_put_vara_all')
    case (M_COMBINED)
      call check(nfmpi_iput_vara(ncid, varid, st, ct, buf, cnt, bt, req), &
                 'nfmpi_iput_vara')
    case default
      call check(nfmpi_put_vara(ncid, varid, st, ct, buf, cnt, bt), &
                 'nfmpi_put_vara')
    end select
  end subroutine put_flex

  subroutine get_flex(ncid, varid, mm, st, ct, buf, cnt, bt, req)
    integer, intent(in) :: ncid, varid, mm, bt
    integer(MPI_OFFSET_KIND), intent(in) :: st(4), ct(4), cnt
    double precision, intent(inout) :: buf(*)
    integer, intent(out) :: req

    req = NF_REQ_NULL
    select case (mm)
    case (M_PERVAR)
      call check(nfmpi_get_vara_all(ncid, varid, st, ct, buf, cnt, bt), &
                 'nfmpi_get_vara_all')
    case (M_COMBINED)
      call check(nfmpi_iget_vara(ncid, varid, st, ct, buf, cnt, bt, req), &
                 'nfmpi_iget_vara')
    case default
      call check(nfmpi_get_vara(ncid, varid, st, ct, buf, cnt, bt), &
                 'nfmpi_get_vara')
    end select
  end subroutine get_flex

  ! Wrong values on this rank: every element of unk_r (guard cells must
  ! still hold READ_FILL) and of the metadata.
  integer(8) function count_wrong()
    integer :: v, x, y, z, d, kk
    integer(8) :: b, gb
    double precision :: want
    logical :: inside

    nbad = 0
    do b = 1, nb
      gb = first + b - 1
      do z = 1 - NG, n + NG
        do y = 1 - NG, n + NG
          do x = 1 - NG, n + NG
            inside = min(x, y, z) >= 1 .and. max(x, y, z) <= n
            do v = 1, NUNK
              want = READ_FILL
              if (inside) want = unk_value(v - 1, gb, z - 1, y - 1, x - 1)
              if (unk_r(v, x, y, z, b) /= want) call wrong('unk_' // &
                  unk_names(v), gb, unk_r(v, x, y, z, b), want)
            end do
          end do
        end do
      end do
      if (lref_r(b) /= lref(b)) call wrong('lrefine', gb, dble(lref_r(b)), &
                                           dble(lref(b)))
      if (ntype_r(b) /= ntype(b)) call wrong('nodetype', gb, &
                                             dble(ntype_r(b)), dble(ntype(b)))
      do kk = 1, NGID
        if (gid_r(kk, b) /= gid(kk, b)) call wrong('gid', gb, &
            dble(gid_r(kk, b)), dble(gid(kk, b)))
      end do
      do d = 1, NDIM
        if (coord_r(d, b) /= coord(d, b)) call wrong('coordinates', gb, &
            coord_r(d, b), coord(d, b))
        if (bsize_r(d, b) /= bsize(d, b)) call wrong('blocksize', gb, &
            bsize_r(d, b), bsize(d, b))
        do kk = 1, 2
          if (bbox_r(kk, d, b) /= bbox(kk, d, b)) call wrong('bndbox', gb, &
              bbox_r(kk, d, b), bbox(kk, d, b))
        end do
      end do
    end do
    count_wrong = nbad
  end function count_wrong


  subroutine wrong(var, blk, got, exp)
    character(len=*), intent(in) :: var
    integer(8), intent(in) :: blk
    double precision, intent(in) :: got, exp

    nbad = nbad + 1
    if (nbad <= MAX_REPORTS) write (0, '(a,i0,a,a,a,a,a,i0,a,g0,a,g0)') &
        'flash_io_f: rank ', rank, ': ', trim(what), ': ', var, &
        ' block ', blk, ' read ', got, ' expected ', exp
  end subroutine wrong

  ! Rank 0: the median totals (unless -q) and the csv lines (-c).
  subroutine report()
    integer :: kk, mm

    do kk = 1, nmeth
      mm = meth(kk)
      if (.not. opt_quiet) write (*, '(a,a,a,i0,a,a,a,f10.4,a,f10.4,a)') &
          'flash_io_f: ', lib_name, ' np=', nprocs, ' chk ', &
          trim(method_names(mm)), ': write ', &
          median(sum(times(1:3, :, mm + 1), dim=1)), ' s, read ', &
          median(sum(times(4:6, :, mm + 1), dim=1)), ' s (median total)'
      if (opt_csv) call csv_lines('flash_io', 'chk', method_names(mm), &
                                  nprocs, bytes, times(:, :, mm + 1))
    end do
    if (.not. opt_quiet) write (*, '(a)') 'verify OK: every value read ' // &
        'back as written, by every method in every repetition'
  end subroutine report
end program flash_io_f
