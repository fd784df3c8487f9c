"""Brackenford Borough Council - fixture imitating an English district council website and its "My Account"
(council tax online account).

Consent: none (the council only sets essential cookies; no banner at all).
Entry: "My Account" in the header; decoys: "Landlord portal" sign in and "Create an account".
Sign-in: separate page, Email address + password, "Remember me"; error on bad credentials.
Navigation: My Account dashboard -> "Council Tax" service -> "Bills and letters".
List: table filled by fetch() with in-place pagination (API pages of 5, URL unchanged) and a
"Financial year" select (default 2026/27, April-March).
"""
import html
import json
import secrets
import threading
from http.cookies import SimpleCookie
from urllib.parse import parse_qs

USER = "d.okafor@fastmail.co.uk"
PASSWORD = "Brackenford-2026"

MON = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]

_RAW = [
    # fy, date, type, description, amount
    ("2024/25", "2024-03-08", "Annual bill", "Council tax bill 2024/25 - Band D", 1987.42),
    ("2024/25", "2024-07-15", "Reminder notice", "First reminder - instalment overdue", 165.62),
    ("2024/25", "2024-04-03", "Direct Debit confirmation", "Your Direct Debit instalments 2024/25", None),
    ("2025/26", "2025-03-10", "Annual bill", "Council tax bill 2025/26 - Band D", 2084.11),
    ("2025/26", "2025-09-12", "Reminder notice", "First reminder - instalment overdue", 173.68),
    ("2025/26", "2025-11-03", "Revised bill", "Amended bill - single person discount applied from 01/10/2025", 1823.60),
    ("2025/26", "2025-11-03", "Letter", "Single person discount - decision letter", None),
    ("2025/26", "2026-01-14", "Reminder notice", "Second reminder - instalment overdue", 135.03),
    ("2025/26", "2026-02-16", "Final notice", "Final notice - right to pay by instalments lost", 270.06),
    ("2026/27", "2026-03-09", "Annual bill", "Council tax bill 2026/27 - Band D", 1712.88),
    ("2026/27", "2026-04-02", "Direct Debit confirmation", "Your Direct Debit instalments 2026/27", None),
    ("2026/27", "2026-06-15", "Reminder notice", "First reminder - instalment overdue", 142.74),
    ("2026/27", "2026-10-05", "Revised bill", "Amended bill - band change following VOA review", 1698.00),
    ("2026/27", "2026-10-05", "Letter", "Refund of overpayment", 14.88),
]


def _docs():
    out = []
    for i, (fy, date, t, desc, amt) in enumerate(_RAW):
        out.append({"ref": "CT/118833402/%04d" % (17 + i * 3), "fy": fy, "date": date, "type": t, "desc": desc, "amount": amt})
    out.sort(key=lambda d: (d["date"], d["ref"]), reverse=True)
    return out


DOCS = _docs()
GARDEN = [{"ref": "GW-2026-44871", "date": "2026-02-20", "desc": "Garden waste subscription 2026/27", "amount": 52.00},
          {"ref": "GW-2025-39102", "date": "2025-02-18", "desc": "Garden waste subscription 2025/26", "amount": 49.00}]

PDF = (b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n"
       b"3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n")


def gbp(v):
    return "\u00a3{:,.2f}".format(v)


def ukd(iso):
    y, m, d = iso.split("-")
    return "%d %s %s" % (int(d), MON[int(m) - 1], y)


