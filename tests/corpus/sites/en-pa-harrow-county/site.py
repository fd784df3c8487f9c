"""Harrow County Treasurer - US county government site with a property-tax taxpayer portal (Cookiebot-style two-layer banner)."""
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


MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]


def usd(v):
    return "${:,.2f}".format(v)


def long_date(iso):
    y, m, d = iso.split("-")
    return "%s %d, %s" % (MONTHS[int(m) - 1], int(d), y)


PARCELS = {"14-22-301-007": "1187 Orchard Hill Rd, Millbrook", "14-22-305-019": "Lot 19, Quarry Ln (vacant land)"}

DOCS = [
    # id, date, type, parcel, amount
    ("24-0061523", "2024-10-01", "Property Tax Bill", "14-22-301-007", 4218.66),
    ("24-0061524", "2024-10-01", "Property Tax Bill", "14-22-305-019", 612.40),
    ("RCPT-24-118807", "2024-12-09", "Payment Receipt", "14-22-301-007", 2109.33),
    ("RCPT-24-118808", "2024-12-09", "Payment Receipt", "14-22-305-019", 612.40),
    ("RCPT-25-030112", "2025-04-07", "Payment Receipt", "14-22-301-007", 2109.33),
    ("AN-2025-22871", "2025-06-16", "Assessment Notice", "14-22-301-007", None),
    ("25-0063310", "2025-10-01", "Property Tax Bill", "14-22-301-007", 4391.02),
    ("25-0063311", "2025-10-01", "Property Tax Bill", "14-22-305-019", 628.15),
    ("RCPT-25-121455", "2025-12-08", "Payment Receipt", "14-22-301-007", 2195.51),
    ("RCPT-25-121456", "2025-12-08", "Payment Receipt", "14-22-305-019", 628.15),
    ("SUP-26-000418", "2026-02-17", "Supplemental Tax Bill", "14-22-301-007", 347.90),
    ("RCPT-26-031877", "2026-04-06", "Payment Receipt", "14-22-301-007", 2195.51),
    ("RCPT-26-040210", "2026-04-28", "Payment Receipt", "14-22-301-007", 347.90),
    ("AN-2026-23104", "2026-06-15", "Assessment Notice", "14-22-301-007", None),
    ("AN-2026-23105", "2026-06-15", "Assessment Notice", "14-22-305-019", None),
    ("26-0064877", "2026-10-01", "Property Tax Bill", "14-22-301-007", 4502.75),
    ("26-0064878", "2026-10-01", "Property Tax Bill", "14-22-305-019", 641.09),
    ("RCPT-26-119930", "2026-11-24", "Payment Receipt", "14-22-301-007", 2251.38),
]
DOCS = [{"id": d[0], "date": d[1], "type": d[2], "parcel": d[3], "amount": d[4]} for d in DOCS]
DOCS.sort(key=lambda d: (d["date"], d["id"]), reverse=True)
USERS = {"mkowalski": {"password": "Harrow!Tax-1977", "name": "Margaret Kowalski"}}

SERVICES = ["Pay property taxes", "Property tax search", "Tax rates by district", "Homestead exemption", "Senior freeze exemption",
            "Veterans exemption", "Appeal your assessment", "Assessor parcel viewer", "GIS maps", "Dog licenses", "Marriage licenses",
            "Birth & death certificates", "Recorder of deeds search", "Voter registration", "Polling place lookup", "Election results",
            "Jury duty", "Court records search", "Pay a traffic ticket", "Sheriff sales", "Inmate search", "Building permits",
            "Zoning map", "Septic permits", "Restaurant inspections", "Immunization clinics", "WIC program", "Senior services",
            "Veterans services", "Parks & trails", "Shelter reservations", "Library catalog", "Recycling schedule",
            "Household hazardous waste", "Road closures", "Snow plow tracker", "Job openings", "Bids & RFPs",
            "County board meetings", "Agendas & minutes", "Budget & finance reports", "Public records request (FOIA)"]

