# perfdata.open(): what it reads (paths, file objects, pipes, archives),
# the header, features and events it gives, as perf report
# --header-only -I prints them, and its errors.
import io
import os
import pathlib
import re
import shutil
import subprocess
import tempfile

import pdtest
from pdtest import perfdata, td


def perf_header(path):
    pdtest.need_perf()
    out = pdtest.run("perf", "report", "--header-only", "-I", "-i", path, check=False)
    lines = {}
    for line in out.splitlines():
        m = re.match(r"# ([a-z ]+?)\s*: (.*)$", line)
        if m:
            lines.setdefault(m.group(1), m.group(2).strip())
    return lines, out


def test_header_as_perf_prints_it():
    for name in ("fp.data", "tracepoint.data", "zstd.data"):
        h, _ = perf_header(td(name))
        f = perfdata.open(td(name))
        assert f.header["mode"] == "file"
        assert str(f.header["data_offset"]) == h["data offset"], name
        assert str(f.header["data_size"]) == h["data size"], name


def test_features_as_perf_prints_them():
    for name in ("fp.data", "pipe.data", "system.data"):
        h, _ = perf_header(td(name))
        feat = perfdata.open(td(name)).features
        assert feat["hostname"] == h["hostname"], name
        assert feat["osrelease"] == h["os release"], name
        assert feat["version"] == h["perf version"], name
        assert feat["arch"] == h["arch"], name
        assert str(feat["nrcpus"]["online"]) == h["nrcpus online"], name
        assert str(feat["nrcpus"]["available"]) == h["nrcpus avail"], name
        assert feat["cpudesc"] == h["cpudesc"], name
        assert "%d kB" % feat["total_mem"] == h["total memory"], name
        assert " ".join(feat["cmdline"]) == h["cmdline"], name


def test_events_as_perf_names_them():
    for name in ("multi.data", "tracepoint.data", "group.data", "pipe.data"):
        _, out = perf_header(td(name))
        want = re.findall(r"^# event : name = ([^,]+),", out, re.M)
        types = re.findall(r"sample_type = ([A-Z_|]+)", out)
        f = perfdata.open(td(name))
        assert [e.name for e in f.events] == want, name
        assert ["|".join(e.sample_fields) for e in f.events] == types, name
        for e in f.events:
            assert e.attr["sample_type"] and e.ids


def test_build_ids_as_perf_lists_them():
    pdtest.need_perf()
    out = pdtest.run("perf", "buildid-list", "-i", td("fp.data"), check=False)
    want = sorted(tuple(line.split(None, 1)) for line in out.splitlines())
    got = sorted((b["build_id"], b["filename"])
                 for b in perfdata.open(td("fp.data")).features["build_id"])
    assert got == want


def counts(source):
    return sum(1 for _ in perfdata.open(source).samples())


def test_sources():
    want = counts(td("fp.data"))
    assert want == 300
    assert counts(td("fp.data").encode()) == want
    assert counts(pathlib.Path(td("fp.data"))) == want
    with open(td("fp.data"), "rb") as f:
        assert counts(f) == want
    with open(td("fp.data"), "rb") as f:
        assert counts(io.BytesIO(f.read())) == want


def test_a_regular_file_is_read_again_for_each_pass():
    f = perfdata.open(td("zstd.data"))
    assert sum(1 for _ in f.samples()) == sum(1 for _ in f.samples()) == 300
    assert sum(1 for r in f.records() if r.name == "SAMPLE") == 300


def test_a_pipe_is_read_once_as_tools_read_it():
    # a pipe-mode stream and a file-mode one, both through a pipe
    for name, mode in (("pipe.data", "pipe"), ("fp.data", "file")):
        with open(td(name), "rb") as data:
            cat = subprocess.Popen(["cat"], stdin=data, stdout=subprocess.PIPE)
            f = perfdata.open(cat.stdout)
            assert f.header["mode"] == mode
            n = sum(1 for _ in f.samples())
            cat.stdout.close()
            cat.wait()
        assert n == counts(td(name)), name
        try:
            list(f.records())
        except ValueError as e:
            assert "read once" in str(e)
        else:
            raise AssertionError("a second pass over a pipe")


