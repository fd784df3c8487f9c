#!/usr/bin/env python3
"""Run every site's script.py against its own site.py and compare with expected.json.

Usage: python check.py [site-id ...]
"""
import importlib.util
import json
import os
import sys
import threading
import time
import traceback
from socketserver import ThreadingMixIn
from urllib.parse import urlparse
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from playwright.sync_api import sync_playwright

HERE = os.path.dirname(os.path.abspath(__file__))


class ThreadingWSGIServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True


class QuietHandler(WSGIRequestHandler):
    def log_message(self, *a):
        pass


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def norm_amount(a):
    if a is None or a == "":
        return None
    return "%.2f" % float(str(a))


def check_site(site_dir, pw):
    sid = os.path.basename(site_dir)
    exp = json.load(open(os.path.join(site_dir, "expected.json")))
    site = load(os.path.join(site_dir, "site.py"), "site_" + sid.replace("-", "_"))
    script = load(os.path.join(site_dir, "script.py"), "script_" + sid.replace("-", "_"))
    app = site.make_app()
    httpd = make_server("127.0.0.1", 0, app, server_class=ThreadingWSGIServer, handler_class=QuietHandler)
    port = httpd.server_address[1]
    t = threading.Thread(target=httpd.serve_forever, daemon=True)
    t.start()
    base = "http://127.0.0.1:%d/" % port
    problems = []
    browser = pw.chromium.launch(executable_path="/usr/bin/chromium", headless=True)
    ctx = browser.new_context(locale="it-IT" if exp["language"] == "it" else "en-GB")

    def router(route):
        host = urlparse(route.request.url).hostname
        if host in ("127.0.0.1", "localhost"):
            route.continue_()
        else:
            route.abort()

    ctx.route("**/*", router)
    page = ctx.new_page()
    page.set_default_timeout(15000)
    t0 = time.time()
    try:
        res = script.run(page, base, exp["account"]["username"], exp["account"]["password"])
    except Exception:
        problems.append("script raised:\n" + traceback.format_exc())
        res = {"records": [], "actions": 0}
    dt = time.time() - t0
    ctx.close()
    browser.close()
    httpd.shutdown()

    got = {r["id"]: r for r in res["records"]}
    want = {r["id"]: r for r in exp["expect"]["records"]}
    if len(got) != len(res["records"]):
        problems.append("duplicate ids in script records")
    missing = sorted(set(want) - set(got))
    extra = sorted(set(got) - set(want))
    if missing:
        problems.append("missing ids: %s" % missing)
    if extra:
        problems.append("extra ids: %s" % extra)
    for k in set(want) & set(got):
        w, g = want[k], got[k]
        if w.get("date") != g.get("date"):
            problems.append("%s date %s != %s" % (k, g.get("date"), w.get("date")))
        if norm_amount(w.get("amount")) != norm_amount(g.get("amount")):
            problems.append("%s amount %s != %s" % (k, g.get("amount"), w.get("amount")))
        if w.get("currency") and w.get("currency") != g.get("currency"):
            problems.append("%s currency %s != %s" % (k, g.get("currency"), w.get("currency")))
    bad_excl = set(exp["expect"].get("excluded", [])) & set(want)
    if bad_excl:
        problems.append("excluded ids also in records: %s" % sorted(bad_excl))

    events = list(app.events)
    consents = [e for e in events if e.get("kind") == "consent"]
    if exp["expect"]["consent"] == "reject":
        if not consents:
            problems.append("no consent event")
        elif any(c.get("choice") not in ("reject",) and c.get("optional_enabled") for c in consents):
            problems.append("non-reject consent: %s" % consents)
        elif not any(c.get("choice") == "reject" or (c.get("choice") == "custom" and not c.get("optional_enabled")) for c in consents):
            problems.append("consent events show no reject: %s" % consents)
    else:
        if consents:
            problems.append("unexpected consent events: %s" % consents)
    creds = [e for e in events if e.get("kind") == "credential"]
    if not creds:
        problems.append("no credential event")
    # every credential POST must go to the account form, with the account username, and succeed
    # (two-step flows report the identifier step and the password step separately)
    for c in creds:
        if c.get("target") != "account" or not c.get("ok") or c.get("username") != exp["account"]["username"]:
            problems.append("bad credential event: %s" % c)
    if len(creds) > 2:
        problems.append("too many credential events: %d" % len(creds))
    return problems, res.get("actions"), dt, len(want)


def main():
    ids = sys.argv[1:] or sorted(
        d for d in os.listdir(HERE) if os.path.isfile(os.path.join(HERE, d, "site.py"))
    )
    failed = 0
    with sync_playwright() as pw:
        for sid in ids:
            problems, actions, dt, n = check_site(os.path.join(HERE, sid), pw)
            if problems:
                failed += 1
                print("FAIL %-28s" % sid)
                for p in problems:
                    print("     - " + p)
            else:
                print("PASS %-28s records=%-3d actions=%-3s time=%.1fs" % (sid, n, actions, dt))
    print("%d/%d sites pass" % (len(ids) - failed, len(ids)))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