CSS = """
*{box-sizing:border-box}body{margin:0;font-family:Georgia,'Times New Roman',serif;color:#1f2a30;background:#fff}
a{color:#1d5b79}.gov{background:#f0f0f0;font:12px Arial,sans-serif;padding:5px 28px}
header{background:#123c52;color:#fff;display:flex;align-items:center;gap:20px;padding:18px 28px}.seal{width:54px;height:54px;border-radius:50%;border:3px solid #d9b45a;display:flex;align-items:center;justify-content:center;font-weight:bold;color:#d9b45a}
header .nm{font-size:24px;color:#fff;text-decoration:none}header .nm small{display:block;font:13px Arial,sans-serif;color:#cfe0ea}
header .tools{margin-left:auto;font-family:Arial,sans-serif;display:flex;gap:14px;align-items:center}header .tools a{color:#fff}
nav.main{background:#1d5b79;font-family:Arial,sans-serif;padding:0 28px;display:flex;gap:4px}nav.main a{color:#fff;text-decoration:none;padding:12px 14px;font-size:15px}
.btn{display:inline-block;background:#d9b45a;color:#123c52;border:0;padding:10px 18px;font:bold 15px Arial,sans-serif;cursor:pointer;text-decoration:none;border-radius:2px}
.btn.b{background:#1d5b79;color:#fff}
.wrap{max-width:1140px;margin:0 auto;padding:26px 22px}.az{columns:4;font:14px Arial,sans-serif}.az a{display:block;padding:4px 0;break-inside:avoid}
.notice{background:#fff6d6;border:1px solid #e6cf7a;padding:12px 16px;font-family:Arial,sans-serif;font-size:14px}
footer{background:#123c52;color:#cfe0ea;padding:30px 28px;font:13px Arial,sans-serif;margin-top:40px}footer a{color:#cfe0ea;margin-right:14px;line-height:2}
.form{max-width:440px;margin:36px auto;font-family:Arial,sans-serif;border:1px solid #c9d3d9;padding:28px}.form label{display:block;margin:14px 0 5px;font-weight:bold}
.form input[type=text],.form input[type=password]{width:100%;padding:10px;border:1px solid #7f8f99;font-size:16px}.err{background:#f8e1e1;color:#7a1111;padding:10px;border:1px solid #d9a3a3}
.portal{font-family:Arial,sans-serif}.side{float:left;width:220px}.side a{display:block;padding:9px 0;border-bottom:1px solid #e1e6e9}.main-col{margin-left:250px}
table{width:100%;border-collapse:collapse;font:14px Arial,sans-serif}th,td{border:1px solid #d2dade;padding:9px;text-align:left}th{background:#e9eff2}
#CybotCookiebotDialog{position:fixed;left:50%;top:50%;transform:translate(-50%,-50%);width:640px;max-width:94vw;background:#fff;z-index:100000;box-shadow:0 30px 70px rgba(0,0,0,.3);border-radius:8px;font:14px Arial,sans-serif;padding:24px}
#CybotCookiebotDialog .cb-buttons{display:flex;gap:10px;justify-content:flex-end;margin-top:16px}#CybotCookiebotDialog button{padding:12px 18px;border-radius:4px;border:2px solid #1d5b79;background:#fff;color:#1d5b79;font-weight:bold;cursor:pointer}
#CybotCookiebotDialog button.cb-primary{background:#1d5b79;color:#fff}#cb-details{display:none}#cb-details .cat{display:flex;justify-content:space-between;border-bottom:1px solid #eee;padding:10px 0}
"""

