/*
 * enddef.c -- leaving and re-entering define mode: the cross-rank check of
 * definitions, the layout, the file's change (move.c: the data a grown
 * header moves and the header, journaled), and filling.
 *
 * Invariant: after ncp_enddef returns (with any code) every rank holds the
 * same header model -- rank 0's -- and the file's header matches it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ncp_dataset.h"
#include "../util/ncp_errors.h"
#include "ncp_safe.h"
#include "pnetcdf.h"

/* --- cross-rank consistency ---------------------------------------------- */

static int att_diff(const ncp_attlist *a, const ncp_attlist *b)
{
    int i;
    if (a->n != b->n) return NC_EMULTIDEFINE_ATTR_NUM;
    for (i = 0; i < a->n; i++) {
        const ncp_att *x = &a->a[i], *y = &b->a[i];
        if (strcmp(x->name, y->name)) return NC_EMULTIDEFINE_ATTR_NAME;
        if (x->xtype != y->xtype) return NC_EMULTIDEFINE_ATTR_TYPE;
        if (x->nelems != y->nelems) return NC_EMULTIDEFINE_ATTR_LEN;
        if (memcmp(x->xvalue, y->xvalue,
                   (size_t)(x->nelems * ncp_xtype_size(x->xtype))))
            return NC_EMULTIDEFINE_ATTR_VAL;
    }
    return NC_NOERR;
}

static int var_diff(const ncp_var *a, const ncp_var *b)
{
    if (strcmp(a->name, b->name)) return NC_EMULTIDEFINE_VAR_NAME;
    if (a->ndims != b->ndims) return NC_EMULTIDEFINE_VAR_NDIMS;
    if (a->ndims &&
        memcmp(a->dimids, b->dimids, (size_t)a->ndims * sizeof(int)))
        return NC_EMULTIDEFINE_VAR_DIMIDS;
    if (a->xtype != b->xtype) return NC_EMULTIDEFINE_VAR_TYPE;
    if (a->begin != b->begin) return NC_EMULTIDEFINE_VAR_BEGIN;
    return att_diff(&a->atts, &b->atts);
}

/* The most specific code naming how mine differs from root's. */
static int header_diff(const ncp_header *mine, const ncp_header *root)
{
    int i, err;
    if (mine->ndims != root->ndims) return NC_EMULTIDEFINE_DIM_NUM;
    for (i = 0; i < mine->ndims; i++) {
        if (strcmp(mine->dims[i].name, root->dims[i].name))
            return NC_EMULTIDEFINE_DIM_NAME;
        if (mine->dims[i].len != root->dims[i].len)
            return NC_EMULTIDEFINE_DIM_SIZE;
    }
    if ((err = att_diff(&mine->gatts, &root->gatts)) != NC_NOERR) return err;
    if (mine->nvars != root->nvars) return NC_EMULTIDEFINE_VAR_NUM;
    for (i = 0; i < mine->nvars; i++)
        if ((err = var_diff(&mine->vars[i], &root->vars[i])) != NC_NOERR)
            return err;
    if (mine->numrecs != root->numrecs) return NC_EMULTIDEFINE_NUMRECS;
    return NC_EMULTIDEFINE;
}

/* Adopt root's decoded header, keeping the memory-only var fill flags. */
static void adopt_root(ncp_dataset *ds, ncp_header *root)
{
    int i;
    for (i = 0; i < root->nvars && i < ds->hdr.nvars; i++)
        root->vars[i].fill_mode = ds->hdr.vars[i].fill_mode;
    ncp_header_free(&ds->hdr);
    ds->hdr = *root;
}

/*
 * Rank 0 broadcasts its encoded header; a rank whose own encoding differs
 * takes rank 0's and reports why.  Every rank returns the same code.
 */
