/*
 * enddef.c -- leaving and re-entering define mode: the cross-rank check of
 * definitions, the layout, moving existing data when the header grows, the
 * header write, and filling.
 *
 * Invariant: after ncp_enddef returns (with any code) every rank holds the
 * same header model -- rank 0's -- and the file's header matches it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ncp_dataset.h"
#include "ncp_safe.h"
#include "pnetcdf.h"

/* Size of one copy step when moving data after header growth. */
#define NCP_MOVE_CHUNK ((int64_t)16 << 20)

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
                ncpario_strerror_detail(consistency));
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

/* --- moving data after header growth ------------------------------------- */

typedef struct move_piece {
    int64_t from, to, len;
} move_piece;

typedef struct move_list {
    int64_t n, cap;
    move_piece *p;
} move_list;

/* Append a piece, merging with the previous one when both are contiguous
 * and shift by the same amount. */
static int move_add(move_list *m, int64_t from, int64_t to, int64_t len)
{
    move_piece *last = m->n ? &m->p[m->n - 1] : NULL;
    if (len <= 0 || from == to) return NC_NOERR;
    if (last && last->from + last->len == from && last->to + last->len == to) {
        last->len += len;
        return NC_NOERR;
    }
    if (m->n == m->cap) {
        int64_t cap = m->cap ? 2 * m->cap : 64;
        move_piece *np = realloc(m->p, (size_t)cap * sizeof(*np));
        if (!np) return NC_ENOMEM;
        m->p = np;
        m->cap = cap;
    }
    m->p[m->n].from = from;
    m->p[m->n].to = to;
    m->p[m->n].len = len;
    m->n++;
    return NC_NOERR;
}

/* A fixed variable's bytes with its padding to 4, as PnetCDF moves it
 * (vsize itself may be clamped on CDF-1/2, so it is recomputed). */
static int64_t padded_bytes(const ncp_var *v)
{
    return (v->nelems_per_rec * ncp_xtype_size(v->xtype) + 3) & ~(int64_t)3;
}

/*
 * Pieces in ascending source order: the fixed variables, each with its
 * padding, then each old record whole (old recsize bytes, padding and all).
 * Copying exactly these ranges, as PnetCDF does, makes the moved file
 * byte-identical to PnetCDF's, stale bytes in gaps included.
 */
static int plan_move(const ncp_header *old, const ncp_header *nw,
                     move_list *m)
{
    int err = NC_NOERR, i;
    int64_t r;
    for (i = 0; i < old->nvars && err == NC_NOERR; i++) {
        const ncp_var *ov = &old->vars[i];
        if (!ov->is_record)
            err = move_add(m, ov->begin, nw->vars[i].begin, padded_bytes(ov));
    }
    for (r = 0; r < old->numrecs && err == NC_NOERR; r++)
        err = move_add(m, old->begin_rec + r * old->recsize,
                       nw->begin_rec + r * nw->recsize, old->recsize);
    return err;
}

/* Bytes of [from, from+len) that lie before the old end of file. */
static int64_t clamp_to_eof(int64_t from, int64_t len, int64_t eof)
{
    if (from >= eof) return 0;
    return from + len > eof ? eof - from : len;
}

/*
 * Copy pieces from the end of the file toward its start, in rounds of one
 * chunk per rank; within a round every read finishes (barrier) before any
 * write.  Destinations never precede sources, so a write can only land on
 * bytes that an earlier round already copied.  Only bytes that existed in
 * the old file are read and written: a NOFILL file is not zero-extended,
 * and a read never sees data an earlier round moved past the old end.
 */
static int run_move(ncp_dataset *ds, const move_list *m, void *buf,
                    int64_t eof)
{
    int err = NC_NOERR;
    int64_t pi = m->n - 1, left = pi >= 0 ? m->p[pi].len : 0;
    while (ncp_agree(ds->comm, err) == NC_NOERR) {
        /* Every rank walks the same next nprocs chunks; rank k takes the
           k-th, so a round covers them all. */
        int64_t from = -1, to = 0, len = 0, got = 0, k;
        if (pi < 0) break; /* the same on every rank */
        for (k = 0; k < ds->nprocs && pi >= 0; k++) {
            int64_t l = left < NCP_MOVE_CHUNK ? left : NCP_MOVE_CHUNK;
            if (k == ds->rank) {
                from = m->p[pi].from + left - l;
                to = m->p[pi].to + left - l;
                len = clamp_to_eof(from, l, eof);
            }
            left -= l;
            if (left == 0 && --pi >= 0) left = m->p[pi].len;
        }
        if (len > 0) err = ncp_io_read_at(&ds->file, from, buf, len, &got);
        MPI_Barrier(ds->comm);
        if (got > 0 && err == NC_NOERR)
            err = ncp_io_write_at(&ds->file, to, buf, got);
        MPI_Barrier(ds->comm);
    }
    return ncp_agree(ds->comm, err);
}

/* The file's size as rank 0 sees it, on every rank. */
static int shared_file_size(ncp_dataset *ds, int64_t *size)
{
    MPI_Offset sz = 0;
    int err = ds->rank == 0 ? ncp_io_get_size(&ds->file, &sz) : NC_NOERR;
    MPI_Bcast(&sz, 1, MPI_OFFSET, 0, ds->comm);
    *size = (int64_t)sz;
    return ncp_agree(ds->comm, err);
}

static int move_data(ncp_dataset *ds)
{
    int err;
    move_list m = {0, 0, NULL};
    void *buf = NULL;
    int64_t eof = 0;
    /* Every rank has passed the consistency check's collectives, so the
       writes made before redef are all in the file. */
    if ((err = shared_file_size(ds, &eof)) != NC_NOERR) return err;
    err = plan_move(ds->on_disk, &ds->hdr, &m);
    if (err == NC_NOERR && m.n > 0 && !(buf = malloc(NCP_MOVE_CHUNK)))
        err = NC_ENOMEM;
    err = ncp_agree(ds->comm, err);
    if (err == NC_NOERR) err = run_move(ds, &m, buf, eof);
    free(buf);
    free(m.p);
    return err;
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
    if (ds->on_disk) err = move_data(ds);
    if (err == NC_NOERR) err = ncp_header_write(ds);
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

int ncmpi_enddef(int ncid)
{
    int err;
    ncp_dataset *ds;
    if ((err = ncp_dataset_get(ncid, &ds)) != NC_NOERR) return err;
    return ncp_enddef(ds, NULL);
}

int ncmpi__enddef(int ncid, MPI_Offset h_minfree, MPI_Offset v_align,
                  MPI_Offset v_minfree, MPI_Offset r_align)
{
    int err;
    ncp_dataset *ds;
    ncp_layout_params p;
    if ((err = ncp_dataset_get(ncid, &ds)) != NC_NOERR) return err;
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
    if (!(ds->flags & NCP_F_DEFINE)) err = enter_define(ds);
    if (err == NC_NOERR) err = enddef_agreed(ds, NULL);
    (void)any_in_define(ds);
    return err;
}
