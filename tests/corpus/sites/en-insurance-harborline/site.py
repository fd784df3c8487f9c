"""Harborline Insurance - fixture imitating a US auto/home insurer customer portal."""
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


MON = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def us_date(iso):
    y, m, d = iso.split("-")
    return "%s %d, %s" % (MON[int(m) - 1], int(d), y)


def usd(a):
    return "${:,.2f}".format(a)


# ---------------------------------------------------------------- data
USER = {"customer": "4401928375", "password": "Harbor^Line55", "name": "Megan Olsen"}


def _build_docs():
    docs = []
    k = 3120
    for y in (2025, 2026):
        for m in range(1, 13):
            if y == 2026 and m == 12:
                break
            k += 41
            docs.append({"id": "RCPT-%d-%06d" % (y % 100, k), "type": "Payment receipt", "title": "Auto policy HA-AUT-7710392 monthly premium",
                         "date": "%d-%02d-03" % (y, m), "amount": 148.20 if y == 2025 else 156.75})
    docs.append({"id": "RCPT-25-000871", "type": "Payment receipt", "title": "Homeowners policy HA-HOM-2209184 annual premium", "date": "2025-03-18", "amount": 1198.00})
    docs.append({"id": "RCPT-26-000907", "type": "Payment receipt", "title": "Homeowners policy HA-HOM-2209184 annual premium", "date": "2026-03-18", "amount": 1284.00})
    docs.append({"id": "DEC-HOM-2026", "type": "Policy document", "title": "Homeowners declarations page 2026-2027", "date": "2026-02-20", "amount": None})
    docs.append({"id": "DEC-AUT-2026", "type": "Policy document", "title": "Auto declarations page (6-month term)", "date": "2026-06-28", "amount": None})
    docs.append({"id": "IDC-AUT-2026B", "type": "Policy document", "title": "Auto insurance ID cards", "date": "2026-06-28", "amount": None})
    docs.append({"id": "RN-HOM-2026", "type": "Notice", "title": "Homeowners renewal notice", "date": "2026-01-21", "amount": 1284.00})
    docs.append({"id": "BS-26-11", "type": "Billing statement", "title": "Billing statement - auto", "date": "2026-11-18", "amount": 156.75})
    docs.append({"id": "BS-26-10", "type": "Billing statement", "title": "Billing statement - auto", "date": "2026-10-18", "amount": 156.75})
    docs.append({"id": "RCPT-26-001022", "type": "Refund", "title": "Refund - mid-term policy change", "date": "2026-07-09", "amount": -42.30})
    docs.sort(key=lambda d: (d["date"], d["id"]), reverse=True)
    return docs


DOCS = _build_docs()

