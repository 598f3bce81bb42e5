# What the tests of the module perfdata share: where things are, the
# oracles (the system perf, pd-fold), and skipping with the Debian
# package that would let a test run. Runs under pytest or under
# tests/python/run.py (no pytest): a test is a function test_* that
# raises to fail and raises unittest.SkipTest to skip.
import functools
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
import warnings

TOP = os.environ.get("PD_TOP") or os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__))))
TD = os.path.join(TOP, "testdata")
BIN = os.environ.get("PD_BIN") or os.path.join(TOP, "build", "bin")
if not any(p.endswith("/python") and glob.glob(os.path.join(p, "perfdata*.so"))
           for p in sys.path):
    sys.path.insert(0, os.path.join(os.path.dirname(BIN), "python"))

import perfdata  # noqa: E402

# the library's warnings (files not found for symbols) are expected here
warnings.simplefilter("ignore", perfdata.PerfDataWarning)


def skip(why):
    # pytest's own skip names the test's file and line; SkipTest is what
    # both runners know
    if "pytest" in sys.modules:
        sys.modules["pytest"].skip(why)
    raise unittest.SkipTest(why)


def need(module, package):
    """The module, or a skip naming the Debian package that has it."""
    try:
        return __import__(module)
    except ImportError:
        skip("%s not installed (Debian: apt-get install %s)" % (module, package))


def have_perf():
    return shutil.which("perf") is not None


def need_perf():
    if not have_perf():
        skip("perf not installed (Debian: apt-get install linux-perf): no oracle")


def td(name):
    return os.path.join(TD, name)


def recordings():
    """testdata's recordings, by name."""
    return sorted(os.path.basename(p) for p in glob.glob(os.path.join(TD, "*.data")))


def run(*cmd, check=True):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       stdin=subprocess.DEVNULL)
    if check and p.returncode:
        raise AssertionError("%s exited %d: %s" % (" ".join(cmd), p.returncode,
                                                  p.stderr.decode(errors="replace")[-500:]))
    return p.stdout.decode(errors="surrogateescape")


@functools.lru_cache(maxsize=None)
def perf_script(path, *args):
    need_perf()
    return run("perf", "script", "-i", path, *args, check=False)


def buildid_cache():
    """
    The recordings name testdata's programs where they were recorded
    (/work/main/testdata/bin/...): a private build-id cache holding them
    lets perf, and the library, find them by build id wherever the
    checkout is (tests/lib.sh's testdata_buildid_cache, which
    t0200-python.sh calls; here for a run of pytest alone).
    """
    if os.environ.get("PERF_BUILDID_DIR") or not have_perf():
        return
    d = tempfile.mkdtemp(prefix="pdpy-buildid.")
    cache = os.path.join(d, "buildid-cache")
    os.mkdir(cache)
    with open(os.path.join(d, "perfconfig"), "w") as f:
        f.write("[buildid]\n\tdir = %s\n" % cache)
    os.environ["PERF_BUILDID_DIR"] = cache
    os.environ["PERF_CONFIG"] = os.path.join(d, "perfconfig")
    for b in glob.glob(os.path.join(TD, "bin", "*")):
        run("perf", "buildid-cache", "-a", b, check=False)
    for k in glob.glob(os.path.join(TD, "kallsyms", "*")):
        kd = os.path.join(cache, "[kernel.kallsyms]", os.path.basename(k))
        os.makedirs(kd, exist_ok=True)
        shutil.copy(k, os.path.join(kd, "kallsyms"))


buildid_cache()


def each(names, fn, prefix, where):
    """One test per name: where[prefix + name] = a call of fn(name)."""
    for name in names:
        def test(name=name):
            fn(name)
        test.__name__ = prefix + "".join(c if c.isalnum() else "_" for c in name)
        where[test.__name__] = test


def symfs_as_recorded(path):
    """
    A --symfs directory holding each file the recording maps, at the
    path it maps it at: testdata's programs from this checkout
    (they were recorded at another's), the others linked from where they
    are. pd-fold --inline reads files at their recorded paths only, as
    stackcollapse-perf.pl's addr2line does, where the module finds them
    by build id too.
    """
    d = tempfile.mkdtemp(prefix="pdpy-symfs.")
    mapped = {r.filename for r in perfdata.open(path).records()
              if r.name in ("MMAP", "MMAP2") and r.filename.startswith("/")}
    for rec in sorted(mapped):
        own = os.path.join(TD, "bin", os.path.basename(rec))
        src = own if "/testdata/bin/" in rec and os.path.exists(own) else rec
        if not os.path.exists(src):
            continue
        dst = d + rec
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        os.symlink(os.path.realpath(src), dst)
    # and the debug files found by build id (libc6-dbg's)
    if os.path.isdir("/usr/lib/debug"):
        os.makedirs(d + "/usr/lib", exist_ok=True)
        if not os.path.lexists(d + "/usr/lib/debug"):
            os.symlink("/usr/lib/debug", d + "/usr/lib/debug")
    return d


def pd_fold(path, *opts):
    """pd-fold's stacks as a dict."""
    out = run(os.path.join(BIN, "pd-fold"), "-q", *opts, path)
    stacks = {}
    for line in out.splitlines():
        k, _, v = line.rpartition(" ")
        stacks[k] = stacks.get(k, 0) + int(v)
    return stacks


def perf_frames(text):
    """
    perf script's samples with callchains: for each, its frame lines as
    (symbol+offset or [unknown], dso or "inlined").
    """
    samples, cur = [], None
    # the symbol ends at its offset: DSOs may hold " (" ("x (deleted)")
    frame = re.compile(r"^\s*[0-9a-f]+ (.*?\+0x[0-9a-f]+|\[unknown\]) \((.*)\)$")
    for line in text.splitlines():
        if line.startswith("\t"):
            m = frame.match(line)
            if cur is not None and m:
                cur.append((m.group(1), m.group(2)))
            elif cur is not None:
                cur.append((line, None))
        elif not line.strip():
            if cur is not None:
                samples.append(cur)
            cur = None
        else:
            cur = []
    if cur:
        samples.append(cur)
    return samples
