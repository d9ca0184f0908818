#!/usr/bin/env bash
# run_compat_test.sh -- ctest package.compat: the PnetCDF drop-in.
#
#   run_compat_test.sh BUILD_DIR SRC_DIR WORK_DIR CMAKE PKG_CONFIG PYTHON
#
# Installs BUILD_DIR with the pnetcdf_compat component into WORK_DIR/prefix
# and uses it as PnetCDF users would: pnetcdf-config's answers; an
# autotools-style Makefile (SRC_DIR/compat/Makefile) driven by
# pnetcdf-config alone; a CMake project using pkg_check_modules(pnetcdf),
# and the same finding pnetcdf.h and libpnetcdf under PNETCDF_DIR;
# a static -lpnetcdf; a Fortran program with -lpnetcdf where the binding is
# built. Every program must run under mpirun and report ncpario, and ldd
# must show libncpario from the prefix, never a system libpnetcdf. Last,
# a program taking every function the installed pnetcdf.h declares must
# link with -lpnetcdf.
set -euo pipefail
if [ $# -ne 6 ]; then
    echo "usage: $0 BUILD_DIR SRC_DIR WORK_DIR CMAKE PKG_CONFIG PYTHON" >&2
    exit 2
fi
build=$1 src=$(cd "$2" && pwd) work=$3 cmake=$4 pkgconfig=$5 python=$6
# shellcheck source=pkg_lib.sh
. "$src/pkg_lib.sh"
prefix=$work/prefix
rm -rf "$work"
mkdir -p "$work"

echo "== install with the pnetcdf_compat component into $prefix"
install_tree "$build" "$prefix" "$work/install.log"
for f in bin/pnetcdf-config include/pnetcdf.h include/ncpario/pnetcdf.h; do
    [ -e "$prefix/$f" ] || die "$f not installed"
done
cmp -s "$prefix/include/pnetcdf.h" "$prefix/include/ncpario/pnetcdf.h" ||
    die "the two installed pnetcdf.h differ"
libdir=$(dirname "$(find "$prefix" -name 'libncpario.so' | head -n 1)")
for f in libpnetcdf.so libpnetcdf.a pkgconfig/pnetcdf.pc; do
    [ -e "$libdir/$f" ] || die "$libdir/$f not installed"
done
cfg=$prefix/bin/pnetcdf-config
# Ours first on PATH, as a user who installed the drop-in would have it.
export PATH=$prefix/bin:$PATH

echo "== pnetcdf-config"
api=$(sed -n 's/^#define[ \t]*PNETCDF_VERSION[ \t]*"\(.*\)".*/\1/p' \
      "$prefix/include/pnetcdf.h")
version=$(pnetcdf-config --version)
echo "--version: $version"
[ "$(cut -d' ' -f2 <<<"$version")" = "$api" ] ||
    die "the second word of --version is not the API version $api"
grep -q ncpario <<<"$version" || die "--version does not name ncpario"
[ "$(pnetcdf-config --prefix)" = "$(cd "$prefix" && pwd)" ] ||
    die "--prefix is $(pnetcdf-config --prefix), not $prefix"
[ -f "$(pnetcdf-config --includedir)/pnetcdf.h" ] || die "--includedir"
[ -e "$(pnetcdf-config --libdir)/libpnetcdf.so" ] || die "--libdir"
# Every option --help lists must answer, alone and several at once.
opts=$(pnetcdf-config --help | sed -n 's/^  \(--[a-z0-9+-]*\).*/\1/p' |
       grep -v -e '^--help$' -e '^--all$')
[ "$(wc -l <<<"$opts")" -ge 30 ] || die "--help lists too few options"
for o in $opts; do
    pnetcdf-config "$o" >/dev/null || die "pnetcdf-config $o failed"
done
# shellcheck disable=SC2086 # a word list
[ "$(pnetcdf-config $opts | wc -l)" -eq "$(wc -l <<<"$opts")" ] ||
    die "several options do not give one line each"
pnetcdf-config --all | grep -q -- '--has-fortran .*-> \(yes\|no\)' ||
    die "--all lacks --has-fortran"
# The header's build fact and pnetcdf-config must tell one story.
hdr_fortran=$(sed -n 's/^#define[ \t]*PNETCDF_ENABLE_FORTRAN[ \t]*\([01]\).*/\1/p' \
              "$prefix/include/pnetcdf.h")
case "$(pnetcdf-config --has-fortran)/$hdr_fortran" in
    yes/1 | no/0) ;;
    *) die "pnetcdf-config --has-fortran says $(pnetcdf-config --has-fortran)," \
           "pnetcdf.h's PNETCDF_ENABLE_FORTRAN is '$hdr_fortran'" ;;
esac
if pnetcdf-config --no-such-option >/dev/null 2>&1; then
    die "an unknown option succeeded"