# ---------------------------------------------------------------- pages
CSS = """
*{box-sizing:border-box}body{margin:0;font-family:Georgia,'Times New Roman',serif;color:#1b2a33;background:#fff}
a{color:#0b6e80}.alert{background:#fff4d6;text-align:center;padding:8px;font:14px Arial,sans-serif}
header{display:flex;align-items:center;padding:0 34px;height:78px;border-bottom:1px solid #dfe6ea;gap:30px;font-family:Arial,sans-serif}
.logo{font:bold 25px Georgia,serif;color:#0b3c49;text-decoration:none}.logo span{color:#0b9bb3}
header nav a{color:#1b2a33;text-decoration:none;margin-right:22px;font-weight:600}
.hr{margin-left:auto;display:flex;gap:16px;align-items:center}.hr a{color:#1b2a33;text-decoration:none;font-size:14px}
.ico{display:inline-flex;width:42px;height:42px;border-radius:50%;background:#0b3c49;color:#fff;align-items:center;justify-content:center}
.hero{background:#0b3c49;color:#fff;padding:70px 34px;display:flex;gap:40px}.hero h1{font-size:46px;margin:0 0 14px}
.quote{background:#fff;color:#1b2a33;padding:22px;border-radius:6px;font-family:Arial,sans-serif;min-width:320px}.quote input{padding:10px;width:100%;margin:8px 0}
.wrap{max-width:1120px;margin:0 auto;padding:28px;font-family:Arial,sans-serif}.grid{display:grid;grid-template-columns:repeat(4,1fr);gap:18px}
.card{border:1px solid #dfe6ea;border-radius:6px;padding:18px;background:#fff}
.btn{display:inline-block;padding:11px 20px;border-radius:3px;background:#0b9bb3;color:#fff;border:0;font:bold 15px Arial,sans-serif;text-decoration:none;cursor:pointer}
.btn.o{background:#fff;color:#0b3c49;border:1px solid #0b3c49}
footer{background:#f1f5f7;padding:36px 34px;font:13px Arial,sans-serif;margin-top:30px}footer .cols{display:grid;grid-template-columns:repeat(6,1fr);gap:16px;max-width:1120px;margin:auto}
footer a{display:block;color:#30444f;text-decoration:none;padding:3px 0}footer h4{margin:0 0 8px}
.box{max-width:460px;margin:40px auto;border:1px solid #dfe6ea;padding:30px;border-radius:6px;font-family:Arial,sans-serif}
.box input[type=text],.box input[type=password]{width:100%;padding:11px;margin:6px 0 14px;border:1px solid #8a9ba5;border-radius:3px;font-size:15px}
.err{background:#fdeaea;color:#9b1c1c;padding:10px;margin-bottom:12px}
.acc{display:flex;gap:26px}.side{width:230px;border-right:1px solid #dfe6ea}.side a{display:block;padding:10px;color:#1b2a33;text-decoration:none}.side a.on{font-weight:bold;color:#0b6e80;border-left:3px solid #0b9bb3}
table{width:100%;border-collapse:collapse}th,td{padding:11px;border-bottom:1px solid #e4eaee;text-align:left;font-size:14px}th{background:#f1f5f7}
.crumb{font-size:13px;color:#5a6b75;margin-bottom:10px}.chat{position:fixed;bottom:18px;right:18px;background:#0b9bb3;color:#fff;padding:12px 18px;border-radius:22px;font:bold 14px Arial;z-index:50}
"""

UC = """<div id="usercentrics-root" data-settings-id="hL7qz-PkR"></div>
<script>(function(){var host=document.getElementById('usercentrics-root');var root=host.attachShadow({mode:'open'});
root.innerHTML='<style>.b{position:fixed;left:24px;bottom:24px;width:420px;background:#fff;border-radius:10px;box-shadow:0 8px 40px rgba(0,0,0,.3);padding:22px;font:14px Arial,sans-serif;z-index:2147483647;color:#222}'+
'.b h2{font-size:18px;margin:0 0 8px}.r{display:flex;gap:8px;margin-top:14px}.r button{flex:1;padding:11px 8px;border-radius:6px;border:1px solid #0b3c49;font-weight:bold;cursor:pointer;background:#fff;color:#0b3c49}'+
'.r button.p{background:#0b3c49;color:#fff}.s{display:none}.s label{display:flex;justify-content:space-between;padding:8px 0;border-bottom:1px solid #eee}</style>'+
'<div class="b" role="dialog" aria-label="Privacy Settings" data-testid="uc-default-banner"><h2>Privacy Settings</h2><p>We use cookies and similar technologies to run this website, measure its performance and, with your consent, show you relevant offers from Harborline and our partners. You can change your choice at any time under "Privacy Settings" in the footer.</p>'+
'<div class="s" id="uc-s"><label>Essential <input type="checkbox" checked disabled></label><label>Functional <input type="checkbox" class="o" value="functional"></label><label>Marketing <input type="checkbox" class="o" value="marketing"></label><label>Analytics <input type="checkbox" class="o" value="analytics"></label></div>'+
'<div class="r"><button type="button" data-testid="uc-more-button" id="m">Settings</button><button type="button" data-testid="uc-deny-all-button" id="d">Deny</button><button type="button" class="p" data-testid="uc-accept-all-button" id="a">Accept All</button></div></div>';
function send(c,on){fetch('/uc/consent',{method:'POST',headers:{'Content-Type':'application/json'},body:JSON.stringify({choice:c,services:on})}).then(function(){host.remove();});}
var all=['functional','marketing','analytics'];
root.getElementById('a').onclick=function(){send('accept',all);};root.getElementById('d').onclick=function(){send('reject',[]);};
root.getElementById('m').onclick=function(){var s=root.getElementById('uc-s');if(s.style.display==='block'){var on=[].filter.call(root.querySelectorAll('.o'),function(x){return x.checked}).map(function(x){return x.value});send(on.length?(on.length===3?'accept':'custom'):'reject',on);}else{s.style.display='block';this.textContent='Save';}};
})();</script>"""

