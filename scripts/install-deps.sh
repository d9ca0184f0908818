#!/usr/bin/env bash
# install-deps.sh -- make sure the Debian packages the build, the tests and
# the demo need are installed; safe to run any number of times.
#
# Prints one line, "deps: ok", when everything is there. Otherwise, as
# root, runs `apt-get update` once and installs what is missing; as any
# other user, prints the command to run and fails.
#
# The Python package's tests run on Debian's python3 (/usr/bin/python3),
# whose numpy, mpi4py (built against this OpenMPI), cffi, pytest, netCDF4
# and xarray come as binary packages: no compiler, no PyPI, a few seconds.
# python3-venv lets the pip-install test make a virtual environment.
#
# The libFuzzer runtime ships in a package named after clang's major
# version (libclang-rt-<N>-dev from LLVM 14 on, libclang-common-<N>-dev
# before), so that name is worked out from the clang actually installed,
# or from the one apt would install.
set -euo pipefail

packages=(build-essential gfortran cmake pkg-config openmpi-bin libopenmpi-dev
          libpnetcdf-dev pnetcdf-bin netcdf-bin clang libhdf5-openmpi-dev
          libnetcdf-pnetcdf-dev
          libutf8proc-dev
          python3 python3-numpy python3-matplotlib
          python3-mpi4py python3-cffi python3-pytest python3-netcdf4
          python3-xarray python3-venv)

installed() {
    dpkg-query -W -f='${db:Status-Abbrev}' "$1" 2>/dev/null | grep -q '^ii'
}

# Major version of the clang that is (or would be) installed, or nothing.
clang_major() {
    local v=""
    if command -v clang >/dev/null 2>&1; then
        v=$(clang -dumpversion 2>/dev/null | cut -d. -f1)
    elif command -v apt-cache >/dev/null 2>&1; then
        v=$(apt-cache depends clang 2>/dev/null |
            sed -n 's/^ *Depends: clang-\([0-9][0-9]*\)$/\1/p' | head -n 1)
    fi
    echo "$v"
}

# The package holding libFuzzer for clang major version $1.
fuzzer_runtime() {
    if [ "$1" -ge 14 ] 2>/dev/null; then
        echo "libclang-rt-$1-dev"
    else
        echo "libclang-common-$1-dev"
    fi
}

missing=()
for p in "${packages[@]}"; do
    installed "$p" || missing+=("$p")
done
major=$(clang_major)
if [ -n "$major" ]; then
    rt=$(fuzzer_runtime "$major")
    installed "$rt" || missing+=("$rt")
fi

if [ ${#missing[@]} -eq 0 ] && [ -n "$major" ]; then
    echo "deps: ok"
    exit 0
fi

install_cmd="apt-get install -y --no-install-recommends"
if [ "$(id -u)" -ne 0 ]; then
    [ -n "$major" ] || missing+=("libclang-rt-<clang major version>-dev")
    echo "deps: missing: ${missing[*]}" >&2
    echo "deps: run as root:  apt-get update && $install_cmd ${missing[*]}" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
echo "deps: installing ${missing[*]:-} (apt-get update first)"
apt-get update -qq
if [ -z "$major" ]; then
    # clang is not installed; ask apt which version it would bring.
    major=$(clang_major)
    if [ -z "$major" ]; then
        echo "deps: cannot tell which clang apt installs" >&2
        exit 1
    fi
    rt=$(fuzzer_runtime "$major")
    installed "$rt" || missing+=("$rt")
fi
# shellcheck disable=SC2086 # the command is a word list
$install_cmd "${missing[@]}" >/dev/null

still=()
for p in "${missing[@]}"; do
    installed "$p" || still+=("$p")
done
if [ ${#still[@]} -ne 0 ]; then
    echo "deps: still missing after apt-get: ${still[*]}" >&2
    exit 1
fi
echo "deps: ok"
