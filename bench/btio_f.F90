! btio_f.F90 -- BTIO (seed 002) in Fortran against the PnetCDF Fortran API
! (nfmpi_*): the I/O of bench/btio.c, for measuring what the Fortran
! binding adds over the C API. A square number of ranks P = q*q share an
! X x Y x Z grid of 5-component double points cut into q x q x q cells by
! BT's multi-partition, each rank owning q cells; each dump appends one
! record of
!
!     double var(NUM_DUMPS, Z, Y, X, FIVE_DBL)   (Fortran: var(5,X,Y,Z,*))
!
! one request per cell. The file, the cells, the values and the methods
! are btio.c's, so a file written here is byte-identical to the C
! program's of the same case:
!   pervar    nfmpi_put_vara_double_all per cell
!   combined  nfmpi_iput_vara_double per cell, one nfmpi_wait_all per dump
!   indep     independent nfmpi_put_vara_double per cell
! Each cell's buffer is a contiguous piece of one array, passed as it is.
! Every repetition writes, reads back and checks every value (exit status
! 1 on a wrong one); the csv lines (-c) are btio.c's with the bench
! "btio", so the suite's table shows them beside the C rows.
program btio_f
  use mpi
  use pnetcdf
  use fbench_mod
  implicit none
  integer, parameter :: FIVE = 5, MAX_REPORTS = 5
  integer :: rank, nprocs, q, ierr, status, info, i, nv, c, k, rep, idx
  integer(8) :: grid(3), steps, bytes, step_elems, bad
  integer(8), allocatable :: cstart(:, :), ccount(:, :), celems(:)
  double precision, allocatable :: wbuf(:), rbuf(:), times(:, :, :)
  double precision :: t(NPHASES)
  character(len=:), allocatable :: base
  character(len=96) :: casename
  logical :: ok

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  status = 0
  grid = 24
  steps = 4
  ok = parse_options('btio_f', 'gs', rank, &
      'usage: btio_f [-g X,Y,Z] [-s steps] (square number of processes)')
  do i = 1, nown
    select case (own_flag(i))
    case ('g')
      call parse_list(own_val(i), grid, nv, ok)
      if (nv /= 3) ok = .false.
    case ('s')
      call parse_i8(own_val(i), 1_8, 100000_8, steps, ok)
    end select
  end do
  q = nint(sqrt(real(nprocs)))
  if (ok .and. q * q /= nprocs) then
    if (rank == 0) write (0, '(a)') 'btio_f: needs a square number of ' // &
                                    'processes (1, 4, 9, ...)'
    ok = .false.
  end if
  if (.not. ok) then
    status = EXIT_USAGE
  else
    info = env_info()
    base = file_base('btio_f')
    call place_cells()
    allocate(wbuf(steps * step_elems), rbuf(steps * step_elems))
    allocate(times(NPHASES, opt_reps, NMETHODS))
    call walk(wbuf, .false., 'fill', bad)
    bytes = grid(1) * grid(2) * grid(3) * FIVE * 8 * steps
    write (casename, '(a,i0,a,i0,a,i0,a,i0)') 'g', grid(1), 'x', grid(2), &
        'x', grid(3), '_s', steps
    call run_all()
    if (status == 0 .and. rank == 0) call report()
    if (info /= MPI_INFO_NULL) call MPI_Info_free(info, ierr)
    ! A main program's allocatables live to the end; freed here so that a
    ! leak checker sees only real leaks.
    deallocate(cstart, ccount, celems, wbuf, rbuf, times, base)
  end if
  call MPI_Finalize(ierr)
  if (status /= 0) stop status

