"""Northmere Bank - fixture imitating a US retail bank with online banking document center.

Consent: Usercentrics-like banner rendered inside an open shadow root (custom element).
Entry: "Sign on" in the header; decoy "Business Banking" sign on right next to it.
Sign-in: single form on a separate page (Username + Password, remember username), error on bad creds.
List: document center table filled by fetch() after load, year tabs (default 2026) and type filter;
mixes checking and savings statements, tax forms and notices.
"""
import html
import json
import secrets
import threading
from http.cookies import SimpleCookie
from urllib.parse import parse_qs

USER = "jwhitaker84"
PASSWORD = "Harbor-Lights-77"

MON = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
MDAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]


def _docs():
    out = []
    ref = 418830
    chk, sav = 2310.44, 10450.00
    for y in (2024, 2025, 2026):
        for m in range(1, 13):
            if y == 2026 and m > 11:
                break
            d = MDAYS[m - 1] + (1 if (y == 2024 and m == 2) else 0)
            date = "%d-%02d-%02d" % (y, m, d)
            chk = round(chk + ((m * 53 + y) % 700) - 301.29, 2)
            ref += 11 + m % 4
            out.append({"ref": "STM-%d%02d-%d" % (y, m, ref), "date": date, "type": "Statement",
                        "account": "Everyday Checking ...4471", "desc": "Monthly statement", "amount": chk})
            if m % 3 == 0:
                sav = round(sav * 1.0085 + 150, 2)
                ref += 3
                out.append({"ref": "STM-%d%02d-%d" % (y, m, ref), "date": date, "type": "Statement",
                            "account": "High Yield Savings ...9025", "desc": "Quarterly statement", "amount": sav})
    extra = [
        ("TAX", "2026-01-29", "Tax document", "High Yield Savings ...9025", "Form 1099-INT (tax year 2025)", 352.61),
        ("TAX", "2025-01-30", "Tax document", "High Yield Savings ...9025", "Form 1099-INT (tax year 2024)", 318.07),
        ("TAX", "2024-01-31", "Tax document", "High Yield Savings ...9025", "Form 1099-INT (tax year 2023)", 201.50),
        ("NTC", "2025-03-14", "Notice", "Everyday Checking ...4471", "Change in terms - overdraft fees", None),
        ("NTC", "2025-07-02", "Notice", "All accounts", "Privacy notice 2025", None),
        ("NTC", "2025-10-21", "Notice", "Everyday Checking ...4471", "Your new debit card is on the way", None),
        ("NTC", "2026-04-09", "Notice", "All accounts", "Updated Online Banking Service Agreement", None),
        ("NTC", "2026-08-18", "Notice", "High Yield Savings ...9025", "Rate change notice", None),
        ("LTR", "2025-12-05", "Letter", "Everyday Checking ...4471", "Year-end overdraft fee summary", 0.00),
    ]
    for i, (p, date, t, acc, desc, amt) in enumerate(extra):
        out.append({"ref": "%s-%s-%d" % (p, date[:4], 520011 + i * 37), "date": date, "type": t,
                    "account": acc, "desc": desc, "amount": amt})
    out.sort(key=lambda x: (x["date"], x["ref"]), reverse=True)
    return out


DOCS = _docs()

PDF = (b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n"
       b"3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n")