COOKIEBOT = """<div id="CybotCookiebotDialog" role="dialog" aria-modal="true" aria-labelledby="CybotCookiebotDialogTitle">
<div id="cb-consent"><h2 id="CybotCookiebotDialogTitle">This website uses cookies</h2>
<p>Harrow County uses cookies to personalise content, to provide social media features and to analyse our traffic. We also share information about your use of our site
with our social media and analytics partners who may combine it with other information that you've provided to them.</p>
<div class="cb-buttons"><button type="button" id="CybotCookiebotDialogBodyButtonDetails">Customize</button>
<button type="button" class="cb-primary" id="CybotCookiebotDialogBodyLevelButtonLevelOptinAllowAll">Allow all</button></div></div>
<div id="cb-details"><h2>Cookie preferences</h2>
<div class="cat"><span><b>Necessary</b><br>Required for the site to work.</span><input type="checkbox" checked disabled aria-label="Necessary"></div>
<div class="cat"><span><b>Preferences</b><br>Remember your language and region.</span><input type="checkbox" class="cbp" value="preferences" aria-label="Preferences"></div>
<div class="cat"><span><b>Statistics</b><br>Anonymous usage statistics.</span><input type="checkbox" class="cbp" value="statistics" aria-label="Statistics"></div>
<div class="cat"><span><b>Marketing</b><br>Embedded videos and social media.</span><input type="checkbox" class="cbp" value="marketing" aria-label="Marketing"></div>
<div class="cb-buttons"><button type="button" id="cb-reject">Reject all</button><button type="button" id="cb-selection">Allow selection</button>
<button type="button" class="cb-primary" id="cb-all2">Allow all</button></div></div></div>
<script>(function(){function send(c,l){var f=new FormData();f.append('choice',c);l.forEach(function(x){f.append('cat',x)});
fetch('/cookiebot/consent',{method:'POST',body:new URLSearchParams(f)}).then(function(){document.getElementById('CybotCookiebotDialog').remove()});}
var A=['preferences','statistics','marketing'];
document.getElementById('CybotCookiebotDialogBodyLevelButtonLevelOptinAllowAll').onclick=function(){send('accept',A)};
document.getElementById('cb-all2').onclick=function(){send('accept',A)};
document.getElementById('CybotCookiebotDialogBodyButtonDetails').onclick=function(){document.getElementById('cb-consent').style.display='none';document.getElementById('cb-details').style.display='block'};
document.getElementById('cb-reject').onclick=function(){send('reject',[])};
document.getElementById('cb-selection').onclick=function(){send('custom',[].map.call(document.querySelectorAll('.cbp:checked'),function(x){return x.value}))};})();</script>"""


def slug(s):
    return "".join(c.lower() if c.isalnum() else "-" for c in s).strip("-")


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
        return self.sessions.get(req.cookies.get("HCT_AUTH", ""))

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
        tools = ('<a href="/taxpayer/">%s</a><a href="/signoff">Sign off</a>' % esc(USERS[u]["name"]) if u else
                 '<a href="/business-tax/signon">Business Tax Portal</a><a href="/taxpayer/register">Create account</a><a class="btn" href="/taxpayer/signon">Sign on</a>')
        foot = ["Contact the Treasurer", "Office hours", "Holiday closures", "Employee webmail", "Accessibility", "Privacy policy", "Cookie declaration",
                "Disclaimer", "Transparency portal", "Title VI notice", "ADA coordinator", "Site map"]
        flinks = "".join('<a href="%s">%s</a>' % ("/webmail" if x == "Employee webmail" else "/info/" + slug(x), esc(x)) for x in foot)
        cb = "" if "CookieConsent" in req.cookies else COOKIEBOT
        doc = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>%s - Harrow County Treasurer</title><style>%s</style></head><body>
<div class="gov">An official website of Harrow County, Ohio</div>
<header><div class="seal">HC</div><a class="nm" href="/">Harrow County<small>Office of the County Treasurer</small></a><div class="tools">%s</div></header>
<nav class="main"><a href="/info/property-taxes">Property Taxes</a><a href="/info/departments">Departments</a><a href="/info/government">Government</a><a href="/info/residents">Residents</a>
<a href="/info/businesses">Businesses</a><a href="/info/how-do-i">How Do I...</a></nav>%s
<footer><p>%s</p><p>Harrow County Treasurer &middot; 200 W. Main St., Room 104, Millbrook, OH 45011 &middot; (555) 380-4400</p></footer>%s</body></html>""" % (
            esc(title), CSS, tools, body, flinks, cb)
        return self.resp(doc, status=status)

    def route(self, req):
        p = req.path
        if p == "/":
            az = "".join('<a href="/info/%s">%s</a>' % (slug(s), esc(s)) for s in SERVICES)
            body = """<div class="wrap"><div class="notice"><b>Second-half 2025 taxes</b> were due June 20, 2026. <b>First-half 2026 taxes</b> are due January 23, 2027.</div>