contains

  ! bench_split_axis: n cut into parts near-equal pieces, the first
  ! mod(n, parts) one longer; piece i (0-based) at st (0-based), ct long.
  subroutine split_axis(n, parts, i, st, ct)
    integer(8), intent(in) :: n
    integer, intent(in) :: parts, i
    integer(8), intent(out) :: st, ct
    integer(8) :: b, r

    b = n / parts
    r = mod(n, int(parts, 8))
    st = i * b + min(int(i, 8), r)
    ct = b
    if (i < r) ct = ct + 1
  end subroutine split_axis

  ! btio.c's place_cells: cell c of rank p (row mod(p,q), column p/q) at
  ! z = c, y = mod(row + c, q), x = mod(column - c, q). Fortran order
  ! (x, y, z), 0-based starts.
  subroutine place_cells()
    integer :: row, col, cidx(3), d

    allocate(cstart(3, q), ccount(3, q), celems(q))
    row = mod(rank, q)
    col = rank / q
    step_elems = 0
    do c = 1, q
      cidx(3) = c - 1
      cidx(2) = mod(row + c - 1, q)
      cidx(1) = modulo(col - (c - 1), q)
      celems(c) = FIVE
      do d = 1, 3
        call split_axis(grid(d), q, cidx(d), cstart(d, c), ccount(d, c))
        celems(c) = celems(c) * ccount(d, c)
      end do
      step_elems = step_elems + celems(c)
    end do
  end subroutine place_cells

  ! Every value of every dump in buffer order: fills buf, or counts
  ! (check) the ones that differ from btio.c's value_at.
  subroutine walk(buf, check_it, what, nbad)
    double precision, intent(inout) :: buf(:)
    logical, intent(in) :: check_it
    character(len=*), intent(in) :: what
    integer(8), intent(out) :: nbad
    integer(8) :: kk, x, y, z, gx, gy, gz, lin, j
    integer :: cc, f
    double precision :: want

    nbad = 0
    j = 0
    do kk = 0, steps - 1
      do cc = 1, q
        do z = 0, ccount(3, cc) - 1
          do y = 0, ccount(2, cc) - 1
            do x = 0, ccount(1, cc) - 1
              gz = cstart(3, cc) + z
              gy = cstart(2, cc) + y
              gx = cstart(1, cc) + x
              do f = 0, FIVE - 1
                j = j + 1
                lin = (((kk * grid(3) + gz) * grid(2) + gy) * grid(1) + gx) &
                      * FIVE + f
                want = dble(lin) + 0.5d0
                if (.not. check_it) then
                  buf(j) = want
                else if (buf(j) /= want) then
                  nbad = nbad + 1
                  if (nbad <= MAX_REPORTS) write (0, '(a,i0,a,a,5(1x,i0),a,&
                      &g0,a,g0)') 'btio_f: rank ', rank, ': ', what, kk, gz, &
                      gy, gx, f, ' read ', buf(j), ' expected ', want
                end if
              end do
            end do
          end do
        end do
      end do
    end do
  end subroutine walk

  ! Every repetition (warm-ups first), the methods taking turns, the
  ! first one rotating as in btio.c.
  subroutine run_all()
    character(len=64) :: what
    character(len=:), allocatable :: path
    integer :: m

    do rep = 1 - opt_warmup, opt_reps
      do k = 0, nmeth - 1
        idx = mod(k + rep + nmeth * 100000, nmeth) + 1
        m = meth(idx)
        write (what, '(a,i0,1x,a)') 'rep ', rep, trim(method_names(m))
        path = base // '.' // trim(method_names(m)) // '.nc'
        rbuf = -1d0
        call write_file(path, m, t(1:3))
        call read_file(path, m, t(4:6))
        call walk(rbuf, .true., trim(what), bad)
        bad = fail_count(bad)
        if (bad /= 0) then
          if (rank == 0) write (0, '(a,a,a,i0,a)') 'btio_f: FAILED: ', &
              trim(what), ': ', bad, ' wrong values read back'
          status = 1
        end if
        if (rank == 0 .and. .not. (opt_keep .and. (rep == opt_reps .or. &
            status /= 0))) call remove_file(path)
        if (status /= 0) return
        if (rep >= 1) times(:, rep, m + 1) = t
      end do
    end do
  end subroutine run_all

  ! Create + define (open_w), every dump (write), close (close_w).
  subroutine write_file(path, m, tw)
    character(len=*), intent(in) :: path
    integer, intent(in) :: m
    double precision, intent(out) :: tw(3)
    integer :: ncid, varid, dims(5), dimids(5)
    double precision :: t0

    t0 = phase_start()
    call check(nfmpi_create(MPI_COMM_WORLD, path, create_mode(opt_format), &
                            info, ncid), 'nfmpi_create')
    ! btio.c defines the dimensions in the C order of the variable.
    call check(nfmpi_def_dim(ncid, 'NUM_DUMPS', NFMPI_UNLIMITED, dims(1)), &
               'nfmpi_def_dim')
    call check(nfmpi_def_dim(ncid, 'Z', grid(3), dims(2)), 'nfmpi_def_dim')
    call check(nfmpi_def_dim(ncid, 'Y', grid(2), dims(3)), 'nfmpi_def_dim')
    call check(nfmpi_def_dim(ncid, 'X', grid(1), dims(4)), 'nfmpi_def_dim')
    call check(nfmpi_def_dim(ncid, 'FIVE_DBL', int(FIVE, MPI_OFFSET_KIND), &
                             dims(5)), 'nfmpi_def_dim')
    dimids = dims(5:1:-1)
    call check(nfmpi_def_var(ncid, 'var', NF_DOUBLE, 5, dimids, varid), &
               'nfmpi_def_var')
    call check(nfmpi_enddef(ncid), 'nfmpi_enddef')
    tw(1) = phase_end(t0)
    t0 = phase_start()
    call move(ncid, varid, m, .true.)
    tw(2) = phase_end(t0)
    t0 = phase_start()
    call check(nfmpi_close(ncid), 'nfmpi_close')
    tw(3) = phase_end(t0)
  end subroutine write_file

  subroutine read_file(path, m, tr)
    character(len=*), intent(in) :: path
    integer, intent(in) :: m
    double precision, intent(out) :: tr(3)
    integer :: ncid, varid
    double precision :: t0

    t0 = phase_start()
    call check(nfmpi_open(MPI_COMM_WORLD, path, NF_NOWRITE, info, ncid), &
               'nfmpi_open')
    call check(nfmpi_inq_varid(ncid, 'var', varid), 'nfmpi_inq_varid')
    tr(1) = phase_end(t0)
    t0 = phase_start()
    call move(ncid, varid, m, .false.)
    tr(2) = phase_end(t0)
    t0 = phase_start()
    call check(nfmpi_close(ncid), 'nfmpi_close')
    tr(3) = phase_end(t0)
  end subroutine read_file

  ! Every dump's cells by method m, written from wbuf or read into rbuf.
  subroutine move(ncid, varid, m, writing)
    integer, intent(in) :: ncid, varid, m
    logical, intent(in) :: writing
    integer(MPI_OFFSET_KIND) :: st(5), ct(5)
    integer(8) :: off, kk
    integer :: reqs(q), sts(q), cc

    if (m == M_INDEP) call check(nfmpi_begin_indep_data(ncid), &
                                 'nfmpi_begin_indep_data')
    do kk = 0, steps - 1
      off = kk * step_elems
      do cc = 1, q
        st = [1_8, cstart(1, cc) + 1, cstart(2, cc) + 1, cstart(3, cc) + 1, &
              kk + 1]
        ct = [int(FIVE, 8), ccount(1, cc), ccount(2, cc), ccount(3, cc), 1_8]
        select case (m)
        case (M_PERVAR)
          if (writing) then
            call check(nfmpi_put_vara_double_all(ncid, varid, st, ct, &
                       wbuf(off + 1)), 'nfmpi_put_vara_double_all')
          else
            call check(nfmpi_get_vara_double_all(ncid, varid, st, ct, &
                       rbuf(off + 1)), 'nfmpi_get_vara_double_all')
          end if
        case (M_COMBINED)
          if (writing) then
            call check(nfmpi_iput_vara_double(ncid, varid, st, ct, &
                       wbuf(off + 1), reqs(cc)), 'nfmpi_iput_vara_double')
          else
            call check(nfmpi_iget_vara_double(ncid, varid, st, ct, &
                       rbuf(off + 1), reqs(cc)), 'nfmpi_iget_vara_double')
          end if
        case default
          if (writing) then
            call check(nfmpi_put_vara_double(ncid, varid, st, ct, &
                       wbuf(off + 1)), 'nfmpi_put_vara_double')
          else
            call check(nfmpi_get_vara_double(ncid, varid, st, ct, &
                       rbuf(off + 1)), 'nfmpi_get_vara_double')
          end if
        end select
        off = off + celems(cc)
      end do
      if (m == M_COMBINED) then
        call check(nfmpi_wait_all(ncid, q, reqs, sts), 'nfmpi_wait_all')
        do cc = 1, q
          call check(sts(cc), 'a request of nfmpi_wait_all')
        end do
      end if
    end do
    if (m == M_INDEP) call check(nfmpi_end_indep_data(ncid), &
                                 'nfmpi_end_indep_data')
  end subroutine move

  ! Rank 0: the medians (unless -q) and the csv lines (-c).
  subroutine report()
    integer :: kk, m
    double precision :: tw(opt_reps), tr(opt_reps)

    do kk = 1, nmeth
      m = meth(kk)
      if (.not. opt_quiet) then
        tw = sum(times(1:3, :, m + 1), dim=1)
        tr = sum(times(4:6, :, m + 1), dim=1)
        write (*, '(a,a,a,i0,a,a,a,f10.4,a,f10.4,a)') 'btio_f: ', lib_name, &
            ' np=', nprocs, ' ', trim(casename) // ' ' // &
            trim(method_names(m)), ': write ', median(tw), ' s, read ', &
            median(tr), ' s (median total)'
      end if
      if (opt_csv) call csv_lines('btio', trim(casename), method_names(m), &
                                  nprocs, bytes, times(:, :, m + 1))
    end do
    if (.not. opt_quiet) write (*, '(a)') 'verify OK: every value read ' // &
        'back as written, by every method in every repetition'
  end subroutine report
end program btio_f
