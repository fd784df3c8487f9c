"""Kestrel Mobile - fixture imitating an Irish mobile operator self-care portal (My Kestrel)."""
import html, json, secrets, threading
from http.cookies import SimpleCookie
from urllib.parse import parse_qs, quote

# ---------------------------------------------------------------- helpers
def _pdf(title, lines):
    text = "BT /F1 16 Tf 50 800 Td (%s) Tj ET" % title
    y = 770
    for ln in lines:
        text += " BT /F1 11 Tf 50 %d Td (%s) Tj ET" % (y, ln.replace("(", "[").replace(")", "]"))
        y -= 18
    objs = ["<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
            "<< /Length %d >>\nstream\n%s\nendstream" % (len(text), text),
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    out = b"%PDF-1.4\n"
    offs = []
    for i, o in enumerate(objs):
        offs.append(len(out))
        out += ("%d 0 obj\n%s\nendobj\n" % (i + 1, o)).encode("latin-1")
    x = len(out)
    out += ("xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)).encode()
    for o in offs:
        out += ("%010d 00000 n \n" % o).encode()
    out += ("trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, x)).encode()
    return out


class Req:
    def __init__(self, env):
        self.env = env
        self.method = env.get("REQUEST_METHOD", "GET")
        self.path = env.get("PATH_INFO", "/") or "/"
        self.q = {k: v[0] for k, v in parse_qs(env.get("QUERY_STRING", "")).items()}
        self.cookies = {}
        c = SimpleCookie()
        try:
            c.load(env.get("HTTP_COOKIE", ""))
        except Exception:
            pass
        for k, m in c.items():
            self.cookies[k] = m.value
        self.body = b""
        self.form = {}
        self.json = None
        if self.method == "POST":
            try:
                n = int(env.get("CONTENT_LENGTH") or 0)
            except ValueError:
                n = 0
            self.body = env["wsgi.input"].read(n) if n else b""
            ct = env.get("CONTENT_TYPE", "")
            if "json" in ct:
                try:
                    self.json = json.loads(self.body.decode("utf-8") or "null")
                except Exception:
                    self.json = None
            else:
                self.form = {k: v[0] for k, v in parse_qs(self.body.decode("utf-8"), keep_blank_values=True).items()}


def esc(s):
    return html.escape(str(s), quote=True)



class BaseApp:
    COOKIE = "SID"

    def __init__(self):
        self.events = []
        self._lock = threading.Lock()
        self.sessions = {}

    def log(self, ev):
        with self._lock:
            self.events.append(ev)

    def __call__(self, env, start_response):
        req = Req(env)
        try:
            status, headers, body = self.route(req)
        except Exception as e:  # pragma: no cover
            status, headers, body = "500 Internal Server Error", [("Content-Type", "text/plain")], ("error: %r" % e).encode()
        if isinstance(body, str):
            body = body.encode("utf-8")
        headers.append(("Content-Length", str(len(body))))
        headers.append(("Cache-Control", "no-store"))
        start_response(status, headers)
        return [body]

    def html(self, s, status="200 OK", cookies=()):
        return status, [("Content-Type", "text/html; charset=utf-8")] + [("Set-Cookie", c) for c in cookies], s

    def json(self, obj, status="200 OK", cookies=()):
        return status, [("Content-Type", "application/json")] + [("Set-Cookie", c) for c in cookies], json.dumps(obj)

    def redirect(self, loc, cookies=()):
        return "302 Found", [("Location", loc)] + [("Set-Cookie", c) for c in cookies], b""

    def pdf(self, name, data):
        return "200 OK", [("Content-Type", "application/pdf"), ("Content-Disposition", 'inline; filename="%s"' % name)], data

    def sess(self, req):
        return self.sessions.get(req.cookies.get(self.COOKIE, ""))

    def new_sess(self, data):
        sid = secrets.token_hex(16)
        self.sessions[sid] = data
        return sid

    def consent_event(self, choice, on):
        choice = choice if choice in ("accept", "reject", "custom") else "reject"
        self.log({"kind": "consent", "choice": choice, "optional_enabled": list(on)})
        return choice


def slug(s):
    return "".join(c if c.isalnum() else "-" for c in s.lower()).strip("-")


    y, m, d = iso.split("-")
    return "%d %s %s" % (int(d), ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][int(m) - 1], y)


    return ("-" if a < 0 else "") + "£{:,.2f}".format(abs(a))


def ie_date(iso):
    y, m, d = iso.split("-")
    return "%s/%s/%s" % (d, m, y)


def eur(a):
    return ("-" if a < 0 else "") + "€{:,.2f}".format(abs(a))


# ---------------------------------------------------------------- data
USER = {"username": "aoife.brennan", "password": "Kestrel-Sky-88", "name": "Aoife Brennan", "msisdn": "087 441 2290"}


def _build():
    inv, pay = [], []
    k = 77310
    for y in (2025, 2026):
        for m in range(1, 13):
            if y == 2026 and m == 12:
                break
            k += 3 + m
            base = 40.00 if y == 2025 else 45.00
            roam = {(2025, 7): 12.40, (2025, 8): 6.15, (2026, 4): 9.99, (2026, 8): 14.20}.get((y, m), 0)
            amt = round(base + roam, 2)
            d = "%d-%02d-%02d" % (y, m, 1)
            inv.append({"id": "INV-%d" % k, "kind": "Invoice", "date": d, "amount": amt,
                        "lines": [("Kestrel Unlimited 5G plan", base), ("Roaming outside EU", roam)] if roam else [("Kestrel Unlimited 5G plan", base)]})
            pay.append({"id": "PMT-%d%02d-%d" % (y, m, 4410 + m), "kind": "Payment", "date": "%d-%02d-15" % (y, m), "amount": -amt})
    inv.append({"id": "CN-2026-0312", "kind": "Credit note", "date": "2026-06-12", "amount": -20.00, "lines": [("Goodwill credit - network outage", -20.00)]})
    allr = inv + pay
    allr.sort(key=lambda x: x["date"], reverse=True)
    return allr


ITEMS = _build()

# ---------------------------------------------------------------- pages
CSS = """
*{box-sizing:border-box}body{margin:0;font-family:Tahoma,Arial,sans-serif;color:#1c1c1c;background:#f7f7f2}
a{color:#007c6e}header{background:#fff;display:flex;align-items:center;height:72px;padding:0 30px;gap:26px;border-bottom:4px solid #ffcc00}
.logo{font:900 26px Arial Black,Arial;color:#111;text-decoration:none;letter-spacing:-1px}.logo span{color:#007c6e}header nav a{color:#111;text-decoration:none;font-weight:bold;margin-right:16px}
.hr{margin-left:auto;display:flex;gap:16px;align-items:center}.hr a{color:#111;text-decoration:none}.so{background:#007c6e;color:#fff!important;padding:10px 18px;border-radius:24px;font-weight:bold}
.hero{background:#111;color:#fff;padding:60px 30px}.hero h1{font-size:42px;margin:0 0 10px;color:#ffcc00}.wrap{max-width:1140px;margin:0 auto;padding:26px}
.g{display:grid;grid-template-columns:repeat(3,1fr);gap:18px}.card{background:#fff;padding:20px;border-radius:8px;box-shadow:0 1px 4px #0002}
.btn{display:inline-block;padding:10px 20px;border-radius:24px;border:2px solid #007c6e;background:#fff;color:#007c6e;font-weight:bold;cursor:pointer;text-decoration:none}.btn.s{background:#007c6e;color:#fff}
footer{background:#111;color:#aaa;padding:34px 30px;margin-top:40px;font-size:13px}footer .cols{display:grid;grid-template-columns:repeat(5,1fr);gap:16px;max-width:1140px;margin:auto}footer a{color:#ddd;display:block;padding:3px 0;text-decoration:none}footer h4{color:#ffcc00}
#onetrust-consent-sdk .ot-backdrop{position:fixed;inset:0;background:rgba(0,0,0,.65);z-index:9998}
#onetrust-banner-sdk{position:fixed;top:50%;left:50%;transform:translate(-50%,-50%);width:min(640px,92vw);background:#fff;padding:28px;border-radius:6px;z-index:9999;font-size:14px}
#onetrust-banner-sdk .btns{display:flex;gap:10px;flex-wrap:wrap;margin-top:16px}#onetrust-banner-sdk button{padding:11px 18px;border-radius:4px;font-weight:bold;cursor:pointer;border:2px solid #007c6e;background:#fff;color:#007c6e}
#onetrust-banner-sdk button.pri{background:#007c6e;color:#fff}#ot-pc{display:none;margin-top:14px;border-top:1px solid #ddd;padding-top:10px}#ot-pc label{display:block;padding:6px 0}
.box{max-width:480px;margin:40px auto;background:#fff;padding:30px;border-radius:8px;box-shadow:0 1px 6px #0002}.box input[type=text],.box input[type=password]{width:100%;padding:11px;margin:6px 0 14px;border:1px solid #999;border-radius:4px;font-size:15px}
.tabs{display:flex;margin-bottom:18px;border-bottom:2px solid #eee}.tabs button,.tabs a{padding:10px 18px;border:0;background:none;font-size:15px;cursor:pointer;text-decoration:none;color:#111}.tabs .on{border-bottom:3px solid #007c6e;font-weight:bold}
.err{background:#fde2e1;color:#9b1b14;padding:10px;margin-bottom:10px;border-radius:4px}
.acc{display:flex;gap:24px}.side{width:220px}.side a{display:block;padding:10px;color:#111;text-decoration:none;border-radius:6px}.side a.on{background:#ffcc00;font-weight:bold}
table{width:100%;border-collapse:collapse;background:#fff}th,td{padding:11px;border-bottom:1px solid #eee;text-align:left}th{background:#f0f0ea}.crumb{font-size:13px;color:#666;margin-bottom:10px}
.chat{position:fixed;right:18px;bottom:18px;background:#ffcc00;padding:12px 16px;border-radius:22px;font-weight:bold;z-index:60}
"""

FOOT = {"Shop": ["Bill pay plans", "Prepay", "SIM only", "Phones", "Tablets", "Accessories", "Broadband", "Refurbished"],
        "Help": ["Help & support", "Network status", "Coverage map", "Roaming rates", "Unlock your phone", "Port your number", "Understanding your bill", "Contact us"],
        "My Kestrel": ["Sign on", "Top up", "Kestrel app", "Kestrel Business sign on", "Kestrel Mail"],
        "About": ["About us", "Careers", "Newsroom", "Sustainability", "Kestrel Foundation"],
        "Legal": ["Privacy statement", "Cookie settings", "Terms & conditions", "Code of practice", "ComReg", "Accessibility"]}
FH = {"Sign on": "/signon", "Kestrel Business sign on": "/signon?tab=business", "Kestrel Mail": "/mail"}


def consent(req):
    if "OptanonAlertBoxClosed" in req.cookies:
        return ""
    return """<div id="onetrust-consent-sdk"><div class="ot-backdrop onetrust-pc-dark-filter"></div>
<div id="onetrust-banner-sdk" role="dialog" aria-modal="true" aria-label="Your privacy"><h2>Your privacy matters to us</h2>
<p>We and our partners use cookies to make this site work, to understand how you use it and to show you personalised offers. Select "Accept all cookies" to agree, or "Accept only necessary" to continue with essential cookies only. You can change your mind at any time in Cookie settings.</p>
<div id="ot-pc"><label><input type="checkbox" checked disabled> Strictly necessary</label><label><input type="checkbox" class="otc" value="performance"> Performance</label><label><input type="checkbox" class="otc" value="functional"> Functional</label><label><input type="checkbox" class="otc" value="targeting"> Targeting</label>
<button type="button" id="ot-save">Confirm my choices</button></div>
<div class="btns"><button type="button" id="accept-btn" class="ot-pc-refuse-all-handler">Accept only necessary</button><button type="button" id="onetrust-pc-btn-handler">Cookie settings</button>
<button type="button" id="reject-all-handler" class="pri btn-reject">Accept all cookies</button></div></div></div>
<script>(function(){function send(c,on){fetch('/ot/consent?choice='+c+'&groups='+on.join(','),{method:'POST'}).then(function(){document.getElementById('onetrust-consent-sdk').remove();});}
document.getElementById('accept-btn').onclick=function(){send('reject',[])};document.getElementById('reject-all-handler').onclick=function(){send('accept',['performance','functional','targeting'])};
document.getElementById('onetrust-pc-btn-handler').onclick=function(){document.getElementById('ot-pc').style.display='block'};
document.getElementById('ot-save').onclick=function(){var on=[].filter.call(document.querySelectorAll('.otc'),function(x){return x.checked}).map(function(x){return x.value});send(on.length===3?'accept':(on.length?'custom':'reject'),on)};})();</script>"""


def layout(req, title, body, logged=False):
    foot = "".join("<div><h4>%s</h4>%s</div>" % (k, "".join('<a href="%s">%s</a>' % (FH.get(i, "/" + slug(i)), esc(i)) for i in v)) for k, v in FOOT.items())
    right = ('<a href="/my/messages">Messages</a><a href="/signoff">Sign off</a>' if logged else
             '<a href="/shop/top-up">Top up</a><a href="/mail">Kestrel Mail</a><a href="/business">Business</a><a class="so" href="/signon">Sign on</a>')
    return """<!doctype html><html lang="en-IE"><head><meta charset="utf-8"><title>%s | Kestrel Mobile</title><style>%s</style></head><body>
<header><a class="logo" href="/">kestrel<span>.</span></a><nav><a href="/shop">Shop</a><a href="/plans">Plans</a><a href="/broadband">Broadband</a><a href="/deals">Deals</a><a href="/help">Help</a></nav><div class="hr">%s</div></header>
%s<footer><div class="cols">%s</div><p style="max-width:1140px;margin:20px auto 0">Kestrel Mobile DAC, Registered in Ireland No. 608812, Block C, Harcourt Road, Dublin 2.</p></footer><div class="chat">Chat</div>%s</body></html>""" % (
        esc(title), CSS, right, body, foot, consent(req))


def home(req):
    cards = "".join('<div class="card"><h3>%s</h3><p>%s</p><b style="font-size:26px">%s</b><br><br><a class="btn s" href="/plans/%s">Get it</a></div>' % (a, b, c, slug(a)) for a, b, c in [
        ("Unlimited 5G", "Unlimited data, calls & texts, 35GB EU roaming", "€45/month"), ("SIM only 60GB", "No contract", "€20/month"), ("Family add-on", "Add a line for less", "€15/month")])
    body = """<section class="hero"><h1>Unlimited. Properly.</h1><p>Ireland's fastest 5G, with no price rises mid-contract.</p><a class="btn s" href="/plans">See plans</a></section>
<div class="wrap"><div class="g">%s</div><div class="g" style="margin-top:18px"><div class="card"><h3>Already with us?</h3><p>Sign on to My Kestrel to see your bills and usage.</p><a href="/signon">Sign on</a></div>
<div class="card"><h3>Kestrel Mail</h3><p>Check your @kestrel.ie email.</p><a href="/mail">Go to Kestrel Mail</a></div><div class="card"><h3>Business customers</h3><p>Manage lines for your company.</p><a href="/signon?tab=business">Business sign on</a></div></div></div>""" % cards
    return layout(req, "Mobile plans & phones", body)


def signon(req, step=1, err="", ident=""):
    tab = req.q.get("tab", "personal")
    e = '<div class="err" role="alert">%s</div>' % esc(err) if err else ""
    tabs = '<nav class="tabs"><a href="/signon"%s>Personal</a><a href="/signon?tab=business"%s>Business</a></nav>' % (
        ' class="on"' if tab != "business" else "", ' class="on"' if tab == "business" else "")
    if tab == "business":
        f = """<h1>Kestrel Business sign on</h1>%s<form method="post" action="/business/signon"><label for="bid">Business username</label><input type="text" id="bid" name="username">
<label for="bpw">Password</label><input type="password" id="bpw" name="password"><button class="btn s" type="submit">Sign on to Business</button></form>""" % e
    elif step == 1:
        f = """<h1>Sign on to My Kestrel</h1>%s<form method="post" action="/signon"><label for="un">Username</label><input type="text" id="un" name="username" autocomplete="username" value="%s">
<label><input type="checkbox" name="remember" value="1"> Remember my username</label><br><br><button class="btn s" type="submit">Next</button></form>
<p style="font-size:13px"><a href="/signon/forgot">Forgot username?</a> · New customer? <a href="/register">Register for My Kestrel</a></p>""" % (e, esc(ident))
    else:
        f = """<h1>Enter your password</h1><p>Username: <b>%s</b> · <a href="/signon">Not you?</a></p>%s<form method="post" action="/signon/password"><label for="pw">Password</label>
<input type="password" id="pw" name="password" autocomplete="current-password"><button class="btn s" type="submit">Sign on</button></form><p style="font-size:13px"><a href="/signon/forgot">Forgot password?</a></p>""" % (esc(ident), e)
    return layout(req, "Sign on", '<div class="box">%s%s</div>' % (tabs, f))


def acc(req, active, body):
    items = [("Overview", "/my"), ("Billing", "/my/billing"), ("Usage", "/my/usage"), ("My plan", "/my/plan"), ("Add-ons", "/my/addons"), ("Settings", "/my/settings")]
    side = "".join('<a href="%s"%s>%s</a>' % (h, ' class="on"' if n == active else "", esc(n)) for n, h in items)
    return layout(req, active, '<div class="wrap"><div class="acc"><nav class="side" aria-label="My Kestrel">%s</nav><main style="flex:1">%s</main></div></div>' % (side, body), logged=True)


def billing(req):
    tab = req.q.get("view", "summary")
    tabs = '<nav class="tabs"><a href="/my/billing"%s>Summary</a><a href="/my/billing?view=history"%s>Billing history</a><a href="/my/billing?view=payment"%s>Payment method</a></nav>' % tuple(
        ' class="on"' if tab == t else "" for t in ("summary", "history", "payment"))
    if tab == "history":
        rows = ""
        for it in ITEMS:
            if it["kind"] == "Payment":
                rows += '<tr class="tx"><td class="d">%s</td><td class="k">Payment received - Direct Debit</td><td class="ref">%s</td><td>%s</td><td></td></tr>' % (ie_date(it["date"]), it["id"], eur(it["amount"]))
            else:
                rows += '<tr class="tx"><td class="d">%s</td><td class="k">%s</td><td class="ref">%s</td><td>%s</td><td><a href="/my/billing/doc/%s">View %s</a></td></tr>' % (
                    ie_date(it["date"]), it["kind"], it["id"], "Paid" if it["kind"] == "Invoice" else "Applied", it["id"], it["kind"].lower())
        content = '<p>Your bills, credit notes and payments for the last 24 months.</p><table id="history"><thead><tr><th>Date</th><th>Description</th><th>Reference</th><th>Status</th><th></th></tr></thead><tbody>%s</tbody></table>' % rows
    elif tab == "payment":
        content = "<p>Direct Debit from IBAN IE** **** **** 4471. <a href='/my/billing/change'>Change</a></p>"
    else:
        last = next(i for i in ITEMS if i["kind"] == "Invoice")
        content = '<div class="card"><h3>Latest bill</h3><p>%s issued %s</p><a class="btn" href="/my/billing/doc/%s">View bill</a> <a href="/my/billing?view=history">See all bills</a></div>' % (last["id"], ie_date(last["date"]), last["id"])
    return acc(req, "Billing", '<div class="crumb"><a href="/my">My Kestrel</a> › Billing</div><h1>Billing</h1>%s%s' % (tabs, content))


def doc_page(req, it):
    lines = "".join("<tr><td>%s</td><td>%s</td></tr>" % (esc(a), eur(b)) for a, b in it["lines"])
    body = """<div class="crumb"><a href="/my">My Kestrel</a> › <a href="/my/billing?view=history">Billing history</a> › %s</div><h1>%s %s</h1>
<div class="card"><dl style="display:grid;grid-template-columns:170px 1fr;gap:8px"><dt>Reference</dt><dd id="ref">%s</dd><dt>Issue date</dt><dd id="issued">%s</dd><dt>Account</dt><dd>KM-2219043 (%s)</dd></dl>
<table><tr><th>Item</th><th>Amount</th></tr>%s<tr><th>Total (incl. VAT 23%%)</th><th id="total">%s</th></tr></table><p><a class="btn" href="/my/billing/doc/%s.pdf">Download PDF</a> <a href="/my/billing?view=history">Back to billing history</a></p></div>""" % (
        it["id"], it["kind"], it["id"], it["id"], ie_date(it["date"]), USER["msisdn"], lines, eur(it["amount"]), it["id"])
    return acc(req, "Billing", body)


class App(BaseApp):
    COOKIE = "KSTRL_SESSION"

    def route(self, req):
        p = req.path
        s = self.sess(req)
        if p == "/ot/consent" and req.method == "POST":
            on = [x for x in req.q.get("groups", "").split(",") if x]
            c = self.consent_event(req.q.get("choice"), on)
            return self.json({"ok": True}, cookies=["OptanonAlertBoxClosed=%s; Path=/; Max-Age=31536000" % c])
        if p == "/":
            return self.html(home(req))
        if p == "/signon":
            if req.method == "POST":
                u = req.form.get("username", "").strip()
                ok = u.lower() == USER["username"]
                self.log({"kind": "credential", "form": "signon-username", "target": "account", "username": u, "ok": ok})
                if not ok:
                    return self.html(signon(req, 1, "We don't recognise that username.", u))
                sid = self.new_sess({"pending": u})
                return self.redirect("/signon/password", ["%s=%s; Path=/; HttpOnly" % (self.COOKIE, sid)])
            return self.html(signon(req))
        if p == "/signon/password":
            if not s or "pending" not in s:
                return self.redirect("/signon")
            if req.method == "POST":
                ok = req.form.get("password", "") == USER["password"]
                self.log({"kind": "credential", "form": "signon-password", "target": "account", "username": s["pending"], "ok": ok})
                if not ok:
                    return self.html(signon(req, 2, "That password is incorrect.", s["pending"]))
                s["user"] = USER["username"]
                return self.redirect("/my")
            return self.html(signon(req, 2, "", s["pending"]))
        if p in ("/business/signon", "/mail", "/register"):
            return self.decoy(req)
        if p == "/signoff":
            self.sessions.pop(req.cookies.get(self.COOKIE), None)
            return self.redirect("/")
        if p == "/my" or p.startswith("/my/"):
            if not s or "user" not in s:
                return self.redirect("/signon")
            if p == "/my":
                last = [i for i in ITEMS if i["kind"] == "Invoice"][:2]
                body = '<h1>Hi Aoife</h1><div class="g"><div class="card"><b>%s</b><br>Unlimited 5G</div><div class="card"><b>Data used</b><br>41.2GB this cycle</div><div class="card"><b>Recent bills</b><br>%s<br><a href="/my/billing">Go to Billing</a></div></div>' % (
                    USER["msisdn"], "<br>".join("%s · %s" % (i["id"], ie_date(i["date"])) for i in last))
                return self.html(acc(req, "Overview", body))
            if p == "/my/billing":
                return self.html(billing(req))
            if p.startswith("/my/billing/doc/"):
                did = p.rsplit("/", 1)[1]
                if did.endswith(".pdf"):
                    self.log({"kind": "download", "path": p})
                    return self.pdf(did, _pdf("Kestrel Mobile", ["Document " + did[:-4], "Account KM-2219043"]))
                it = next((i for i in ITEMS if i["id"] == did and i["kind"] != "Payment"), None)
                if not it:
                    return self.html(acc(req, "Billing", "<h1>Document not found</h1>"), "404 Not Found")
                return self.html(doc_page(req, it))
            return self.html(acc(req, "Overview", "<h1>Coming soon</h1>"))
        return self.html(layout(req, "Kestrel", '<div class="wrap"><h1>%s</h1><p>Content coming soon.</p></div>' % esc(p.strip("/").split("/")[-1].replace("-", " ").capitalize() or "Page")))

    def decoy(self, req):
        cfg = {"/business/signon": ("business-signon", "Kestrel Business sign on"), "/mail": ("kestrel-mail", "Kestrel Mail"), "/register": ("register", "Register for My Kestrel")}
        form, title = cfg[req.path]
        if req.method == "POST":
            self.log({"kind": "credential", "form": form, "target": "decoy", "username": req.form.get("username", ""), "ok": False})
            if req.path == "/business/signon":
                req.q["tab"] = "business"
                return self.html(signon(req, 1, "Business username or password not recognised."))
            err = '<div class="err">Sign on failed.</div>'
        else:
            err = ""
        lab = "Email address" if req.path == "/mail" else "Username"
        return self.html(layout(req, title, '<div class="box"><h1>%s</h1>%s<form method="post"><label>%s<input type="text" name="username"></label><label>Password<input type="password" name="password"></label><button class="btn s" type="submit">Continue</button></form></div>' % (title, err, lab)))


def make_app():
    return App()
