# to_pandas() and to_arrow(): a row per sample, the columns as samples()
# gives them, and perf script's view of the same samples.
import collections

import pdtest
from pdtest import perfdata, td

COLUMNS = ["time", "pid", "tid", "cpu", "period", "event", "comm", "ip",
           "symbol", "dso", "stack"]


def frame(name):
    pdtest.need("pandas", "python3-pandas")
    f = perfdata.open(td(name))
    df = f.to_pandas()
    samples = list(f.samples())
    assert list(df.columns) == COLUMNS
    assert len(df) == len(samples), "%s: %d rows, %d samples" % (name, len(df), len(samples))
    for row, s in zip(df.itertuples(index=False), samples):
        assert (row.time, row.pid, row.tid, row.cpu, row.period, row.ip) == \
            (s.time, s.pid, s.tid, s.cpu, s.period, s.ip), name
        assert (row.event, row.comm, row.stack) == (s.event, s.comm, s.stack), name
        assert (row.symbol if isinstance(row.symbol, str) else None) == s.symbol, name
        assert row.dso == s.dso, name


pdtest.each(pdtest.recordings(), frame, "test_rows_", globals())


def test_a_row_per_sample_perf_prints():
    pdtest.need("pandas", "python3-pandas")
    for name in ("fp.data", "pipe.data", "zstd.data", "multi.data", "system.data",
                 "dwarf.data", "tracepoint.data", "group.data"):
        out = pdtest.perf_script(td(name), "-F", "comm,event", "-G").splitlines()
        want = collections.Counter(tuple(line.split()) for line in out)
        df = perfdata.open(td(name)).to_pandas()
        got = collections.Counter((c, e + ":") for c, e in zip(df["comm"], df["event"]))
        assert got == want, name


def test_column_types():
    pd = pdtest.need("pandas", "python3-pandas")
    df = perfdata.open(td("threads.data")).to_pandas()
    assert str(df["time"].dtype) == "uint64" and str(df["tid"].dtype) == "int32"
    for c in ("event", "comm", "symbol", "dso"):
        assert isinstance(df[c].dtype, pd.CategoricalDtype), c
    # one tuple object per distinct stack
    assert len({id(s) for s in df["stack"]}) == len(set(df["stack"]))
    assert (df["comm"] == "worker-b").sum() == \
        sum(1 for s in perfdata.open(td("threads.data")).samples() if s.comm == "worker-b")


def test_stacks_of_one_length_stay_tuples():
    pdtest.need("pandas", "python3-pandas")
    df = perfdata.open(td("period.data")).to_pandas()
    assert all(isinstance(s, tuple) and len(s) == 1 for s in df["stack"])


def test_to_arrow():
    pa = pdtest.need("pyarrow", "python3-pyarrow")
    t = perfdata.open(td("fp.data")).to_arrow()
    assert isinstance(t, pa.Table) and t.num_rows == 300


def test_without_pandas_the_package_is_named():
    try:
        import pandas  # noqa: F401
        pdtest.skip("pandas is installed")
    except ImportError:
        pass
    try:
        perfdata.open(td("fp.data")).to_pandas()
    except ImportError as e:
        assert "python3-pandas" in str(e)
    else:
        raise AssertionError("no ImportError")
