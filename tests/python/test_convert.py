# convert(): pd-convert's rewriting through the library's compat API,
# byte for byte what pd-convert writes, and read back by the system perf.
import filecmp
import os
import re
import tempfile

import pdtest
from pdtest import perfdata, td


def test_as_pd_convert_writes_it():
    with tempfile.TemporaryDirectory() as d:
        for name, args, kw in (
                ("zstd.data", ["--target-perf=4.18"], {"target_perf": "4.18"}),
                ("fp.data", ["--target-perf=debian11"], {"target_perf": "debian11"}),
                ("fp.data", ["--pipe"], {"mode": "pipe"}),
                ("fp.data", ["--endian=big"], {"endian": "big"}),
                ("pipe.data", ["--compress"], {"compress": True}),
                ("dwarf.data", ["--shim=unwind"], {"shims": ["unwind"]})):
            a, b = os.path.join(d, "a.data"), os.path.join(d, "b.data")
            pdtest.run(os.path.join(pdtest.BIN, "pd-convert"), "-q", *args, td(name), "-o", a)
            rep = perfdata.convert(td(name), b, **kw)
            assert filecmp.cmp(a, b, shallow=False), (name, args)
            assert rep["samples_in"] == rep["samples_out"] > 0, rep


def test_read_back_by_perf():
    pdtest.need_perf()
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "out.data")
        rep = perfdata.convert(td("zstd.data"), out, target_perf="4.18")
        assert rep["target"] == "4.18" and "attr-size" in rep["shims"]
        assert rep["attr_size_out"] < rep["attr_size_in"]
        stats = pdtest.run("perf", "report", "--stats", "-i", out)
        assert re.search(r"SAMPLE events:\s+300\b", stats)
        assert perfdata.fold(out) == perfdata.fold(td("zstd.data"))


def test_unwound_once():
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "out.data")
        rep = perfdata.convert(td("dwarf.data"), out, shims=["unwind"])
        assert rep["changed"]["unwind"] >= 40
        assert os.path.getsize(out) < os.path.getsize(td("dwarf.data")) / 4
        assert perfdata.fold(out) == perfdata.fold(td("dwarf.data"), inline=False)


def test_errors():
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "out.data")
        for kw, exc in (({"target_perf": "1.0"}, ValueError),
                        ({"shims": ["no-such-shim"]}, ValueError),
                        ({"mode": "tape"}, ValueError)):
            try:
                perfdata.convert(td("fp.data"), out, **kw)
            except exc:
                pass
            else:
                raise AssertionError("convert(%r) accepted" % kw)
        try:
            perfdata.convert(td("fp.data"), os.path.join(d, "no", "dir", "x.data"))
        except FileNotFoundError as e:
            assert "x.data" in str(e)
        else:
            raise AssertionError("written nowhere")
    assert "unwind" in perfdata.shims()


def test_unwound_through_a_root_as_pd_unwind_does():
    """convert(shims=["unwind"], root=DIR): a DWARF profile of a program
    whose file lies only under DIR, unwound as pd-unwind --root=DIR."""
    import shutil
    import subprocess
    pdtest.need_perf()
    with tempfile.TemporaryDirectory() as d:
        prog = os.path.join(d, "gone", "burn-nofp")
        os.makedirs(os.path.dirname(prog))
        shutil.copy(td("bin/burn-nofp"), prog)
        rec = os.path.join(d, "rec.data")
        p = subprocess.run(["perf", "record", "-q", "--no-buildid-cache", "--call-graph",
                            "dwarf,4096", "-e", "cpu-clock", "-F", "199", "-o", rec, "--",
                            prog, "300"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if p.returncode or not os.path.exists(rec):
            pdtest.skip("perf record failed here: " + p.stderr.decode()[-200:])
        root = os.path.join(d, "root")
        os.makedirs(root + os.path.dirname(prog))
        shutil.move(prog, root + prog)
        empty = os.path.join(d, "empty-cache")
        os.mkdir(empty)
        saved = os.environ.get("PERF_BUILDID_DIR")
        os.environ["PERF_BUILDID_DIR"] = empty
        a, b, c = (os.path.join(d, n) for n in ("a.data", "b.data", "c.data"))
        try:
            pdtest.run(os.path.join(pdtest.BIN, "pd-unwind"), "-q", "--no-debuginfod",
                       "--root=" + root, rec, "-o", a)
            perfdata.convert(rec, b, shims=["unwind"], root=root, debuginfod=False)
            perfdata.convert(rec, c, shims=["unwind"], debuginfod=False)
            stacks = {s.stack for s in perfdata.open(b, root=root).samples()}
        finally:
            if saved is None:
                del os.environ["PERF_BUILDID_DIR"]
            else:
                os.environ["PERF_BUILDID_DIR"] = saved
        assert filecmp.cmp(a, b, shallow=False)
        # through the root, the callers under the sampled function
        assert any(st[:3] == ("inner_hot", "middle", "outer") for st in stacks), stacks
        assert not filecmp.cmp(b, c, shallow=False)
