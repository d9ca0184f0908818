#!/usr/bin/env bash
# run_relocate_test.sh -- ctest package.relocate: an install tree moved as
# a whole still works.
#
#   run_relocate_test.sh BUILD_DIR SRC_DIR WORK_DIR CMAKE PKG_CONFIG
#
# Installs BUILD_DIR (with the pnetcdf_compat component) into
# WORK_DIR/stage, moves the tree to WORK_DIR/moved and removes every trace
# of the old place; no installed text file may name it. Then builds
# clients against the moved tree four ways -- pkg-config ncpario,
# pkg-config pnetcdf, pnetcdf-config, CMake find_package(ncpario) -- and
# runs each under mpirun; each must load libncpario from the moved tree.
set -euo pipefail
if [ $# -ne 5 ]; then
    echo "usage: $0 BUILD_DIR SRC_DIR WORK_DIR CMAKE PKG_CONFIG" >&2
    exit 2
fi
build=$1 src=$(cd "$2" && pwd) work=$3 cmake=$4 pkgconfig=$5
# shellcheck source=pkg_lib.sh
. "$src/pkg_lib.sh"
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)
stage=$work/stage/prefix moved=$work/moved/prefix

echo "== install into $stage, move to $moved"
install_tree "$build" "$stage" "$work/install.log"
mkdir -p "$work/moved"
mv "$stage" "$moved"
rm -rf "$work/stage"
if grep -rIl -- "$work/stage" "$moved"; then
    die "the files above still name the install prefix"
fi
libdir=$(dirname "$(find "$moved" -name 'libncpario.so' | head -n 1)")
pcdir=$libdir/pkgconfig
cfg=$moved/bin/pnetcdf-config
mpicc=$("$cfg" --cc)
mkdir -p "$work/run"

echo "== pkg-config ncpario"
flags=$(pkg_config_only "$pcdir" --cflags --libs ncpario)
echo "$flags"
# shellcheck disable=SC2086 # a word list
# Each program records the moved lib/ as its run path, as users link
# against a prefix outside the system's search path.
"$mpicc" "$src/compat/client.c" $flags -Wl,-rpath,"$libdir" \
    -o "$work/run/pc_ncpario"
run_client "$libdir" "$work/run" "$work/run/pc_ncpario" 2
assert_links_ours "$work/run/pc_ncpario" "$libdir" libncpario.so

echo "== pkg-config pnetcdf"
flags=$(pkg_config_only "$pcdir" --cflags --libs pnetcdf)
# shellcheck disable=SC2086
"$mpicc" "$src/compat/client.c" $flags -Wl,-rpath,"$libdir" \
    -o "$work/run/pc_pnetcdf"
run_client "$libdir" "$work/run" "$work/run/pc_pnetcdf" 2
assert_links_ours "$work/run/pc_pnetcdf" "$libdir" libncpario.so

echo "== pnetcdf-config"
[ "$("$cfg" --prefix)" = "$moved" ] || die "pnetcdf-config --prefix is $("$cfg" --prefix)"
# shellcheck disable=SC2046
"$("$cfg" --cc)" $("$cfg" --cflags) "$src/compat/client.c" \
    -o "$work/run/cfg_client" -L"$("$cfg" --libdir)" -lpnetcdf \
    -Wl,-rpath,"$libdir"
run_client "$libdir" "$work/run" "$work/run/cfg_client" 2
assert_links_ours "$work/run/cfg_client" "$libdir" libncpario.so

echo "== CMake find_package(ncpario)"
"$cmake" -S "$src" -B "$work/cmake-build" -DCMAKE_PREFIX_PATH="$moved" \
    >"$work/cmake-configure.log" ||
    { cat "$work/cmake-configure.log"; exit 1; }
"$cmake" --build "$work/cmake-build" >"$work/cmake-build.log" ||
    { cat "$work/cmake-build.log"; exit 1; }
(cd "$work/run" && env -u LD_LIBRARY_PATH mpirun --oversubscribe -np 2 \
    "$work/cmake-build/consumer")
assert_links_ours "$work/cmake-build/consumer" "$libdir" libncpario.so
echo "RESULT: PASS"
