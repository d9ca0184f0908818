#!/usr/bin/env bash
# run_package_test.sh -- ctest package.install.
#
#   run_package_test.sh BUILD_DIR CONSUMER_SRC WORK_DIR MPICC CMAKE PKG_CONFIG
#
# Installs BUILD_DIR into WORK_DIR/prefix, then builds and runs the consumer
# in CONSUMER_SRC twice: with `mpicc $(pkg-config --cflags --libs ncpario)`
# and with CMake's find_package(ncpario). Both must find our headers and
# library in the prefix, never the system's PnetCDF.
set -euo pipefail
if [ $# -ne 6 ]; then
    echo "usage: $0 BUILD_DIR CONSUMER_SRC WORK_DIR MPICC CMAKE PKG_CONFIG" >&2
    exit 2
fi
build=$1 src=$2 work=$3 mpicc=$4 cmake=$5 pkgconfig=$6
prefix=$work/prefix

rm -rf "$work"
mkdir -p "$work"
echo "== install into $prefix"
"$cmake" --install "$build" --prefix "$prefix" >"$work/install.log"
for f in include/pnetcdf.h include/ncpario.h; do
    [ -f "$prefix/$f" ] || { echo "FAIL: $f not installed"; exit 1; }
done
libdir=$(dirname "$(find "$prefix" -name 'libncpario.so' | head -n 1)")
pcdir=$libdir/pkgconfig
[ -f "$pcdir/ncpario.pc" ] || { echo "FAIL: ncpario.pc not installed"; exit 1; }
[ -f "$libdir/libncpario.a" ] || { echo "FAIL: libncpario.a not installed"; exit 1; }

echo "== pkg-config consumer"
flags=$(PKG_CONFIG_PATH=$pcdir "$pkgconfig" --cflags --libs ncpario)
echo "pkg-config --cflags --libs ncpario: $flags"
case "$flags" in
    *"-I$prefix/include"*"-L$libdir"*) ;;
    *) echo "FAIL: flags do not point into $prefix"; exit 1 ;;
esac
# shellcheck disable=SC2086 # the flags are a word list
"$mpicc" "$src/main.c" $flags -o "$work/consumer_pc"
LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
    "$work/consumer_pc"
# Capture first: `ldd | grep -q` under pipefail fails when grep exits
# early and ldd dies of SIGPIPE.
deps=$(LD_LIBRARY_PATH=$libdir ldd "$work/consumer_pc")
if ! grep -q "$libdir/libncpario.so" <<<"$deps"; then
    echo "FAIL: consumer_pc does not load libncpario.so from $libdir"
    exit 1
fi

echo "== static link through pkg-config --static"
sflags=$(PKG_CONFIG_PATH=$pcdir "$pkgconfig" --cflags --libs --static ncpario)
# shellcheck disable=SC2086
"$mpicc" "$src/main.c" -I"$prefix/include" "$libdir/libncpario.a" \
    $(echo "$sflags" | sed 's/-lncpario_fortran//; s/-lncpario//') \
    -o "$work/consumer_static"
"$work/consumer_static"

echo "== CMake find_package consumer"
"$cmake" -S "$src" -B "$work/cmake-build" -DCMAKE_PREFIX_PATH="$prefix" \
    >"$work/cmake-configure.log" ||
    { cat "$work/cmake-configure.log"; exit 1; }
"$cmake" --build "$work/cmake-build" >"$work/cmake-build.log" ||
    { cat "$work/cmake-build.log"; exit 1; }
"$work/cmake-build/consumer"
echo "RESULT: PASS"
