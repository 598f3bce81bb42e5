# fold(): pd-fold's stacks, for every recording of testdata/ and with each
# of pd-fold's options that fold() takes; and stackcollapse-perf.pl's
# folding of perf script's text, kept in testdata/ (fold-system.sh).
import os
import tempfile

import pdtest
from pdtest import perfdata, td


def same(name, *opts, **kw):
    want = pdtest.pd_fold(td(name), *opts)
    got = perfdata.fold(td(name), **kw)
    assert got == want, "%s %s: %d stacks, pd-fold %d; first difference %r" % (
        name, " ".join(opts), len(got), len(want),
        next((k for k in sorted(set(got) | set(want)) if got.get(k) != want.get(k)), None))


pdtest.each(pdtest.recordings(), same, "test_fold_", globals())

OPTIONS = {
    "pid": (("--pid",), {"pid": True}),
    "tid": (("--tid",), {"tid": True}),
    "kernel": (("--kernel",), {"kernel": True}),
    "jit": (("--jit",), {"jit": True}),
    "all": (("--all",), {"all": True}),
    "addrs": (("--addrs",), {"addrs": True}),
    "inline": (("--inline",), {"inline": True}),
    "no_inline": (("--no-inline",), {"inline": False}),
    "context": (("--inline", "--context"), {"inline": True, "context": True}),
    "samples": (("--weight=samples",), {"weight": "samples"}),
    "period": (("--weight=period",), {"weight": "period"}),
    "event": (("--event-filter=task-clock",), {"event": "task-clock"}),
}
WITH_STACKS = ["fp.data", "dwarf.data", "inl.data", "inl-dwarf.data", "jit.data",
               "threads.data", "system.data", "two-events.data", "mangled.data",
               "offcpu.data", "sleeper.data"]


def option(name):
    opts, kw = OPTIONS[name]
    for rec in WITH_STACKS:
        same(rec, *opts, **kw)


pdtest.each(sorted(OPTIONS), option, "test_option_", globals())


def test_newer_perfs_recordings():
    for path in sorted(os.listdir(td("newer"))):
        if path.endswith(".data"):
            same(os.path.join("newer", path))


def test_stackcollapse_folding_of_perf_script():
    """testdata/system*.plain.folded: perf script | stackcollapse-perf.pl,
    with the recording kernel's kallsyms and no user files."""
    with tempfile.TemporaryDirectory() as empty:
        for name in ("system", "system-switch"):
            want = {}
            with open(td(name + ".plain.folded")) as f:
                for line in f:
                    k, _, v = line.rstrip("\n").rpartition(" ")
                    want[k] = int(v)
            f = perfdata.open(td(name + ".data"))
            bid = [b["build_id"] for b in f.features["build_id"]
                   if b["filename"] == "[kernel.kallsyms]"][0]
            got = perfdata.fold(td(name + ".data"), symfs=empty,
                                kallsyms=td("kallsyms/" + bid), debuginfod=False)
            assert got == want, name


def test_the_file_object_method_and_its_inline():
    f = perfdata.open(td("inl.data"), inline=True)
    assert f.fold() == pdtest.pd_fold(td("inl.data"), "--inline")
    assert f.fold(inline=None) == pdtest.pd_fold(td("inl.data"))


def test_bad_options():
    for kw in ({"weight": "bytes"}, {"inline": 1}, {"nosuch": True}):
        try:
            perfdata.fold(td("fp.data"), **kw)
        except (ValueError, TypeError):
            pass
        else:
            raise AssertionError("fold(%r) accepted" % kw)


def arm64_folded(name):
    """testdata/arm64/NAME.folded: stackcollapse-perf.pl of the arm64
    perf's own perf script text (tests/t0175)."""
    a64 = td("arm64")
    path = os.path.join(a64, name + ".data")
    if not os.path.exists(path):
        pdtest.skip("testdata/arm64/ absent")
    want = {}
    with open(os.path.join(a64, name + ".folded")) as f:
        for line in f:
            k, _, v = line.rstrip("\n").rpartition(" ")
            want[k] = int(v)
    bid = [b["build_id"] for b in perfdata.open(path).features["build_id"]
           if b["filename"] == "[kernel.kallsyms]"][0]
    got = perfdata.fold(path, symfs=pdtest.TOP, kallsyms=td("kallsyms/" + bid))
    assert got == want, name


pdtest.each(["fp", "dwarf"], arm64_folded, "test_arm64_", globals())
