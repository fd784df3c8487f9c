#!/usr/bin/env python
"""Run every site's script.py against its site.py in headless Chromium and compare with expected.json.
Usage: python check.py [site-id ...]"""
import importlib.util, json, os, sys, threading, time, traceback
from socketserver import ThreadingMixIn
from wsgiref.simple_server import WSGIServer, WSGIRequestHandler, make_server
from urllib.parse import urlparse
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
    return None if a is None else '%.2f' % float(a)


def check_site(sid, pw):
    d = os.path.join(HERE, sid)
    exp = json.load(open(os.path.join(d, 'expected.json'), encoding='utf-8'))
    site = load(os.path.join(d, 'site.py'), 'site_' + sid.replace('-', '_'))
    script = load(os.path.join(d, 'script.py'), 'script_' + sid.replace('-', '_'))
    app = site.make_app()
    srv = make_server('127.0.0.1', 0, app, server_class=ThreadingWSGIServer, handler_class=QuietHandler)
    port = srv.server_address[1]
    th = threading.Thread(target=srv.serve_forever, daemon=True)
    th.start()
    problems = []
    browser = pw.chromium.launch(executable_path='/usr/bin/chromium', headless=True)
    try:
        ctx = browser.new_context(locale='it-IT' if exp['language'] == 'it' else 'en-US')
        blocked = []

        def router(route):
            host = urlparse(route.request.url).hostname
            if host in ('127.0.0.1', 'localhost'):
                route.continue_()
            else:
                blocked.append(route.request.url)
                route.abort()
        ctx.route('**/*', router)
        page = ctx.new_page()
        page.set_default_timeout(15000)
        t0 = time.time()
        res = script.run(page, 'http://127.0.0.1:%d/' % port, exp['account']['username'], exp['account']['password'])
        dt = time.time() - t0
        got = {r['id']: r for r in res['records']}
        want = {r['id']: r for r in exp['expect']['records']}
        if len(got) != len(res['records']):
            problems.append('duplicate ids in script records')
        if set(got) != set(want):
            problems.append('ids differ: missing %s, extra %s' % (sorted(set(want) - set(got)), sorted(set(got) - set(want))))
        for k in set(got) & set(want):
            g, w = got[k], want[k]
            if g.get('date') != w.get('date'):
                problems.append('%s date %s != %s' % (k, g.get('date'), w.get('date')))
            if 'amount' in w and norm_amount(g.get('amount')) != norm_amount(w['amount']):
                problems.append('%s amount %s != %s' % (k, g.get('amount'), w['amount']))
            if 'currency' in w and g.get('currency') != w['currency']:
                problems.append('%s currency %s != %s' % (k, g.get('currency'), w['currency']))
        for x in exp['expect'].get('excluded', []):
            if x in want:
                problems.append('excluded id %s is also expected' % x)
        ev = list(app.events)
        cons = [e for e in ev if e.get('kind') == 'consent']
        if exp['expect']['consent'] == 'reject':
            rejects = [e for e in cons if e.get('choice') == 'reject' or (e.get('choice') == 'custom' and not e.get('optional_enabled'))]
            if not rejects:
                problems.append('no reject consent event: %s' % cons)
            if any(e.get('choice') == 'accept' or e.get('optional_enabled') for e in cons):
                problems.append('optional cookies accepted: %s' % cons)
        elif cons and any(e.get('choice') == 'accept' for e in cons):
            problems.append('accept on a site without choice: %s' % cons)
        creds = [e for e in ev if e.get('kind') == 'credential']
        if not creds:
            problems.append('no credential event')
        if any(e.get('target') != 'account' for e in creds):
            problems.append('credential went to decoy: %s' % creds)
        if not any(e.get('ok') and e.get('target') == 'account' for e in creds):
            problems.append('no successful account sign-in: %s' % creds)
        if blocked:
            problems.append('external requests: %s' % blocked[:3])
        status = 'PASS' if not problems else 'FAIL'
        print('%-28s %s  records=%d actions=%s time=%.1fs' % (sid, status, len(got), res.get('actions'), dt))
        for p in problems:
            print('    - ' + p)
        return not problems
    except Exception:
        print('%-28s FAIL (exception)' % sid)
        traceback.print_exc()
        return False
    finally:
        browser.close()
        srv.shutdown()


def main():
    sites = sys.argv[1:] or sorted(x for x in os.listdir(HERE) if os.path.isfile(os.path.join(HERE, x, 'site.py')))
    ok = 0
    with sync_playwright() as pw:
        for s in sites:
            ok += bool(check_site(s, pw))
    print('%d/%d sites pass' % (ok, len(sites)))
    sys.exit(0 if ok == len(sites) else 1)


if __name__ == '__main__':
    main()
