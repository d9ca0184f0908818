# Convenience front end over CMake; the real build is CMakeLists.txt.
#
#   make                build the library, tools and tests in build/
#   make test           install deps, then: build/ with -Werror and every
#                       test (posix driver), the MPI tests again through the
#                       mpiio driver on OMPIO and on ROMIO, and through
#                       I/O groups on both drivers; build-asan/
#                       (ASan+UBSan) unit and MPI tests;
#                       build-fuzz/ (clang) the header and validate fuzzers,
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

test-main:
	$(CMAKE) -S . -B $(BUILD) -DNCP_WERROR=ON $(CMAKE_ARGS)
	$(CMAKE) --build $(BUILD) -j$(JOBS)
	cd $(BUILD) && $(CTEST) $(CTEST_FLAGS)

# The main run uses the default I/O driver, posix.  The MPI tests run again
# through the mpiio driver (PNETCDF_HINTS reaches every file the tests
# open) on both of OpenMPI's MPI-IO components, OMPIO and ROMIO: they
# differ in how they treat empty requests and noncontiguous file views,
# and users pick either.
MPIIO_HINTS  := PNETCDF_HINTS=nc_driver=mpiio

test-mpiio: test-main
	cd $(BUILD) && $(MPIIO_HINTS) $(CTEST) $(CTEST_FLAGS) -L '^mpi$$' \
	    --no-tests=error

test-romio: test-main
	cd $(BUILD) && $(MPIIO_HINTS) OMPI_MCA_io=romio321 $(CTEST) $(CTEST_FLAGS) \
	    -L '^mpi$$' --no-tests=error

# Every MPI test again through I/O groups, each file still compared byte
# for byte with PnetCDF's: uneven groups of 3 with a staging cap that cuts
# most transfers into rounds (posix driver), and one aggregator for all
# ranks over MPI-IO (ROMIO).
GROUP_HINTS_POSIX := nc_io_group_size=3;nc_io_group_buffer_size=4096
GROUP_HINTS_MPIIO := nc_io_group_size=all;nc_driver=mpiio

test-groups: test-main
	cd $(BUILD) && PNETCDF_HINTS='$(GROUP_HINTS_POSIX)' $(CTEST) \
	    $(CTEST_FLAGS) -L '^mpi$$' --no-tests=error
	cd $(BUILD) && PNETCDF_HINTS='$(GROUP_HINTS_MPIIO)' OMPI_MCA_io=romio321 \
	    $(CTEST) $(CTEST_FLAGS) -L '^mpi$$' --no-tests=error

# PnetCDF comparisons are left to the main tree: they check file contents,
# which the sanitizers do not change, and they would double the run time.
test-asan:
	$(CMAKE) -S . -B $(BUILD_ASAN) -DCMAKE_BUILD_TYPE=Debug \
	    -DNCP_WERROR=ON -DNCP_SANITIZE=ON -DNCP_PNETCDF_CMP=OFF $(CMAKE_ARGS)
	$(CMAKE) --build $(BUILD_ASAN) -j$(JOBS)
	cd $(BUILD_ASAN) && $(CTEST) $(CTEST_FLAGS) -L '^(unit|mpi)$$' \
	    --no-tests=error

test-fuzz:
	CC=clang CXX=clang++ $(CMAKE) -S . -B $(BUILD_FUZZ) -DNCP_FUZZ=ON \
	    -DNCP_WERROR=ON -DNCP_FUZZ_SECONDS=$(FUZZ_SECONDS) $(CMAKE_ARGS)
	$(CMAKE) --build $(BUILD_FUZZ) -j$(JOBS) --target fuzz_header \
	    fuzz_validate
	cd $(BUILD_FUZZ) && $(CTEST) $(CTEST_FLAGS) \
	    -R '^fuzz\.(header|validate)$$' --no-tests=error

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
