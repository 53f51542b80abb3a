"""Attachments: what checking a file by its content costs, beside reading and hashing it alone.

    .venv/bin/python bench/bench_attachments.py [--repeat 5]

For each file (a 200-page PDF, a 12-megapixel JPEG photo, a 25 MB PDF at the plan limit) prints the median
time of powts.attachments.content.check (signature + structure + sha256, streamed in 1 MB chunks) beside the
baseline: the same bytes read and hashed with hashlib alone, in the same run. Not a test: nothing asserts.
"""
from __future__ import annotations

import argparse
import hashlib
import io
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "powts.settings")
os.environ.setdefault("POWTS_DATA_DIR", "/tmp/powts-bench-attachments")


def pdf(pages: int, pad: int = 0) -> bytes:
    from pypdf import PdfWriter

    writer = PdfWriter()
    for _ in range(pages):
        writer.add_blank_page(width=612, height=792)
    if pad:
        writer.add_attachment("scan.bin", os.urandom(pad))  # an embedded file: the size of a scanned plan set
    buf = io.BytesIO()
    writer.write(buf)
    return buf.getvalue()


def jpeg(width: int, height: int) -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.effect_noise((width, height), 64).convert("RGB").save(buf, "JPEG", quality=90)
    return buf.getvalue()


def timed(fn, repeat: int) -> float:
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - start)
    return statistics.median(runs)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    import django

    django.setup()
    from powts.attachments.content import check

    files = [("200-page PDF", "plan", pdf(200)), ("12 MP JPEG photo", "photo", jpeg(4000, 3000)),
             ("25 MB PDF (plan limit)", "plan", pdf(20, pad=24 * 1024 * 1024))]
    print(f"{'file':26} {'size':>9} {'check (ms)':>11} {'hash only (ms)':>15} {'ratio':>6}")
    for label, kind, content in files:
        def checked():
            check(io.BytesIO(content), name="f", kind=kind, max_bytes=10**9)

        def hashed():
            stream, digest = io.BytesIO(content), hashlib.sha256()
            while chunk := stream.read(1024 * 1024):
                digest.update(chunk)

        c, h = timed(checked, args.repeat), timed(hashed, args.repeat)
        size = f"{len(content) / 1e6:.1f} MB" if len(content) >= 1e6 else f"{len(content) / 1e3:.0f} KB"
        print(f"{label:26} {size:>9} {c * 1000:>11.1f} {h * 1000:>15.1f} {c / h:>6.1f}")


if __name__ == "__main__":
    main()
