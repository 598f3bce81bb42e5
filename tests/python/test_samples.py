# samples(): perf's samples, each with the frames perf script prints,
# on every recording of testdata/ (file and pipe mode, zstd, DWARF,
# several events, counter groups, tracepoints, system-wide) and on one
# recorded now; perf report --stats and perf script are the oracles.
import os
import re
import subprocess
import tempfile

import pdtest
from pdtest import perfdata, td


def perf_count(path):
    """The samples perf delivers: perf report --stats counts records; a
    counter group's sample is delivered once per member (perf script)."""
    pdtest.need_perf()
    if any("READ" in e.sample_fields for e in perfdata.open(path).events):
        return len(pdtest.perf_script(path, "-F", "event", "-G").splitlines())
    out = pdtest.run("perf", "report", "--stats", "-i", path, check=False)
    m = re.search(r"^\s*SAMPLE events:\s+(\d+)", out, re.M)
    return int(m.group(1)) if m else 0


def count(name):
    want = perf_count(td(name))
    got = sum(1 for _ in perfdata.open(td(name)).samples())
    assert got == want, "%s: %d samples, perf %d" % (name, got, want)


pdtest.each(pdtest.recordings(), count, "test_count_", globals())


def leaf_share(path):
    """The share of samples whose symbol is perf script's."""
    out = pdtest.perf_script(path, "-F", "ip,sym", "-G").splitlines()
    want = [(line.split(None, 1) + ["[unknown]"])[1].strip() for line in out]
    got = [s.symbol or "[unknown]" for s in perfdata.open(path).samples()]
    assert len(got) == len(want), "%d samples, perf script %d" % (len(got), len(want))
    return sum(a == b for a, b in zip(got, want)) / max(len(want), 1)


def leaf(name):
    if not perf_count(td(name)):
        pdtest.skip("%s: no samples (perf stat record)" % name)
    share = leaf_share(td(name))
    assert share >= 0.999, "%s: %.4f of the symbols are perf's" % (name, share)


pdtest.each(pdtest.recordings(), leaf, "test_symbol_", globals())


