/* Optional C versions of prc_tools' hottest loops (see docs/bitmap-format.md, "Speed").
 *
 * Each function gives byte for byte what the pure-Python code in
 * prc_tools/compression.py and prc_tools/nearest_colour.py gives; the tests
 * compare the two on generated and damaged input. prc_tools/speedups.py
 * decides which one runs. Decoders read only inside the buffer they are given
 * and raise the same errors, with the same words, as the Python ones.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define RLE_MAX_RUN 255
#define PACKBITS_MAX_OP 128

/* --- output buffer: raw memory grown as needed, copied into bytes at the end ---- */

/* The public API only: a PyMem buffer grows, and out_finish copies the used part
 * into a new bytes object (one memcpy, small beside the coding itself). */
typedef struct {
    unsigned char *data;
    Py_ssize_t size;
    Py_ssize_t used;
} Out;

static int out_init(Out *out, Py_ssize_t size) {
    out->used = 0;
    out->size = size > 16 ? size : 16;
    out->data = PyMem_Malloc((size_t)out->size);
    if (out->data == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void out_free(Out *out) {
    PyMem_Free(out->data);
    out->data = NULL;
}

/* Room for ``more`` bytes; a pointer to where they go, or NULL with an error set. */
static unsigned char *out_room(Out *out, Py_ssize_t more) {
    if (more > PY_SSIZE_T_MAX - out->used) {
        PyErr_NoMemory();
        return NULL;
    }
    if (out->used + more > out->size) {
        Py_ssize_t wanted = out->size > PY_SSIZE_T_MAX / 2 ? PY_SSIZE_T_MAX : out->size * 2;
        if (wanted < out->used + more) {
            wanted = out->used + more;
        }
        unsigned char *grown = PyMem_Realloc(out->data, (size_t)wanted);
        if (grown == NULL) {
            PyErr_NoMemory();
            return NULL;
        }
        out->data = grown;
        out->size = wanted;
    }
    return out->data + out->used;
}

/* The bytes written, as a new bytes object; the buffer is freed either way. */
static PyObject *out_finish(Out *out) {
    PyObject *bytes = PyBytes_FromStringAndSize((const char *)out->data, out->used);
    out_free(out);
    return bytes;
}

/* --- rows: a sequence of bytes-like objects, all viewed at once ----------- */

typedef struct {
    PyObject *sequence;
    Py_buffer *views;
    Py_ssize_t count;
    Py_ssize_t total;
} Rows;

static void rows_release(Rows *rows) {
    if (rows->views != NULL) {
        for (Py_ssize_t i = 0; i < rows->count; i++) {
            PyBuffer_Release(&rows->views[i]);
        }
        PyMem_Free(rows->views);
    }
    Py_XDECREF(rows->sequence);
}

static int rows_open(PyObject *source, Rows *rows) {
    rows->views = NULL;
    rows->count = 0;
    rows->total = 0;
    rows->sequence = PySequence_Fast(source, "rows must be a sequence of bytes");
    if (rows->sequence == NULL) {
        return -1;
    }
    Py_ssize_t count = PySequence_Fast_GET_SIZE(rows->sequence);
    rows->views = PyMem_Calloc(count > 0 ? count : 1, sizeof(Py_buffer));
    if (rows->views == NULL) {
        PyErr_NoMemory();
        Py_CLEAR(rows->sequence);
        return -1;
    }
    PyObject **items = PySequence_Fast_ITEMS(rows->sequence);
    for (Py_ssize_t i = 0; i < count; i++) {
        if (PyObject_GetBuffer(items[i], &rows->views[i], PyBUF_SIMPLE) < 0) {
            rows_release(rows);
            return -1;
        }
        rows->count = i + 1;
        rows->total += rows->views[i].len;
    }
    return 0;
}

/* --- PackBits ------------------------------------------------------------- */

/* Literal ops of at most 128 units for row[start:end] (byte offsets). */
static int packbits_literal(Out *out, const unsigned char *row, Py_ssize_t start,
                            Py_ssize_t end, int unit) {
    Py_ssize_t longest = (Py_ssize_t)PACKBITS_MAX_OP * unit;
    while (start < end) {
        Py_ssize_t take = end - start < longest ? end - start : longest;
        unsigned char *at = out_room(out, 1 + take);
        if (at == NULL) {
            return -1;
        }
        at[0] = (unsigned char)(take / unit - 1);
        memcpy(at + 1, row + start, (size_t)take);
        out->used += 1 + take;
        start += take;
    }
    return 0;
}

/* One row, as compression._packbits_encode_row: maximal runs of 2+ equal units
 * repeat when 3+ long, or 2 long with no literal pending; the rest is literal. */
static int packbits_row(Out *out, const unsigned char *row, Py_ssize_t length, int unit) {
    Py_ssize_t literal_start = 0;
    Py_ssize_t start = 0;
    while (start < length) {
        Py_ssize_t end = start + unit;
        while (end < length && memcmp(row + end, row + start, (size_t)unit) == 0) {
            end += unit;
        }
        Py_ssize_t count = (end - start) / unit;
        if (count < 2 || (count == 2 && start != literal_start)) {
            start = end;
            continue;
        }
        if (packbits_literal(out, row, literal_start, start, unit) < 0) {
            return -1;
        }
        while (count > 0) {
            Py_ssize_t take = count < PACKBITS_MAX_OP ? count : PACKBITS_MAX_OP;
            unsigned char *at = out_room(out, 1 + unit);
            if (at == NULL) {
                return -1;
            }
            at[0] = take == 1 ? 0 : (unsigned char)(257 - take);
            memcpy(at + 1, row + start, (size_t)unit);
            out->used += 1 + unit;
            count -= take;
        }
        literal_start = start = end;
    }
    return packbits_literal(out, row, literal_start, length, unit);
}

static PyObject *packbits_encode(PyObject *module, PyObject *args) {
    PyObject *source;
    int unit;
    if (!PyArg_ParseTuple(args, "Oi:packbits_encode", &source, &unit)) {
        return NULL;
    }
    if (unit != 1 && unit != 2) {
        PyErr_SetString(PyExc_ValueError, "unit must be 1 or 2");
        return NULL;
    }
    Rows rows;
    if (rows_open(source, &rows) < 0) {
        return NULL;
    }
    Out out;
    if (out_init(&out, rows.total + rows.total / 64 + 2 * rows.count) < 0) {
        rows_release(&rows);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < rows.count; i++) {
        const Py_buffer *view = &rows.views[i];
        if (view->len % unit) {
            PyErr_SetString(PyExc_ValueError, "row length is not a whole number of units");
            goto fail;
        }
        if (packbits_row(&out, view->buf, view->len, unit) < 0) {
            goto fail;
        }
    }
    rows_release(&rows);
    return out_finish(&out);
fail:
    rows_release(&rows);
    out_free(&out);
    return NULL;
}

/* --- RLE ------------------------------------------------------------------ */

static PyObject *rle_encode(PyObject *module, PyObject *source) {
    Rows rows;
    if (rows_open(source, &rows) < 0) {
        return NULL;
    }
    Out out;
    if (out_init(&out, rows.total / 2 + 2 * rows.count) < 0) {
        rows_release(&rows);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < rows.count; i++) {
        const unsigned char *row = rows.views[i].buf;
        Py_ssize_t length = rows.views[i].len;
        Py_ssize_t start = 0;
        while (start < length) {
            Py_ssize_t end = start + 1;
            while (end < length && end - start < RLE_MAX_RUN && row[end] == row[start]) {
                end++;
            }
            unsigned char *at = out_room(&out, 2);
            if (at == NULL) {
                rows_release(&rows);
                out_free(&out);
                return NULL;
            }
            at[0] = (unsigned char)(end - start);
            at[1] = row[start];
            out.used += 2;
            start = end;
        }
    }
    rows_release(&rows);
    return out_finish(&out);
}

/* --- ScanLine ------------------------------------------------------------- */

/* Each group of 8 bytes: a mask of the bytes that differ from the row above
 * (every byte in the first row), then those bytes. */
static PyObject *scanline_encode(PyObject *module, PyObject *source) {
    Rows rows;
    if (rows_open(source, &rows) < 0) {
        return NULL;
    }
    Py_ssize_t row_bytes = rows.count ? rows.views[0].len : 0;
    for (Py_ssize_t i = 1; i < rows.count; i++) {
        if (rows.views[i].len != row_bytes) {
            rows_release(&rows);
            PyErr_SetString(PyExc_ValueError, "rows differ in length");
            return NULL;
        }
    }
    Out out;
    /* The most it can take: every byte plus a mask per group of 8. */
    if (out_init(&out, rows.total + rows.count * ((row_bytes + 7) / 8)) < 0) {
        rows_release(&rows);
        return NULL;
    }
    unsigned char *at = out.data;
    const unsigned char *above = NULL;
    for (Py_ssize_t i = 0; i < rows.count; i++) {
        const unsigned char *row = rows.views[i].buf;
        for (Py_ssize_t start = 0; start < row_bytes; start += 8) {
            int length = row_bytes - start < 8 ? (int)(row_bytes - start) : 8;
            unsigned char *mask = at++;
            *mask = 0;
            for (int k = 0; k < length; k++) {
                if (above == NULL || row[start + k] != above[start + k]) {
                    *mask |= (unsigned char)(0x80 >> k);
                    *at++ = row[start + k];
                }
            }
        }
        above = row;
    }
    out.used = at - out.data;
    rows_release(&rows);
    return out_finish(&out);
}

/* --- colour mapping ------------------------------------------------------- */

static inline uint32_t key_at(const unsigned char *keys, Py_ssize_t i) {
    uint32_t key;
    memcpy(&key, keys + 4 * i, 4); /* any alignment */
    return key;
}

/* Each 32-bit pixel key replaced by the index stored for it: ``keys`` holds the
 * image's distinct keys in ascending order, ``values`` their indices. */
static PyObject *map_keys(PyObject *module, PyObject *args) {
    Py_buffer pixels, keys, values;
    if (!PyArg_ParseTuple(args, "y*y*y*:map_keys", &pixels, &keys, &values)) {
        return NULL;
    }
    PyObject *result = NULL;
    Py_ssize_t count = pixels.len / 4, known = keys.len / 4;
    if (pixels.len % 4 || keys.len % 4 || values.len != known) {
        PyErr_SetString(PyExc_ValueError, "map_keys needs 4-byte pixels and one value per key");
        goto done;
    }
    result = PyBytes_FromStringAndSize(NULL, count);
    if (result == NULL) {
        goto done;
    }
    unsigned char *out = (unsigned char *)PyBytes_AS_STRING(result);
    const unsigned char *raw = pixels.buf;
    const unsigned char *table = keys.buf;
    const unsigned char *found = values.buf;
    uint32_t last_key = 0;
    unsigned char last_index = 0;
    int have_last = 0;
    for (Py_ssize_t i = 0; i < count; i++) {
        uint32_t key = key_at(raw, i);
        if (!have_last || key != last_key) {
            Py_ssize_t low = 0, high = known;
            while (low < high) {
                Py_ssize_t middle = low + (high - low) / 2;
                if (key_at(table, middle) < key) {
                    low = middle + 1;
                } else {
                    high = middle;
                }
            }
            if (low == known || key_at(table, low) != key) {
                Py_CLEAR(result);
                PyErr_Format(PyExc_KeyError, "%lu", (unsigned long)key);
                goto done;
            }
            last_key = key;
            last_index = found[low];
            have_last = 1;
        }
        out[i] = last_index;
    }
done:
    PyBuffer_Release(&pixels);
    PyBuffer_Release(&keys);
    PyBuffer_Release(&values);
    return result;
}

/* The distinct 32-bit keys of ``pixels``, ascending, as native uint32s: a hash
 * set over the pixels (runs skipped), then the few distinct ones sorted. */
static int compare_keys(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static PyObject *distinct_keys(PyObject *module, PyObject *arg) {
    Py_buffer pixels;
    if (PyObject_GetBuffer(arg, &pixels, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    PyObject *result = NULL;
    uint32_t *slots = NULL;
    unsigned char *taken = NULL;
    Py_ssize_t count = pixels.len / 4;
    if (pixels.len % 4) {
        PyErr_SetString(PyExc_ValueError, "distinct_keys needs 4-byte pixels");
        goto done;
    }
    int bits = 4;
    while (bits < 62 && ((Py_ssize_t)1 << bits) < 2 * count) {
        bits++;
    }
    size_t capacity = (size_t)1 << bits;
    slots = PyMem_Malloc(capacity * sizeof(uint32_t));
    taken = PyMem_Calloc(capacity, 1);
    if (slots == NULL || taken == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t found = 0;
    const unsigned char *raw = pixels.buf;
    for (Py_ssize_t i = 0; i < count; i++) {
        uint32_t key = key_at(raw, i);
        if (i > 0 && key == key_at(raw, i - 1)) {
            continue;
        }
        size_t at = (size_t)(((uint64_t)key * 0x9E3779B97F4A7C15u) >> (64 - bits));
        while (taken[at] && slots[at] != key) {
            at = (at + 1) & (capacity - 1);
        }
        if (!taken[at]) {
            taken[at] = 1;
            slots[at] = key;
            found++;
        }
    }
    result = PyBytes_FromStringAndSize(NULL, found * 4);
    if (result == NULL) {
        goto done;
    }
    uint32_t *keys = (uint32_t *)PyBytes_AS_STRING(result); /* bytes data is aligned */
    Py_ssize_t n = 0;
    for (size_t at = 0; at < capacity; at++) {
        if (taken[at]) {
            keys[n++] = slots[at];
        }
    }
    qsort(keys, (size_t)found, sizeof(uint32_t), compare_keys);
done:
    PyMem_Free(slots);
    PyMem_Free(taken);
    PyBuffer_Release(&pixels);
    return result;
}

/* RGB pixels (3 bytes each) as big-endian RGB565 words, each channel rounded
 * to the nearest level as bitmap_pixels.image_to_565 does. */
static PyObject *rgb_to_565(PyObject *module, PyObject *arg) {
    Py_buffer rgb;
    if (PyObject_GetBuffer(arg, &rgb, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    PyObject *result = NULL;
    if (rgb.len % 3) {
        PyErr_SetString(PyExc_ValueError, "rgb_to_565 needs 3-byte pixels");
        goto done;
    }
    Py_ssize_t count = rgb.len / 3;
    result = PyBytes_FromStringAndSize(NULL, 2 * count);
    if (result == NULL) {
        goto done;
    }
    const unsigned char *in = rgb.buf;
    unsigned char *out = (unsigned char *)PyBytes_AS_STRING(result);
    for (Py_ssize_t i = 0; i < count; i++) {
        unsigned red = (in[3 * i] * 31u + 127) / 255;
        unsigned green = (in[3 * i + 1] * 63u + 127) / 255;
        unsigned blue = (in[3 * i + 2] * 31u + 127) / 255;
        unsigned word = red << 11 | green << 5 | blue;
        out[2 * i] = (unsigned char)(word >> 8);
        out[2 * i + 1] = (unsigned char)(word & 0xFF);
    }
done:
    PyBuffer_Release(&rgb);
    return result;
}

/* --- decoders ------------------------------------------------------------- */

/* What went wrong, for Python to word as compression.py does. */
enum { PROBLEM_NONE = 0, PROBLEM_TRUNCATED = 1, PROBLEM_ZERO_RUN = 2, PROBLEM_OVERFLOW = 3 };
enum { CODE_SCANLINE = 0, CODE_RLE = 1, CODE_PACKBITS = 2 }; /* the header's type byte */

/* Decoding stops at the first problem and reports the row it was in. Output
 * grows as data is read, never to the size a header claims, so damaged data
 * cannot make it allocate more than its bytes can expand to. ``pos <= size``
 * always holds, and bounds are tested as ``needed > size - pos`` so that no
 * sum can overflow, however large the position or sizes a caller passes. */
typedef struct {
    const unsigned char *data;
    Py_ssize_t size;
    Py_ssize_t pos;
    Py_ssize_t row_bytes;
    Py_ssize_t rows;
    int unit;
    Py_ssize_t problem_row;
} Reading;

static int scanline_decode(Reading *in, Out *out) {
    const unsigned char *data = in->data;
    Py_ssize_t pos = in->pos, size = in->size, row_bytes = in->row_bytes;
    Py_ssize_t groups = (row_bytes + 7) / 8;
    for (Py_ssize_t row = 0; row < in->rows; row++) {
        /* Every group takes a byte at least (the first row: its mask and bytes), so
         * a row the data cannot hold is truncated before room is made for it. */
        if ((row == 0 ? row_bytes + groups : groups) > size - pos) {
            in->problem_row = row;
            return PROBLEM_TRUNCATED;
        }
        unsigned char *at = out_room(out, row_bytes);
        if (at == NULL) {
            return -1;
        }
        for (Py_ssize_t start = 0; start < row_bytes; start += 8) {
            int length = row_bytes - start < 8 ? (int)(row_bytes - start) : 8;
            if (row == 0) {
                /* Like palmtopnm: the first row carries every byte, whatever its mask says. */
                if (1 + length > size - pos) {
                    in->problem_row = 0;
                    return PROBLEM_TRUNCATED;
                }
                memcpy(at + start, data + pos + 1, (size_t)length);
                pos += 1 + length;
                continue;
            }
            if (pos >= size) {
                in->problem_row = row;
                return PROBLEM_TRUNCATED;
            }
            unsigned mask = data[pos++];
            memcpy(at + start, at + start - row_bytes, (size_t)length); /* the row above */
            for (int k = 0; k < length; k++) {
                if (mask & (0x80u >> k)) {
                    if (pos >= size) {
                        in->problem_row = row;
                        return PROBLEM_TRUNCATED;
                    }
                    at[start + k] = data[pos++];
                }
            }
        }
        out->used += row_bytes;
    }
    in->pos = pos;
    return PROBLEM_NONE;
}

static int rle_decode(Reading *in, Out *out) {
    const unsigned char *data = in->data;
    Py_ssize_t pos = in->pos, size = in->size;
    for (Py_ssize_t row = 0; row < in->rows; row++) {
        Py_ssize_t filled = 0;
        while (filled < in->row_bytes) {
            if (size - pos < 2) {
                in->problem_row = row;
                return PROBLEM_TRUNCATED;
            }
            int count = data[pos], value = data[pos + 1];
            pos += 2;
            if (count == 0) {
                in->problem_row = row;
                return PROBLEM_ZERO_RUN;
            }
            if (filled + count > in->row_bytes) {
                in->problem_row = row;
                return PROBLEM_OVERFLOW;
            }
            unsigned char *at = out_room(out, count);
            if (at == NULL) {
                return -1;
            }
            memset(at, value, (size_t)count);
            out->used += count;
            filled += count;
        }
    }
    in->pos = pos;
    return PROBLEM_NONE;
}

static int packbits_decode(Reading *in, Out *out) {
    const unsigned char *data = in->data;
    Py_ssize_t pos = in->pos, size = in->size, unit = in->unit;
    Py_ssize_t end = 0;
    for (Py_ssize_t row = 0; row < in->rows; row++) {
        end += in->row_bytes;
        while (out->used < end) {
            if (pos >= size) {
                in->problem_row = row;
                return PROBLEM_TRUNCATED;
            }
            int count = data[pos++];
            if (count == 0x80) {
                continue; /* -128: no operation, as in Apple's PackBits */
            }
            Py_ssize_t take = count < 0x80 ? (count + 1) * unit : unit;
            Py_ssize_t times = count < 0x80 ? 1 : 257 - count;
            if (take > size - pos) {
                in->problem_row = row;
                return PROBLEM_TRUNCATED;
            }
            unsigned char *at = out_room(out, take * times);
            if (at == NULL) {
                return -1;
            }
            if (count < 0x80) {
                memcpy(at, data + pos, (size_t)take);
            } else if (unit == 1) {
                memset(at, data[pos], (size_t)times);
            } else {
                for (Py_ssize_t i = 0; i < times; i++) {
                    memcpy(at + i * unit, data + pos, (size_t)unit);
                }
            }
            out->used += take * times;
            pos += take;
        }
        if (out->used > end) { /* only the op that ended the row can overflow it */
            in->problem_row = row;
            return PROBLEM_OVERFLOW;
        }
    }
    in->pos = pos;
    return PROBLEM_NONE;
}

/* decode(type_code, data, pos, row_bytes, rows, unit) -> (raw, end, 0) when the
 * rows are complete, or (None, row, problem) for damaged data. ``unit`` counts
 * for PackBits only, as in compression.decode. */
static PyObject *decode(PyObject *module, PyObject *args) {
    int code, unit;
    Py_buffer view;
    Py_ssize_t pos, row_bytes, rows;
    if (!PyArg_ParseTuple(args, "iy*nnni:decode", &code, &view, &pos, &row_bytes, &rows,
                          &unit)) {
        return NULL;
    }
    PyObject *result = NULL;
    /* Sizes a header cannot hold are refused, so no running sum below can overflow. */
    if (pos < 0 || row_bytes < 0 || row_bytes > PY_SSIZE_T_MAX / 4 || rows < 0 || unit < 1 ||
        unit > 2 ||
        (code != CODE_SCANLINE && code != CODE_RLE && code != CODE_PACKBITS)) {
        PyErr_SetString(PyExc_ValueError, "decode: bad codec, position, size or unit");
        goto done;
    }
    if (row_bytes == 0 || rows == 0) { /* nothing to read, however many rows are claimed */
        result = Py_BuildValue("(y#nn)", "", (Py_ssize_t)0, pos, (Py_ssize_t)0);
        goto done;
    }
    if (pos > view.len) { /* starts past the data: the first row is already cut short */
        result = Py_BuildValue("(Onn)", Py_None, (Py_ssize_t)0, (Py_ssize_t)PROBLEM_TRUNCATED);
        goto done;
    }
    Reading in = {view.buf, view.len, pos, row_bytes, rows, unit, 0};
    /* A first guess at the size; it grows only as far as the data really expands. */
    Py_ssize_t total = rows != 0 && row_bytes > PY_SSIZE_T_MAX / rows ? PY_SSIZE_T_MAX
                                                                       : row_bytes * rows;
    Py_ssize_t remaining = view.len > pos ? view.len - pos : 0;
    Py_ssize_t guess = remaining < (PY_SSIZE_T_MAX - 4096) / 8 ? 8 * remaining + 4096 : remaining;
    Out out;
    if (out_init(&out, total < guess ? total : guess) < 0) {
        goto done;
    }
    int problem = code == CODE_SCANLINE ? scanline_decode(&in, &out)
                  : code == CODE_RLE    ? rle_decode(&in, &out)
                                        : packbits_decode(&in, &out);
    if (problem < 0) {
        out_free(&out);
        goto done;
    }
    if (problem != PROBLEM_NONE) {
        out_free(&out);
        result = Py_BuildValue("(Onn)", Py_None, in.problem_row, (Py_ssize_t)problem);
        goto done;
    }
    PyObject *raw = out_finish(&out);
    if (raw != NULL) {
        result = Py_BuildValue("(Nnn)", raw, in.pos, (Py_ssize_t)0);
    }
done:
    PyBuffer_Release(&view);
    return result;
}

/* --- module --------------------------------------------------------------- */

static PyMethodDef methods[] = {
    {"packbits_encode", packbits_encode, METH_VARARGS,
     "packbits_encode(rows, unit) -> bytes: PackBits of each row over 1- or 2-byte units."},
    {"rle_encode", rle_encode, METH_O, "rle_encode(rows) -> bytes: Palm RLE of each row."},
    {"scanline_encode", scanline_encode, METH_O,
     "scanline_encode(rows) -> bytes: ScanLine of equal-length rows."},
    {"map_keys", map_keys, METH_VARARGS,
     "map_keys(pixels, keys, values) -> bytes: each 32-bit pixel's value (keys ascending)."},
    {"distinct_keys", distinct_keys, METH_O,
     "distinct_keys(pixels) -> bytes: the distinct 32-bit keys, ascending, native order."},
    {"rgb_to_565", rgb_to_565, METH_O,
     "rgb_to_565(rgb) -> bytes: 3-byte RGB pixels as big-endian RGB565 words."},
    {"decode", decode, METH_VARARGS,
     "decode(type_code, data, pos, row_bytes, rows, unit) -> (raw, end, 0), or "
     "(None, row, problem) for damaged data (1 truncated, 2 zero-length run, 3 overflow)."},
    {NULL, NULL, 0, NULL},
};

/* Multi-phase initialisation (PEP 489): the module keeps no state, so every
 * interpreter, and a free-threaded build, can use it as it is. */
static PyModuleDef_Slot slots[] = {
#if PY_VERSION_HEX >= 0x030C0000
    {Py_mod_multiple_interpreters, Py_MOD_PER_INTERPRETER_GIL_SUPPORTED},
#endif
#if PY_VERSION_HEX >= 0x030D0000
    {Py_mod_gil, Py_MOD_GIL_NOT_USED},
#endif
    {0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "prc_tools._speedups",
    .m_doc = "C versions of prc_tools' codec and colour-mapping loops.",
    .m_size = 0,
    .m_methods = methods,
    .m_slots = slots,
};

PyMODINIT_FUNC PyInit__speedups(void) { return PyModuleDef_Init(&module_def); }
