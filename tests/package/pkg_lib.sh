# pkg_lib.sh -- helpers the package tests share (sourced, not run).

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_mpi_yield_when_idle=1

die() {
    echo "FAIL: $*"
    exit 1
}

# install_tree BUILD PREFIX LOG: the default install plus the PnetCDF
# drop-in component, which a build without NCPARIO_PNETCDF_COMPAT leaves
# out of the default install.
install_tree() {
    "$cmake" --install "$1" --prefix "$2" >"$3" || { cat "$3"; exit 1; }
    "$cmake" --install "$1" --prefix "$2" --component pnetcdf_compat \
        >>"$3" || { cat "$3"; exit 1; }
}

# pkg_config_only DIR ARGS...: pkg-config seeing DIR and nothing else, so
# that a system pnetcdf.pc can never answer.
pkg_config_only() {
    local dir=$1
    shift
    PKG_CONFIG_LIBDIR=$dir PKG_CONFIG_PATH= "$pkgconfig" "$@"
}

# assert_links_ours EXE LIBDIR LIB: EXE loads LIB (libncpario.so or
# libncpario_fortran.so) from LIBDIR and no libpnetcdf at all, by its own
# run path and the libraries' (no LD_LIBRARY_PATH).
assert_links_ours() {
    local deps
    # Capture first: `ldd | grep -q` under pipefail fails when grep exits
    # early and ldd dies of SIGPIPE.
    deps=$(env -u LD_LIBRARY_PATH ldd "$1")
    if ! grep -q "$2/$3" <<<"$deps" || grep -q libpnetcdf <<<"$deps"; then
        echo "$deps"
        die "$1 does not load $3 from $2 alone"
    fi
}

# run_client LIBDIR DIR EXE NP: runs EXE under mpirun in DIR, with no
# LD_LIBRARY_PATH (EXE finds LIBDIR by its run path), and requires its
# report to name ncpario.
run_client() {
    local out
    out=$(cd "$2" && env -u LD_LIBRARY_PATH mpirun --oversubscribe \
          -np "$4" "$3" "$3.nc" 2>&1) || { echo "$out"; die "$3 failed"; }
    echo "$out"
    grep -q "ok, library .*ncpario" <<<"$out" ||
        die "$3 did not report ncpario as its library"
}
