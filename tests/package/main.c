/*
 * main.c -- the smallest program a user of an installed ncpario builds:
 * it includes both public headers and calls into the library, proving the
 * headers, the library and its link line all came from the install.
 */
#include <stdio.h>
#include <string.h>

#include <ncpario.h>
#include <pnetcdf.h>

int main(void)
{
    const char *vers = ncmpi_inq_libvers();
    if (vers == NULL || vers[0] == '\0') {
        printf("ncmpi_inq_libvers returned nothing\n");
        return 1;
    }
    printf("consumer linked against: %s\n", vers);
    return 0;
}