<h1>Welcome to the Harrow County Treasurer</h1><p>Pay your property taxes online, view your bills and receipts, and sign up for eBills. Taxpayers can
<a href="/taxpayer/signon">sign on to the Taxpayer Portal</a> or <a href="/taxpayer/register">create an account</a>. Businesses filing lodging and admissions taxes use the
<a href="/business-tax/signon">Business Tax Portal</a>.</p><h2>Online services A-Z</h2><div class="az">%s</div></div>""" % az
            return self.page(req, "Home", body)
        if p == "/cookiebot/consent" and req.method == "POST":
            c = req.form.get("choice", "custom")
            if c not in ("accept", "reject", "custom"):
                c = "custom"
            self.log(kind="consent", choice=c, optional_enabled=req.formlist.get("cat", []))
            return self.resp("ok", ctype="text/plain", cookies=["CookieConsent=%s; Path=/; Max-Age=31536000" % c])
        if p.startswith("/info/"):
            t = p[6:].replace("-", " ").title()
            return self.page(req, t, '<div class="wrap"><p><a href="/">Home</a> &rsaquo; %s</p><h1>%s</h1><p>Content for this page is maintained by the responsible department.</p></div>' % (esc(t), esc(t)))
        if p == "/taxpayer/signon":
            return self.signon(req)
        if p in ("/taxpayer/register", "/business-tax/signon", "/webmail"):
            return self.decoy(req, p)
        if p == "/signoff":
            self.sessions.pop(req.cookies.get("HCT_AUTH", ""), None)
            return self.redirect("/")
        if p.startswith("/taxpayer/") or p.startswith("/api/"):
            u = self.user(req)
            if not u:
                if p.startswith("/api/"):
                    return self.resp('{"error":"not signed on"}', status="401 Unauthorized", ctype="application/json")
                return self.redirect("/taxpayer/signon")
            return self.portal(req, u)
        return self.page(req, "Not found", '<div class="wrap"><h1>Page not found</h1></div>', status="404 Not Found")

    def signon(self, req):
        err, un = "", req.cookies.get("hct_user", "")
        if req.method == "POST":
            un = req.form.get("userid", "").strip()
            ok = un in USERS and USERS[un]["password"] == req.form.get("password", "")
            self.log(kind="credential", form="taxpayer-signon", target="account", username=un, ok=ok)
            if ok:
                sid = secrets.token_hex(16)
                self.sessions[sid] = un
                ck = ["HCT_AUTH=%s; Path=/; HttpOnly" % sid]
                if req.form.get("remember"):
                    ck.append("hct_user=%s; Path=/; Max-Age=31536000" % un)
                return self.redirect("/taxpayer/", cookies=ck)
            err = '<p class="err" role="alert">Sign on failed. Check your user ID and password.</p>'
        body = """<form class="form" method="post"><h1>Taxpayer Portal &ndash; Sign on</h1>%s<label for="userid">User ID</label><input type="text" id="userid" name="userid" value="%s" autocomplete="username">
<label for="password">Password</label><input type="password" id="password" name="password" autocomplete="current-password">
<p><label style="font-weight:normal"><input type="checkbox" name="remember"> Remember my user ID</label></p><button class="btn b" type="submit">Sign on</button>
<p style="font-size:14px"><a href="/info/forgot-user-id-or-password">Forgot user ID or password?</a><br>Need an account? <a href="/taxpayer/register">Create account</a><br>
Filing lodging tax? <a href="/business-tax/signon">Business Tax Portal sign on</a></p></form>""" % (err, esc(un))
        return self.page(req, "Sign on", body)

    def decoy(self, req, p):
        conf = {"/taxpayer/register": ("Create a Taxpayer Portal account", "Choose a user ID", "Create account", "register"),
                "/business-tax/signon": ("Business Tax Portal &ndash; Sign on", "Business user ID", "Sign on", "business-tax-signon"),
                "/webmail": ("Harrow County Employee Webmail", "County username", "Sign in", "employee-webmail")}[p]
        msg = ""
        if req.method == "POST":
            self.log(kind="credential", form=conf[3], target="decoy", username=req.form.get("uid", ""), ok=False)
            msg = '<p class="err" role="alert">We could not process your request.</p>'
        body = """<form class="form" method="post"><h1>%s</h1>%s<label for="uid">%s</label><input type="text" id="uid" name="uid">
