"""BrightGrid Electric - US investor-owned electric utility (style of large US utility customer portals). No cookie banner."""
import html as _h
import json
import random
import secrets
import threading
import urllib.parse as up
from http.cookies import SimpleCookie


def esc(s):
    return _h.escape(str(s), quote=True)


def make_pdf(lines):
    def q(s):
        return s.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
    text = "BT /F1 11 Tf 50 790 Td 16 TL " + " ".join("(%s) '" % q(l) for l in lines) + " ET"
    objs = ["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R "
            "/Resources << /Font << /F1 5 0 R >> >> >>",
            "<< /Length %d >>\nstream\n%s\nendstream" % (len(text), text),
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    out = b"%PDF-1.4\n"
    offs = []
    for i, o in enumerate(objs, 1):
        offs.append(len(out))
        out += ("%d 0 obj\n%s\nendobj\n" % (i, o)).encode("latin-1")
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
        self.q = {k: v[-1] for k, v in up.parse_qs(env.get("QUERY_STRING", ""), keep_blank_values=True).items()}
        self.cookies = {}
        try:
            for k, m in SimpleCookie(env.get("HTTP_COOKIE", "")).items():
                self.cookies[k] = m.value
        except Exception:
            pass
        body = b""
        if self.method == "POST":
            n = int(env.get("CONTENT_LENGTH") or 0)
            body = env["wsgi.input"].read(n) if n else b""
        ctype = env.get("CONTENT_TYPE", "")
        self.formlist = {}
        if "json" in ctype:
            try:
                self.form = json.loads(body.decode("utf-8") or "{}")
            except ValueError:
                self.form = {}
        else:
            self.formlist = up.parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True)
            self.form = {k: v[-1] for k, v in self.formlist.items()}


MON = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def usd(v):
    return ("-" if v < 0 else "") + "${:,.2f}".format(abs(v))


def us_date(iso):
    y, m, d = iso.split("-")
    return "%s %d, %s" % (MON[int(m) - 1], int(d), y)


def build_rows():
    rnd = random.Random(5150)
    rows = []
    num = 80412
    y, m = 2024, 1
    while (y, m) <= (2026, 11):
        day = 14 + rnd.randint(0, 4)
        kwh = {1: 980, 2: 890, 3: 760, 4: 640, 5: 720, 6: 1150, 7: 1420, 8: 1390, 9: 1010, 10: 700, 11: 760, 12: 930}[m] + rnd.randint(-60, 60)
        amt = round(kwh * 0.1612 + 11.25, 2)
        iso = "%04d-%02d-%02d" % (y, m, day)
        num += rnd.randint(3, 9)
        rows.append({"type": "bill", "id": "INV-%d" % num, "date": iso, "amount": amt, "kwh": kwh})
        py, pm, pd = (y, m, day + 12) if day + 12 <= 28 else ((y + 1, 1, day - 14) if m == 12 else (y, m + 1, day - 14))
        piso = "%04d-%02d-%02d" % (py, pm, pd)
        if piso <= "2026-11-30":
            rows.append({"type": "payment", "id": "PMT-%07d" % (4410000 + num * 3 % 99991), "date": piso, "amount": -amt, "kwh": None})
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    rows.append({"type": "bill", "id": "INV-%d" % (num + 2), "date": "2026-08-29", "amount": 1184.37, "kwh": None,
                 "note": "Corrected bill - meter exchange"})
    rows.sort(key=lambda r: (r["date"], r["id"]), reverse=True)
    return rows


ROWS = build_rows()
USERS = {"dana.whitaker@mailbox.test": {"password": "Kilowatt$Sun88", "name": "Dana Whitaker", "acct": "4402 1187 0093"}}

