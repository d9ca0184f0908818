# check_common.sh -- sourced by the check_<name>.sh scripts with their
# arguments, NPROCS NCPARIO_BINARY [PNETCDF_BINARY | -]: sets np, bin_a and
# bin_b (the usage line of the calling script on a short list), OpenMPI's
# environment for root and oversubscribed runs, validator (env NCVALIDATOR
# or ncvalidator on PATH, empty when neither) and work, a directory removed
# at exit.
[ $# -ge 2 ] || { sed -n 's/^# usage: /usage: /p' "$0" >&2; exit 2; }
np=$1
bin_a=$2
bin_b=${3:--}

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_mpi_yield_when_idle=1
validator=${NCVALIDATOR:-}
[ -x "$validator" ] || validator=$(command -v ncvalidator || true)

work=$(mktemp -d "${TMPDIR:-/tmp}/$(basename "$0" .sh).XXXXXX")
trap 'rm -rf "$work"' EXIT
