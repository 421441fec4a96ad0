"""Time and peak memory of reading hostile SGF records (the inputs of the hardening issue).

Usage::

    python bench/hostile_sgf.py [--mb 5] [--only rectangles,passes,comment,variations,corpus]

Each input is built in one Python process and read in a fresh one (``load_record`` on the bytes, with the size limit
raised to the input's size when the reader has one, so that what is measured is the parse itself, not the
refusal). The child reports the seconds spent in ``load_record``, what it raised, and the growth of its peak
resident memory (``ru_maxrss``) over what it held just before the call, as a ratio to the input's size.

The inputs:

- ``rectangles``: ``AB[aa:ss]`` repeated (the second value already repeats A19);
- ``passes``: ``;B[];W[]`` repeated (a pass after the game has ended is an error at move 5);
- ``comment``: one ``C[...]`` comment of the whole size (``latin1``: of Latin-1 text without ``CA``, ``gb18030``: of Chinese
  text without ``CA``; ``escapes``: of escaped brackets);
- ``variations``: a valid record made only of one-move variations (the largest tree per byte);
- ``corpus``: the real records of ``tests/data/sgf`` concatenated as variations of one root (valid).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

CHILD = r"""
import inspect, json, resource, sys, time
from pathlib import Path
from keima.record import sgf as sgfmod

kind = sys.argv[1]
n = int(float(sys.argv[2]) * 1024 * 1024) if kind != "file" else 0
if kind == "file":
    data = Path(sys.argv[2]).read_bytes()
elif kind == "rectangles":
    head = b"(;GM[1]FF[4]SZ[19]AB"
    data = head + b"[aa:ss]" * ((n - len(head)) // 7) + b")"
elif kind == "passes":
    data = b"(;GM[1]FF[4]SZ[19]" + b";B[];W[]" * (n // 8) + b")"
elif kind == "comment":
    data = b"(;GM[1]FF[4]SZ[19]C[" + b"x" * n + b"])"
elif kind == "latin1":
    data = b"(;GM[1]FF[4]SZ[19]C[" + "\u00e9t\u00e9 ".encode("latin-1") * (n // 4) + b"])"
elif kind == "gb18030":
    data = b"(;GM[1]FF[4]SZ[19]C[" + "\u56f4\u68cb".encode("gb18030") * (n // 4) + b"])"
elif kind == "escapes":
    data = b"(;GM[1]FF[4]SZ[19]C[" + b"\\]" * (n // 2) + b"])"
elif kind == "variations":
    points = [bytes([97 + c, 97 + r]) for r in range(19) for c in range(19)]
    body = b"".join(b"(;B[" + points[i % 361] + b"])" for i in range(n // 8))
    data = b"(;GM[1]FF[4]SZ[19]" + body + b")"
else:
    corpus = sorted(Path("tests/data/sgf").glob("*.sgf"))
    # every 19x19 game of the corpus (as keima writes it back: UTF-8), each as a variation of an empty root,
    # as many times as fits
    trees = [sgfmod.load_record(p).tree for p in corpus]
    games = [bytes(t.serialise()) for t in trees if t.get_size() == 19]
    bodies = [g[g.index(b"(;") + 2 :] for g in games]
    parts, total = [], 0
    while total < n:
        for b in bodies:
            parts.append(b"(;" + b)
            total += len(b) + 2
    data = b"(;GM[1]FF[4]SZ[19]CA[UTF-8]" + b"".join(parts) + b")"
if kind != "file" and len(sys.argv) > 3:  # build only: the measuring child reads the file, free of the building's peak
    Path(sys.argv[3]).write_bytes(data)
    sys.exit(0)
kwargs = {}
if "max_bytes" in inspect.signature(sgfmod.load_record).parameters:
    kwargs["max_bytes"] = len(data)
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
with open("/proc/self/statm") as fh:
    rss_now = int(fh.read().split()[1]) * resource.getpagesize() // 1024
start = time.perf_counter()
try:
    sgfmod.load_record(data, **kwargs)
    outcome = "read"
except Exception as exc:
    outcome = f"{type(exc).__name__}: {str(exc)[:90]}"
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
grown_kb = max(0, peak - rss_now)  # an upper bound when the call did not raise the old peak
print(json.dumps({"kind": kind, "bytes": len(data), "seconds": seconds, "peak_growth_mb": grown_kb / 1024,
                  "ratio": grown_kb * 1024 / len(data), "outcome": outcome}))
"""


def measure(kind: str, mb: float) -> dict[str, object]:
    """Build one input in a child process, read it in another; returns the reader's JSON report."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "input.sgf")
        subprocess.run([sys.executable, "-c", CHILD, kind, str(mb), path], check=True)
        out = subprocess.run([sys.executable, "-c", CHILD, "file", path], capture_output=True, text=True, check=False)
    if out.returncode != 0:
        return {"kind": kind, "outcome": f"child died ({out.returncode}): {out.stderr.strip()[-200:]}"}
    report: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    report["kind"] = kind
    return report


def main() -> None:
    """Print one line per input: seconds, peak memory growth, ratio to the input size, outcome."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=5.0, help="size of each input in MiB (default 5)")
    parser.add_argument("--only", default="rectangles,passes,comment,latin1,gb18030,escapes,variations,corpus")
    args = parser.parse_args()
    for kind in args.only.split(","):
        r = measure(kind, args.mb)
        if "seconds" in r:
            print(f"{kind:<11} {r['bytes']:>9} B  {r['seconds']:7.2f} s  peak +{r['peak_growth_mb']:8.1f} MB  "
                  f"x{r['ratio']:6.1f}  {r['outcome']}")
        else:
            print(f"{kind:<11} {r['outcome']}")


if __name__ == "__main__":
    main()
