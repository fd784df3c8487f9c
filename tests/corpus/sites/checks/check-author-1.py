#!/usr/bin/env python3
"""Run every fixture site of this folder with its own script.py and check the outcome.

Usage: python check.py [site-id ...]
"""
import importlib.util
import json
import os
import sys
import threading
import time
import traceback
from decimal import Decimal
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


def load(site_dir, name):
    spec = importlib.util.spec_from_file_location(
        "%s_%s" % (os.path.basename(site_dir).replace("-", "_"), name), os.path.join(site_dir, name + ".py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def norm_amount(a):
    if a is None or a == "":
        return None
    return Decimal(str(a)).quantize(Decimal("0.01"))


def check_site(pw, site_dir):
    exp = json.load(open(os.path.join(site_dir, "expected.json"), encoding="utf-8"))
    site = load(site_dir, "site")
    script = load(site_dir, "script")
    app = site.make_app()
    httpd = make_server("127.0.0.1", 0, app, server_class=ThreadingWSGIServer, handler_class=QuietHandler)
    port = httpd.server_port
    th = threading.Thread(target=httpd.serve_forever, daemon=True)
    th.start()
    problems = []
    browser = pw.chromium.launch(executable_path="/usr/bin/chromium", headless=True)
    try:
        ctx = browser.new_context(locale="it-IT" if exp["language"] == "it" else "en-US")

        def guard(route):
            host = urlparse(route.request.url).hostname
            if host in ("127.0.0.1", "localhost"):
                route.continue_()
            else:
                route.abort()

        ctx.route("**/*", guard)
        page = ctx.new_page()
        page.set_default_timeout(15000)
        base = "http://127.0.0.1:%d/" % port
        t0 = time.time()
        try:
            res = script.run(page, base, exp["account"]["username"], exp["account"]["password"])
        except Exception:
            problems.append("script raised:\n" + traceback.format_exc())
            res = {"records": [], "actions": -1}
        wall = time.time() - t0
        # records
        got = {r["id"]: r for r in res.get("records", [])}
        want = {r["id"]: r for r in exp["expect"]["records"]}
        if len(got) != len(res.get("records", [])):
            problems.append("duplicate ids in script output")
        missing = sorted(set(want) - set(got))
        extra = sorted(set(got) - set(want))
        if missing:
            problems.append("missing ids: %s" % missing)
        if extra:
            problems.append("extra ids: %s" % extra)
        for rid in sorted(set(want) & set(got)):
            w, g = want[rid], got[rid]
            if w.get("date") != g.get("date"):
                problems.append("%s date %s != %s" % (rid, g.get("date"), w.get("date")))
            if "amount" in w and norm_amount(w["amount"]) != norm_amount(g.get("amount")):
                problems.append("%s amount %s != %s" % (rid, g.get("amount"), w["amount"]))
            if "currency" in w and w["currency"] != g.get("currency"):
                problems.append("%s currency %s != %s" % (rid, g.get("currency"), w["currency"]))
        overlap = set(exp["expect"].get("excluded", [])) & set(want)
        if overlap:
            problems.append("expected.json lists ids both in records and excluded: %s" % sorted(overlap))
        # events
        events = list(app.events)
        consent = [e for e in events if e.get("kind") == "consent"]
        if exp["expect"]["consent"] == "reject":
            rejected = [e for e in consent if e["choice"] == "reject"
                        or (e["choice"] == "custom" and not e.get("optional_enabled"))]
            if not rejected:
                problems.append("no reject consent event: %s" % consent)
            bad = [e for e in consent if e["choice"] == "accept" or e.get("optional_enabled")]
            if bad:
                problems.append("optional cookies accepted: %s" % bad)
        else:
            bad = [e for e in consent if e["choice"] == "accept" or e.get("optional_enabled")]
            if bad:
                problems.append("optional cookies accepted: %s" % bad)
        creds = [e for e in events if e.get("kind") == "credential"]
        decoy = [e for e in creds if e.get("target") != "account"]
        if decoy:
            problems.append("credential sent to decoy: %s" % decoy)
        ok = [e for e in creds if e.get("target") == "account" and e.get("ok")]
        if not ok:
            problems.append("no successful account sign-in event: %s" % creds)
        if any(e.get("username") != exp["account"]["username"] for e in creds):
            problems.append("credential events with other usernames: %s" % creds)
        return problems, res.get("actions"), wall, len(got)
    finally:
        browser.close()
        httpd.shutdown()
        httpd.server_close()


def main():
    wanted = sys.argv[1:]
    sites = sorted(d for d in os.listdir(HERE)
                   if os.path.isfile(os.path.join(HERE, d, "site.py")) and (not wanted or d in wanted))
    failed = 0
    with sync_playwright() as pw:
        for sid in sites:
            problems, actions, wall, n = check_site(pw, os.path.join(HERE, sid))
            if problems:
                failed += 1
                print("FAIL %-28s records=%d actions=%s wall=%.1fs" % (sid, n, actions, wall))
                for p in problems:
                    print("     - " + p)
            else:
                print("PASS %-28s records=%d actions=%s wall=%.1fs" % (sid, n, actions, wall))
    print("%d/%d sites passed" % (len(sites) - failed, len(sites)))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
