# Errors: Python exceptions naming the file and the offset; a truncated
# input yields each of its whole records, then raises TruncatedError.
import os
import struct
import tempfile

import pdtest
from pdtest import perfdata, td


def cut_copy(d, name, size):
    out = os.path.join(d, "cut-" + name)
    with open(td(name), "rb") as f, open(out, "wb") as o:
        o.write(f.read(size))
    return out


def whole(name, size):
    """The original's records that end before size: what a copy cut
    there holds whole."""
    return [(r.name, r.offset) for r in perfdata.open(td(name)).records()
            if r.offset + r.size <= size]


def test_truncated_yields_whole_records_then_raises():
    with tempfile.TemporaryDirectory() as d:
        for name, size in (("fp.data", 20000), ("pipe.data", 9000),
                           ("threads.data", 30001), ("system.data", 150000)):
            path = cut_copy(d, name, size)
            want = whole(name, size)
            got = []
            try:
                for r in perfdata.open(path).records():
                    got.append((r.name, r.offset))
            except perfdata.TruncatedError as e:
                assert e.path == path, e.path
                assert e.offset is not None and e.offset <= size, e
                assert str(e).startswith(path + ": offset "), e
            else:
                raise AssertionError("%s cut at %d: no TruncatedError" % (name, size))
            assert got == want, name
            n = 0
            try:
                for s in perfdata.open(path).samples():
                    n += 1
            except perfdata.TruncatedError:
                pass
            else:
                raise AssertionError("samples() of %s: no TruncatedError" % path)
            assert n == sum(1 for r in want if r[0] == "SAMPLE"), name


def test_cut_in_the_header():
    with tempfile.TemporaryDirectory() as d:
        path = cut_copy(d, "fp.data", 60)
        try:
            perfdata.open(path)
        except perfdata.Error as e:
            assert e.path == path and str(e).startswith(path + ": ")
        else:
            raise AssertionError("a 60-byte perf.data opened")


def test_a_bad_record_names_its_offset():
    recs = [r for r in perfdata.open(td("fp.data")).records()]
    bad = recs[len(recs) // 2]
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "bad.data")
        with open(td("fp.data"), "rb") as f:
            data = bytearray(f.read())
        # the record's header.size (u16 at offset 6): 0, which no record has
        struct.pack_into("<H", data, bad.offset + 6, 0)
        with open(path, "wb") as f:
            f.write(data)
        n = 0
        try:
            for r in perfdata.open(path).records():
                n += 1
        except perfdata.Error as e:
            assert not isinstance(e, perfdata.TruncatedError)
            assert e.offset == bad.offset, (e.offset, bad.offset, str(e))
            assert str(e).startswith("%s: offset %#x: " % (path, bad.offset)), e
        else:
            raise AssertionError("a record of size 0 read")
        assert n == recs.index(bad)
