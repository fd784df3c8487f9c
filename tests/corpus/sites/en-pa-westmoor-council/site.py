"""Westmoor Borough Council - UK local authority site with a Council Tax online account (GOV.UK-style cookie banner)."""
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



def gbp(v):
    return "\u00a3{:,.2f}".format(v)


def uk(iso):
    y, m, d = iso.split("-")
    return "%s/%s/%s" % (d, m, y)


def build_docs():
    docs = []
    seq = 41800
    annual = {"2024-25": 1968.36, "2025-26": 2066.76, "2026-27": 2170.08}
    for fy, total in annual.items():
        y0 = int(fy[:4])
        docs.append({"fy": fy, "id": "CTB/%s/%06d" % (fy.replace("-", ""), 3310 + y0 - 2024), "date": "%d-03-%02d" % (y0, 9 + (y0 - 2024)),
                     "kind": "Council Tax bill (demand notice)", "amount": total})
        inst = round(total / 12, 2)
        for i in range(12):
            m = 4 + i
            y = y0 + (m - 1) // 12
            m = (m - 1) % 12 + 1
            iso = "%04d-%02d-01" % (y, m)
            if iso > "2026-11-30":
                continue
            seq += 37 + i
            amt = inst if i < 11 else round(total - inst * 11, 2)
            docs.append({"fy": fy, "id": "CTR/%d/%06d" % (y, seq), "date": iso, "kind": "Payment receipt - Direct Debit instalment %d of 12" % (i + 1), "amount": amt})
    docs.append({"fy": "2025-26", "id": "CTN/2025/000877", "date": "2025-08-14", "kind": "Reminder notice", "amount": 172.23})
    docs.append({"fy": "2025-26", "id": "CTR/2025/L00912", "date": "2025-08-20", "kind": "Payment receipt - card payment (reminder)", "amount": 172.23})
    docs.append({"fy": "2026-27", "id": "CTA/2026/000214", "date": "2026-06-02", "kind": "Amended bill - single person discount removed", "amount": 2170.08})
    docs.sort(key=lambda d: (d["date"], d["id"]), reverse=True)
    return docs


DOCS = build_docs()
USERS = {"t.okafor@homemail.test": {"password": "Moorland#Tea42", "name": "Tunde Okafor"}}
FYS = ["2026-27", "2025-26", "2024-25"]

CSS = """
*{box-sizing:border-box}body{margin:0;font-family:Arial,Helvetica,sans-serif;color:#0b0c0c;background:#fff;font-size:17px}
a{color:#1d70b8}a:visited{color:#4c2c92}.skip{position:absolute;left:-999px}
.wc-header{background:#00594f;color:#fff;padding:14px 30px;display:flex;align-items:center;gap:24px}.wc-header .logo{color:#fff;text-decoration:none;font-weight:700;font-size:24px}
.wc-header .links{margin-left:auto;display:flex;gap:20px}.wc-header .links a{color:#fff;font-size:15px}
.search{background:#003e37;padding:12px 30px}.search input{width:420px;padding:8px;border:2px solid #0b0c0c}
.width{max-width:980px;margin:0 auto;padding:24px 20px}.crumbs{font-size:15px;margin-bottom:16px}.crumbs a{color:#0b0c0c}
.govuk-button{display:inline-block;background:#00703c;color:#fff;border:0;box-shadow:0 2px 0 #002d18;padding:9px 14px;font-size:17px;cursor:pointer;text-decoration:none;margin-right:12px}
.govuk-button.sec{background:#f3f2f1;color:#0b0c0c;box-shadow:0 2px 0 #929191}
.tiles{display:grid;grid-template-columns:repeat(3,1fr);gap:22px}.tiles h3 a{font-size:19px}
.cookie-banner{background:#f3f2f1;padding:20px 30px;border-bottom:1px solid #b1b4b6}.cookie-banner h2{margin-top:0;font-size:22px}
footer{background:#f3f2f1;border-top:4px solid #00594f;padding:30px;margin-top:40px;font-size:15px}footer .cols{display:grid;grid-template-columns:repeat(4,1fr);gap:12px}footer a{display:block;padding:4px 0;color:#0b0c0c}
.form-group{margin-bottom:20px}.form-group label{display:block;font-weight:700;margin-bottom:5px}.form-group input[type=email],.form-group input[type=password],.form-group input[type=text]{width:100%;max-width:420px;padding:8px;border:2px solid #0b0c0c;font-size:18px}
.error-summary{border:5px solid #d4351c;padding:15px;margin-bottom:20px}.error-summary h2{margin:0 0 8px;font-size:20px}
.tabs{display:flex;border-bottom:1px solid #b1b4b6;margin-bottom:20px;list-style:none;padding:0}.tabs li a{display:block;padding:10px 20px;background:#f3f2f1;margin-right:4px;text-decoration:none;color:#0b0c0c}
.tabs li.selected a{background:#fff;border:1px solid #b1b4b6;border-bottom:1px solid #fff;margin-bottom:-1px}
table{width:100%;border-collapse:collapse}th,td{text-align:left;padding:10px 10px 10px 0;border-bottom:1px solid #b1b4b6;font-size:16px}td.n,th.n{text-align:right}
.card{border:1px solid #b1b4b6;padding:18px;margin-bottom:16px}.portal-choice{border-left:5px solid #00594f;padding:10px 16px;margin:14px 0;background:#f8f8f8}
"""