CSS = """
*{box-sizing:border-box}body{margin:0;font-family:'Segoe UI',Roboto,Arial,sans-serif;color:#222;background:#fff}
a{color:#00558c}.util{background:#f2f2f2;font-size:12px;padding:6px 32px;display:flex;gap:16px}.util a{color:#444;text-decoration:none}.util .sp{flex:1}
header{display:flex;align-items:center;padding:14px 32px;border-bottom:3px solid #1b7340;gap:26px}
.logo{font-size:24px;font-weight:800;color:#1b7340;text-decoration:none;letter-spacing:-.5px}.logo i{font-style:normal;color:#c9a227}
header nav a{color:#222;text-decoration:none;font-weight:600;font-size:15px}header .sp{flex:1}
.signon{background:#1b7340;color:#fff!important;padding:10px 22px;border-radius:22px;text-decoration:none;font-weight:700}
.biz{font-size:13px;color:#1b7340!important;text-decoration:underline!important;font-weight:400!important}
.hero{background:#e8f3ec;padding:50px 32px;display:flex;gap:40px}.hero h1{font-size:36px;margin:0 0 12px;color:#10502b}
.tiles{display:grid;grid-template-columns:repeat(3,1fr);gap:20px;padding:30px 32px}.tile{border:1px solid #ddd;border-radius:8px;padding:20px}
.rates{background:#fafafa;padding:24px 32px}.rates table{border-collapse:collapse}.rates td{padding:6px 18px;border-bottom:1px solid #e5e5e5}
footer{background:#1d2a22;color:#c4d1c8;padding:34px 32px;font-size:13px}footer .cols{display:grid;grid-template-columns:repeat(4,1fr);gap:18px}
footer a{color:#c4d1c8;display:block;padding:3px 0;text-decoration:none}footer h4{color:#fff;margin:0 0 8px}
.fine{font-size:11px;margin-top:18px;border-top:1px solid #3b4a40;padding-top:12px}
.box{max-width:440px;margin:40px auto;border:1px solid #ddd;border-radius:10px;padding:28px;box-shadow:0 4px 14px rgba(0,0,0,.06)}
label{display:block;font-weight:600;margin:14px 0 5px}input[type=text],input[type=password]{width:100%;padding:11px;border:1px solid #999;border-radius:5px;font-size:15px}
.btn{background:#1b7340;color:#fff;border:0;padding:12px 26px;border-radius:22px;font-weight:700;font-size:15px;cursor:pointer}
.alert{background:#fdecea;border-left:4px solid #c62828;padding:10px 12px;margin:10px 0}
.ob{display:flex;min-height:70vh}.ob aside{width:220px;background:#f5f7f6;padding:20px 0}.ob aside a{display:block;padding:10px 22px;color:#222;text-decoration:none}
.ob aside a.on{background:#fff;border-left:4px solid #1b7340;font-weight:700}.ob main{flex:1;padding:24px 32px}
.tabs{display:flex;gap:4px;border-bottom:2px solid #1b7340;margin:16px 0}.tabs button{border:0;background:#eef2ef;padding:10px 20px;cursor:pointer;font-size:14px}
.tabs button[aria-selected=true]{background:#1b7340;color:#fff}
table.dc{width:100%;border-collapse:collapse}table.dc th,table.dc td{text-align:left;padding:10px;border-bottom:1px solid #e3e3e3;font-size:14px}
table.dc th{font-size:12px;text-transform:uppercase;color:#555}
.chat{position:fixed;bottom:18px;right:18px;background:#c9a227;color:#222;border-radius:50%;width:56px;height:56px;display:flex;align-items:center;justify-content:center;font-weight:700}
"""

FOOT = [
    ("Products", ["Checking", "Savings", "CDs", "Credit cards", "Mortgages", "Home equity", "Auto loans", "Personal loans"]),
    ("Online & mobile", ["Online Banking", "Mobile app", "Zelle\u00ae", "Bill Pay", "Alerts", "Paperless statements"]),
    ("Business", ["Business checking", "Merchant services", "Business Banking sign on", "Treasury management", "SBA loans"]),
    ("About Northmere", ["About us", "Careers", "Investor relations", "Community", "Security center", "Privacy",
                         "Accessibility", "Contact us", "Locations"]),
]