CSS = """
*{box-sizing:border-box}body{margin:0;font-family:-apple-system,'Helvetica Neue',Arial,sans-serif;color:#20262d;background:#fff}
a{color:#005eb8}.util{background:#00263e;color:#fff;font-size:13px;padding:8px 32px;display:flex;gap:22px}.util a{color:#fff;text-decoration:none}.util .sp{flex:1}
.outage{background:#ffcd00;padding:10px 32px;font-size:14px}
header{display:flex;align-items:center;gap:28px;padding:16px 32px;border-bottom:1px solid #dde3e8}.logo{font-size:26px;font-weight:800;color:#00263e;text-decoration:none}.logo span{color:#ffb400}
header nav{display:flex;gap:24px;flex:1}header nav a{text-decoration:none;color:#20262d;font-weight:600}
.btn{display:inline-block;background:#005eb8;color:#fff;border:0;border-radius:4px;padding:10px 22px;font-size:15px;font-weight:600;cursor:pointer;text-decoration:none}
.btn.sec{background:#fff;color:#005eb8;border:2px solid #005eb8}.btn.y{background:#ffb400;color:#00263e}
.hero{background:#00263e;color:#fff;padding:60px 32px;display:grid;grid-template-columns:2fr 1fr;gap:30px}.hero h1{font-size:40px;margin:0 0 10px}
.quick{background:#fff;color:#20262d;border-radius:6px;padding:20px}.quick a{display:block;padding:7px 0}
.wrap{max-width:1160px;margin:0 auto;padding:28px 24px}.g4{display:grid;grid-template-columns:repeat(4,1fr);gap:18px}.tile{border:1px solid #dde3e8;border-radius:6px;padding:18px}
footer{background:#f2f5f7;padding:36px 32px;font-size:13px;margin-top:40px}footer .cols{display:grid;grid-template-columns:repeat(5,1fr);gap:18px}footer a{display:block;padding:4px 0;color:#20262d;text-decoration:none}
.acctbar{background:#f2f5f7;padding:0 32px;display:flex;gap:4px;border-bottom:1px solid #dde3e8}.acctbar a{padding:14px 18px;text-decoration:none;color:#20262d;font-weight:600}.acctbar a.on{border-bottom:4px solid #005eb8}
.subnav a{margin-right:18px}
table{width:100%;border-collapse:collapse}th,td{padding:12px 10px;border-bottom:1px solid #e5e9ec;text-align:left;font-size:14px}th{background:#f7f9fa}
td.num{text-align:right}.pg{display:flex;gap:6px;margin-top:14px;align-items:center}.pg button{border:1px solid #c5ced6;background:#fff;padding:6px 12px;border-radius:4px;cursor:pointer}
.pg button[aria-current=page]{background:#005eb8;color:#fff}.pg button:disabled{opacity:.4;cursor:default}
.form{max-width:440px;margin:36px auto;border:1px solid #dde3e8;border-radius:8px;padding:30px}.form label{display:block;margin:14px 0 5px;font-weight:600;font-size:14px}
.form input[type=email],.form input[type=password],.form input[type=text]{width:100%;padding:12px;border:1px solid #8a98a5;border-radius:4px;font-size:16px}
.err{background:#fdecea;border:1px solid #e0b4b4;color:#8a1f11;padding:10px;border-radius:4px}
.chat{position:fixed;right:24px;bottom:24px;background:#005eb8;color:#fff;border-radius:24px;padding:12px 20px;font-weight:600;box-shadow:0 2px 10px #0004}
.dd{position:relative}.dd .panel{display:none;position:absolute;right:0;top:36px;background:#fff;border:1px solid #dde3e8;box-shadow:0 6px 18px #0002;width:250px;padding:10px;z-index:20}
.dd:hover .panel,.dd:focus-within .panel{display:block}.dd .panel a{display:block;padding:8px;text-decoration:none}
"""

FOOT = {"Residential": ["Start, stop or move", "Rates & tariffs", "Budget billing", "AutoPay", "Paperless billing", "Payment assistance", "Energy saving tips"],
        "Business": ["Business solutions", "Commercial rates", "Business login", "Large accounts", "EV fleet charging"],
        "Outages & safety": ["Outage map", "Report an outage", "Storm center", "Downed lines", "Call before you dig", "Tree trimming"],
        "Clean energy": ["Solar & net metering", "Community solar", "EV charging", "Rebates", "Home energy audit", "Smart thermostat program"],
        "About": ["Company", "Newsroom", "Careers", "Investors", "Suppliers", "Contact us", "Privacy", "Terms of use", "Accessibility", "Site map"]}


