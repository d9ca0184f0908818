#!/usr/bin/env bash
# run_fortran_package_test.sh -- ctest package.fortran.
#
#   run_fortran_package_test.sh BUILD_DIR CONSUMER_SRC WORK_DIR MPIF90 CMAKE
#                               PKG_CONFIG
#
# Installs BUILD_DIR into WORK_DIR/prefix and builds the Fortran consumer
# twice, with `mpif90 $(pkg-config --cflags --libs ncpario)
# -Wl,-rpath,LIBDIR` and with find_package(ncpario) +
# ncpario::ncpario_fortran; both must use the installed pnetcdf.mod and
# libncpario_fortran, never the system PnetCDF's, and run with no
# LD_LIBRARY_PATH: the program's run path finds libncpario_fortran, whose
# own ($ORIGIN) finds libncpario beside it.
set -euo pipefail
if [ $# -ne 6 ]; then
    echo "usage: $0 BUILD_DIR CONSUMER_SRC WORK_DIR MPIF90 CMAKE PKG_CONFIG" >&2
    exit 2
fi
build=$1 src=$2 work=$3 fc=$4 cmake=$5 pkgconfig=$6
prefix=$work/prefix
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

rm -rf "$work"
mkdir -p "$work"
"$cmake" --install "$build" --prefix "$prefix" >"$work/install.log"
for f in include/ncpario/pnetcdf.mod include/ncpario/pnetcdf.inc; do
    [ -f "$prefix/$f" ] || { echo "FAIL: $f not installed"; exit 1; }
done
libdir=$(dirname "$(find "$prefix" -name 'libncpario_fortran.so' | head -n 1)")

check_links_ours() {
    local deps
    deps=$(env -u LD_LIBRARY_PATH ldd "$1")
    if ! grep -q "$libdir/libncpario_fortran.so" <<<"$deps" ||
       grep -q libpnetcdf <<<"$deps"; then
        echo "FAIL: $1 does not load libncpario_fortran.so from $libdir"
        echo "$deps"
        exit 1
    fi
}

echo "== pkg-config consumer"
flags=$(PKG_CONFIG_LIBDIR=$libdir/pkgconfig PKG_CONFIG_PATH= "$pkgconfig" --cflags --libs ncpario)
echo "pkg-config --cflags --libs ncpario: $flags"
# shellcheck disable=SC2086 # the flags are a word list
"$fc" "$src/consumer.f90" $flags -Wl,-rpath,"$libdir" -o "$work/consumer_pc"
(cd "$work" && env -u LD_LIBRARY_PATH ./consumer_pc)
check_links_ours "$work/consumer_pc"

echo "== CMake find_package consumer"
"$cmake" -S "$src" -B "$work/cmake-build" -DCMAKE_PREFIX_PATH="$prefix" \
    >"$work/cmake-configure.log" ||
    { cat "$work/cmake-configure.log"; exit 1; }
"$cmake" --build "$work/cmake-build" >"$work/cmake-build.log" ||
    { cat "$work/cmake-build.log"; exit 1; }
(cd "$work" && env -u LD_LIBRARY_PATH ./cmake-build/consumer)
check_links_ours "$work/cmake-build/consumer"
echo "PASS"