class App:
    def __init__(self):
        self.events = []
        self.lock = threading.Lock()
        self.sessions = {}

    def log(self, ev):
        with self.lock:
            self.events.append(ev)

    def shell(self, title, body, cmp, logged):
        foot = "".join("<div><h4>%s</h4>%s</div>" % (t, "".join(
            "<a href='%s'>%s</a>" % ("/business/signon" if x == "Business Banking sign on" else
                                     "/signon" if x == "Online Banking" else "/p/" + x.lower().replace(" ", "-"), x)
            for x in items)) for t, items in FOOT)
        right = ("<a class='signon' href='/signoff'>Sign off</a>" if logged else
                 "<a class='biz' href='/business/signon'>Business Banking</a><a class='signon' href='/signon'>Sign on</a>")
        return ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>%s</title><style>%s</style></head><body>"
                "<div class='util'><a href='/p/personal'>Personal</a><a href='/p/small-business'>Small Business</a>"
                "<a href='/p/commercial'>Commercial</a><a href='/p/wealth'>Wealth Management</a><span class='sp'></span>"
                "<a href='/p/locations'>ATMs / Locations</a><a href='/p/help'>Help</a><a href='/p/espanol'>Espa\u00f1ol</a></div>"
                "<header><a class='logo' href='/'>Northmere<i>Bank</i></a><nav style='display:flex;gap:22px'>"
                "<a href='/p/checking'>Checking</a><a href='/p/savings'>Savings &amp; CDs</a><a href='/p/credit-cards'>Credit Cards</a>"
                "<a href='/p/home-loans'>Home Loans</a><a href='/p/investing'>Investing</a></nav><span class='sp'></span>%s</header>"
                "%s<footer><div class='cols'>%s</div><div class='fine'>Member FDIC. Equal Housing Lender. "
                "\u00a9 2026 Northmere Bank, N.A. Deposit products offered by Northmere Bank, N.A.</div></footer>"
                "<div class='chat' title='Chat with us'>?</div>%s</body></html>") % (
            html.escape(title), CSS, right, body, foot, CMP if cmp else "")

    def __call__(self, environ, start_response):
        path = environ.get("PATH_INFO", "/")
        method = environ["REQUEST_METHOD"]
        qs = parse_qs(environ.get("QUERY_STRING", ""))
        form = {}
        if method == "POST":
            n = int(environ.get("CONTENT_LENGTH") or 0)
            raw = environ["wsgi.input"].read(n).decode("utf-8", "replace")
            if environ.get("CONTENT_TYPE", "").startswith("application/json"):
                try:
                    form = json.loads(raw or "{}")
                except ValueError:
                    form = {}
            else:
                form = {k: v[0] for k, v in parse_qs(raw, keep_blank_values=True).items()}
        ck = {k: v.value for k, v in SimpleCookie(environ.get("HTTP_COOKIE", "")).items()}
        sess = self.sessions.get(ck.get("nmb_sid", ""))
        logged = bool(sess and sess.get("auth"))
        cmp = "uc_settings" not in ck
        headers = []

        def respond(body, status="200 OK", ctype="text/html; charset=utf-8", extra=()):
            data = body if isinstance(body, bytes) else body.encode("utf-8")
            start_response(status, [("Content-Type", ctype), ("Content-Length", str(len(data)))] + headers + list(extra))
            return [data]

        def redirect(loc):
            return respond("", "303 See Other", extra=[("Location", loc)])

        if path == "/consent" and method == "POST":
            services = form.get("services", {})
            choice = form.get("action", "deny")
            enabled = sorted(k for k, v in services.items() if v)
            if choice == "accept_all":
                choice, enabled = "accept", ["analytics", "marketing", "personalization"]
            elif choice == "deny_all":
                choice, enabled = "reject", []
            else:
                choice = "custom"
            self.log({"kind": "consent", "choice": choice, "optional_enabled": enabled})
            headers.append(("Set-Cookie", "uc_settings=%s; Path=/; Max-Age=31536000" % ("-".join(enabled) or "essential")))
            return respond('{"status":"saved"}', ctype="application/json")

        if path == "/":
            return respond(self.shell("Northmere Bank | Checking, Savings, Credit Cards, Mortgages", HOME, cmp, logged))

        if path == "/signon":
            err = ""
            if method == "POST":
                u = form.get("username", "").strip()
                ok = u == USER and form.get("password", "") == PASSWORD
                self.log({"kind": "credential", "form": "online-banking-sign-on", "target": "account", "username": u, "ok": ok})
                if ok:
                    s = secrets.token_urlsafe(18)
                    self.sessions[s] = {"auth": True}
                    headers.append(("Set-Cookie", "nmb_sid=%s; Path=/; HttpOnly" % s))
                    if form.get("remember"):
                        headers.append(("Set-Cookie", "nmb_user=%s; Path=/; Max-Age=31536000" % u))
                    return redirect("/online/accounts")
                err = ("<div class='alert' role='alert'>We don't recognize the username or password you entered. "
                       "Please try again.</div>")
            remembered = html.escape(ck.get("nmb_user", ""))
            body = ("<div class='box'><h1 style='margin-top:0'>Sign on to Online Banking</h1>%s"
                    "<form method='post' action='/signon'><label for='u'>Username</label>"
                    "<input type='text' id='u' name='username' value='%s' autocomplete='username'>"
                    "<label for='p'>Password</label><input type='password' id='p' name='password' autocomplete='current-password'>"
                    "<p><label style='display:inline;font-weight:400'><input type='checkbox' name='remember' value='1'> Save username</label></p>"
                    "<button class='btn' type='submit'>Sign on</button></form>"
                    "<p><a href='/p/forgot'>Forgot username or password?</a></p>"
                    "<p>New to Online Banking? <a href='/p/enroll'>Enroll now</a></p>"
                    "<p style='font-size:13px'>Business customer? Use <a href='/business/signon'>Business Banking sign on</a>.</p></div>") % (
                err, remembered)
            return respond(self.shell("Sign on | Northmere Bank", body, cmp, False))

        if path == "/business/signon":
            err = ""
            if method == "POST":
                self.log({"kind": "credential", "form": "business-banking-sign-on", "target": "decoy",
                          "username": form.get("user_id", ""), "ok": False})
                err = "<div class='alert' role='alert'>The Company ID, User ID or password is incorrect.</div>"
            body = ("<div class='box'><h1 style='margin-top:0'>Business Banking sign on</h1>"
                    "<p style='font-size:14px'>For Northmere Business Online and Treasury customers.</p>%s"
                    "<form method='post' action='/business/signon'><label for='c'>Company ID</label><input type='text' id='c' name='company'>"
                    "<label for='bu'>User ID</label><input type='text' id='bu' name='user_id'>"
                    "<label for='bp'>Password</label><input type='password' id='bp' name='password'>"
                    "<p><button class='btn' type='submit'>Sign on</button></p></form>"
                    "<p style='font-size:13px'>Personal accounts: <a href='/signon'>Online Banking sign on</a></p></div>") % err
            return respond(self.shell("Business Banking | Northmere Bank", body, cmp, False))

        if path == "/signoff":
            headers.append(("Set-Cookie", "nmb_sid=; Path=/; Max-Age=0"))
            return redirect("/")

        if path.startswith("/online") or path.startswith("/api/") or path.startswith("/docs/"):
            if not logged:
                if path.startswith("/api/"):
                    return respond('{"error":"unauthorized"}', "401 Unauthorized", "application/json")
                return redirect("/signon")

        nav = [("/online/accounts", "Account summary"), ("/online/transfers", "Transfer & Pay"),
               ("/online/documents", "Statements & Documents"), ("/online/alerts", "Alerts"),
               ("/online/profile", "Security & Profile")]

        def ob(cur, inner, title):
            side = "".join("<a href='%s'%s>%s</a>" % (h, " class='on'" if h == cur else "", t) for h, t in nav)
            return respond(self.shell(title + " | Northmere Online Banking",
                                      "<div class='ob'><aside>%s</aside><main>%s</main></div>" % (side, inner), cmp, True))

        if path == "/online/accounts":
            inner = ("<h1>Good afternoon, James</h1><table class='dc'><tr><th>Account</th><th>Available balance</th></tr>"
                     "<tr><td><a href='/online/acct/4471'>Everyday Checking ...4471</a></td><td>$2,904.18</td></tr>"
                     "<tr><td><a href='/online/acct/9025'>High Yield Savings ...9025</a></td><td>$12,633.90</td></tr>"
                     "<tr><td>Northmere Cash Back Visa ...1180</td><td>$418.20 balance</td></tr></table>"
                     "<p style='margin-top:22px;background:#fff8e1;padding:12px'>Go paperless! Your statements are in "
                     "<a href='/online/documents'>Statements &amp; Documents</a>.</p>")
            return ob(path, inner, "Accounts")

        if path == "/online/documents":
            inner = DOCS_PAGE
            return ob(path, inner, "Statements & Documents")

        if path == "/api/documents":
            year = qs.get("year", ["2026"])[0]
            typ = qs.get("type", ["all"])[0]
            rows = [d for d in DOCS if d["date"][:4] == year and (typ == "all" or d["type"] == typ)]
            return respond(json.dumps({"year": year, "count": len(rows), "documents": rows}), ctype="application/json")

        if path.startswith("/docs/") and path.endswith(".pdf"):
            self.log({"kind": "download", "path": path})
            return respond(PDF, ctype="application/pdf")

        if path.startswith("/online/"):
            return ob(path, "<h1>Coming soon</h1><p>This feature is temporarily unavailable.</p>", "Online Banking")

        if path.startswith("/p/"):
            name = path[3:].replace("-", " ").title()
            return respond(self.shell(name + " | Northmere Bank", "<div style='padding:40px 32px'><h1>%s</h1>"
                                      "<p>Banking that moves at your pace. Learn more about %s at Northmere Bank.</p></div>" % (
                                          name, name), cmp, logged))
        return respond("Not found", "404 Not Found", "text/plain")