static int check_consistency(ncp_dataset *ds)
{
    int err = NC_NOERR, differ;
    int64_t size = 0, need = 0;
    long long rsize;
    unsigned char *mine = NULL, *root = NULL;
    ncp_header rh;

    err = ncp_header_encoded_size(&ds->hdr, &size);
    if (err == NC_NOERR && !(mine = malloc((size_t)size))) err = NC_ENOMEM;
    if (err == NC_NOERR) err = ncp_header_encode(&ds->hdr, mine, size);
    rsize = size;
    MPI_Bcast(&rsize, 1, MPI_LONG_LONG, 0, ds->comm);
    if (err == NC_NOERR && !(root = malloc((size_t)rsize))) err = NC_ENOMEM;
    err = ncp_agree(ds->comm, err);
    if (err != NC_NOERR) goto done;
    if (ds->rank == 0) memcpy(root, mine, (size_t)size);
    ncp_bcast_bytes(root, rsize, ds->hints.bcast_chunk, 0, ds->comm);
    differ = rsize != size || memcmp(root, mine, (size_t)size) != 0;
    if (differ) {
        ncp_header_init(&rh, ds->hdr.format);
        err = ncp_header_decode(root, rsize, INT64_MAX / 2, &rh, &need);
        if (err == NC_NOERR) {
            err = header_diff(&ds->hdr, &rh);
            adopt_root(ds, &rh);
        } else {
            ncp_header_free(&rh);
        }
    }
    err = ncp_agree(ds->comm, err);
done:
    free(mine);
    free(root);
    return err;
}

/*
 * What a mismatch, already settled by adopting rank 0's definitions,
 * returns: its code on every rank in safe mode; otherwise NC_NOERR, as
 * PnetCDF (which does not compare definitions at enddef) returns, so a
 * program that passes there passes here, with one warning from rank 0.
 */
static int settle_mismatch(const ncp_dataset *ds, int consistency)
{
    if (consistency == NC_NOERR || ncp_safe_on(ds)) return consistency;
    if (ds->rank == 0)
        fprintf(stderr, "ncpario: warning: processes defined %s differently "
                        "(%s); rank 0's definitions were kept\n",
                ds->file.path ? ds->file.path : "a dataset",
                ncp_strerror_detail(consistency));
    return NC_NOERR;
}

/* --- layout parameters ---------------------------------------------------- */

/* PnetCDF rounds every alignment up to a multiple of 4 (1 -> 4, 6 -> 8). */
static int64_t align4(int64_t a)
{
    return (a + 3) / 4 * 4;
}

/*
 * Resolve alignment as PnetCDF 1.12 does (measured; see layout.c and
 * docs/notes/pnetcdf-compat.md): hints win over _enddef arguments, which
 * win over the defaults (header extent aligned to 512, variables and the
 * record section to 4); an _enddef v_align of 0 falls back to its r_align.
 * The alignments are fixed at the first enddef after create or open; a
 * later _enddef only contributes its free-space arguments.
 */
static void resolve_layout(ncp_dataset *ds, const ncp_layout_params *forced,
                           ncp_layout_params *p)
{
    const ncp_hints *h = &ds->hints;
    int64_t fv = forced ? forced->v_align : 0;
    int64_t fr = forced ? forced->r_align : 0;

    p->h_minfree = forced ? forced->h_minfree : 0;
    p->v_minfree = forced ? forced->v_minfree : 0;
    if (ds->flags & NCP_F_ALIGNED) return;
    p->h_align = h->header_align > 0 ? h->header_align
                                     : (fv > 0 ? fv : (fr > 0 ? fr : 512));
    p->v_align = h->var_align > 0 ? h->var_align : 4;
    p->r_align = h->record_align > 0 ? h->record_align : (fr > 0 ? fr : 4);
    p->h_align = align4(p->h_align);
    p->v_align = align4(p->v_align);
    p->r_align = align4(p->r_align);
    ds->flags |= NCP_F_ALIGNED;
}

/* --- enddef / redef ------------------------------------------------------- */

/*
 * Whether any rank is in define mode: the first collective call of enddef
 * and of close, so that ranks in different modes at close still make the
 * same collective calls (ncp_close_define).
 */
static int any_in_define(const ncp_dataset *ds)
{
    int mine = (ds->flags & NCP_F_DEFINE) != 0, any = 0;
    MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, ds->comm);
    return any;
}