FOOT = {"Insurance": ["Auto", "Home", "Renters", "Condo", "Umbrella", "Motorcycle", "Boat", "Pet"],
        "Claims": ["File a claim", "Track a claim", "Roadside assistance", "Glass repair", "Claims guarantee"],
        "Customers": ["Pay my bill", "Pay as guest", "Get ID cards", "Go paperless", "Mobile app", "Find an agent"],
        "Company": ["About us", "Careers", "Newsroom", "Investors", "Community", "Diversity"],
        "Partners": ["Agent & broker login", "Become an agent", "Vendors", "Affinity partners"],
        "Legal": ["Privacy", "Privacy Settings", "Terms of use", "Accessibility", "Do not sell my info", "Licenses"]}
FOOT_HREF = {"Agent & broker login": "/agents/login", "Pay as guest": "/pay/guest", "Pay my bill": "/login"}

PERSON = '<svg width="20" height="20" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true"><circle cx="12" cy="8" r="4"/><path d="M4 21c0-4 4-6 8-6s8 2 8 6"/></svg>'


def layout(req, title, body, logged=False):
    foot = "".join("<div><h4>%s</h4>%s</div>" % (k, "".join('<a href="%s">%s</a>' % (FOOT_HREF.get(i, "/" + slug(i)), esc(i)) for i in v)) for k, v in FOOT.items())
    if logged:
        right = '<a href="/account/messages">Messages</a><a href="/logout">Log out</a>'
    else:
        right = ('<a href="/find-an-agent">Find an agent</a><a href="/agents/login">Agent &amp; broker login</a><a href="/claims">Claims</a>'
                 '<a class="ico" href="/login" aria-label="Login" title="Login to your account">%s</a>' % PERSON)
    return """<!doctype html><html lang="en-US"><head><meta charset="utf-8"><title>%s | Harborline Insurance</title><style>%s</style></head><body>
<div class="alert">Severe weather in the Midwest? <a href="/claims">Report damage 24/7</a>.</div>
<header><a class="logo" href="/">Harbor<span>line</span></a><nav><a href="/auto">Auto</a><a href="/home-insurance">Home</a><a href="/renters">Renters</a><a href="/bundles">Bundle &amp; save</a><a href="/resources">Resources</a></nav><div class="hr">%s</div></header>
%s<footer><div class="cols">%s</div><p style="max-width:1120px;margin:20px auto 0">© 2026 Harborline Mutual Insurance Company, Portland, ME. Coverage subject to policy terms.</p></footer>
<div class="chat">Ask Harbor</div>%s</body></html>""" % (esc(title), CSS, right, body, foot, "" if "uc_consent" in req.cookies else UC)


def home(req):
    arts = ["What does full coverage mean?", "How to lower your car insurance", "Home inventory checklist", "Understanding deductibles", "Teen driver tips",
            "Flood insurance basics", "Bundling home and auto", "What is umbrella insurance?", "Hail damage: next steps", "Winterize your home"]
    al = "".join('<li><a href="/resources/%s">%s</a></li>' % (slug(a), esc(a)) for a in arts)
    cards = "".join('<div class="card"><h3>%s</h3><p>%s</p><a href="/%s">Learn more</a></div>' % (a, b, slug(a)) for a, b in [
        ("Auto", "Drivers who switch save $512 on average."), ("Home", "Replacement cost coverage as standard."), ("Renters", "From $9/month."), ("Umbrella", "Extra liability protection.")])
    body = """<section class="hero"><div><h1>Coverage that shows up.</h1><p style="font-size:19px">Auto, home and renters insurance from a mutual that answers to members, not shareholders.</p></div>
<div class="quote"><b>Get a quote</b><input placeholder="ZIP code"><select style="padding:10px;width:100%%"><option>Auto</option><option>Home</option><option>Renters</option></select><br><br><a class="btn" href="/quote">Start quote</a></div></section>
<div class="wrap"><div class="grid">%s</div><div class="card" style="margin-top:20px"><h3>Insurance 101</h3><ul style="columns:2">%s</ul></div></div>""" % (cards, al)
    return layout(req, "Auto & Home Insurance", body)


