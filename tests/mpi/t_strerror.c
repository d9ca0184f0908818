/* ncp-test: RANKS 1 2 4 NO_CDL */
/* t_strerror -- ncmpi_strerror returns netCDF's standard text for every
 * code netCDF defines, as PnetCDF 1.12.3 does: programs and test suites
 * compare these strings, and PnetCDF's text for two codes programs are
 * known to compare: PIO's test_pioc matches the start of -255's, and
 * netCDF's nc_test expects "Unknown Error" for a code nobody defines.
 * (interop.strerror_probe compares every code's text with PnetCDF's.)
 * Writes no file.
 */
#include "testutil.h"

static const struct {
    int code;
    const char *text;
} expected[] = {
    {-33, "NetCDF: Not a valid ID"},
    {-34, "NetCDF: Too many files open"},
    {-35, "NetCDF: File exists && NC_NOCLOBBER"},
    {-36, "NetCDF: Invalid argument"},
    {-37, "NetCDF: Write to read only"},
    {-38, "NetCDF: Operation not allowed in data mode"},
    {-39, "NetCDF: Operation not allowed in define mode"},
    {-40, "NetCDF: Index exceeds dimension bound"},
    {-41, "NetCDF: NC_MAX_DIMS or NC_MAX_VAR_DIMS exceeded"},
    {-42, "NetCDF: String match to name in use"},
    {-43, "NetCDF: Attribute not found"},
    {-44, "NetCDF: NC_MAX_ATTRS exceeded"},
    {-45, "NetCDF: Not a valid data type or _FillValue type mismatch"},
    {-46, "NetCDF: Invalid dimension ID or name"},
    {-47, "NetCDF: NC_UNLIMITED in the wrong index"},
    {-48, "NetCDF: NC_MAX_VARS exceeded"},
    {-49, "NetCDF: Variable not found"},
    {-50, "NetCDF: Action prohibited on NC_GLOBAL varid"},
    {-51,
     "NetCDF: Unknown file format (file format violates CDF "
     "specification)"},
    {-52, "NetCDF: In Fortran, string too short"},
    {-53, "NetCDF: NC_MAX_NAME exceeded"},
    {-54, "NetCDF: NC_UNLIMITED size already in use"},
    {-55, "NetCDF: nc_rec op when there are no record vars"},
    {-56, "NetCDF: Attempt to convert between text & numbers"},
    {-57, "NetCDF: Start+count exceeds dimension bound"},
    {-58, "NetCDF: Illegal stride"},
    {-59, "NetCDF: Name contains illegal characters"},
    {-60, "NetCDF: Numeric conversion not representable"},
    {-61, "NetCDF: Memory allocation (malloc) failure"},
    {-62, "NetCDF: One or more variable sizes violate format constraints"},
    {-63, "NetCDF: Invalid dimension size"},
    {-64, "NetCDF: File likely truncated or possibly corrupted"},
    {-65, "NetCDF: Illegal axis type"},
    {-66, "NetCDF: DAP failure"},
    {-67, "NetCDF: libcurl failure"},
    {-68, "NetCDF: I/O failure"},
    {-69, "NetCDF: Variable has no data"},
    {-70, "NetCDF: DAP server error"},
    {-71, "NetCDF: Malformed or inaccessible DAP DAS"},
    {-72, "NetCDF: Malformed or inaccessible DAP2 DDS or DAP4 DMR response"},
    {-73,
     "NetCDF: Malformed or inaccessible DAP2 DATADDS or DAP4 DAP "
     "response"},
    {-74, "NetCDF: Malformed URL"},
    {-75, "NetCDF: Malformed or unexpected Constraint"},
    {-76, "NetCDF: Untranslatable construct"},
    {-77, "NetCDF: Access failure"},
    {-78, "NetCDF: Authorization failure"},
    {-90, "NetCDF: file not found"},
    {-91, "NetCDF: cannot delete file"},
    {-92, "NetCDF: internal library error; Please contact Unidata support"},
    {-93, "NetCDF: PnetCDF error"},
    {-101, "NetCDF: HDF error"},
    {-102, "NetCDF: Can't read file"},
    {-103, "NetCDF: Can't write file"},
    {-104, "NetCDF: Can't create file"},
    {-105, "NetCDF: Can't add HDF5 file metadata"},
    {-106, "NetCDF: Can't define dimensional metadata"},
    {-107, "NetCDF: Can't open HDF5 attribute"},
    {-108, "NetCDF: Problem with variable metadata."},
    {-109, "NetCDF: Can't create HDF5 compound type"},
    {-110, "NetCDF: Attempt to create attribute that already exists"},
    {-111, "NetCDF: Attempting netcdf-4 operation on netcdf-3 file"},
    {-112,
     "NetCDF: Attempting netcdf-4 operation on strict nc3 "
     "netcdf-4 file"},
    {-113, "NetCDF: Attempting netcdf-3 operation on netcdf-4 file"},
    {-114,
     "NetCDF: Parallel operation on file opened for non-parallel "
     "access"},
    {-115, "NetCDF: Error initializing for parallel access"},
    {-116, "NetCDF: Bad group ID"},
    {-117, "NetCDF: Bad type ID"},
    {-118, "NetCDF: Type has already been defined and may not be edited"},
    {-119, "NetCDF: Bad field ID"},
    {-120, "NetCDF: Bad class"},
    {-121, "NetCDF: Mapped access for atomic types only"},
    {-122, "NetCDF: Attempt to define fill value when data already exists."},
    {-123,
     "NetCDF: Attempt to define var properties, like deflate, "
     "after enddef."},
    {-124, "NetCDF: Problem with HDF5 dimscales."},
    {-125, "NetCDF: No group found."},
    {-126, "NetCDF: Cannot specify both contiguous and chunking."},
    {-127, "NetCDF: Bad chunk sizes."},
    {-128,
     "NetCDF: Attempt to use feature that was not turned on when "
     "netCDF was built."},
    {-129, "NetCDF: Error in using diskless access"},
    {-130,
     "NetCDF: Attempt to extend dataset during NC_INDEPENDENT I/O "
     "operation. Use nc_var_par_access to set mode NC_COLLECTIVE "
     "before extending variable."},
    {-131, "NetCDF: MPI operation failed."},
    {-132, "NetCDF: Filter error: bad id or parameters or duplicate filter"},
    {-133, "NetCDF: RC File Failure."},
    {-134, "NetCDF: File fails strict Null-Byte Header check."},
    {-135, "NetCDF: In-memory File operation failed."},
    {-136, "NetCDF: Filter error: unimplemented filter encountered"},
    {-137, "NetCDF: NCZarr error"},
    {-138, "NetCDF: AWS S3 error"},
    {-139, "NetCDF: Attempt to read empty NCZarr map key"},
    {-140, "NetCDF: Some object exists when it should not"},
    {-141, "NetCDF: Some object not found"},
    {-142,
     "NetCDF: Unclassified failure in accessing a dynamically "
     "loaded plugin"},
    {-255, "Number of variables is inconsistent among processes."},
    {-300, "Unknown Error: Unrecognized error code  -300\n"},
};

int main(int argc, char **argv)
{
    int i;
    tu_init(&argc, &argv);
    (void)argv;
    for (i = 0; i < (int)(sizeof expected / sizeof expected[0]); i++) {
        const char *got = ncmpi_strerror(expected[i].code);
        CHECKF(got != NULL && strcmp(got, expected[i].text) == 0,
               "strerror(%d) = \"%s\", want \"%s\"", expected[i].code,
               got ? got : "(null)", expected[i].text);
    }
    CHECK(strcmp(ncmpi_strerror(NC_NOERR), "No error") == 0);
    return tu_finish("t_strerror");
}