/* enddef once every rank is known to take part. */
static int enddef_agreed(ncp_dataset *ds, const ncp_layout_params *forced)
{
    int err, consistency;
    int first_new_var = ds->on_disk ? ds->on_disk->nvars : 0;

    resolve_layout(ds, forced, &ds->layout);
    err = ncp_layout_compute(&ds->hdr, ds->on_disk, &ds->layout);
    err = ncp_agree(ds->comm, err);
    if (err != NC_NOERR) return err;
    consistency = check_consistency(ds);
    /* A mismatch has adopted rank 0's definitions and goes on; any other
       failure stops here. */
    if (consistency != NC_NOERR && (consistency > NC_EMULTIDEFINE_FIRST ||
                                    consistency < NC_EMULTIDEFINE_LAST))
        return consistency;
    consistency = settle_mismatch(ds, consistency);
    err = ncp_enddef_write(ds);
    if (err == NC_NOERR) ds->flags &= ~NCP_F_CREATED; /* past enddef: abort keeps the file */
    if (err == NC_NOERR)
        err = ncp_fill_new_vars(ds, first_new_var);
    if (err == NC_NOERR) MPI_Barrier(ds->comm);
    if (ds->on_disk) {
        ncp_header_free(ds->on_disk);
        free(ds->on_disk);
        ds->on_disk = NULL;
    }
    ds->flags &= ~(NCP_F_DEFINE | NCP_F_INDEP);
    ds->prof.time_define += MPI_Wtime() - ds->define_since;
    return err != NC_NOERR ? err : consistency;
}

/* A rank outside define mode returns at once, making no collective call,
 * as in PnetCDF. */
int ncp_enddef(ncp_dataset *ds, const ncp_layout_params *forced)
{
    int err;
    if ((err = ncp_require_define(ds)) != NC_NOERR) return err;
    (void)any_in_define(ds);
    return enddef_agreed(ds, forced);
}

int ncp_ds_enddef(ncp_dataset *ds)
{
    return ncp_enddef(ds, NULL);
}

int ncp_ds__enddef(ncp_dataset *ds, MPI_Offset h_minfree,
                         MPI_Offset v_align, MPI_Offset v_minfree,
                         MPI_Offset r_align)
{
    ncp_layout_params p;
    if (h_minfree < 0 || v_align < 0 || v_minfree < 0 || r_align < 0)
        return NC_EINVAL;
    p.h_minfree = h_minfree;
    p.v_align = v_align;
    p.v_minfree = v_minfree;
    p.r_align = r_align;
    return ncp_enddef(ds, &p);
}

/* Enter define mode on this rank alone: keep what the file holds, so
 * enddef can tell what moved. */
static int enter_define(ncp_dataset *ds)
{
    ncp_header *snap = malloc(sizeof(*snap));
    int err = snap ? ncp_header_copy(snap, &ds->hdr) : NC_ENOMEM;
    if (err != NC_NOERR) {
        free(snap);
        return err;
    }
    ds->on_disk = snap;
    ds->flags |= NCP_F_DEFINE;
    ds->define_since = MPI_Wtime();
    return NC_NOERR;
}

/*
 * From collective data mode redef makes no collective call, as in PnetCDF
 * (numrecs is agreed there already), so a rank may redef and close while
 * another closes from data mode (ncp_close_define).  From independent
 * mode it first settles numrecs, collectively, as end_indep_data does.
 */
int ncp_dataset_redef(int ncid)
{
    int err;
    ncp_dataset *ds;
    if ((err = ncp_dataset_get(ncid, &ds)) != NC_NOERR) return err;
    if ((err = ncp_require_write(ds)) != NC_NOERR) return err;
    if (ds->flags & NCP_F_DEFINE) return NC_EINDEFINE;
    if (ds->flags & NCP_F_INDEP) {
        ds->flags &= ~NCP_F_INDEP;
        if ((err = ncp_numrecs_end_indep(ds)) != NC_NOERR) return err;
    }
    /* Each rank's pending writes reach the file before any enddef moves
       data; a numrecs held back is in the header enddef writes. */
    if ((err = ncp_behind_drain(ds)) != NC_NOERR) return err;
    return enter_define(ds);
}

/*
 * The define-mode part of close: when any rank is in define mode, every
 * rank ends it (a rank in data mode enters it first, with nothing to
 * change, and takes rank 0's definitions like the others).  The second
 * agreement pairs with the one that starts the close of a rank that called
 * enddef itself before closing, so that rank and one that closes straight
 * from define mode make the same collective calls, as they do in PnetCDF.
 */
int ncp_close_define(ncp_dataset *ds)
{
    int err = NC_NOERR;
    if (!any_in_define(ds)) return NC_NOERR;
    /* A background error here is close's to report (ncp_io_close). */
    if (!(ds->flags & NCP_F_DEFINE)) (void)ncp_behind_drain(ds);
    if (!(ds->flags & NCP_F_DEFINE)) err = enter_define(ds);
    if (err == NC_NOERR) err = enddef_agreed(ds, NULL);
    (void)any_in_define(ds);
    return err;
}