class App:
    def __init__(self):
        self.events = []
        self._lock = threading.Lock()
        self.sessions = {}

    def log(self, **ev):
        with self._lock:
            self.events.append(ev)

    def resp(self, body, status="200 OK", ctype="text/html; charset=utf-8", cookies=()):
        if isinstance(body, str):
            body = body.encode("utf-8")
        h = [("Content-Type", ctype), ("Content-Length", str(len(body))), ("Cache-Control", "no-store")]
        return status, h + [("Set-Cookie", c) for c in cookies], body

    def redirect(self, loc, cookies=()):
        return "302 Found", [("Location", loc), ("Content-Length", "0")] + [("Set-Cookie", c) for c in cookies], b""

    def user(self, req):
        return self.sessions.get(req.cookies.get("bg_auth", ""))

    def __call__(self, environ, start_response):
        req = Req(environ)
        try:
            status, headers, body = self.route(req)
        except Exception as e:  # pragma: no cover
            status, headers, body = "500 Internal Server Error", [("Content-Type", "text/plain")], repr(e).encode()
        start_response(status, headers)
        return [body]

    def page(self, req, title, body, status="200 OK"):
        u = self.user(req)
        right = ('<a class="btn sec" href="/myaccount/overview">Hi, %s</a> <a href="/logout">Log out</a>' % esc(USERS[u]["name"].split()[0]) if u else
                 '<div class="dd"><a href="/pay-guest" class="btn y">Pay my bill</a><div class="panel"><a href="/pay-guest">One-time guest payment</a>'
                 '<a href="/info/autopay">Set up AutoPay</a><a href="/info/payment-locations">Payment locations</a></div></div>'
                 '<a href="/business/login" style="font-size:14px">Business login</a><a class="btn" href="/login">Log in</a>')
        cols = "".join("<div><b>%s</b>%s</div>" % (esc(h), "".join('<a href="%s">%s</a>' % (
            "/business/login" if x == "Business login" else "/info/" + esc(x.lower().replace(" ", "-").replace("&", "and").replace(",", "")), esc(x)) for x in v))
            for h, v in FOOT.items())
        doc = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>%s | BrightGrid Electric</title><style>%s</style></head><body>