CSS = """
*{box-sizing:border-box}body{margin:0;font-family:Arial,Helvetica,sans-serif;color:#0b0c0c;background:#fff;font-size:16px}a{color:#1d70b8}
.skip{position:absolute;left:-999px}.alert{background:#ffdd00;padding:10px 30px;font-size:15px}
header{background:#24405c;color:#fff;padding:16px 30px;display:flex;align-items:center;gap:20px}.logo{color:#fff;font-weight:bold;font-size:22px;text-decoration:none}
.logo small{display:block;font-weight:normal;font-size:13px}.sp{flex:1}header a{color:#fff}
.search{display:flex}.search input{padding:8px;border:0;width:240px}.search button{background:#00703c;color:#fff;border:0;padding:8px 12px}
.myacc{background:#fff;color:#24405c!important;padding:9px 16px;font-weight:bold;text-decoration:none;border-radius:2px}
.wrap{max-width:1020px;margin:0 auto;padding:24px 20px}.crumbs{font-size:14px;margin-bottom:14px}
.tasks{display:grid;grid-template-columns:repeat(3,1fr);gap:14px}.tasks a{display:block;border-bottom:1px solid #b1b4b6;padding:12px 0;font-weight:bold;text-decoration:none}
.tasks a span{display:block;font-weight:normal;color:#505a5f;font-size:14px}
.cols{display:grid;grid-template-columns:2fr 1fr;gap:30px}.news div{border-top:4px solid #24405c;padding:10px 0}
footer{background:#f3f2f1;border-top:4px solid #24405c;padding:28px 30px;font-size:14px}footer .g{display:grid;grid-template-columns:repeat(4,1fr);gap:14px}
footer a{display:block;padding:3px 0;color:#0b0c0c}
label{display:block;font-weight:bold;margin:14px 0 5px}input[type=text],input[type=email],input[type=password]{width:100%;max-width:400px;padding:9px;border:2px solid #0b0c0c;font-size:16px}
.btn{background:#00703c;color:#fff;border:0;padding:10px 18px;font-size:17px;cursor:pointer;box-shadow:0 2px 0 #002d18;text-decoration:none;display:inline-block}
.btn.s{background:#f3f2f1;color:#0b0c0c;box-shadow:0 2px 0 #929191}
.err{border:4px solid #d4351c;padding:14px;margin:14px 0}.err h2{margin:0 0 6px;font-size:19px}
.panel{border:1px solid #b1b4b6;padding:18px;margin-bottom:18px}
table.t{width:100%;border-collapse:collapse}table.t th,table.t td{padding:10px 8px;border-bottom:1px solid #b1b4b6;text-align:left;font-size:15px}
.pg{margin-top:14px;display:flex;gap:12px;align-items:center}.pg button{background:none;border:0;color:#1d70b8;text-decoration:underline;font-size:16px;cursor:pointer}
.pg button[disabled]{color:#b1b4b6;text-decoration:none;cursor:default}
.subnav a{margin-right:18px}
"""

FOOT = [("Services", ["Bins and recycling", "Council tax", "Housing", "Planning", "Parking", "Benefits", "Schools", "Social care"]),
        ("Business", ["Business rates", "Licences", "Landlord portal", "Food safety", "Tenders and contracts"]),
        ("Council", ["Councillors", "Committee meetings", "Elections", "Budgets and spending", "Freedom of information", "Jobs"]),
        ("This site", ["Contact us", "Accessibility statement", "Privacy notice", "Cookies", "Complaints", "Translate"])]


