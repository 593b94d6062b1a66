#!/usr/bin/env python3
"""Opens the esbuild-bundled test page of the npm package in headless Chromium.

Serves FOLDER (page.html, bundle.js, maharajah.wasm and the worker's files), waits for
the page's window.bundleTest (scripts/wasm/package/test/page.mjs: a few engine moves on
the page's thread checked by the rules calls, then load-to-uciok, a rules call and
bench in a MaharajahWorker) and prints its figures. Uses page_test.py's Chromium and
DevTools client. Exit status 0 when the page succeeded, 1 otherwise.

    scripts/wasm/bundle_test.py FOLDER [--timeout 180]
"""
import argparse
import json
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import page_test  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder")
    parser.add_argument("--timeout", type=float, default=180)
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    args = parser.parse_args()
    deadline = page_test.Deadline(args.timeout)
    server = page_test.serve(args.folder)
    profile = tempfile.mkdtemp(prefix="maharajah-bundle-test-")
    proc = ws = page = None
    try:
        proc, url = page_test.start_chromium(args.chromium, profile, deadline)
        ws = page_test.WebSocket(url, deadline)
        page = page_test.Page(ws, deadline)
        page.attach()
        page.call("Page.navigate", url=f"http://127.0.0.1:{server.server_address[1]}/page.html")
        end = time.monotonic() + 30
        while not page.evaluate("!!window.bundleTest"):
            if time.monotonic() > end:
                raise page_test.Failure("the bundle did not start (window.bundleTest unset)")
            time.sleep(0.1)
        result = page.evaluate("window.bundleTest")
        if page.errors:
            raise page_test.Failure("; ".join(page.errors))
        print(json.dumps(result))
        p, w = result["page"], result["worker"]
        print(f"bundled page: {len(p['moves'])} engine moves checked ({' '.join(p['moves'])}), "
              f"load to uciok {p['loadMs']:.0f} ms on the page's thread, {w['loadMs']:.0f} ms in a worker; "
              f"bench in the worker: {w['nodes']} nodes, {w['nps']} nodes/s")
        return 0 if len(p["moves"]) == 6 else 1
    except page_test.Failure as e:
        print(f"FAIL: {e}", file=sys.stderr)
        for line in (page.errors if page else []):
            print("  page:", line, file=sys.stderr)
        return 1
    finally:
        if ws:
            ws.close()
        if proc:
            page_test.stop_chromium(proc)
        server.shutdown()
        server.server_close()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
