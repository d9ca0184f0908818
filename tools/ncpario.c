/*
 * ncpario.c -- the ncpario command: one program, one subcommand per task
 * (dump, validate, offsets, diff, hints, plan, recover, run), each in its own
 * file.  MPI is started here for all of them but run (which replaces this
 * process), so any may run under mpirun.
 */
#include <string.h>

#include <ncpario.h>

#include "ncpario_tool.h"

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} command;

static const command commands[] = {
    {"dump", nt_dump, "print the header as CDL, and data of variables"},
    {"validate", nt_validate, "check a file's header and size"},
    {"offsets", nt_offsets, "print where each variable lies in the file"},
    {"diff", nt_diff, "compare two files, header and data"},
    {"hints", nt_hints, "print the hints in effect for a file open"},
    {"plan", nt_plan, "show how a collective write at N ranks is carried out"},
    {"recover", nt_recover, "repair what a writer stopped midway left"},
    {"run", nt_run, "run a program built on PnetCDF on ncpario"},
};

static void usage(FILE *out)
{
    size_t i;
    fprintf(out, "usage: ncpario <command> [options] [file...]\n"
                 "       ncpario --help | --version\n\ncommands:\n");
    for (i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-9s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\n'ncpario <command> --help' describes a command.\n"
                 "Exit status: 0 ok, 1 difference or defect found, "
                 "2 usage error, 3 I/O or library error.\n");
}

int main(int argc, char **argv)
{
    int rc = NT_USAGE;
    size_t i;

    if (argc > 1 && strcmp(argv[1], "run") == 0)
        return nt_run(argc - 1, argv + 1);   /* no MPI: it execs */
    MPI_Init(&argc, &argv);
    if (argc < 2) {
        if (nt_rank() == 0) usage(stderr);
    } else if (nt_is_help(argv[1]) || strcmp(argv[1], "-h") == 0) {
        if (nt_rank() == 0) usage(stdout);
        rc = NT_OK;
    } else if (strcmp(argv[1], "--version") == 0) {
        if (nt_rank() == 0) printf("ncpario %s\n", ncpario_version());
        rc = NT_OK;
    } else {
        for (i = 0; i < sizeof commands / sizeof commands[0]; i++)
            if (strcmp(argv[1], commands[i].name) == 0) break;
        if (i < sizeof commands / sizeof commands[0]) {
            rc = commands[i].run(argc - 1, argv + 1);
        } else if (nt_rank() == 0) {
            fprintf(stderr, "ncpario: unknown command '%s'\n", argv[1]);
            usage(stderr);
        }
    }
    fflush(stdout);
    MPI_Finalize();
    return rc;
}
