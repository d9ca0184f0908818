// client.cpp -- a C++ program written for PnetCDF (#include <pnetcdf>),
// built by run_compat_test.sh with pnetcdf-config's --cxx, --cxxflags and
// --libs: it writes one variable, reads it back and names its library.
#include <pnetcdf>

#include <cstdio>
#include <vector>

using namespace PnetCDF;

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, np;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  int bad = 0;
  try {
    NcmpiFile nc(MPI_COMM_WORLD, argv[1], NcmpiFile::replace,
                 NcmpiFile::classic5);
    NcmpiDim x = nc.addDim("x", 4 * np);
    NcmpiVar v = nc.addVar("v", ncmpiInt, x);
    std::vector<MPI_Offset> start(1, 4 * me), count(1, 4);
    int out[4] = {me, me + 1, me + 2, me + 3}, in[4];
    v.putVar_all(start, count, out);
    v.getVar_all(start, count, in);
    for (int i = 0; i < 4; i++) bad |= in[i] != out[i];
  } catch (exceptions::NcmpiException &e) {
    std::printf("%s\n", e.what());
    bad = 1;
  }
  if (me == 0 && !bad) std::printf("ok, library %s\n", ncmpi_inq_libvers());
  MPI_Finalize();
  return bad;
}