HOME = """
<section class='hero'><div><h1>Earn 4.10% APY with High Yield Savings</h1><p>No monthly fee with $500 minimum daily balance. Annual Percentage Yield accurate as of 11/24/2026.</p>
<a class='signon' href='/p/savings'>Open an account</a></div></section>
<div class='tiles'>
<div class='tile'><h3>Everyday Checking</h3><p>Get a $300 bonus when you set up direct deposit.</p><a href='/p/checking'>See offer details</a></div>
<div class='tile'><h3>Cash Back Visa\u00ae</h3><p>Unlimited 2% cash rewards on purchases.</p><a href='/p/credit-cards'>Apply now</a></div>
<div class='tile'><h3>Protect yourself from scams</h3><p>We will never ask for your password by phone or text.</p><a href='/p/security-center'>Security center</a></div>
</div>
<div class='rates'><h2>Today's mortgage rates</h2><table><tr><td>30-year fixed</td><td>6.125%</td><td>6.281% APR</td></tr>
<tr><td>15-year fixed</td><td>5.500%</td><td>5.702% APR</td></tr><tr><td>7/6 ARM</td><td>5.875%</td><td>6.612% APR</td></tr></table></div>
"""

DOCS_PAGE = """
<h1>Statements &amp; Documents</h1>
<p style='font-size:14px;color:#555'>View and download statements, tax forms, notices and letters for all of your accounts.</p>
<div role='tablist' class='tabs' id='yeartabs'>
 <button role='tab' data-year='2026' aria-selected='true'>2026</button>
 <button role='tab' data-year='2025' aria-selected='false'>2025</button>
 <button role='tab' data-year='2024' aria-selected='false'>2024</button>
</div>
<label for='dtype' style='display:inline;margin-right:8px'>Document type</label>
<select id='dtype'><option value='all'>All documents</option><option value='Statement'>Statements</option>
<option value='Tax document'>Tax documents</option><option value='Notice'>Notices</option><option value='Letter'>Letters</option></select>
<div id='status' aria-live='polite' style='margin:12px 0;font-size:14px'>Loading documents...</div>
<table class='dc' id='doctable'><thead><tr><th>Date</th><th>Account</th><th>Document</th><th>Ref. #</th><th>Balance / Amount</th><th></th></tr></thead><tbody></tbody></table>
<script>
(function(){
 var year='2026';
 function money(v){if(v===null)return '\u2014';return '$'+v.toLocaleString('en-US',{minimumFractionDigits:2,maximumFractionDigits:2});}
 var MON=['Jan','Feb','Mar','Apr','May','Jun','Jul','Aug','Sep','Oct','Nov','Dec'];
 function fdate(s){var p=s.split('-');return MON[+p[1]-1]+' '+(+p[2])+', '+p[0];}
 var seq=0;
 function load(){
  var my=++seq;
  var tb=document.querySelector('#doctable tbody');tb.innerHTML='';
  document.getElementById('status').textContent='Loading documents...';
  var t=document.getElementById('dtype').value;
  setTimeout(function(){
  fetch('/api/documents?year='+year+'&type='+encodeURIComponent(t),{credentials:'same-origin'}).then(function(r){return r.json()}).then(function(j){
   if(my!==seq)return;
   j.documents.forEach(function(d){
    var tr=document.createElement('tr');
    tr.innerHTML='<td>'+fdate(d.date)+'</td><td>'+d.account+'</td><td>'+d.type+' &ndash; '+d.desc+'</td><td>'+d.ref+'</td><td>'+money(d.amount)+
     '</td><td><a href="/docs/'+d.ref+'.pdf" target="_blank">View PDF</a></td>';
    tb.appendChild(tr);
   });
   document.getElementById('status').textContent=j.count+' documents for '+j.year;
  });},600);
 }
 document.querySelectorAll('#yeartabs button').forEach(function(b){b.addEventListener('click',function(){
  document.querySelectorAll('#yeartabs button').forEach(function(x){x.setAttribute('aria-selected','false')});
  b.setAttribute('aria-selected','true');year=b.getAttribute('data-year');load();});});
 document.getElementById('dtype').addEventListener('change',load);
 load();
})();
</script>
"""

