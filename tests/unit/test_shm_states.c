/*
 * test_shm_states.c -- the shared staging's drawn states as code
 * (ncp_agg_shm_broken, src/io/agg/shm.c): a file holds a staging
 * exactly when its state is ON, with its rounds, ranks and pool slot in
 * range; every other combination is named.
 */
#include <string.h>

#include <pnetcdf.h>

#include "io/agg/ncp_agg.h"
#include "io/agg/ncp_agg_shm.h"
#include "io/agg/ncp_shm_stage.h"
#include "unit_check.h"

int main(void)
{
    ncp_agg x;
    ncp_shm_stage st;
    memset(&x, 0, sizeof(x));
    memset(&st, 0, sizeof(st));
    st.np = 4;
    st.me = 2;
    st.slot = 16;

    x.shm = NCP_SHM_NO;
    check(ncp_agg_shm_broken(&x) == NULL, "NO without a staging");
    x.shm = NCP_SHM_LATER;
    check(ncp_agg_shm_broken(&x) == NULL, "LATER without a staging");
    x.shm = NCP_SHM_ON;
    check(ncp_agg_shm_broken(&x) != NULL, "ON without a staging");
    x.stage = &st;
    check(ncp_agg_shm_broken(&x) == NULL, "ON with a staging");
    x.shm = NCP_SHM_LATER;
    check(ncp_agg_shm_broken(&x) != NULL, "a staging held in LATER");
    x.shm = NCP_SHM_NO;
    check(ncp_agg_shm_broken(&x) != NULL, "a staging held in NO");
    x.shm = 7;
    x.stage = NULL;
    check(ncp_agg_shm_broken(&x) != NULL, "an unknown state");

    x.shm = NCP_SHM_ON;
    x.stage = &st;
    st.me = 4;
    check(ncp_agg_shm_broken(&x) != NULL, "my rank past the ranks");
    st.me = 2;
    st.slot = 0;
    check(ncp_agg_shm_broken(&x) != NULL, "a pool slot of no pairs");
    st.slot = 16;
    st.round = -1;
    check(ncp_agg_shm_broken(&x) != NULL, "rounds counted below zero");

    printf("%ld passed, %ld failed\n", passed, failed);
    return failed != 0;
}