def banner(ret):
    return """<div class="cookie-banner" role="region" aria-label="Cookies on Westmoor Borough Council" id="cookie-banner">
<h2>Cookies on westmoor.gov.uk</h2><p>We use some essential cookies to make this website work.</p>
<p>We'd like to set additional cookies to understand how you use the website, remember your settings and improve our services.
We also use cookies set by other sites to help us deliver content from their services.</p>
<button type="button" class="govuk-button btn-reject" id="reject-btn" data-module="cookie-accept"
 onclick="fetch('/cookies/api',{method:'POST',headers:{'Content-Type':'application/x-www-form-urlencoded'},body:'analytics=yes&amp;marketing=yes'}).then(function(){document.getElementById('cookie-banner').remove()})">Accept additional cookies</button>
<a href="/cookies/choose?choice=reject&amp;return=%s" role="button" draggable="false" class="govuk-button" id="accept-btn" data-module="cookie-accept">Reject additional cookies</a>
<a href="/cookies" class="govuk-link">View cookies</a></div>""" % up.quote(ret, safe="")


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
        return self.sessions.get(req.cookies.get("wbc_session", ""))

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
        links = ('<a href="/account/">Your account</a><a href="/signout">Sign out</a>' if u else
                 '<a href="/authentication">&#128274; Authentication</a>')
        foot = {"Services": ["Bins and recycling", "Council Tax", "Benefits", "Housing", "Parking", "Planning", "Schools", "Social care"],
                "Council": ["Councillors", "Committee meetings", "Budgets and spending", "Elections", "Jobs", "Consultations", "Transparency"],
                "Online accounts": ["Council Tax account sign in", "Business rates portal", "Planning portal login", "Landlord portal", "Staff webmail"],
                "This site": ["Accessibility statement", "Cookies", "Privacy notice", "Contact us", "Complaints", "Freedom of information", "Sitemap"]}
        target = {"Council Tax account sign in": "/account/signin", "Business rates portal": "/portal/business-rates", "Planning portal login": "/portal/planning",
                  "Landlord portal": "/portal/landlord", "Staff webmail": "/portal/webmail", "Cookies": "/cookies"}
        cols = "".join("<div><b>%s</b>%s</div>" % (h, "".join('<a href="%s">%s</a>' % (target.get(x, "/info/" + x.lower().replace(" ", "-")), x) for x in v)) for h, v in foot.items())
        ret = req.path + ("?" + req.env.get("QUERY_STRING") if req.env.get("QUERY_STRING") else "")
        bn = "" if "wbc_cookie_policy" in req.cookies else banner(ret)
        doc = """<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><title>%s - Westmoor Borough Council</title><style>%s</style></head><body>
<a class="skip" href="#main">Skip to main content</a>%s
<div class="wc-header"><a class="logo" href="/">Westmoor Borough Council</a><div class="links"><a href="/info/report">Report</a><a href="/info/apply">Apply</a><a href="/info/pay">Pay</a>%s</div></div>
<div class="search"><form onsubmit="return false"><input type="search" aria-label="Search this website" placeholder="Search westmoor.gov.uk"></form></div>
<main id="main" class="width">%s</main><footer><div class="cols">%s</div><p>&copy; Westmoor Borough Council, Civic Centre, Moor Lane, Westmoor WM1 2AB</p></footer></body></html>""" % (
            esc(title), CSS, bn, links, body, cols)
        return self.resp(doc, status=status)

    def route(self, req):
        p = req.path
        if p == "/":
            tiles = "".join('<div><h3><a href="/info/%s">%s</a></h3><p>%s</p></div>' % (a.lower().replace(" ", "-"), a, b) for a, b in [
                ("Council Tax", "Pay, view your bill, discounts and exemptions, moving home."), ("Bins and recycling", "Collection days, missed bins, garden waste."),
                ("Benefits", "Housing Benefit and Council Tax Reduction."), ("Parking", "Permits, penalty charge notices, car parks."),
                ("Planning", "Applications, building control, local plan."), ("Housing", "Homelessness, housing register, repairs."),
                ("Schools", "Admissions, term dates, free school meals."), ("Roads and travel", "Potholes, street lights, gritting."),
                ("Jobs", "Current vacancies at the council.")])
            body = "<h1>Westmoor Borough Council</h1><p>Find information and services for residents, businesses and visitors.</p><div class=\"tiles\">%s</div>" % tiles
            return self.page(req, "Home", body)
        if p == "/cookies/choose":
            c = req.q.get("choice", "reject")
            self.log(kind="consent", choice="reject" if c == "reject" else "accept", optional_enabled=[] if c == "reject" else ["analytics", "marketing"])
            ret = req.q.get("return", "/")
            if not ret.startswith("/") or ret.startswith("//"):
                ret = "/"
            return self.redirect(ret, cookies=["wbc_cookie_policy=%s; Path=/; Max-Age=31536000" % ("essential" if c == "reject" else "all")])
        if p == "/cookies/api" and req.method == "POST":
            en = [k for k in ("analytics", "marketing") if req.form.get(k) == "yes"]
            ch = "accept" if len(en) == 2 else ("reject" if not en else "custom")
            self.log(kind="consent", choice=ch, optional_enabled=en)
            return self.resp("{}", ctype="application/json", cookies=["wbc_cookie_policy=%s; Path=/; Max-Age=31536000" % ("all" if en else "essential")])
        if p == "/cookies":
            body = """<h1>Cookies</h1><p>Choose which cookies we can use.</p><form onsubmit="event.preventDefault();var f=new FormData(this);
fetch('/cookies/api',{method:'POST',body:new URLSearchParams(f)}).then(function(){location.href='/'})"><h2>Analytics cookies</h2>
<label><input type="radio" name="analytics" value="yes"> Use cookies that measure my website use</label><br><label><input type="radio" name="analytics" value="no" checked> Do not use</label>
<h2>Marketing cookies</h2><label><input type="radio" name="marketing" value="yes"> Use marketing cookies</label><br><label><input type="radio" name="marketing" value="no" checked> Do not use</label>
<p><button class="govuk-button" type="submit">Save cookie settings</button></p></form>"""
            return self.page(req, "Cookies", body)
        if p.startswith("/info/"):
            t = p[6:].replace("-", " ").capitalize()
            return self.page(req, t, '<div class="crumbs"><a href="/">Home</a> &rsaquo; %s</div><h1>%s</h1><p>This page is being reviewed.</p>' % (esc(t), esc(t)))
        if p == "/authentication":
            body = """<div class="crumbs"><a href="/">Home</a> &rsaquo; Authentication</div><h1>Authentication</h1><p>Choose the online account you want to sign in to.</p>
<div class="portal-choice"><h2><a href="/portal/business-rates">Business rates portal</a></h2><p>For businesses paying non-domestic rates.</p></div>
<div class="portal-choice"><h2><a href="/account/signin">Council Tax and Benefits account</a></h2><p>View your Council Tax bills, payments and benefit letters.</p></div>
<div class="portal-choice"><h2><a href="/portal/landlord">Landlord portal</a></h2><p>For landlords receiving Housing Benefit payments.</p></div>
<div class="portal-choice"><h2><a href="/portal/planning">Planning portal</a></h2><p>Track and comment on planning applications.</p></div>
<p>Don't have an account? <a href="/account/register">Create a Council Tax account</a></p>"""
            return self.page(req, "Authentication", body)
        if p == "/account/signin":
            return self.signin(req)
        if p.startswith("/portal/") or p == "/account/register":
            return self.decoy(req, p)
        if p == "/signout":
            self.sessions.pop(req.cookies.get("wbc_session", ""), None)
            return self.redirect("/")
        if p.startswith("/account"):
            u = self.user(req)
            if not u:
                return self.redirect("/account/signin")
            return self.account(req, u)
        return self.page(req, "Page not found", "<h1>Page not found</h1>", status="404 Not Found")

    def signin(self, req):
        err, em = "", ""
        if req.method == "POST":
            em = req.form.get("email", "").strip()
            ok = em.lower() in USERS and USERS[em.lower()]["password"] == req.form.get("password", "")
            self.log(kind="credential", form="council-tax-account", target="account", username=em, ok=ok)
            if ok:
                sid = secrets.token_hex(16)
                self.sessions[sid] = em.lower()
                return self.redirect("/account/", cookies=["wbc_session=%s; Path=/; HttpOnly; SameSite=Lax" % sid])
            err = '<div class="error-summary" role="alert"><h2>There is a problem</h2><a href="#email">Email address or password is incorrect</a></div>'
        body = """<div class="crumbs"><a href="/">Home</a> &rsaquo; <a href="/authentication">Authentication</a> &rsaquo; Council Tax and Benefits account</div>%s
<h1>Sign in to your Council Tax and Benefits account</h1><form method="post" novalidate><div class="form-group"><label for="email">Email address</label>
<input type="email" id="email" name="email" value="%s" autocomplete="email"></div><div class="form-group"><label for="password">Password</label>
<input type="password" id="password" name="password" autocomplete="current-password"></div><button class="govuk-button" type="submit">Sign in</button></form>
<p><a href="/info/reset-password">I have forgotten my password</a></p>""" % (err, esc(em))
        return self.page(req, "Sign in", body)

    def decoy(self, req, p):
        names = {"/portal/business-rates": "Business rates portal - sign in", "/portal/planning": "Planning portal login", "/portal/landlord": "Landlord portal - sign in",
                 "/portal/webmail": "Staff webmail", "/account/register": "Create a Council Tax account"}
        t = names.get(p, "Sign in")
        msg = ""
        if req.method == "POST":
            self.log(kind="credential", form=p.strip("/").replace("/", "-"), target="decoy", username=req.form.get("username", ""), ok=False)
            msg = '<div class="error-summary" role="alert"><h2>There is a problem</h2><p>We could not sign you in with those details.</p></div>'
        body = """<h1>%s</h1>%s<form method="post"><div class="form-group"><label for="username">%s</label><input type="text" id="username" name="username"></div>
<div class="form-group"><label for="pw">Password</label><input type="password" id="pw" name="password"></div><button class="govuk-button" type="submit">%s</button></form>""" % (
            t, msg, "Email address" if "register" in p else "Username or account reference", "Create account" if "register" in p else "Sign in")
        return self.page(req, t, body)

    def account(self, req, u):
        p = req.path
        if p.startswith("/account/documents/") and p.endswith(".pdf"):
            key = up.unquote(p[len("/account/documents/"):-4])
            d = next((x for x in DOCS if x["id"].replace("/", "-") == key), None)
            if not d:
                return self.resp("Not found", status="404 Not Found", ctype="text/plain")
            self.log(kind="download", path=p)
            return self.resp(make_pdf(["Westmoor Borough Council - Council Tax", d["kind"], "Reference %s" % d["id"], "Date %s" % uk(d["date"]),
                                       "Amount GBP %.2f" % d["amount"]]), ctype="application/pdf")
        if p == "/account/council-tax":
            fy = req.q.get("year", FYS[0])
            if fy not in FYS:
                fy = FYS[0]
            tabs = '<ul class="tabs">%s</ul>' % "".join('<li%s><a href="?year=%s">%s/%s</a></li>' % (' class="selected"' if y == fy else "", y, y[:4], y[5:]) for y in FYS)
            rows = "".join('<tr><td>%s</td><td>%s</td><td>%s</td><td class="n">%s</td><td><a href="/account/documents/%s.pdf">Download<span class="skip"> %s</span></a></td></tr>' % (
                uk(d["date"]), esc(d["kind"]), esc(d["id"]), gbp(d["amount"]), d["id"].replace("/", "-"), esc(d["id"])) for d in DOCS if d["fy"] == fy)
            body = """<div class="crumbs"><a href="/account/">Your account</a> &rsaquo; Council Tax</div><h1>Council Tax &ndash; bills and payments</h1>
<p>Account reference 60112233 &middot; 14 Heather Close, Westmoor WM4 7QT &middot; Band C</p><p>Council Tax years run from 1 April to 31 March.</p>%s
<table id="ct-docs"><caption class="skip">Documents for %s</caption><thead><tr><th>Date</th><th>Document</th><th>Reference</th><th class="n">Amount</th><th></th></tr></thead><tbody>%s</tbody></table>""" % (
                tabs, fy, rows)
            return self.page(req, "Council Tax", body)
        if p == "/account/":
            body = """<h1>Your account</h1><p>Signed in as %s</p><div class="card"><h2><a href="/account/council-tax">Council Tax</a></h2><p>Bills, payment receipts and Direct Debit.</p></div>
<div class="card"><h2><a href="/account/benefits">Benefits</a></h2><p>Council Tax Reduction and Housing Benefit letters.</p></div>
<div class="card"><h2><a href="/account/details">Your details</a></h2><p>Change your email, password or contact details.</p></div>""" % esc(USERS[u]["name"])
            return self.page(req, "Your account", body)
        return self.page(req, "Your account", "<h1>No documents</h1><p>You have no documents in this section.</p>")


def make_app():
    return App()
