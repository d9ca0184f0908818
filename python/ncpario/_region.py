"""Turning Python indices and start/count/stride/imap into checked
integer tuples before any C call."""
import numpy as np

from ._errors import NC_EEDGE, NC_EINVAL, NC_EINVALCOORDS, NC_ESTRIDE, \
    NCIndexError, NCValueError


def _ints(seq, what, ndim):
    if seq is None:
        return None
    try:
        if type(seq) in (tuple, list) and \
                all(type(x) is int for x in seq):
            out = tuple(seq)            # the common case, without numpy
        else:
            out = tuple(int(x) for x in np.asarray(seq).reshape(-1))
    except (TypeError, ValueError):
        raise NCValueError(NC_EINVAL, "%s must be integers" % what) from None
    if len(out) != ndim:
        raise NCValueError(NC_EINVAL, "%s has %d entries, the variable %d "
                           "dimensions" % (what, len(out), ndim))
    return out


def check_region(start, count, stride, imap, shape, unlimited, writing):
    """Checked (start, count, stride, imap): tuples of ints, or None for
    stride/imap.  `shape` is the variable's current shape; `unlimited` the
    index of its record dimension or None; a write may extend it."""
    ndim = len(shape)
    start = _ints(start, "start", ndim)
    count = _ints(count, "count", ndim)
    stride = _ints(stride, "stride", ndim)
    imap = _ints(imap, "imap", ndim)
    if start is None:
        start = (0,) * ndim
    if count is None:
        count = (1,) * ndim
    for d in range(ndim):
        if start[d] < 0:
            raise NCIndexError(NC_EINVALCOORDS, "start[%d] = %d is negative"
                               % (d, start[d]))
        if count[d] < 0:
            raise NCIndexError(NC_EEDGE, "count[%d] = %d is negative"
                               % (d, count[d]))
        if stride is not None and stride[d] < 1:
            raise NCIndexError(NC_ESTRIDE, "stride[%d] = %d is not positive"
                               % (d, stride[d]))
        if d == unlimited and writing:
            continue
        if start[d] > shape[d] or (start[d] == shape[d] and count[d] > 0 and
                                   d != unlimited):
            raise NCIndexError(NC_EINVALCOORDS, "start[%d] = %d is outside "
                               "the dimension (length %d)"
                               % (d, start[d], shape[d]))
        step = 1 if stride is None else stride[d]
        if count[d] > 0 and start[d] + (count[d] - 1) * step >= shape[d]:
            raise NCIndexError(NC_EEDGE, "start + count along dimension %d "
                               "run past its length %d" % (d, shape[d]))
    return start, count, stride, imap


def from_key(key, shape, unlimited, value_shape=None):
    """(start, count, stride, squeezed axes, reversed axes) for a
    numpy-style key: ints, slices and one Ellipsis.  A slice with a
    negative step reads or writes its elements in reverse: the region is
    the same elements in file order, and the axis is listed as reversed.
    An open slice along the record dimension of a write takes its length
    from the value (`value_shape`); a write's slice may not run past a
    fixed dimension (IndexError)."""
    ndim = len(shape)
    key = _expand(key, ndim)
    start, count, stride, squeeze, flip = [], [], [], [], []
    for d, k in enumerate(key):
        if isinstance(k, slice):
            b, c, step = _slice_region(k, d, shape[d], d == unlimited,
                                       value_shape, key)
            if step < 0:
                b, step = b + (c - 1) * step if c else b, -step
                flip.append(d)
            start.append(b)
            count.append(c)
            stride.append(step)
        else:
            start.append(_index(k, d, shape[d], d == unlimited and
                                value_shape is not None))
            count.append(1)
            stride.append(1)
            squeeze.append(d)
    return tuple(start), tuple(count), tuple(stride), tuple(squeeze), \
        tuple(flip)


def _expand(key, ndim):
    """The key as a tuple of one entry per dimension."""
    if not isinstance(key, tuple):
        key = (key,)
    if sum(k is Ellipsis for k in key) > 1:
        raise NCIndexError(NC_EINVALCOORDS, "only one Ellipsis allowed")
    if any(k is Ellipsis for k in key):
        i = next(j for j, k in enumerate(key) if k is Ellipsis)
        key = key[:i] + (slice(None),) * (ndim - len(key) + 1) + key[i + 1:]
    if len(key) > ndim:
        raise NCIndexError(NC_EINVALCOORDS, "%d indices for %d dimensions"
                           % (len(key), ndim))
    return key + (slice(None),) * (ndim - len(key))


def _slice_region(k, d, n, unlimited, value_shape, key):
    """(first index, count, step) of slice k along dimension d of length
    n; the first index is the first element visited (the highest one for
    a negative step)."""
    step = 1 if k.step is None else int(k.step)
    if step == 0:
        raise NCIndexError(NC_ESTRIDE, "slice step cannot be zero")
    writing = value_shape is not None
    if unlimited and writing and step > 0:
        # Writing records: an open stop takes as many as the value has.
        b = 0 if k.start is None else int(k.start)
        b = b + n if b < 0 else b
        if k.stop is None:
            return b, _value_extent(value_shape, key, d), step
        e = int(k.stop)
        e = e + n if e < 0 else e
        return b, max(0, -(-(e - b) // step)), step
    if writing and not unlimited and k.stop is not None and step > 0 and \
            int(k.stop) > n:
        raise NCIndexError(NC_EEDGE, "slice stop %d runs past dimension %d "
                           "(length %d)" % (int(k.stop), d, n))
    b, e, step = k.indices(n)
    return b, len(range(b, e, step)), step


def _index(k, d, n, may_extend):
    """An integer index, negative ones counted from the end."""
    try:
        i = k if isinstance(k, int) else int(np.asarray(k).item())
    except (TypeError, ValueError):
        raise NCIndexError(NC_EINVALCOORDS, "unsupported index %r"
                           % (k,)) from None
    if i < 0:
        i += n
    if i < 0 or (i >= n and not may_extend):
        raise NCIndexError(NC_EINVALCOORDS, "index %d out of range for "
                           "dimension %d (length %d)" % (i, d, n))
    return i


def _value_extent(value_shape, key, d):
    """The value's length along variable dimension d: the value's axes
    match the sliced (not integer-indexed) dimensions, aligned on the
    right as in numpy broadcasting; 1 where the value has no such axis."""
    kept = [j for j, k in enumerate(key) if isinstance(k, slice)]
    i = kept.index(d) - (len(kept) - len(value_shape))
    return value_shape[i] if i >= 0 else 1