CMP = """
<div id="usercentrics-root" data-settings-id="nmb-2026"></div>
<script>
(function(){
 var host=document.getElementById('usercentrics-root');
 var root=host.attachShadow({mode:'open'});
 root.innerHTML='<style>.wrap{position:fixed;left:24px;bottom:24px;width:420px;background:#fff;border-radius:12px;box-shadow:0 8px 40px rgba(0,0,0,.3);font-family:Arial,sans-serif;z-index:2147483647;padding:22px;color:#333}'+
 'h2{font-size:18px;margin:0 0 8px}p{font-size:13px;line-height:1.45}.row{display:flex;gap:8px;margin-top:14px}button{flex:1;padding:12px 6px;border-radius:6px;font-weight:700;font-size:14px;cursor:pointer;border:1px solid #1b7340}'+
 '.deny{background:#fff;color:#1b7340}.acc{background:#1b7340;color:#fff}.more{background:none;border:0;color:#1b7340;text-decoration:underline;flex:0 0 auto;padding:0;font-weight:400}'+
 '.svc{display:none;border-top:1px solid #eee;margin-top:10px;padding-top:8px;font-size:13px}.svc label{display:flex;justify-content:space-between;padding:6px 0}</style>'+
 '<div class="wrap" role="dialog" aria-label="Privacy Settings" data-testid="uc-default-banner"><h2>Privacy Settings</h2>'+
 '<p>We use cookies and similar technologies to run this site, to analyze usage and to show you relevant offers on and off our site. '+
 'You can accept all, deny optional technologies, or choose in More Information.</p>'+
 '<button class="more" data-testid="uc-more-button">More Information</button>'+
 '<div class="svc"><label>Essential <input type="checkbox" checked disabled></label><label>Analytics <input type="checkbox" data-s="analytics"></label>'+
 '<label>Marketing <input type="checkbox" data-s="marketing"></label><label>Personalization <input type="checkbox" data-s="personalization"></label>'+
 '<div class="row"><button class="deny" data-testid="uc-save-button">Save Settings</button></div></div>'+
 '<div class="row"><button class="deny" data-testid="uc-deny-all-button">Deny</button><button class="acc" data-testid="uc-accept-all-button">Accept All</button></div></div>';
 function send(action,services){fetch('/consent',{method:'POST',headers:{'Content-Type':'application/json'},body:JSON.stringify({action:action,services:services||{}})}).then(function(){host.remove();});}
 root.querySelector('[data-testid=uc-deny-all-button]').onclick=function(){send('deny_all')};
 root.querySelector('[data-testid=uc-accept-all-button]').onclick=function(){send('accept_all')};
 root.querySelector('[data-testid=uc-more-button]').onclick=function(){root.querySelector('.svc').style.display='block'};
 root.querySelector('[data-testid=uc-save-button]').onclick=function(){var s={};root.querySelectorAll('.svc input[data-s]').forEach(function(c){s[c.getAttribute('data-s')]=c.checked});send('save',s)};
})();
</script>
"""


def make_app():
    return App()
