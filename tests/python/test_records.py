# records(): every record with its fields, as perf report --stats counts
# them and perf script --show-mmap-events --show-task-events prints them.
import collections
import re

import pdtest
from pdtest import perfdata, td


def x(v):
    """C's %#x: 0 has no 0x."""
    return "%#x" % v if v else "0"


def perf_stats(path):
    out = pdtest.run("perf", "report", "--stats", "-i", path, check=False)
    agg = out.split("Aggregated stats:", 1)[1].split(" stats:", 1)[0]
    return {m.group(1): int(m.group(2))
            for m in re.finditer(r"^\s*(\S+) events:\s+(\d+)", agg, re.M)}


def stats(name):
    pdtest.need_perf()
    want = perf_stats(td(name))
    total = want.pop("TOTAL")
    # perf counts a COMPRESSED record and what it holds; records() gives
    # what it holds (the tools' view of the stream)
    compressed = want.pop("COMPRESSED", 0) + want.pop("COMPRESSED2", 0)
    got = collections.Counter(r.name for r in perfdata.open(td(name)).records())
    assert dict(got) == want, name
    assert sum(got.values()) + compressed == total, name


pdtest.each(pdtest.recordings(), stats, "test_stats_", globals())


def test_time_order_has_the_same_records():
    for name in ("fp.data", "pipe.data", "system.data"):
        f = perfdata.open(td(name))
        a = sorted(r.offset for r in f.records())
        b = sorted(r.offset for r in f.records(order="time"))
        assert a == b, name
        times = [r.time for r in f.records(order="time") if r.name == "SAMPLE"]
        assert times == sorted(times), name


def test_task_and_map_records_as_perf_prints_them():
    for name in ("threads.data", "sleeper.data", "buildid-mmap.data"):
        out = pdtest.perf_script(td(name), "--show-mmap-events", "--show-task-events")
        want = [line.split("PERF_RECORD_", 1)[1] for line in out.splitlines()
                if "PERF_RECORD_" in line]
        got = []
        for r in perfdata.open(td(name)).records(order="time"):
            if r.name == "COMM":
                got.append("COMM%s: %s:%d/%d" % (" exec" if r.exec else "", r.comm, r.pid, r.tid))
            elif r.name in ("FORK", "EXIT"):
                got.append("%s(%d:%d):(%d:%d)" % (r.name, r.pid, r.tid, r.ppid, r.ptid))
            elif r.name == "MMAP2" and hasattr(r, "build_id"):
                got.append("MMAP2 %d/%d: [%s(%s) @ %s <%s>]: %s" % (
                    r.pid, r.tid, x(r.start), x(r.len), x(r.pgoff), r.build_id, r.filename))
            elif r.name == "MMAP2":
                got.append("MMAP2 %d/%d: [%s(%s) @ %s %02x:%02x %d %d]: %s" % (
                    r.pid, r.tid, x(r.start), x(r.len), x(r.pgoff), r.maj, r.min, r.ino,
                    r.ino_generation, r.filename))
        # perf adds the protection ("r-xp") before the name, and prints
        # an MMAP of its own kind; compared without them
        want = [re.sub(r"\]: \S+ ", "]: ", w) for w in want if not w.startswith("MMAP ")]
        assert got == want, "%s:\n%s\n%s" % (name, got[:3], want[:3])


def test_sample_records_hold_their_fields():
    r = next(r for r in perfdata.open(td("fp.data")).records() if r.name == "SAMPLE")
    assert r.event == "cpu-clock" and r.callchain[0] >= 2**64 - 4095
    assert {"ip", "pid", "tid", "time", "period", "callchain"} <= set(vars(r))
    r = next(r for r in perfdata.open(td("tracepoint.data")).records() if r.name == "SAMPLE")
    assert isinstance(r.raw, bytes) and r.cpu >= 0
    r = next(r for r in perfdata.open(td("dwarf.data")).records() if r.name == "SAMPLE")
    assert len(r.user_stack) <= r.user_stack_size == 4096 and r.user_regs["regs"]
