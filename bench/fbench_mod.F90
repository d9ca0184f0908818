! fbench_mod.F90 -- what the Fortran benchmark programs (btio_f.F90,
! flash_io_f.F90) share: the options every C benchmark of bench/ takes
! (-d dir, -r reps, -w warmup, -f 1|2|5, -k, -q, -c, -m methods), the
! methods of bio.h (pervar, combined, indep), phase timing (barrier, then
! the slowest rank's time) and, through bench/fbench.c, the csv lines
! bench/suite.py reads. Built into each program once per library:
! FBENCH_PNETCDF selects the name "pnetcdf" for Debian's PnetCDF build.
module fbench_mod
  use, intrinsic :: iso_c_binding
  use mpi
  use pnetcdf
  implicit none
  private

  integer, parameter, public :: M_PERVAR = 0, M_COMBINED = 1, M_INDEP = 2
  integer, parameter, public :: NMETHODS = 3, NPHASES = 6
  integer, parameter, public :: EXIT_USAGE = 2
  character(len=8), parameter, public :: method_names(0:2) = &
      [character(len=8) :: 'pervar', 'combined', 'indep']
#ifdef FBENCH_PNETCDF
  character(len=*), parameter, public :: lib_name = 'pnetcdf'
#else
  character(len=*), parameter, public :: lib_name = 'ncpario'
#endif

  ! The common options, after parse_options.
  character(len=4096), public :: opt_dir = '/tmp'
  integer, public :: opt_reps = 3, opt_warmup = 0, opt_format = 2
  logical, public :: opt_keep = .false., opt_quiet = .false., &
                     opt_csv = .false.
  ! The methods to run, in enum order (every one when -m is not given).
  integer, public :: nmeth = NMETHODS
  integer, public :: meth(NMETHODS) = [M_PERVAR, M_COMBINED, M_INDEP]
  ! The program's own options: flag letters and their values.
  integer, public :: nown = 0
  character(len=1), public :: own_flag(32)
  character(len=4096), public :: own_val(32)

  public :: parse_options, phase_start, phase_end, check, create_mode
  public :: csv_lines, env_info, file_base, remove_file, parse_i8, parse_list
  public :: fail_count, median

  interface
    integer(c_int) function fbench_csv(bench, lib, casename, method, &
                                       nprocs, bytes, t, reps) bind(C)
      import :: c_int, c_char, c_int64_t, c_double
      character(kind=c_char), intent(in) :: bench(*), lib(*), casename(*), &
                                            method(*)
      integer(c_int), value :: nprocs, reps
      integer(c_int64_t), value :: bytes
      real(c_double), intent(in) :: t(*)
    end function fbench_csv
    integer(c_int) function fbench_env_info() bind(C)
      import :: c_int
    end function fbench_env_info
    integer(c_int) function fbench_pid() bind(C)
      import :: c_int
    end function fbench_pid
    subroutine fbench_remove(path) bind(C)
      import :: c_char
      character(kind=c_char), intent(in) :: path(*)
    end subroutine fbench_remove
  end interface

contains

  ! A whole decimal number in [lo, hi]; ok false otherwise.
  subroutine parse_i8(text, lo, hi, v, ok)
    character(len=*), intent(in) :: text
    integer(8), intent(in) :: lo, hi
    integer(8), intent(out) :: v
    logical, intent(inout) :: ok
    integer :: ios

    v = 0
    if (len_trim(text) == 0 .or. verify(trim(text), '0123456789') /= 0) then
      ok = .false.
      return
    end if
    read (text, *, iostat=ios) v
    if (ios /= 0 .or. v < lo .or. v > hi) ok = .false.
  end subroutine parse_i8

  ! Up to size(v) numbers separated by commas; n of them.
  subroutine parse_list(text, v, n, ok)
    character(len=*), intent(in) :: text
    integer(8), intent(out) :: v(:)
    integer, intent(out) :: n
    logical, intent(inout) :: ok
    integer :: a, b

    n = 0
    a = 1
    do while (ok)
      b = index(text(a:), ',')
      if (b == 0) then
        b = len_trim(text) + 1
      else
        b = a + b - 1
      end if
      if (n == size(v)) then
        ok = .false.
        return
      end if
      n = n + 1
      call parse_i8(text(a:b-1), 1_8, 1000000_8, v(n), ok)
      if (b > len_trim(text)) return
      a = b + 1
    end do
  end subroutine parse_list

  ! -m's comma list, kept as a set in enum order.
  subroutine parse_methods(text, ok)
    character(len=*), intent(in) :: text
    logical, intent(inout) :: ok
    logical :: want(0:NMETHODS-1)
    integer :: a, b, m
    character(len=16) :: word

    want = .false.
    a = 1
    do
      b = index(text(a:), ',')
      if (b == 0) then
        b = len_trim(text) + 1
      else
        b = a + b - 1
      end if
      word = text(a:b-1)
      m = findloc(method_names, word, dim=1) - 1
      if (m < 0) then
        ok = .false.
        return
      end if
      want(m) = .true.
      if (b > len_trim(text)) exit
      a = b + 1
    end do
    nmeth = 0
    do m = 0, NMETHODS - 1
      if (want(m)) then
        nmeth = nmeth + 1
        meth(nmeth) = m
      end if
    end do
  end subroutine parse_methods

  ! The command line: the common options here, the letters of own_flags
  ! (each taking a value) into own_flag/own_val. False after a message
  ! (rank 0) when something is not usable.
  logical function parse_options(prog, own_flags, rank, usage_text)
    character(len=*), intent(in) :: prog, own_flags, usage_text
    integer, intent(in) :: rank
    integer :: i, nargs
    integer(8) :: v
    character(len=4096) :: arg, val
    logical :: ok

    ok = .true.
    nargs = command_argument_count()
    i = 1
    do while (i <= nargs .and. ok)
      call get_command_argument(i, arg)
      i = i + 1
      if (len_trim(arg) /= 2 .or. arg(1:1) /= '-') then
        ok = .false.
        exit
      end if
      select case (arg(2:2))
      case ('k')
        opt_keep = .true.
        cycle
      case ('q')
        opt_quiet = .true.
        cycle
      case ('c')
        opt_csv = .true.
        cycle
      end select
      if (i > nargs) then
        ok = .false.
        exit
      end if
      call get_command_argument(i, val)
      i = i + 1
      select case (arg(2:2))
      case ('d')
        opt_dir = val
      case ('r')
        call parse_i8(val, 1_8, 100000_8, v, ok)
        opt_reps = int(v)
      case ('w')
        call parse_i8(val, 0_8, 100000_8, v, ok)
        opt_warmup = int(v)
      case ('f')
        call parse_i8(val, 1_8, 5_8, v, ok)
        opt_format = int(v)
        if (v == 3 .or. v == 4) ok = .false.
      case ('m')
        call parse_methods(val, ok)
      case default
        if (index(own_flags, arg(2:2)) == 0 .or. nown == size(own_flag)) then
          ok = .false.
        else
          nown = nown + 1
          own_flag(nown) = arg(2:2)
          own_val(nown) = val
        end if
      end select
    end do
    if (.not. ok .and. rank == 0) then
      write (0, '(a)') prog // ': bad option or value near "' // &
                       trim(arg) // '"'
      write (0, '(a)') trim(usage_text)
      write (0, '(a)') '  -m methods (pervar,combined,indep) -d dir ' // &
          '-r reps -w warmup -f 1|2|5 -k keep -q quiet -c csv lines'
    end if
    parse_options = ok
  end function parse_options

  ! Barrier, then the clock: the start of a timed phase.
  double precision function phase_start()
    integer :: ierr

    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    phase_start = MPI_Wtime()
  end function phase_start

  ! The slowest rank's time since t0.
  double precision function phase_end(t0)
    double precision, intent(in) :: t0
    double precision :: mine
    integer :: ierr

    mine = MPI_Wtime() - t0
    call MPI_Allreduce(mine, phase_end, 1, MPI_DOUBLE_PRECISION, MPI_MAX, &
                       MPI_COMM_WORLD, ierr)
  end function phase_end

  ! A failed library call ends the job: other ranks may be inside a
  ! collective call that will never complete.
  subroutine check(err, what)
    integer, intent(in) :: err
    character(len=*), intent(in) :: what
    integer :: ierr

    if (err == NF_NOERR) return
    write (0, '(a)') 'FAILED: ' // what // ': ' // trim(nfmpi_strerror(err))
    call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
  end subroutine check

  integer function create_mode(format)
    integer, intent(in) :: format

    select case (format)
    case (1)
      create_mode = NF_CLOBBER
    case (5)
      create_mode = ior(NF_CLOBBER, NF_64BIT_DATA)
    case default
      create_mode = ior(NF_CLOBBER, NF_64BIT_OFFSET)
    end select
  end function create_mode

  ! bio_report_job's lines for t(6, reps): bench and case as the C
  ! program of the same pattern names them, so that rows line up.
  subroutine csv_lines(bench, casename, method, nprocs, bytes, t)
    character(len=*), intent(in) :: bench, casename, method
    integer, intent(in) :: nprocs
    integer(8), intent(in) :: bytes
    double precision, intent(in) :: t(:, :)
    integer(c_int) :: rc

    rc = fbench_csv(bench // c_null_char, lib_name // c_null_char, &
                    casename // c_null_char, trim(method) // c_null_char, &
                    int(nprocs, c_int), int(bytes, c_int64_t), t, &
                    int(size(t, 2), c_int))
    if (rc /= 0) write (0, '(a)') bench // ': out of memory for csv lines'
  end subroutine csv_lines

  ! The suite's hints (NCPARIO_BENCH_HINTS) as an MPI_Info.
  integer function env_info()
    env_info = int(fbench_env_info())
  end function env_info

  ! "<dir>/<prog>.<lib>.<rank 0's pid>": the same on every rank.
  function file_base(prog) result(base)
    character(len=*), intent(in) :: prog
    character(len=:), allocatable :: base
    integer :: pid, ierr
    character(len=16) :: txt

    pid = int(fbench_pid())
    call MPI_Bcast(pid, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
    write (txt, '(i0)') pid
    base = trim(opt_dir) // '/' // prog // '.' // lib_name // '.' // trim(txt)
  end function file_base

  subroutine remove_file(path)
    character(len=*), intent(in) :: path

    call fbench_remove(trim(path) // c_null_char)
  end subroutine remove_file

  ! The sum over the ranks of a count of wrong values.
  integer(8) function fail_count(bad)
    integer(8), intent(in) :: bad
    integer :: ierr

    call MPI_Allreduce(bad, fail_count, 1, MPI_INTEGER8, MPI_SUM, &
                       MPI_COMM_WORLD, ierr)
  end function fail_count

  ! The median of v (bench_median's).
  double precision function median(v)
    double precision, intent(in) :: v(:)
    double precision :: s(size(v)), x
    integer :: a, b, n

    s = v
    n = size(s)
    do a = 2, n
      x = s(a)
      b = a - 1
      do while (b >= 1)
        if (s(b) <= x) exit
        s(b + 1) = s(b)
        b = b - 1
      end do
      s(b + 1) = x
    end do
    median = 0d0
    if (n == 0) return
    if (mod(n, 2) == 1) then
      median = s(n / 2 + 1)
    else
      median = 0.5d0 * (s(n / 2) + s(n / 2 + 1))
    end if
  end function median
end module fbench_mod