<div class="util"><a href="/">Residential</a><a href="/info/business-solutions">Business</a><span class="sp"></span><a href="/info/outage-map">Outage map</a>
<a href="/info/contact-us">Contact</a><a href="/info/espanol">Espa&ntilde;ol</a></div>
<div class="outage">&#9889; Storm update: crews are restoring power in Pike and Morrow counties. <a href="/info/storm-center">Storm center</a></div>
<header><a class="logo" href="/">Bright<span>Grid</span></a><nav><a href="/info/billing-and-payments">Billing &amp; Payments</a><a href="/info/start-stop-move">Start, Stop &amp; Move</a>
<a href="/info/outages">Outages</a><a href="/info/save-energy">Save Energy</a><a href="/info/clean-energy">Clean Energy</a><a href="/info/help">Help</a></nav>%s</header>
%s<footer><div class="cols">%s</div><p>&copy; 2026 BrightGrid Electric Company. All rights reserved. 1-800-555-0142</p></footer>
<div class="chat">&#128172; Ask Sparky</div></body></html>""" % (esc(title), CSS, right, body, cols)
        return self.resp(doc, status=status)

    def route(self, req):
        p = req.path
        if p == "/":
            tiles = "".join('<div class="tile"><h3>%s</h3><p>%s</p><a href="/info/%s">Learn more</a></div>' % (a, b, c) for a, b, c in [
                ("Budget Billing", "Even out your monthly payments all year.", "budget-billing"),
                ("Rebates up to $500", "Heat pumps, thermostats and insulation.", "rebates"),
                ("Community Solar", "Go solar without panels on your roof.", "community-solar"),
                ("Payment assistance", "Programs for customers who need help.", "payment-assistance")])
            body = """<section class="hero"><div><h1>Powering the Ohio Valley for 110 years</h1><p>Manage your account, pay your bill and track outages - all in one place.</p>
<a class="btn y" href="/register">Sign up for My Account</a></div>
<div class="quick"><b>Quick links</b><a href="/pay-guest">Pay without logging in</a><a href="/info/report-an-outage">Report an outage</a>
<a href="/info/start-stop-or-move">Start, stop or move service</a><a href="/info/rates-and-tariffs">View rates</a><a href="/business/login">Business customers: log in</a></div></section>
<div class="wrap"><div class="g4">%s</div></div>""" % tiles
            return self.page(req, "Home", body)
        if p.startswith("/info/"):
            t = p[6:].replace("-", " ").title()
            return self.page(req, t, '<div class="wrap"><h1>%s</h1><p>This page is being updated. Call 1-800-555-0142 for help.</p></div>' % esc(t))
        if p == "/login":
            return self.login(req)
        if p in ("/business/login", "/register", "/pay-guest"):
            return self.decoy(req, p)
        if p == "/logout":
            self.sessions.pop(req.cookies.get("bg_auth", ""), None)
            return self.redirect("/")
        if p.startswith("/myaccount"):
            u = self.user(req)
            if not u:
                return self.redirect("/login?returnUrl=" + up.quote(p))
            return self.account(req, u)
        return self.page(req, "Not found", '<div class="wrap"><h1>Page not found</h1></div>', status="404 Not Found")

    def login(self, req):
        err, em = "", ""
        if req.method == "POST":
            em = req.form.get("email", "").strip()
            ok = em.lower() in USERS and USERS[em.lower()]["password"] == req.form.get("password", "")
            self.log(kind="credential", form="myaccount-login", target="account", username=em, ok=ok)
            if ok:
                sid = secrets.token_hex(16)
                self.sessions[sid] = em.lower()
                age = "; Max-Age=1209600" if req.form.get("remember") else ""
                return self.redirect("/myaccount/overview", cookies=["bg_auth=%s; Path=/; HttpOnly%s" % (sid, age)])
            err = '<div class="err" role="alert">The email or password you entered is incorrect.</div>'
        body = """<div class="wrap"><form class="form" method="post" action="/login"><h1>Log in to My Account</h1>%s
<label for="email">Email address</label><input type="email" id="email" name="email" value="%s" autocomplete="username">
<label for="password">Password</label><input type="password" id="password" name="password" autocomplete="current-password">
<p><label style="font-weight:400"><input type="checkbox" name="remember" value="1"> Keep me logged in</label></p>
<button class="btn" type="submit" style="width:100%%">Log in</button>
<p style="font-size:14px"><a href="/info/forgot-password">Forgot password?</a> &middot; New to My Account? <a href="/register">Sign up</a></p>
<p style="font-size:13px">Business customers: <a href="/business/login">Business login</a></p></form></div>""" % (err, esc(em))
        return self.page(req, "Log in", body)

    def decoy(self, req, p):
        titles = {"/business/login": ("Business Account Center", "User ID", "Log in", "business-login"),
                  "/register": ("Sign up for My Account", "Email address", "Create account", "register"),
                  "/pay-guest": ("One-time guest payment", "Account number or email", "Continue", "guest-payment")}
        t, lab, btn, form = titles[p]
        msg = ""
        if req.method == "POST":
            self.log(kind="credential", form=form, target="decoy", username=req.form.get("ident", ""), ok=False)
            msg = '<div class="err" role="alert">We could not verify the information you entered.</div>'
        extra = ('<label for="pw">Password</label><input type="password" id="pw" name="password">' if p != "/pay-guest" else
                 '<label for="zip">Service ZIP code</label><input type="text" id="zip" name="zip">')
        body = """<div class="wrap"><form class="form" method="post"><h1>%s</h1>%s<label for="ident">%s</label><input type="text" id="ident" name="ident">%s
<p></p><button class="btn" type="submit">%s</button></form></div>""" % (t, msg, lab, extra, btn)
        return self.page(req, t, body)

    def acctbar(self, on):
        items = [("/myaccount/overview", "Overview"), ("/myaccount/billing", "Billing"), ("/myaccount/usage", "Usage"),
                 ("/myaccount/payments", "Payments"), ("/myaccount/outages", "Outages"), ("/myaccount/profile", "Profile")]
        return '<nav class="acctbar" aria-label="My Account">%s</nav>' % "".join(
            '<a href="%s"%s>%s</a>' % (h, ' class="on"' if on.startswith(h) else "", l) for h, l in items)

    def account(self, req, u):
        p = req.path
        info = USERS[u]
        if p.startswith("/myaccount/billing/bill/"):
            bid = p.rsplit("/", 1)[1].replace(".pdf", "")
            r = next((x for x in ROWS if x["id"] == bid and x["type"] == "bill"), None)
            if not r:
                return self.resp("Not found", status="404 Not Found", ctype="text/plain")
            self.log(kind="download", path=p)
            return self.resp(make_pdf(["BrightGrid Electric", "Bill %s" % r["id"], "Bill date %s" % us_date(r["date"]),
                                       "Amount due $%.2f" % r["amount"], "Account %s" % info["acct"]]), ctype="application/pdf")
        if p == "/myaccount/overview":
            bills = [r for r in ROWS if r["type"] == "bill"][:2]
            rows = "".join("<tr><td>%s</td><td>%s</td><td>%s</td></tr>" % (us_date(r["date"]), r["id"], usd(r["amount"])) for r in bills)
            body = """%s<div class="wrap"><h1>Welcome back, %s</h1><p>Account %s &middot; 2219 Larkspur Dr, Athens OH</p><div class="g4">
<div class="tile"><b>Amount due</b><p style="font-size:28px">%s</p><a class="btn" href="/myaccount/payments">Pay now</a></div>
<div class="tile"><b>Due date</b><p>Dec 8, 2026</p></div><div class="tile"><b>AutoPay</b><p>Off &middot; <a href="/info/autopay">Enroll</a></p></div>
<div class="tile"><b>Paperless</b><p>On</p></div></div><h2>Recent bills</h2><table><thead><tr><th>Bill date</th><th>Bill number</th><th>Amount</th></tr></thead><tbody>%s</tbody></table>
<p><a href="/myaccount/billing/history">See all billing history &rsaquo;</a></p></div>""" % (
                self.acctbar(p), esc(info["name"].split()[0]), info["acct"], usd(bills[0]["amount"]), rows)
            return self.page(req, "Account overview", body)
        if p == "/myaccount/billing":
            last_pay = next(r for r in ROWS if r["type"] == "payment")
            body = """%s<div class="wrap"><p class="subnav"><a href="/myaccount/billing/history"><b>Billing history</b></a><a href="/info/budget-billing">Budget billing</a>
<a href="/info/paperless-billing">Paperless settings</a><a href="/info/rates-and-tariffs">My rate plan</a></p><h1>Billing</h1>
<div class="g4"><div class="tile"><b>Current balance</b><p>%s</p></div><div class="tile"><b>Last payment</b><p>%s on %s</p></div></div>
<p>View and download past bills and payments in <a href="/myaccount/billing/history">Billing history</a>.</p></div>""" % (
                self.acctbar(p), usd(ROWS[0]["amount"] if ROWS[0]["type"] == "bill" else 0), usd(-last_pay["amount"]), us_date(last_pay["date"]))
            return self.page(req, "Billing", body)
        if p == "/myaccount/billing/history":
            data = [{"t": r["type"], "id": r["id"], "d": us_date(r["date"]), "a": usd(r["amount"]), "n": r.get("note", "")} for r in ROWS]
            body = """%s<div class="wrap"><p><a href="/myaccount/overview">My Account</a> &rsaquo; <a href="/myaccount/billing">Billing</a> &rsaquo; Billing history</p>
<h1>Billing history</h1><p>Bills and payments for account %s. Showing the last 36 months.</p>
<table id="history"><thead><tr><th>Date</th><th>Description</th><th>Reference</th><th class="num">Amount</th><th>View</th></tr></thead><tbody></tbody></table>
<div class="pg" id="pager"></div>
<script>
var DATA=%s, PER=10, cur=1;
function render(){var tb=document.querySelector('#history tbody');tb.innerHTML='';
 DATA.slice((cur-1)*PER,cur*PER).forEach(function(r){var tr=document.createElement('tr');
  tr.innerHTML='<td>'+r.d+'</td><td>'+(r.t=='bill'?'Bill'+(r.n?' ('+r.n+')':''):'Payment received - thank you')+'</td><td>'+r.id+'</td><td class="num">'+r.a+'</td><td>'+
  (r.t=='bill'?'<a href="/myaccount/billing/bill/'+r.id+'.pdf" target="_blank">View bill (PDF)</a>':'')+'</td>';tb.appendChild(tr);});
 var pages=Math.ceil(DATA.length/PER),pg=document.getElementById('pager');pg.innerHTML='';
 function b(l,n,dis,curp){var x=document.createElement('button');x.type='button';x.textContent=l;x.disabled=dis;if(curp)x.setAttribute('aria-current','page');
  x.onclick=function(){cur=n;render();window.scrollTo(0,0)};pg.appendChild(x);}
 b('Previous',cur-1,cur==1);for(var i=1;i<=pages;i++)b(String(i),i,false,i==cur);b('Next',cur+1,cur==pages);
 var s=document.createElement('span');s.textContent=' Page '+cur+' of '+pages;pg.appendChild(s);}
render();
</script></div>""" % (self.acctbar(p), info["acct"], json.dumps(data))
            return self.page(req, "Billing history", body)
        return self.page(req, "My Account", '%s<div class="wrap"><h1>Coming soon</h1><p>This feature is not available yet.</p></div>' % self.acctbar(p))


def make_app():
    return App()
