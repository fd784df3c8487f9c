#!/usr/bin/env python3
"""Run every fixture site with its hand-written script.py and verify against expected.json.
Usage: python check.py [site-id ...]"""
import importlib.util, json, os, sys, threading, time, traceback
from socketserver import ThreadingMixIn
from urllib.parse import urlparse
from wsgiref.simple_server import WSGIServer, WSGIRequestHandler, make_server
from playwright.sync_api import sync_playwright

HERE = os.path.dirname(os.path.abspath(__file__))


class ThreadingWSGIServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True


class QuietHandler(WSGIRequestHandler):
    def log_message(self, *a):
        pass


def load(site_dir, name):
    spec = importlib.util.spec_from_file_location(name, os.path.join(site_dir, name.split("__")[-1] + ".py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def norm_amount(a):
    if a is None or a == "":
        return None
    return "%.2f" % float(str(a))


def check_site(pw, sid):
    d = os.path.join(HERE, sid)
    exp = json.load(open(os.path.join(d, "expected.json"), encoding="utf-8"))
    problems = []
    if exp.get("id") != sid:
        problems.append("expected.json id mismatch")
    site = load(d, sid.replace("-", "_") + "__site")
    script = load(d, sid.replace("-", "_") + "__script")
    app = site.make_app()
    srv = make_server("127.0.0.1", 0, app, server_class=ThreadingWSGIServer, handler_class=QuietHandler)
    port = srv.server_address[1]
    th = threading.Thread(target=srv.serve_forever, daemon=True)
    th.start()
    browser = pw.chromium.launch(executable_path="/usr/bin/chromium", headless=True)
    ctx = browser.new_context(locale="it-IT" if exp["language"] == "it" else "en-GB")
    def guard(route):
        host = urlparse(route.request.url).hostname
        if host in ("127.0.0.1", "localhost"):
            route.continue_()
        else:
            route.abort()
    ctx.route("**/*", guard)
    page = ctx.new_page()
    t0 = time.time()
    try:
        out = script.run(page, "http://127.0.0.1:%d/" % port, exp["account"]["username"], exp["account"]["password"])
    except Exception:
        problems.append("script crashed:\n" + traceback.format_exc())
        out = {"records": [], "actions": 0}
    dt = time.time() - t0
    browser.close()
    srv.shutdown()
    # records
    got = out.get("records", [])
    want = exp["expect"]["records"]
    gid = [r["id"] for r in got]
    if len(gid) != len(set(gid)):
        problems.append("duplicate ids in script output")
    gmap = {r["id"]: r for r in got}
    wmap = {r["id"]: r for r in want}
    if set(gmap) != set(wmap):
        problems.append("ids differ: missing=%s extra=%s" % (sorted(set(wmap) - set(gmap)), sorted(set(gmap) - set(wmap))))
    for k in set(gmap) & set(wmap):
        g, w = gmap[k], wmap[k]
        if g.get("date") != w.get("date"):
            problems.append("%s date %s != %s" % (k, g.get("date"), w.get("date")))
        if "amount" in w and norm_amount(g.get("amount")) != norm_amount(w.get("amount")):
            problems.append("%s amount %s != %s" % (k, g.get("amount"), w.get("amount")))
        if "currency" in w and g.get("currency") != w.get("currency"):
            problems.append("%s currency %s != %s" % (k, g.get("currency"), w.get("currency")))
    for x in exp["expect"].get("excluded", []):
        if x in wmap:
            problems.append("excluded id %s is in expected records" % x)
    # events
    ev = list(app.events)
    cons = [e for e in ev if e.get("kind") == "consent"]
    if exp["expect"]["consent"] == "reject":
        if not cons or cons[-1].get("choice") != "reject" or cons[-1].get("optional_enabled"):
            problems.append("consent events not a clean reject: %s" % cons)
        if any(c.get("choice") != "reject" for c in cons):
            problems.append("non-reject consent event: %s" % cons)
    else:
        if cons:
            problems.append("unexpected consent events: %s" % cons)
    creds = [e for e in ev if e.get("kind") == "credential"]
    if not creds:
        problems.append("no credential event")
    for c in creds:
        if c.get("target") != "account" or not c.get("ok") or c.get("username") != exp["account"]["username"]:
            problems.append("bad credential event: %s" % c)
    status = "PASS" if not problems else "FAIL"
    print("%-32s %s  records=%d/%d actions=%s time=%.1fs consent=%s creds=%d" % (
        sid, status, len(got), len(want), out.get("actions"), dt,
        [c.get("choice") for c in cons], len(creds)))
    for p in problems:
        print("    - " + p)
    return not problems


def main():
    ids = sys.argv[1:] or sorted(n for n in os.listdir(HERE)
                                 if os.path.isfile(os.path.join(HERE, n, "site.py")))
    ok = True
    with sync_playwright() as pw:
        for sid in ids:
            try:
                ok &= check_site(pw, sid)
            except Exception:
                print("%-32s FAIL (harness error)" % sid)
                traceback.print_exc()
                ok = False
    print("ALL PASS" if ok else "SOME FAILED")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
