/*
 * test_plan_invariants.c -- the aggregation plan's promises as code
 * (ncp_plan_broken, ncp_plan_round_broken, ncp_plan_done_broken in
 * src/io/agg/plan.c) find each kind of broken plan, and pass a sound
 * one.  test_agg_plan.c walks thousands of plans with the checks on
 * (where assertions are on, every ncp_plan_start and ncp_plan_advance
 * runs them); this test breaks plans on purpose, so it calls the checks
 * itself and never advances a broken plan.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <pnetcdf.h>

#include "io/agg/ncp_agg_plan.h"
#include "unit_check.h"

/* One rank, two extents in two 1 MiB-aligned domains. */
static void plan_two_domains(ncp_agg_plan *p, ncp_extents *e)
{
    ncp_plan_limits lim = {2, 64 << 10, 0, 1};
    MPI_Offset all[NCP_PLAN_NLOCAL];
    ncp_extents_init(e);
    ncp_extents_add(e, 100, 5000);
    ncp_extents_add(e, ((MPI_Offset)1 << 20) + 7, 300);
    ncp_plan_alloc(p, 2);
    ncp_plan_local(e, all);
    ncp_plan_shape(p, &lim, all);
    ncp_plan_mark(p, e, 0);
    ncp_plan_start(p);
}

/* Each corruption of a sound plan's shape is named. */
static void test_shape(void)
{
    ncp_agg_plan p;
    ncp_extents e;
    plan_two_domains(&p, &e);
    check(ncp_plan_broken(&p) == NULL, "a sound plan's shape passes");
    check(p.nrounds > 0 && p.naggr == 2, "the plan has rounds");

    p.domains_start += 4096;
    check(ncp_plan_broken(&p) != NULL, "domains off the alignment");
    p.domains_start -= 4096;
    p.data_end = p.domains_start + 2 * p.domain_size + 1;
    check(ncp_plan_broken(&p) != NULL, "data past the last domain");
    p.data_end = ((MPI_Offset)1 << 20) + 307;
    p.windows_per_domain--;
    check(ncp_plan_broken(&p) != NULL, "windows short of the domain");
    p.windows_per_domain++;
    p.part_size = p.window_size + 1;
    check(ncp_plan_broken(&p) != NULL, "a part larger than its window");
    p.part_size = p.window_size;
    p.nrounds = p.busy_windows + 1;
    check(ncp_plan_broken(&p) != NULL, "more rounds than busy windows");
    check(ncp_plan_broken(&p) && strstr(ncp_plan_broken(&p), "rounds"),
          "the message names the promise");
    ncp_plan_free(&p);
    ncp_extents_free(&e);
}

/* A round recorded twice, or a domain whose last window already ended
 * past this one, is a window not past its domain's last one.  (The
 * checks of a window's place and size hold by ncp_plan_window's
 * arithmetic today; they guard changes to it, and no plan state can
 * break them without breaking the shape first.) */
static void test_round(void)
{
    ncp_agg_plan p;
    ncp_extents e;
    plan_two_domains(&p, &e);
    check(ncp_plan_round_broken(&p) == NULL, "the first round passes");
    check(p.seen_bytes > 0, "it records this rank's bytes in the windows");
    check(ncp_plan_round_broken(&p) != NULL, "the same windows again fail");
    ncp_plan_free(&p);
    ncp_extents_free(&e);

    plan_two_domains(&p, &e);
    p.seen_hi[1] = p.data_end;
    check(ncp_plan_round_broken(&p) != NULL, "a window behind the last one");
    ncp_plan_free(&p);
    ncp_extents_free(&e);
}

/* After the last round every domain is done and every byte was seen
 * once: a walk cut short, or bytes never seen, fail. */
static void test_done(void)
{
    ncp_agg_plan p;
    ncp_extents e;
    int a;
    plan_two_domains(&p, &e);
    check(ncp_plan_done_broken(&p) != NULL, "windows left before any round");
    for (a = 0; a < p.naggr; a++) p.cur_window[a] = p.windows_per_domain;
    check(ncp_plan_done_broken(&p) != NULL,
          "every domain done, no byte seen: the bytes are missed");
    p.seen_bytes = e.nbytes;
    check(ncp_plan_done_broken(&p) == NULL, "done, every byte seen once");
    p.seen_bytes = 2 * e.nbytes;
    check(ncp_plan_done_broken(&p) != NULL, "bytes seen twice");
    ncp_plan_free(&p);
    ncp_extents_free(&e);
}

int main(void)
{
    test_shape();
    test_round();
    test_done();
    printf("%ld passed, %ld failed\n", passed, failed);
    return failed != 0;
}
