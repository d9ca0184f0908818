/* strerror_probe.c -- prints, for every status code from 10 down to -400,
 * ncmpi_strerrno's name and ncmpi_strerror's text (newlines shown as \n),
 * one code a line.  ctest interop.strerror_probe builds it against ncpario
 * and against PnetCDF and requires identical output: programs compare
 * these texts (PIO matches the start of a code's text, netCDF's nc_test
 * expects "Unknown Error" for a code nobody defines).  The argument, a
 * directory for files, is unused: this probe writes none.
 */
#include <mpi.h>
#include <pnetcdf.h>
#include <stdio.h>

static void print_escaped(const char *s)
{
    for (; *s; s++) {
        if (*s == '\n')
            fputs("\\n", stdout);
        else
            putchar(*s);
    }
}

int main(int argc, char **argv)
{
    int code;

    (void)argc;
    (void)argv;
    for (code = 10; code >= -400; code--) {
        printf("%d\t", code);
        print_escaped(ncmpi_strerrno(code));
        putchar('\t');
        print_escaped(ncmpi_strerror(code));
        putchar('\n');
    }
    return 0;
}
