# docs/python.md's examples run: each ```python block after a
# "<!-- test: FILE -->" line, in a directory where perf.data is
# testdata's FILE, must exit 0 and print something.
import os
import re
import shutil
import subprocess
import sys
import tempfile

import pdtest


def blocks():
    with open(os.path.join(pdtest.TOP, "docs", "python.md")) as f:
        text = f.read()
    return re.findall(r"<!-- test: (\S+) -->\n```python\n(.*?)```", text, re.S)


def example(i):
    data, code = blocks()[i]
    if "pandas" in code:
        pdtest.need("pandas", "python3-pandas")
    with tempfile.TemporaryDirectory() as d:
        shutil.copy(pdtest.td(data), os.path.join(d, "perf.data"))
        with open(os.path.join(d, "example.py"), "w") as f:
            f.write("import warnings, perfdata\n"
                    "warnings.simplefilter('ignore', perfdata.PerfDataWarning)\n" + code)
        p = subprocess.run([sys.executable, "example.py"], cwd=d, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
        assert p.returncode == 0, p.stderr.decode()[-2000:]
        assert p.stdout.strip(), "example %d printed nothing" % i


def test_docs_have_examples():
    assert len(blocks()) >= 6


pdtest.each([str(i) for i in range(len(blocks()))], lambda i: example(int(i)),
            "test_example_", globals())
