/*
 * ncp_header.h -- the in-memory model of a netCDF classic header (CDF-1,
 * CDF-2, CDF-5) and the pure functions that encode, decode and lay it out.
 *
 * Owns: struct definitions shared by the format layer and the dataset layer.
 * Nothing here does I/O or MPI communication; every function is a pure
 * transformation of memory, so it can be unit-tested and fuzzed alone.
 *
 * Invariants kept by every function that builds an ncp_header:
 *  1. ndims/nvars/natts never exceed the format limits, and every dimid held
 *     by a variable is < ndims.
 *  2. Only dimension 0..ndims-1 may be the unlimited one, and at most one is
 *     (unlimdimid, or -1 when none).
 *  3. A record variable has the unlimited dimension as its first dimension.
 *  4. Attribute values are held in their external (big-endian, file) form,
 *     exactly nelems * xsize bytes, without padding.
 *
 * The format is the "netCDF Classic and 64-bit Offset File Format" and the
 * CDF-5 extension, as published by Unidata and the PnetCDF project.
 */
#ifndef NCP_HEADER_H
#define NCP_HEADER_H

#include <stddef.h>
#include <stdint.h>

#include "ncp_name.h"

/* Which on-disk variant: the version byte after "CDF". */
enum { NCP_CDF1 = 1, NCP_CDF2 = 2, NCP_CDF5 = 5 };

typedef struct ncp_dim {
    char *name;   /* NUL-terminated, normalized UTF-8 */
    int64_t len;  /* 0 for the unlimited dimension */
} ncp_dim;

typedef struct ncp_att {
    char *name;
    int xtype;      /* nc_type: NC_BYTE .. NC_UINT64 */
    int64_t nelems;
    void *xvalue;   /* nelems * xsize bytes, big-endian (file form) */
} ncp_att;

typedef struct ncp_attlist {
    int n;
    int cap;
    ncp_att *a;
    ncp_name_index index; /* names -> positions in a; a cache (ncp_name.h) */
} ncp_attlist;

enum { NCP_VFILL_DEFAULT = 0, NCP_VFILL_ON = 1, NCP_VFILL_OFF = 2 };

typedef struct ncp_var {
    char *name;
    int xtype;
    int ndims;
    int *dimids;      /* ndims entries */
    int64_t *shape;   /* ndims entries; shape[0] == 0 for a record var */
    ncp_attlist atts;
    int64_t vsize;    /* the header's vsize field as computed for this
                         format (per-record size for record vars, padded
                         to 4 bytes); may be clamped on CDF-1/2 */
    int64_t nelems_per_rec; /* product of the non-record dims (all dims for
                               a fixed-size var); 1 for a scalar */
    int64_t begin;    /* byte offset of element 0 (record 0 for rec vars) */
    int is_record;
    /* fill state kept in memory only (not part of the header bytes):
       NCP_VFILL_DEFAULT follows the dataset's set_fill mode; def_var_fill
       sets NCP_VFILL_ON or NCP_VFILL_OFF */
    int fill_mode;
} ncp_var;

typedef struct ncp_header {
    int format;       /* NCP_CDF1, NCP_CDF2, NCP_CDF5 */
    int64_t numrecs;
    int ndims;
    ncp_dim *dims;
    int unlimdimid;   /* -1 when none */
    ncp_attlist gatts;
    int nvars;
    ncp_var *vars;
    /* allocated entries of dims and vars (at least ndims and nvars; less
       means exactly as many), so appending one costs O(1) */
    int dims_cap;
    int vars_cap;
    /* names -> positions; caches over dims and vars (ncp_name.h) that the
       lifetime functions below reset, free and never copy */
    ncp_name_index dim_index;
    ncp_name_index var_index;
    /* derived by ncp_layout_compute() */
    int64_t xsz;          /* encoded header size in bytes */
    int64_t begin_var;    /* offset of the first fixed-size variable (or of
                             the record section when there is none) */
    int64_t begin_rec;    /* offset of the record section */
    int64_t recsize;      /* bytes per record across all record variables */
    int num_rec_vars;
    int num_fix_vars;
} ncp_header;

/* --- lifetime ------------------------------------------------------------ */
void ncp_header_init(ncp_header *h, int format);
void ncp_header_free(ncp_header *h);
/* Deep copy; returns NC_NOERR or NC_ENOMEM (dst untouched on failure). */
int ncp_header_copy(ncp_header *dst, const ncp_header *src);