def test_symbol_of_a_fresh_recording():
    """A frame-pointer profile of thousands of samples, made now."""
    pdtest.need_perf()
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "fresh.data")
        p = subprocess.run(["perf", "record", "-q", "-g", "-F", "2999", "-e", "cpu-clock",
                            "-o", path, "--", td("bin/burn"), "1000"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if p.returncode or not os.path.exists(path):
            pdtest.skip("perf record failed here: " + p.stderr.decode()[-200:])
        share = leaf_share(path)
        n = sum(1 for _ in perfdata.open(path).samples())
        assert n > 1000, n
        assert share >= 0.999, "%.4f of %d" % (share, n)


def frames_text(s):
    return [("%s+0x%x" % (f.symbol, f.offset) if f.symbol else "[unknown]",
             "inlined" if f.inlined else f.dso) for f in s.callchain]


def callchains(name):
    """Each sample's frames are perf script's lines, inlined ones too."""
    want = pdtest.perf_frames(pdtest.perf_script(td(name)))
    f = perfdata.open(td(name))
    shown = {e.name for e in f.events if "CALLCHAIN" in e.sample_fields}
    got = [frames_text(s) for s in f.samples() if s.event in shown and s.callchain]
    assert len(got) == len(want), "%d callchains, perf %d" % (len(got), len(want))
    for i, (a, b) in enumerate(zip(got, want)):
        assert a == b, "sample %d:\n ours %s\n perf %s" % (i, a, b)


pdtest.each([n for n in pdtest.recordings()
             if "CALLCHAIN" in "".join(str(e.sample_fields) for e in perfdata.open(td(n)).events)],
            callchains, "test_callchain_", globals())


def unwound(path):
    """
    The stacks of a recording, by their frames' symbols: a last frame at
    address -1 (perf's libunwind ends some chains so) is at 0 in what
    pd-unwind writes (a callchain cannot hold -1, the context markers'
    range), unresolved in both.
    """
    return [tuple(f.symbol for f in s.callchain)
            for s in perfdata.open(path, inline=False).samples()]


def test_dwarf_samples_are_unwound_as_pd_unwind_unwinds_them():
    """pd-unwind's rewritten samples carry the same user frames."""
    with tempfile.TemporaryDirectory() as d:
        for name in ("dwarf.data", "threads-dwarf.data", "inl-dwarf.data"):
            out = os.path.join(d, name)
            pdtest.run(os.path.join(pdtest.BIN, "pd-unwind"), "-q", td(name), "-o", out)
            a = unwound(td(name))
            b = unwound(out)
            assert a == b and len(a) > 10, name
            assert not any("STACK_USER" in e.sample_fields
                           for e in perfdata.open(out).events)


def test_inlined_frames_of_dwarf_callchains():
    s = [s for s in perfdata.open(td("inl-dwarf.data")).samples() if s.callchain[0].inlined][0]
    assert s.callchain[0].symbol == "shapes::detail::step<unsigned long>"
    assert s.callchain[1].symbol == "shapes::Accum<unsigned long>::feed"
    assert s.symbol == "shapes::Accum<unsigned long>::feed"
    assert s.callchain[0].addr == s.callchain[1].addr
    # inline=False: none, as perf script --no-inline
    assert not any(f.inlined for s in perfdata.open(td("inl-dwarf.data"), inline=False).samples()
                   for f in s.callchain)


def test_inline_true_expands_frame_pointer_chains():
    """inline=True: addr2line's chains, as pd-fold --inline folds them."""
    f = perfdata.open(td("inl.data"), inline=True)
    names = {fr.symbol for s in f.samples() for fr in s.callchain if fr.inlined}
    assert any(n.startswith("unsigned long shapes::detail::step<unsigned long>") for n in names), names
    folded = pdtest.pd_fold(td("inl.data"), "--inline",
                            "--symfs=" + pdtest.symfs_as_recorded(td("inl.data")))
    for s in f.samples():
        key = ";".join(["inl"] + [fr.symbol for fr in reversed(s.callchain)])
        assert key in folded, key


def test_frame_kinds():
    kinds = {(f.kind, f.dso) for s in perfdata.open(td("jit.data")).samples()
             for f in s.callchain}
    assert ("jit", "/tmp/perf-26664.map") in kinds
    assert all(k != "jit" or "perf-26664.map" in d for k, d in kinds)
    kinds = {(f.kind, f.dso.startswith("[")) for s in perfdata.open(td("system.data")).samples()
             for f in s.callchain}
    assert ("kernel", True) in kinds and ("user", False) in kinds


def test_sample_fields_as_perf_script_prints_them():
    pdtest.need_perf()
    for name in ("multi.data", "tracepoint.data", "period.data", "raw-addr.data",
                 "system.data"):
        f = perfdata.open(td(name))
        cpu = all("CPU" in e.sample_fields for e in f.events)
        out = pdtest.perf_script(td(name), "-F", "comm,pid,tid,%stime,period,event,ip"
                                 % ("cpu," if cpu else ""), "-G").splitlines()
        got = list(f.samples())
        assert len(got) == len(out) and got, name
        for s, line in zip(got, out):
            m = re.match(r"\s*(.+?)\s+(\d+)/(\d+)\s+(?:\[(\d+)\]\s+)?(\d+)\.(\d+):\s+(\d+)\s+(\S+):\s+([0-9a-f]+)", line)
            assert m, line
            comm, pid, tid, c, sec, usec, period, event, ip = m.groups()
            assert (s.comm, s.pid, s.tid) == (comm, int(pid), int(tid)), line
            assert s.cpu == (int(c) if cpu else -1), line
            assert s.time // 1000 == int(sec) * 1000000 + int(usec), line
            assert (s.period, s.event, s.ip) == (int(period), event, int(ip, 16)), line


def test_counter_group_delivered_per_member():
    out = pdtest.perf_script(td("group.data"), "-F", "event,period", "-G").splitlines()
    want = [tuple(line.split()) for line in out]
    got = [(str(s.period), s.event + ":") for s in perfdata.open(td("group.data")).samples()]
    assert got == want


def test_tracepoint_fields_as_perf_script_prints_them():
    out = pdtest.perf_script(td("tracepoint.data")).splitlines()
    samples = list(perfdata.open(td("tracepoint.data")).samples())
    assert len(samples) == len(out) and samples
    compared = set()
    for s, line in zip(samples, out):
        text = line.split(s.event + ":", 1)[1]
        # where the print fmt labels a value with its field's name
        for k, v in re.findall(r"(\w+)=(\S+)", text):
            got = s.fields.get(k)
            if got is None or (isinstance(got, int) and not v.lstrip("-").isdigit()):
                continue	# another label, or a state by name (prev_state=S)
            assert str(got) == v, (k, got, v, line)
            compared.add(k)
        assert s.fields["common_pid"] == s.tid


    assert {"prev_comm", "prev_pid", "next_comm", "next_pid", "filename"} <= compared


def test_no_fields_but_for_tracepoints():
    s = next(iter(perfdata.open(td("fp.data")).samples()))
    assert s.fields is None and s.raw is None


def test_a_callchain_perf_gives_up_on():
    """A callchain ending in an unknown context (-1): perf script prints
    the sample without frames, and names its address all the same."""
    import struct
    recs = [r for r in perfdata.open(td("fp.data")).records() if r.name == "SAMPLE"]
    r = recs[5]
    with open(td("fp.data"), "rb") as f:
        data = bytearray(f.read())
    # fp.data's samples: header, ip, pid/tid, time, period, then nr and ips
    struct.pack_into("<Q", data, r.offset + 48 + 8 * (len(r.callchain) - 1), 2**64 - 1)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "cut.data")
        with open(path, "wb") as f:
            f.write(data)
        s = [s for s in perfdata.open(path).samples() if s.time == r.time][0]
        assert s.callchain == () and s.stack == ()
        assert s.symbol == "inner_hot"
        assert leaf_share(path) == 1.0
        assert [frames_text(s) for s in perfdata.open(path).samples()] == \
            pdtest.perf_frames(pdtest.perf_script(path))


def arm64(name):
    """testdata/arm64/: recorded and printed by Debian 12's arm64 perf in
    a qemu guest (testdata/record-arm64.sh), unwound here as it unwinds."""
    import gzip
    a64 = td("arm64")
    if not os.path.exists(os.path.join(a64, name + ".data")):
        pdtest.skip("testdata/arm64/ absent")
    with gzip.open(os.path.join(a64, name + ".script.gz"), "rt") as f:
        want = pdtest.perf_frames(f.read())
    f = perfdata.open(os.path.join(a64, name + ".data"), symfs=pdtest.TOP,
                      kallsyms=td("kallsyms/" + kernel_build_id(os.path.join(a64, name + ".data"))))
    got = [frames_text(s) for s in f.samples() if s.callchain]
    assert got == want, name


def kernel_build_id(path):
    return [b["build_id"] for b in perfdata.open(path).features["build_id"]
            if b["filename"] == "[kernel.kallsyms]"][0]


# (not pac-fp: perf 6.1 repeats the sampled function of some of its
# samples, which the library does not, t0175)
pdtest.each(["fp", "dwarf"], arm64, "test_arm64_callchain_", globals())
