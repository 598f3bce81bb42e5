#!/usr/bin/env python3
# The tests of tests/python/ without pytest (Debian: python3-pytest), in
# TAP: "ok - FILE::TEST", "ok - FILE::TEST # skip WHY", "not ok - ..."
# followed by the traceback as "# " lines. A test is a function test_*
# of a module test_*.py; it fails by raising, skips by raising
# unittest.SkipTest, as under pytest.
import glob
import importlib
import os
import sys
import traceback
import unittest


def report(ok, name, why=None, tb=None):
    if why is not None:
        print("ok - %s # skip %s" % (name, why))
    else:
        print("%s - %s" % ("ok" if ok else "not ok", name))
    for line in (tb or "").rstrip().splitlines():
        print("# " + line)
    sys.stdout.flush()


def main(folder):
    sys.path.insert(0, folder)
    failed = 0
    for path in sorted(glob.glob(os.path.join(folder, "test_*.py"))):
        name = os.path.basename(path)[:-3]
        try:
            mod = importlib.import_module(name)
        except unittest.SkipTest as e:
            report(True, name, str(e))
            continue
        except Exception:
            report(False, name + " (import)", tb=traceback.format_exc())
            failed += 1
            continue
        for attr, fn in list(vars(mod).items()):
            if not attr.startswith("test_") or not callable(fn):
                continue
            test = "%s.py::%s" % (name, attr)
            try:
                fn()
            except unittest.SkipTest as e:
                report(True, test, str(e))
            except Exception:
                report(False, test, tb=traceback.format_exc())
                failed += 1
            else:
                report(True, test)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))))