/* The longest dimension a format holds (src/format/header.c): as in
 * PnetCDF, a CDF-1/2 length leaves room to pad a byte array to 4. */
int64_t ncp_dim_max_len(int format);

/* --- names (src/format/header.c) ---------------------------------------- */
/* Position of the dimension, variable or attribute whose name is key
 * (already in its stored, NFC, form), or -1.  O(1) on average. */
int ncp_hdr_find_dim(ncp_header *h, const char *key);
int ncp_hdr_find_var(ncp_header *h, const char *key);
int ncp_hdr_find_att(ncp_attlist *l, const char *key);
/* Give entry i the name newname (an allocation the header takes over)
 * and free the old one, keeping the index in step. */
void ncp_hdr_rename_dim(ncp_header *h, int i, char *newname);
void ncp_hdr_rename_var(ncp_header *h, int i, char *newname);
void ncp_hdr_rename_att(ncp_attlist *l, int i, char *newname);
/* Remove attribute i (later ones move down one position). */
void ncp_hdr_del_att(ncp_attlist *l, int i);

/* --- codec (src/format/header_codec.c) ------------------------------------ */
/* Size in bytes of the encoded header (no padding after the last byte). */
int ncp_header_encoded_size(const ncp_header *h, int64_t *size);
/* Encode into buf (bufsize >= encoded size). */
int ncp_header_encode(const ncp_header *h, void *buf, int64_t bufsize);
/*
 * Decode the header that starts at buf[0].  len is how many bytes of the
 * file the caller holds, file_size the whole file's size (used to bound
 * every count and length).  Returns NC_NOERR and fills *h; or, when the
 * bytes end before the header does and len < file_size, returns
 * NCP_HDR_NEED_MORE with *need set to a larger len to retry with; or an
 * NC_* error (NC_ENOTNC, NC_EBADDIM, NC_ENULLPAD, NC_EVARSIZE, NC_ENOMEM,
 * ...).  Never allocates more than a small multiple of len.
 */
#define NCP_HDR_NEED_MORE 1
int ncp_header_decode(const void *buf, int64_t len, int64_t file_size,
                      ncp_header *h, int64_t *need);

/* An HDF5 (netCDF-4) file: its 8-byte signature stands at offset 0 or,
 * after a user block, at 512, 1024, 2048, ...  ncp_hdf5_next_offset gives
 * the offset to look at after off. */
int ncp_is_hdf5_signature(const unsigned char sig[8]);
static inline int64_t ncp_hdf5_next_offset(int64_t off)
{
    return off == 0 ? 512 : off * 2;
}

/* Where a decode stopped: the field it was reading when it returned an
 * error (or the last one it read), for tools that explain a verdict. */
typedef struct ncp_hdr_defect {
    int64_t offset;    /* byte of the header where the field starts; -1
                          when the defect is no one field's */
    const char *field; /* static text naming the field ("dimension length") */
    int64_t var;       /* the variable it belongs to, or -1 */
    int64_t entry;     /* its entry in its list (dimension, attribute or
                          variable number), or -1 */
} ncp_hdr_defect;

/* ncp_header_decode that also fills *d (may be NULL): on an error, the
 * field that holds the first defect found. */
int ncp_header_decode_diag(const void *buf, int64_t len, int64_t file_size,
                           ncp_header *h, int64_t *need, ncp_hdr_defect *d);

/* --- layout (src/format/layout.c) ---------------------------------------- */
typedef struct ncp_layout_params {
    int64_t h_minfree;  /* free space to leave after the header */
    int64_t h_align;    /* alignment of the header extent (the first
                           variable's begin) */
    int64_t v_align;    /* alignment of every fixed-size variable */
    int64_t v_minfree;  /* free space after the fixed-size section */
    int64_t r_align;    /* alignment of the record section */
} ncp_layout_params;

/*
 * Compute xsz, each var's vsize and begin, begin_var, begin_rec, recsize,
 * num_rec_vars and num_fix_vars, following PnetCDF 1.12's default rules so
 * that the same program produces byte-identical files.  `old` is the layout
 * before a redef (NULL at first enddef): begins never move backward.
 * Returns NC_EVARSIZE when a variable breaks the format's size limits.
 */
int ncp_layout_compute(ncp_header *h, const ncp_header *old,
                       const ncp_layout_params *p);

#endif