def login(req, err=""):
    e = '<div class="err" role="alert">%s</div>' % err if err else ""
    body = """<div class="box"><h1>Log in</h1>%s<form method="post" action="/login"><label for="cn">Customer number</label><input type="text" id="cn" name="customerNumber" inputmode="numeric" value="%s">
<label for="pw">Password</label><input type="password" id="pw" name="password"><label><input type="checkbox" name="remember"> Remember my customer number</label><br><br>
<button class="btn" type="submit" style="width:100%%">Log in</button></form><p style="font-size:13px"><a href="/login/help">Forgot customer number or password?</a></p>
<p style="font-size:13px">Don't have an online account? <a href="/register">Register now</a><br>Just want to make a payment? <a href="/pay/guest">Pay as guest</a><br>Agent? <a href="/agents/login">Agent &amp; broker login</a></p></div>""" % (
        e, esc(req.form.get("customerNumber", "")))
    return layout(req, "Log in", body)


def acc(req, active, body):
    items = [("Overview", "/account"), ("Policies", "/account/policies"), ("Billing", "/account/billing"), ("Documents & statements", "/account/documents"),
             ("Claims", "/account/claims"), ("Profile", "/account/profile")]
    side = "".join('<a href="%s"%s>%s</a>' % (h, ' class="on"' if n == active else "", esc(n)) for n, h in items)
    return layout(req, active, '<div class="wrap"><div class="acc"><nav class="side">%s</nav><main style="flex:1">%s</main></div></div>' % (side, body), logged=True)


def overview(req):
    body = """<h1>Welcome back, Megan</h1><div class="grid" style="grid-template-columns:repeat(3,1fr)"><div class="card"><b>Auto</b><br>HA-AUT-7710392<br>2022 Subaru Outback</div>
<div class="card"><b>Homeowners</b><br>HA-HOM-2209184<br>14 Birch Lane, Portland ME</div><div class="card"><b>Next payment</b><br>$156.75 due Dec 3, 2026</div></div>
<div class="card" style="margin-top:18px"><h3>Recent documents</h3><ul><li>Billing statement - auto (Nov 18, 2026)</li><li>Payment receipt (Nov 3, 2026)</li></ul><a href="/account/documents">View all documents</a></div>"""
    return acc(req, "Overview", body)


PAGE = 8


def row(d):
    return '<tr class="doc"><td class="d">%s</td><td class="t">%s</td><td>%s</td><td class="ref">%s</td><td class="amt">%s</td><td><a href="/account/documents/%s.pdf">View PDF</a></td></tr>' % (
        us_date(d["date"]), d["type"], esc(d["title"]), d["id"], usd(d["amount"]) if d["amount"] is not None else "—", d["id"])


def documents(req):
    rows = "".join(row(d) for d in DOCS[:PAGE])
    body = """<div class="crumb"><a href="/account">My account</a> / Documents &amp; statements</div><h1>Documents &amp; statements</h1>
<p>Documents from the last 24 months. Showing <span id="shown">%d</span> of <span id="total">%d</span>.</p>
<table id="docs"><thead><tr><th>Date</th><th>Type</th><th>Description</th><th>Document #</th><th>Amount</th><th></th></tr></thead><tbody>%s</tbody></table>
<p style="text-align:center"><button class="btn o" id="more" type="button">Load more</button></p>
<script>var off=%d;document.getElementById('more').onclick=function(){var b=this;b.disabled=true;b.textContent='Loading...';
fetch('/account/api/documents?offset='+off+'&limit=%d').then(function(r){return r.json()}).then(function(d){
document.querySelector('#docs tbody').insertAdjacentHTML('beforeend',d.html);off+=d.count;document.getElementById('shown').textContent=off;
if(d.more){b.disabled=false;b.textContent='Load more';}else{b.remove();}});};</script>""" % (min(PAGE, len(DOCS)), len(DOCS), rows, PAGE, PAGE)
    return acc(req, "Documents & statements", body)