def test_archives_read_as_the_tools_read_them():
    pd_convert = os.path.join(pdtest.BIN, "pd-convert")
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "threads.tar.zst")
        pdtest.run(pd_convert, "-q", "--to=archive", td("threads.data"), "-o", out)
        a = perfdata.open(out)
        assert a.header["mode"] == "file"
        assert counts(out) == counts(td("threads.data"))
        # the binaries inside name the frames: here and on any machine
        assert perfdata.fold(out) == pdtest.pd_fold(out)
        assert "worker-a;start_thread;thread_main;work_a" in perfdata.fold(out)


def test_a_missing_file():
    try:
        perfdata.open(td("no-such.data"))
    except FileNotFoundError as e:
        assert e.filename == td("no-such.data")
    else:
        raise AssertionError("no error")


def test_not_perf_data_names_file_and_offset():
    try:
        perfdata.open(td("README.md"))
    except perfdata.Error as e:
        assert e.path == td("README.md") and e.offset == 0
        assert str(e).startswith(td("README.md") + ": offset 0x0: ")
    else:
        raise AssertionError("no error")


def test_root_finds_what_only_a_root_holds():
    """open(root=DIR): a program whose file is gone from here but lies
    under DIR at its recorded path names its frames, as pd-fold --root
    names them."""
    pdtest.need_perf()
    with tempfile.TemporaryDirectory() as d:
        prog = os.path.join(d, "gone", "burn")
        os.makedirs(os.path.dirname(prog))
        shutil.copy(td("bin/burn"), prog)
        rec = os.path.join(d, "rec.data")
        p = subprocess.run(["perf", "record", "-q", "--no-buildid-cache", "-g", "-e",
                            "cpu-clock", "-F", "999", "-o", rec, "--", prog, "300"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if p.returncode or not os.path.exists(rec):
            pdtest.skip("perf record failed here: " + p.stderr.decode()[-200:])
        root = os.path.join(d, "root")
        os.makedirs(root + os.path.dirname(prog))
        shutil.move(prog, root + prog)
        # nor in a build-id cache
        empty = os.path.join(d, "empty-cache")
        os.mkdir(empty)
        saved = os.environ.get("PERF_BUILDID_DIR")
        os.environ["PERF_BUILDID_DIR"] = empty
        try:
            without = perfdata.fold(rec, debuginfod=False)
            got = perfdata.fold(rec, root=root, debuginfod=False)
            roots = perfdata.fold(rec, root=[d, root], debuginfod=False)
            want = pdtest.pd_fold(rec, "--root=" + root, "--no-debuginfod")
            syms = {s.symbol for s in perfdata.open(rec, root=root).samples()}
        finally:
            if saved is None:
                del os.environ["PERF_BUILDID_DIR"]
            else:
                os.environ["PERF_BUILDID_DIR"] = saved
        assert got == want == roots
        assert any(k.endswith(";inner_hot") for k in got), got
        assert not any("inner_hot" in k for k in without), without
        assert "inner_hot" in syms


def test_root_must_be_a_directory():
    for root, exc in ((td("no-such-dir"), FileNotFoundError),
                      (td("fp.data"), NotADirectoryError)):
        try:
            perfdata.open(td("fp.data"), root=root)
        except exc as e:
            assert e.filename == root
        else:
            raise AssertionError("root=%s accepted" % root)


def test_closed():
    with perfdata.open(td("fp.data")) as f:
        it = f.samples()
    assert next(it).comm == "burn"	# an iterator under way finishes
    try:
        f.samples()
    except ValueError as e:
        assert "closed" in str(e)
    else:
        raise AssertionError("a closed file read")
