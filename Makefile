# Convenience front end over CMake; the real build is CMakeLists.txt.
#
#   make                build the library, tools and tests in build/
#   make test           install deps, then: build/ with -Werror and every
#                       test (posix driver), the MPI tests again through the
#                       mpiio driver on OMPIO and on ROMIO, and through
#                       I/O groups on both drivers; build-asan/
#                       (ASan+UBSan) unit and MPI tests;
#                       build-fuzz/ (clang) the header, CDL and validate fuzzers,
#                       FUZZ_SECONDS between them
#   make demo           install deps, build, run the benchmark suite's
#                       demo preset (table on stdout, CSV/JSON/PNG in
#                       DEMO_OUT, default build/bench-results)
#   make install        install into PREFIX (default /usr/local)
#   make clean          remove the build trees
#
# Variables: PREFIX, JOBS (2), FUZZ_SECONDS (60), CMAKE_ARGS (extra -D...).

PREFIX       ?= /usr/local
JOBS         ?= 2
FUZZ_SECONDS ?= 60
CMAKE        ?= cmake
CTEST        ?= ctest
CMAKE_ARGS   ?=

# cmake --build runs make again; its directory chatter hides the output.
MAKEFLAGS    += --no-print-directory

BUILD        := build
BUILD_ASAN   := build-asan
BUILD_FUZZ   := build-fuzz
CTEST_FLAGS  := --output-on-failure -j$(JOBS)

.PHONY: all build deps configure test test-main test-mpiio test-romio \
        test-groups test-asan test-fuzz demo \
        install clean

all: build

deps:
	bash scripts/install-deps.sh

# Configures only the first time, so that a later `make` keeps whatever
# options `make test` or the user chose.
$(BUILD)/CMakeCache.txt:
	$(CMAKE) -S . -B $(BUILD) $(CMAKE_ARGS)

build: $(BUILD)/CMakeCache.txt
	$(CMAKE) --build $(BUILD) -j$(JOBS)

test: deps
	$(MAKE) test-main test-mpiio test-romio test-groups test-asan test-fuzz

# Every MPI test is registered once per cell of the driver x I/O-group
# matrix (cmake/NcpTesting.cmake: the cell's name is in the test's name, its
# label says its column, its environment is set by ctest).  The main run
# takes the default cell, posix, and everything that is not an MPI test;
# each target below one column of the other cells.
# The test trees compile in the fault-injecting driver and crash points
# (NCP_FAULT_INJECTION) that the fault and crash tests need; a plain
# `make` or install leaves them out.
test-main:
	$(CMAKE) -S . -B $(BUILD) -DNCP_WERROR=ON -DNCP_FAULT_INJECTION=ON \
	    $(CMAKE_ARGS)
	$(CMAKE) --build $(BUILD) -j$(JOBS)
	cd $(BUILD) && $(CTEST) $(CTEST_FLAGS) -LE '^mpi-'

# The mpiio driver on both of OpenMPI's MPI-IO components, OMPIO and ROMIO.
test-mpiio: test-main
	cd $(BUILD) && $(CTEST) $(CTEST_FLAGS) -L '^mpi-mpiio$$' --no-tests=error

test-romio: test-main
	cd $(BUILD) && $(CTEST) $(CTEST_FLAGS) -L '^mpi-romio$$' --no-tests=error

# I/O groups: groups of 3 in rounds on posix, and one group over ROMIO.
test-groups: test-main
	cd $(BUILD) && $(CTEST) $(CTEST_FLAGS) -L '^mpi-groups$$' --no-tests=error

# PnetCDF comparisons are left to the main tree: they check file contents,
# which the sanitizers do not change, and they would double the run time.
test-asan:
	$(CMAKE) -S . -B $(BUILD_ASAN) -DCMAKE_BUILD_TYPE=Debug \
	    -DNCP_WERROR=ON -DNCP_SANITIZE=ON -DNCP_PNETCDF_CMP=OFF \
	    -DNCP_FAULT_INJECTION=ON $(CMAKE_ARGS)
	$(CMAKE) --build $(BUILD_ASAN) -j$(JOBS)
	cd $(BUILD_ASAN) && $(CTEST) $(CTEST_FLAGS) -L '^(unit|mpi)$$' \
	    --no-tests=error

test-fuzz:
	CC=clang CXX=clang++ $(CMAKE) -S . -B $(BUILD_FUZZ) -DNCP_FUZZ=ON \
	    -DNCP_WERROR=ON -DNCP_FUZZ_SECONDS=$(FUZZ_SECONDS) $(CMAKE_ARGS)
	$(CMAKE) --build $(BUILD_FUZZ) -j$(JOBS) --target fuzz_header \
	    fuzz_cdl fuzz_validate
	cd $(BUILD_FUZZ) && $(CTEST) $(CTEST_FLAGS) \
	    -R '^fuzz\.(header|cdl|validate)$$' --no-tests=error

# The benchmark suite's demo preset: every benchmark against every
# baseline at 1, 2 and 4 ranks, a few minutes on two cores.
DEMO_OUT     ?= $(BUILD)/bench-results
demo: deps build
	bench/ncpario-bench --preset demo --bin-dir $(BUILD)/bench \
	    --out $(DEMO_OUT)

install: build
	$(CMAKE) --install $(BUILD) --prefix $(PREFIX)

clean:
	rm -rf $(BUILD) $(BUILD_ASAN) $(BUILD_FUZZ)