class App:
    def __init__(self):
        self.events = []
        self.lock = threading.Lock()
        self.sessions = {}

    def log(self, e):
        with self.lock:
            self.events.append(e)

    def shell(self, title, body, logged, js=""):
        foot = "".join("<div><b>%s</b>%s</div>" % (h, "".join("<a href='%s'>%s</a>" % (
            "/landlords/login" if x == "Landlord portal" else "/services/" + x.lower().replace(" ", "-"), x) for x in items)) for h, items in FOOT)
        acc = ("<a class='myacc' href='/myaccount'>My Account</a> <a href='/myaccount/signout'>Sign out</a>" if logged
               else "<a class='myacc' href='/myaccount/signin'>My Account</a>")
        return ("<!DOCTYPE html><html lang='en-GB'><head><meta charset='utf-8'><title>%s</title><style>%s</style></head><body>"
                "<a class='skip' href='#main'>Skip to main content</a><div class='alert'><b>Christmas bin collections:</b> check your new collection day. "
                "<a href='/services/bins-and-recycling'>Find out more</a></div>"
                "<header><a class='logo' href='/'>Brackenford<small>Borough Council</small></a><form class='search' action='/services/search'>"
                "<input name='q' aria-label='Search this site' placeholder='Search'><button type='submit'>Search</button></form><span class='sp'></span>%s</header>"
                "<main id='main'>%s</main><footer><div class='g'>%s</div><p>\u00a9 Brackenford Borough Council, Civic Centre, Market Street, Brackenford BK1 1AA</p></footer>%s</body></html>") % (
            html.escape(title), CSS, acc, body, foot, js)

    def __call__(self, environ, start_response):
        path = environ.get("PATH_INFO", "/")
        method = environ["REQUEST_METHOD"]
        qs = parse_qs(environ.get("QUERY_STRING", ""))
        form = {}
        if method == "POST":
            raw = environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0)).decode("utf-8", "replace")
            form = {k: v[0] for k, v in parse_qs(raw, keep_blank_values=True).items()}
        ck = {k: v.value for k, v in SimpleCookie(environ.get("HTTP_COOKIE", "")).items()}
        logged = ck.get("BBC_MYACC", "") in self.sessions
        headers = []

        def respond(body, status="200 OK", ctype="text/html; charset=utf-8", extra=()):
            data = body if isinstance(body, bytes) else body.encode("utf-8")
            start_response(status, [("Content-Type", ctype), ("Content-Length", str(len(data)))] + headers + list(extra))
            return [data]

        def redirect(loc):
            return respond("", "302 Found", extra=[("Location", loc)])

        if path == "/":
            return respond(self.shell("Brackenford Borough Council", HOME, logged))

        if path == "/myaccount/signin":
            err = ""
            if method == "POST":
                u = form.get("email", "").strip()
                ok = u.lower() == USER and form.get("password", "") == PASSWORD
                self.log({"kind": "credential", "form": "my-account-sign-in", "target": "account", "username": u, "ok": ok})
                if ok:
                    s = secrets.token_hex(16)
                    self.sessions[s] = True
                    headers.append(("Set-Cookie", "BBC_MYACC=%s; Path=/; HttpOnly%s" % (s, "; Max-Age=2592000" if form.get("remember") else "")))
                    return redirect("/myaccount")
                err = ("<div class='err' role='alert'><h2>There is a problem</h2><a href='#email'>The email address or password is incorrect</a></div>")
            body = ("<div class='wrap'><div class='crumbs'><a href='/'>Home</a> &rsaquo; My Account</div><h1>Sign in to My Account</h1>%s"
                    "<p>Use My Account to view your council tax, report problems and manage your bin subscriptions.</p>"
                    "<form method='post' action='/myaccount/signin'><label for='email'>Email address</label><input type='email' id='email' name='email' autocomplete='username'>"
                    "<label for='password'>Password</label><input type='password' id='password' name='password' autocomplete='current-password'>"
                    "<p><label style='font-weight:normal'><input type='checkbox' name='remember' value='1'> Remember me on this device</label></p>"
                    "<button class='btn' type='submit'>Sign in</button></form><p><a href='/services/forgotten-password'>Forgotten your password?</a></p>"
                    "<h2>New to My Account?</h2><p><a class='btn s' href='/myaccount/register'>Create an account</a></p>"
                    "<p>Landlords and letting agents should use the <a href='/landlords/login'>Landlord portal</a>.</p></div>") % err
            return respond(self.shell("Sign in - My Account - Brackenford Borough Council", body, False))

        for p, name, title, lab in (("/myaccount/register", "create-account", "Create an account", "Email address"),
                                    ("/landlords/login", "landlord-portal", "Landlord portal sign in", "Landlord ID or email")):
            if path == p:
                err = ""
                if method == "POST":
                    self.log({"kind": "credential", "form": name, "target": "decoy", "username": form.get("user", ""), "ok": False})
                    err = "<div class='err' role='alert'><h2>There is a problem</h2>%s</div>" % (
                        "An account already exists for this email address" if "register" in p else "We could not find a landlord account with those details")
                body = ("<div class='wrap'><h1>%s</h1>%s<form method='post' action='%s'><label for='du'>%s</label><input type='text' id='du' name='user'>"
                        "<label for='dp'>%s</label><input type='password' id='dp' name='password'><p><button class='btn' type='submit'>Continue</button></p></form></div>") % (
                    title, err, p, lab, "Create a password" if "register" in p else "Password")
                return respond(self.shell(title + " - Brackenford Borough Council", body, False))

        if path == "/myaccount/signout":
            headers.append(("Set-Cookie", "BBC_MYACC=; Path=/; Max-Age=0"))
            return redirect("/")

        if (path.startswith("/myaccount") or path.startswith("/api/")) and not logged:
            if path.startswith("/api/"):
                return respond('{"error":"signed out"}', "401 Unauthorized", "application/json")
            return redirect("/myaccount/signin")

        if path == "/myaccount":
            body = ("<div class='wrap'><div class='crumbs'><a href='/'>Home</a> &rsaquo; My Account</div><h1>My Account</h1><p>Signed in as d.okafor@fastmail.co.uk</p>"
                    "<div class='panel'><h2 style='margin-top:0'>Council Tax</h2><p>Account 118833402 &middot; 14 Linden Road, Brackenford BK3 7QT &middot; Balance \u00a30.00</p>"
                    "<p><a href='/myaccount/council-tax'>View your Council Tax account</a></p></div>"
                    "<div class='panel'><h2 style='margin-top:0'>Garden waste</h2><p>Subscription active until 31 March 2027.</p><p><a href='/myaccount/garden-waste'>Manage subscription</a></p></div>"
                    "<div class='panel'><h2 style='margin-top:0'>My reports</h2><p>Fly-tipping on Mill Lane - <b>Closed</b></p></div></div>")
            return respond(self.shell("My Account - Brackenford Borough Council", body, True))

        sub = ("<p class='subnav'><a href='/myaccount/council-tax'>Summary</a><a href='/myaccount/council-tax/payments'>Payments</a>"
               "<a href='/myaccount/council-tax/documents'>Bills and letters</a><a href='/myaccount/council-tax/discounts'>Discounts</a></p>")

        if path == "/myaccount/council-tax":
            body = ("<div class='wrap'><div class='crumbs'><a href='/myaccount'>My Account</a> &rsaquo; Council Tax</div><h1>Council Tax</h1>%s"
                    "<div class='panel'><p>Account reference: 118833402</p><p>Band D &middot; Payment method: Direct Debit (10 instalments)</p>"
                    "<p>Next payment: \u00a3169.80 on 1 December 2026</p></div></div>") % sub
            return respond(self.shell("Council Tax - My Account", body, True))

        if path == "/myaccount/council-tax/documents":
            body = ("<div class='wrap'><div class='crumbs'><a href='/myaccount'>My Account</a> &rsaquo; <a href='/myaccount/council-tax'>Council Tax</a> &rsaquo; Bills and letters</div>"
                    "<h1>Bills and letters</h1>%s<p>Council tax years run from 1 April to 31 March.</p>"
                    "<label for='fy'>Financial year</label><select id='fy'><option value='2026/27'>2026/27</option><option value='2025/26'>2025/26</option>"
                    "<option value='2024/25'>2024/25</option></select>"
                    "<p id='info' aria-live='polite'></p><table class='t' id='docs'><thead><tr><th>Date</th><th>Document</th><th>Reference</th><th>Amount</th><th></th></tr></thead>"
                    "<tbody></tbody></table><div class='pg'><button type='button' id='prev'>Previous</button><span id='pno'></span><button type='button' id='next'>Next</button></div></div>") % sub
            return respond(self.shell("Bills and letters - Council Tax", body, True, DOCS_JS))

        if path == "/api/council-tax/documents":
            fy = qs.get("fy", ["2026/27"])[0]
            page = max(1, int(qs.get("page", ["1"])[0]))
            rows = [d for d in DOCS if d["fy"] == fy]
            per = 5
            pages = max(1, (len(rows) + per - 1) // per)
            out = [{"ref": d["ref"], "date": ukd(d["date"]), "title": d["type"] + ": " + d["desc"],
                    "amount": gbp(d["amount"]) if d["amount"] is not None else ""} for d in rows[(page - 1) * per:page * per]]
            return respond(json.dumps({"fy": fy, "page": page, "pages": pages, "total": len(rows), "items": out}), ctype="application/json")

        if path == "/myaccount/garden-waste":
            rows = "".join("<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>" % (ukd(g["date"]), g["desc"], g["ref"], gbp(g["amount"])) for g in GARDEN)
            body = ("<div class='wrap'><h1>Garden waste</h1><table class='t'><tr><th>Date</th><th>Invoice</th><th>Reference</th><th>Amount</th></tr>%s</table></div>") % rows
            return respond(self.shell("Garden waste - My Account", body, True))

        if path.startswith("/myaccount/council-tax/pdf/"):
            self.log({"kind": "download", "path": path})
            return respond(PDF, ctype="application/pdf")

        if path.startswith("/myaccount/"):
            return respond(self.shell("My Account", "<div class='wrap'><h1>Not available</h1><p>This page is not available at the moment.</p></div>", True))

        if path.startswith("/services/"):
            name = path[10:].replace("-", " ").capitalize()
            return respond(self.shell(name + " - Brackenford Borough Council", "<div class='wrap'><div class='crumbs'><a href='/'>Home</a> &rsaquo; %s</div>"
                                      "<h1>%s</h1><p>Information about %s in Brackenford.</p></div>" % (name, name, name.lower()), logged))
        return respond("Page not found", "404 Not Found", "text/plain")


DOCS_JS = """<script>(function(){var page=1;
function load(){var fy=document.getElementById('fy').value;document.getElementById('info').textContent='Loading...';
fetch('/api/council-tax/documents?fy='+encodeURIComponent(fy)+'&page='+page).then(function(r){return r.json()}).then(function(j){
 var tb=document.querySelector('#docs tbody');tb.innerHTML='';
 j.items.forEach(function(d){var tr=document.createElement('tr');tr.innerHTML='<td>'+d.date+'</td><td>'+d.title+'</td><td>'+d.ref+'</td><td>'+d.amount+
  '</td><td><a href="/myaccount/council-tax/pdf/'+d.ref.replace(/\\//g,'-')+'.pdf">View (PDF)</a></td>';tb.appendChild(tr);});
 document.getElementById('info').textContent=j.total+' documents in '+j.fy;document.getElementById('pno').textContent='Page '+j.page+' of '+j.pages;
 document.getElementById('prev').disabled=j.page<=1;document.getElementById('next').disabled=j.page>=j.pages;});}
document.getElementById('fy').onchange=function(){page=1;load()};
document.getElementById('prev').onclick=function(){page--;load()};document.getElementById('next').onclick=function(){page++;load()};
load();})();</script>"""

HOME = """
<div class='wrap'><h1 style='font-size:36px'>Welcome to Brackenford Borough Council</h1>
<div class='tasks'><a href='/services/council-tax'>Pay your council tax<span>Pay online, set up a Direct Debit, discounts</span></a>
<a href='/services/bins-and-recycling'>Bin collection days<span>Find your collection day and report a missed bin</span></a>
<a href='/services/planning'>Planning applications<span>Search, comment on or apply for planning</span></a>
<a href='/services/parking'>Parking<span>Permits, penalty charge notices, car parks</span></a>
<a href='/services/housing'>Housing<span>Apply for housing, homelessness advice</span></a>
<a href='/services/benefits'>Benefits<span>Housing benefit and council tax reduction</span></a></div>
<div class='cols' style='margin-top:30px'><div class='news'><h2>News</h2><div><a href='/services/news-budget'>Council sets out draft budget for 2027/28</a></div>
<div><a href='/services/news-leisure'>New leisure centre opens in Northfield</a></div><div><a href='/services/news-consultation'>Have your say on the Local Plan</a></div></div>
<div><h2>Report it</h2><p><a href='/services/fly-tipping'>Fly-tipping</a></p><p><a href='/services/potholes'>Potholes</a></p><p><a href='/services/graffiti'>Graffiti</a></p></div></div></div>
"""


def make_app():
    return App()
