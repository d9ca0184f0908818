#!/usr/bin/env bash
# run_package_test.sh -- ctest package.install.
#
#   run_package_test.sh BUILD_DIR CONSUMER_SRC WORK_DIR MPICC CMAKE PKG_CONFIG
#
# Installs BUILD_DIR into WORK_DIR/prefix (headers under include/ncpario/),
# then builds and runs the consumer
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
for f in include/ncpario/pnetcdf.h include/ncpario/ncpario.h; do
    [ -f "$prefix/$f" ] || { echo "FAIL: $f not installed"; exit 1; }
done
# Without the drop-in (NCP_COMPAT_INSTALL=ON says the build has it) nothing
# may carry PnetCDF's names at the top level, where it would shadow a
# system PnetCDF; with it, the default install holds the drop-in.
for f in include/pnetcdf.h bin/pnetcdf-config; do
    if [ "${NCP_COMPAT_INSTALL:-OFF}" = ON ]; then
        [ -e "$prefix/$f" ] ||
            { echo "FAIL: $f missing with NCPARIO_PNETCDF_COMPAT"; exit 1; }
    else
        [ ! -e "$prefix/$f" ] ||
            { echo "FAIL: $f installed without NCPARIO_PNETCDF_COMPAT"; exit 1; }
    fi
done
# The run-time drop-in (`ncpario run`) is always there, in a directory of
# its own that no linker searches.
find "$prefix" -path '*/ncpario/pnetcdf/libpnetcdf.so.0d' | grep -q . ||
    { echo "FAIL: lib/ncpario/pnetcdf/libpnetcdf.so.0d not installed"; exit 1; }
if [ "${NCP_COMPAT_INSTALL:-OFF}" != ON ] &&
   find "$prefix" \( -name 'libpnetcdf*' -o -name 'pnetcdf.pc' \) \
        -not -path '*/ncpario/pnetcdf/*' | grep -q .; then
    echo "FAIL: PnetCDF's library names installed without the drop-in"
    exit 1
fi
# A man page is installed only with its program: <prog>.<n> needs
# bin/<prog>, and a subcommand's page <prog>-<sub>.<n> a bin/<prog> whose
# `<prog> <sub> --help` succeeds.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
while IFS= read -r page; do
    name=$(basename "$page" | sed 's/\.[1-8]$//')
    [ -x "$prefix/bin/$name" ] && continue
    prog=${name%%-*} sub=${name#*-}
    if [ "$prog" = "$name" ] || [ ! -x "$prefix/bin/$prog" ] ||
       ! timeout 60 "$prefix/bin/$prog" "$sub" --help >/dev/null 2>&1; then
        echo "FAIL: man page $page installed without its program"
        exit 1
    fi
done < <(find "$prefix" -path '*/man/man[1-8]/*' -type f)
libdir=$(dirname "$(find "$prefix" -name 'libncpario.so' | head -n 1)")
pcdir=$libdir/pkgconfig
[ -f "$pcdir/ncpario.pc" ] || { echo "FAIL: ncpario.pc not installed"; exit 1; }
[ -f "$libdir/libncpario.a" ] || { echo "FAIL: libncpario.a not installed"; exit 1; }

echo "== pkg-config consumer"
flags=$(PKG_CONFIG_LIBDIR=$pcdir PKG_CONFIG_PATH= "$pkgconfig" --cflags --libs ncpario)
echo "pkg-config --cflags --libs ncpario: $flags"
# The .pc file derives its prefix from its own directory: resolve the
# paths before comparing.
inc=$(sed -n 's/.*-I\([^ ]*\).*/\1/p' <<<"$flags")
lib=$(sed -n 's/.*-L\([^ ]*\).*/\1/p' <<<"$flags")
[ "$(cd "$inc" && pwd -P)" = "$(cd "$prefix/include/ncpario" && pwd -P)" ] ||
    { echo "FAIL: -I$inc is not $prefix/include/ncpario"; exit 1; }
[ "$(cd "$lib" && pwd -P)" = "$(cd "$libdir" && pwd -P)" ] ||
    { echo "FAIL: -L$lib is not $libdir"; exit 1; }
# shellcheck disable=SC2086 # the flags are a word list
# With its run path, as a program using a prefix outside the system's
# search path is linked; it runs with no LD_LIBRARY_PATH.
"$mpicc" "$src/main.c" $flags -Wl,-rpath,"$libdir" -o "$work/consumer_pc"
env -u LD_LIBRARY_PATH "$work/consumer_pc"
# Capture first: `ldd | grep -q` under pipefail fails when grep exits
# early and ldd dies of SIGPIPE.
deps=$(env -u LD_LIBRARY_PATH ldd "$work/consumer_pc")
if ! grep -q "$libdir/libncpario.so" <<<"$deps"; then
    echo "FAIL: consumer_pc does not load libncpario.so from $libdir"
    exit 1
fi

echo "== static link through pkg-config --static"
sflags=$(PKG_CONFIG_LIBDIR=$pcdir PKG_CONFIG_PATH= "$pkgconfig" --cflags --libs --static ncpario)
# shellcheck disable=SC2086
"$mpicc" "$src/main.c" -I"$prefix/include/ncpario" "$libdir/libncpario.a" \
    $(echo "$sflags" | sed 's/-lncpario[a-z_]*//g') \
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