class App(BaseApp):
    COOKIE = "HL_AUTH"

    def route(self, req):
        p = req.path
        s = self.sess(req)
        if p == "/uc/consent" and req.method == "POST":
            d = req.json or {}
            c = self.consent_event(d.get("choice"), [x for x in d.get("services") or [] if isinstance(x, str)])
            return self.json({"ok": True}, cookies=["uc_consent=%s; Path=/; Max-Age=31536000" % c])
        if p == "/":
            return self.html(home(req))
        if p == "/login":
            if req.method == "POST":
                u = req.form.get("customerNumber", "").strip()
                ok = u.replace("-", "").replace(" ", "") == USER["customer"] and req.form.get("password", "") == USER["password"]
                self.log({"kind": "credential", "form": "customer-login", "target": "account", "username": u, "ok": ok})
                if not ok:
                    return self.html(login(req, "The customer number or password you entered is incorrect."))
                sid = self.new_sess({"user": USER["customer"]})
                return self.redirect("/account", ["%s=%s; Path=/; HttpOnly" % (self.COOKIE, sid)])
            return self.html(login(req))
        if p in ("/agents/login", "/pay/guest", "/register"):
            return self.decoy(req)
        if p == "/logout":
            self.sessions.pop(req.cookies.get(self.COOKIE), None)
            return self.redirect("/")
        if p.startswith("/account"):
            if not s:
                return self.redirect("/login")
            if p == "/account":
                return self.html(overview(req))
            if p == "/account/documents":
                return self.html(documents(req))
            if p == "/account/api/documents":
                off = int(req.q.get("offset", "0") or 0)
                lim = min(int(req.q.get("limit", "8") or 8), 20)
                chunk = DOCS[off:off + lim]
                return self.json({"html": "".join(row(d) for d in chunk), "count": len(chunk), "more": off + lim < len(DOCS)})
            if p.startswith("/account/documents/") and p.endswith(".pdf"):
                self.log({"kind": "download", "path": p})
                return self.pdf(p.rsplit("/", 1)[1], _pdf("Harborline Insurance", ["Document " + p.rsplit("/", 1)[1][:-4], "Named insured: Megan Olsen"]))
            return self.html(acc(req, "Overview", "<h1>This section is temporarily unavailable</h1>"))
        return self.html(layout(req, "Harborline", '<div class="wrap"><h1>%s</h1><p>Content coming soon.</p></div>' % esc(p.strip("/").split("/")[-1].replace("-", " ").capitalize() or "Page")))

    def decoy(self, req):
        cfg = {"/agents/login": ("agent-broker-portal", "Agent & broker login", "Agent ID"), "/pay/guest": ("guest-payment", "Pay as guest", "Policy number"),
               "/register": ("register", "Create your online account", "Customer number")}
        form, title, lab = cfg[req.path]
        err = ""
        if req.method == "POST":
            self.log({"kind": "credential", "form": form, "target": "decoy", "username": req.form.get("ident", ""), "ok": False})
            err = '<div class="err">We could not verify those details.</div>'
        second = '<label>ZIP code<input type="text" name="zip"></label>' if req.path == "/pay/guest" else '<label>Password<input type="password" name="password"></label>'
        return self.html(layout(req, title, '<div class="box"><h1>%s</h1>%s<form method="post"><label>%s<input type="text" name="ident"></label>%s<button class="btn" type="submit">Continue</button></form></div>' % (title, err, lab, second)))


def make_app():
    return App()