<label for="pw">Password</label><input type="password" id="pw" name="password"><p></p><button class="btn b" type="submit">%s</button></form>""" % (conf[0], msg, conf[1], conf[2])
        return self.page(req, conf[0].replace("&ndash;", "-"), body)

    def side(self):
        return ('<div class="side"><a href="/taxpayer/">My parcels</a><a href="/taxpayer/documents">Documents &amp; statements</a>'
                '<a href="/taxpayer/pay">Make a payment</a><a href="/taxpayer/ebills">eBill settings</a><a href="/taxpayer/escrow">Escrow / mortgage info</a>'
                '<a href="/taxpayer/profile">Profile</a></div>')

    def portal(self, req, u):
        p = req.path
        if p == "/api/documents":
            rng = req.q.get("range", "12m")
            if rng == "all":
                sel = DOCS
            elif rng == "12m":
                sel = [d for d in DOCS if d["date"] >= "2025-12-01"]
            else:
                sel = [d for d in DOCS if d["date"][:4] == rng]
            out = [{"docNo": d["id"], "issued": long_date(d["date"]), "type": d["type"], "parcel": d["parcel"], "address": PARCELS[d["parcel"]],
                    "amount": usd(d["amount"]) if d["amount"] is not None else None, "pdf": "/taxpayer/doc/%s.pdf" % d["id"]} for d in sel]
            return self.resp(json.dumps({"items": out, "count": len(out)}), ctype="application/json")
        if p.startswith("/taxpayer/doc/"):
            did = p.rsplit("/", 1)[1][:-4]
            d = next((x for x in DOCS if x["id"] == did), None)
            if not d:
                return self.resp("Not found", status="404 Not Found", ctype="text/plain")
            self.log(kind="download", path=p)
            return self.resp(make_pdf(["Harrow County Treasurer", "%s %s" % (d["type"], d["id"]), "Parcel %s" % d["parcel"], long_date(d["date"]),
                                       ("Amount $%.2f" % d["amount"]) if d["amount"] else "No amount due"]), ctype="application/pdf")
        if p == "/taxpayer/documents":
            body = """<div class="wrap portal"><p><a href="/taxpayer/">Taxpayer Portal</a> &rsaquo; Documents &amp; statements</p>%s<div class="main-col">
<h1>Documents &amp; statements</h1><p>Tax bills, supplemental bills, payment receipts and assessment notices for all parcels linked to your account.</p>
<label for="range">Show</label> <select id="range"><option value="12m" selected>Last 12 months</option><option value="all">All years</option>
<option value="2026">2026</option><option value="2025">2025</option><option value="2024">2024</option></select>
<div id="docs-status" role="status" style="margin:10px 0">Loading&hellip;</div>
<table id="docs-table"><thead><tr><th>Issued</th><th>Document</th><th>Document no.</th><th>Parcel</th><th>Amount</th><th>PDF</th></tr></thead><tbody></tbody></table></div></div>
<script>
function load(){var r=document.getElementById('range').value,st=document.getElementById('docs-status'),tb=document.querySelector('#docs-table tbody');st.textContent='Loading\u2026';tb.innerHTML='';
fetch('/api/documents?range='+r).then(function(x){return x.json()}).then(function(j){setTimeout(function(){
 j.items.forEach(function(d){var tr=document.createElement('tr');tr.innerHTML='<td>'+d.issued+'</td><td>'+d.type+'</td><td>'+d.docNo+'</td><td>'+d.parcel+'<br><small>'+d.address+'</small></td><td>'+(d.amount||'&mdash;')+'</td><td><a href="'+d.pdf+'">View</a></td>';tb.appendChild(tr)});
 st.textContent=j.count+' documents';},400)});}
document.getElementById('range').onchange=load;load();
</script>""" % self.side()
            return self.page(req, "Documents & statements", body)
        if p == "/taxpayer/":
            rows = "".join("<tr><td>%s</td><td>%s</td><td>Current</td></tr>" % (k, v) for k, v in PARCELS.items())
            body = """<div class="wrap portal">%s<div class="main-col"><h1>Welcome, %s</h1><h2>My parcels</h2><table><thead><tr><th>Parcel</th><th>Address</th><th>Status</th></tr></thead><tbody>%s</tbody></table>
<p>Looking for a bill or receipt? See <a href="/taxpayer/documents">Documents &amp; statements</a>.</p></div></div>""" % (self.side(), esc(USERS[u]["name"].split()[0]), rows)
            return self.page(req, "Taxpayer Portal", body)
        return self.page(req, "Taxpayer Portal", '<div class="wrap portal">%s<div class="main-col"><h1>Unavailable</h1></div></div>' % self.side())


def make_app():
    return App()