fi
if pnetcdf-config >/dev/null 2>&1; then die "no option succeeded"; fi
# Run through a link from elsewhere, it still finds its own prefix.
ln -s "$cfg" "$work/pnetcdf-config-link"
[ "$("$work/pnetcdf-config-link" --prefix)" = "$(cd "$prefix" && pwd)" ] ||
    die "pnetcdf-config run through a symbolic link misses its prefix"

echo "== autotools-style build with pnetcdf-config"
mkdir -p "$work/make"
make -s -C "$work/make" -f "$src/compat/Makefile" SRC="$src/compat" \
    PNETCDF_CONFIG="$cfg" all
for exe in client_dirs client_flags; do
    run_client "$libdir" "$work/make" "$work/make/$exe" 2
    assert_links_ours "$work/make/$exe" "$libdir" libncpario.so
done

echo "== static -lpnetcdf"
mpicc=$(pnetcdf-config --cc)
# shellcheck disable=SC2046 # word lists
"$mpicc" -I"$(pnetcdf-config --includedir)" "$src/compat/client.c" \
    -o "$work/make/client_static" -L"$libdir" -Wl,-Bstatic -lpnetcdf \
    -Wl,-Bdynamic $(pkg_config_only "$libdir/pkgconfig" --libs --static pnetcdf |
      sed 's/-lncpario[a-z_]*//g')
run_client "$libdir" "$work/make" "$work/make/client_static" 2
if LD_LIBRARY_PATH=$libdir ldd "$work/make/client_static" |
       grep -q 'libncpario\|libpnetcdf'; then
    die "client_static loads a shared ncpario or PnetCDF"
fi

echo "== CMake project with pkg_check_modules(pnetcdf)"
PKG_CONFIG_LIBDIR=$libdir/pkgconfig PKG_CONFIG_PATH= \
    "$cmake" -S "$src/compat" -B "$work/cmake-build" \
    -DPKG_CONFIG_EXECUTABLE="$pkgconfig" >"$work/cmake-configure.log" ||
    { cat "$work/cmake-configure.log"; exit 1; }
"$cmake" --build "$work/cmake-build" >"$work/cmake-build.log" ||
    { cat "$work/cmake-build.log"; exit 1; }
run_client "$libdir" "$work/cmake-build" "$work/cmake-build/client" 2
assert_links_ours "$work/cmake-build/client" "$libdir" libncpario.so

echo "== CMake project with find_library(pnetcdf) under PNETCDF_DIR"
"$cmake" -S "$src/compat" -B "$work/cmake-dir" -DPNETCDF_DIR="$prefix" \
    >"$work/cmake-dir-configure.log" ||
    { cat "$work/cmake-dir-configure.log"; exit 1; }
"$cmake" --build "$work/cmake-dir" >"$work/cmake-dir-build.log" ||
    { cat "$work/cmake-dir-build.log"; exit 1; }
run_client "$libdir" "$work/cmake-dir" "$work/cmake-dir/client" 2
assert_links_ours "$work/cmake-dir/client" "$libdir" libncpario.so

if [ "$(pnetcdf-config --has-fortran)" = yes ]; then
    echo "== Fortran 77 API with -lpnetcdf"
    [ -f "$prefix/include/pnetcdf.inc" ] && [ -f "$prefix/include/pnetcdf.mod" ] ||
        die "pnetcdf.inc or pnetcdf.mod missing from $prefix/include"
    make -s -C "$work/make" -f "$src/compat/Makefile" SRC="$src/compat" \
        PNETCDF_CONFIG="$cfg" client_f
    run_client "$libdir" "$work/make" "$work/make/client_f" 2
    assert_links_ours "$work/make/client_f" "$libdir" libncpario_fortran.so
fi

if [ "$(pnetcdf-config --has-c++)" = yes ]; then
    echo "== C++ API with pnetcdf-config --cxx, --cxxflags and --libs"
    [ -f "$prefix/include/pnetcdf" ] || die "the C++ header pnetcdf missing"
    # shellcheck disable=SC2046 # word lists
    "$(pnetcdf-config --cxx)" $(pnetcdf-config --cxxflags) \
        "$src/compat/client.cpp" -o "$work/make/client_cxx" \
        $(pnetcdf-config --libs) -Wl,-rpath,"$libdir"
    run_client "$libdir" "$work/make" "$work/make/client_cxx" 2
    assert_links_ours "$work/make/client_cxx" "$libdir" libncpario_cxx.so
fi

echo "== every function the installed pnetcdf.h declares links with -lpnetcdf"
"$python" "$src/../interop/check_link_all_api.py" \
    --header "$prefix/include/pnetcdf.h" --lib "$libdir/libpnetcdf.so" \
    --cc "$mpicc" --workdir "$work/link_all_api"
echo "RESULT: PASS"
