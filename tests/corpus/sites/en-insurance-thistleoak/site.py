"""Thistle & Oak - fixture imitating a UK home & motor insurer customer portal (My Account)."""
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


def uk_date(iso):
    y, m, d = iso.split("-")
    return "%d %s %s" % (int(d), ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][int(m) - 1], y)


def gbp(a):
    return ("-" if a < 0 else "") + "£{:,.2f}".format(abs(a))


def uk_num(iso):
    y, m, d = iso.split("-")
    return "%s/%s/%s" % (d, m, y)


# ---------------------------------------------------------------- data
USER = {"username": "r.mackenzie", "password": "Thistle&Oak-2026", "name": "Rory Mackenzie"}


def _build():
    docs = []
    qe = {1: "03-31", 2: "06-30", 3: "09-30", 4: "12-31"}
    amt = {2024: [187.40, 187.40, 191.15, 191.15], 2025: [203.60, 203.60, 203.60, 210.05], 2026: [219.30, 219.30, 224.85]}
    seq = 40
    for y in (2024, 2025, 2026):
        for q in range(1, 5):
            if y == 2026 and q == 4:
                break
            seq += 7
            docs.append({"id": "PS-%04d-%d" % (seq, y), "kind": "Premium statement", "date": "%d-%s" % (y, qe[q]), "amount": amt[y][q - 1],
                         "title": "Quarterly premium statement Q%d %d (home & motor)" % (q, y)})
    for y in (2024, 2025, 2026):
        docs.append({"id": "RN-HM-%d" % y, "kind": "Renewal notice", "date": "%d-02-10" % y, "amount": None, "title": "Home & motor renewal invitation"})
        docs.append({"id": "SCH-HM-%d" % y, "kind": "Policy schedule", "date": "%d-03-01" % y, "amount": None, "title": "Policy schedule and certificate of motor insurance"})
    docs.append({"id": "MTA-0192", "kind": "Mid-term adjustment", "date": "2025-09-14", "amount": 26.45, "title": "Change of vehicle - additional premium"})
    docs.append({"id": "PCN-2026-07", "kind": "Notice", "date": "2026-07-01", "amount": None, "title": "Insurance Premium Tax change notice"})
    docs.sort(key=lambda d: (d["date"], d["id"]), reverse=True)
    return docs


DOCS = _build()

# ---------------------------------------------------------------- pages
CSS = """
*{box-sizing:border-box}body{margin:0;font-family:'Gill Sans','Trebuchet MS',Arial,sans-serif;color:#233023;background:#f6f5ef}
a{color:#2f6b3a}.top{background:#233023;color:#dfe6d8;font-size:12px;padding:7px 30px;display:flex;gap:16px}.top a{color:#dfe6d8;text-decoration:none}.top .r{margin-left:auto;display:flex;gap:14px}
header{background:#fff;display:flex;align-items:center;height:74px;padding:0 30px;gap:26px;border-bottom:1px solid #ddd}.logo{font:bold 23px Georgia,serif;color:#233023;text-decoration:none}.logo i{color:#7a3e8c;font-style:normal}
header nav a{color:#233023;text-decoration:none;margin-right:16px}.hr{margin-left:auto;display:flex;gap:14px;align-items:center}.hr a{text-decoration:none;color:#233023;font-size:14px}
.pill{background:#2f6b3a;color:#fff!important;padding:10px 18px;border-radius:4px;font-weight:bold}.hero{background:#2f6b3a;color:#fff;padding:60px 30px}.hero h1{font-size:40px;margin:0 0 10px}
.wrap{max-width:1120px;margin:0 auto;padding:26px}.g{display:grid;grid-template-columns:repeat(3,1fr);gap:18px}.card{background:#fff;padding:20px;border-radius:4px;border:1px solid #e3e1d6}
.btn{display:inline-block;padding:10px 18px;border-radius:4px;border:1px solid #2f6b3a;background:#2f6b3a;color:#fff;font-weight:bold;cursor:pointer;text-decoration:none;font-size:14px}.btn.o{background:#fff;color:#2f6b3a}
footer{background:#233023;color:#c7d0c0;padding:30px;margin-top:40px;font-size:13px}footer .cols{display:grid;grid-template-columns:repeat(5,1fr);gap:16px;max-width:1120px;margin:auto}footer a{display:block;color:#c7d0c0;text-decoration:none;padding:3px 0}footer h4{color:#fff}
#didomi-host .didomi-popup-notice{position:fixed;right:24px;bottom:24px;width:440px;background:#fff;border-radius:6px;box-shadow:0 8px 34px #0005;padding:22px;z-index:10000;font-size:14px}
#didomi-host .didomi-continue-without-agreeing{position:absolute;top:10px;right:14px;font-size:12px;color:#555;text-decoration:underline}
#didomi-host .didomi-buttons{display:flex;gap:10px;margin-top:14px}#didomi-host .didomi-components-button{flex:1;text-align:center;padding:11px 10px;border-radius:4px;font-weight:bold;text-decoration:none;border:2px solid #7a3e8c;cursor:pointer;font-size:14px;background:#fff;color:#7a3e8c}
#didomi-host .didomi-components-button--highlight{background:#7a3e8c;color:#fff}
.box{max-width:440px;margin:40px auto;background:#fff;padding:30px;border:1px solid #e3e1d6;border-radius:4px}.box input[type=text],.box input[type=password]{width:100%;padding:11px;margin:6px 0 14px;border:1px solid #999;border-radius:3px;font-size:15px}
.err{background:#fbe7e7;color:#8c1d1d;padding:10px;margin-bottom:10px}
.acc{display:flex;gap:24px}.side{width:230px;background:#fff;border:1px solid #e3e1d6;align-self:flex-start}.side a{display:block;padding:11px;color:#233023;text-decoration:none;border-bottom:1px solid #eee}.side a.on{background:#eef3ea;font-weight:bold}
table{width:100%;border-collapse:collapse;background:#fff}th,td{padding:10px;border-bottom:1px solid #e6e6e0;text-align:left;font-size:14px}th{background:#eeede4}.crumb{font-size:13px;color:#667;margin-bottom:10px}
.pgn{display:flex;gap:10px;align-items:center;justify-content:flex-end;margin-top:10px}.pgn button{padding:7px 12px;border:1px solid #2f6b3a;background:#fff;color:#2f6b3a;cursor:pointer;border-radius:3px}.pgn button:disabled{opacity:.4;cursor:default}
"""

FOOT = {"Insurance": ["Car insurance", "Home insurance", "Landlord insurance", "Travel insurance", "Van insurance", "Pet insurance", "Life insurance"],
        "Claims": ["Make a claim", "Track a claim", "Windscreen claims", "Claims FAQs", "Emergency helplines"],
        "Your policy": ["My Account", "Renew my policy", "Change my details", "Pay by card", "Pet insurance login", "Documents explained"],
        "About us": ["Who we are", "Careers", "Reviews", "Charity partners", "Modern slavery statement", "Gender pay gap report"],
        "Legal": ["Privacy notice", "Cookie policy", "Manage cookies", "Terms of business", "Accessibility", "Complaints", "FCA register"]}
FH = {"My Account": "/my-account/login", "Pet insurance login": "/pet/login"}


def didomi(req, back):
    if "didomi_token" in req.cookies:
        return ""
    return """<div id="didomi-host"><div class="didomi-popup-notice" role="dialog" aria-label="Cookie consent">
<a href="/didomi/consent?choice=reject&amp;next=%s" class="didomi-continue-without-agreeing">Continue without accepting &rarr;</a>
<h3 style="margin:10px 0 6px">We care about your privacy</h3><p>Thistle &amp; Oak and our 38 partners store and access information on your device, such as cookies, to measure audiences, personalise advertising and improve our services. You can accept, or customise your choices. Your choice applies to this site only.</p>
<div class="didomi-buttons"><a href="/didomi/preferences?next=%s" class="didomi-components-button" role="button">Learn more</a>
<a href="/didomi/consent?choice=reject&amp;next=%s" class="didomi-components-button" role="button" id="didomi-notice-agree-button">Reject all</a>
<button type="button" class="didomi-components-button didomi-components-button--highlight btn-reject" id="didomi-notice-disagree-button" onclick="location.href='/didomi/consent?choice=accept&amp;next=%s'">Agree and close</button></div></div></div>""" % ((quote(back, safe=""),) * 4)


def layout(req, title, body, logged=False):
    foot = "".join("<div><h4>%s</h4>%s</div>" % (k, "".join('<a href="%s">%s</a>' % (FH.get(i, "/" + slug(i)), esc(i)) for i in v)) for k, v in FOOT.items())
    right = ('<a href="/my-account/messages">Messages</a><a href="/logout">Log out</a>' if logged else
             '<a href="/claims">Make a claim</a><a href="/pet/login">Pet insurance login</a><a href="/my-account/register">Register</a><a class="pill" href="/my-account/login">My Account</a>')
    back = req.path + ("?" + req.env.get("QUERY_STRING") if req.env.get("QUERY_STRING") else "")
    return """<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><title>%s | Thistle &amp; Oak Insurance</title><style>%s</style></head><body>
<div class="top"><a href="/">Personal</a><a href="/business">Business</a><a href="/brokers">Brokers</a><div class="r"><a href="/help">Help &amp; support</a><a href="/contact">Contact us</a></div></div>
<header><a class="logo" href="/">Thistle <i>&amp;</i> Oak</a><nav><a href="/car-insurance">Car</a><a href="/home-insurance">Home</a><a href="/travel-insurance">Travel</a><a href="/pet-insurance">Pet</a><a href="/life-insurance">Life</a><a href="/guides">Guides</a></nav><div class="hr">%s</div></header>
%s<footer><div class="cols">%s</div><p style="max-width:1120px;margin:20px auto 0">Thistle &amp; Oak Insurance plc is authorised by the Prudential Regulation Authority and regulated by the Financial Conduct Authority (FRN 700123). Registered in Scotland SC410022, 8 Charlotte Square, Edinburgh EH2 4DR.</p></footer>%s</body></html>""" % (
        esc(title), CSS, right, body, foot, didomi(req, back))


def home(req):
    cards = "".join('<div class="card"><h3>%s</h3><p>%s</p><a class="btn" href="/%s/quote">Get a quote</a></div>' % (a, b, slug(a)) for a, b in [
        ("Car insurance", "Defaqto 5-star cover, 24/7 claims line."), ("Home insurance", "Buildings and contents, up to £1m."), ("Travel insurance", "Single trip and annual multi-trip.")])
    body = """<section class="hero"><h1>Insurance with roots.</h1><p>Protecting Scottish homes and drivers since 1897.</p><a class="btn o" href="/car-insurance/quote">Get a car quote</a></section>
<div class="wrap"><div class="g">%s</div><div class="g" style="margin-top:18px"><div class="card"><h3>Existing customers</h3><p>View your documents and make changes in My Account.</p><a href="/my-account/login">Log in to My Account</a></div>
<div class="card"><h3>Pet insurance customers</h3><p>Pet policies are managed in our separate pet portal.</p><a href="/pet/login">Pet insurance login</a></div><div class="card"><h3>Guides</h3><ul><li><a href="/guides/no-claims-discount">No claims discount explained</a></li><li><a href="/guides/storm-damage">Storm damage</a></li><li><a href="/guides/ipt">What is Insurance Premium Tax?</a></li></ul></div></div></div>""" % cards
    return layout(req, "Car, home & travel insurance", body)


def login(req, err=""):
    e = '<div class="err" role="alert">%s</div>' % err if err else ""
    body = """<div class="box"><h1>My Account</h1><p>Log in to view your policies and documents.</p>%s<form method="post" action="/my-account/login"><label for="u">Username</label><input type="text" id="u" name="username" value="%s">
<label for="p">Password</label><input type="password" id="p" name="password"><label><input type="checkbox" name="remember"> Remember me on this device</label><br><br><button class="btn" type="submit" style="width:100%%">Log in</button></form>
<p style="font-size:13px"><a href="/my-account/forgot">Forgotten your username or password?</a><br>No account yet? <a href="/my-account/register">Register</a><br>Insured your pet with us? <a href="/pet/login">Use the pet insurance login</a></p></div>""" % (e, esc(req.form.get("username", "")))
    return layout(req, "Log in", body)


def acc(req, active, body):
    items = [("Dashboard", "/my-account/"), ("My policies", "/my-account/policies"), ("Documents", "/my-account/documents"), ("Payments", "/my-account/payments"), ("Claims", "/my-account/claims"), ("My details", "/my-account/details")]
    side = "".join('<a href="%s"%s>%s</a>' % (h, ' class="on"' if n == active else "", esc(n)) for n, h in items)
    return layout(req, active, '<div class="wrap"><div class="acc"><nav class="side">%s</nav><main style="flex:1">%s</main></div></div>' % (side, body), logged=True)


def docs_page(req):
    body = """<div class="crumb"><a href="/my-account/">My Account</a> › Documents</div><h1>Documents</h1><p>All documents for policy TO-HM-5520174 (home &amp; motor).</p>
<table id="docs"><thead><tr><th>Date</th><th>Document type</th><th>Description</th><th>Reference</th><th>Amount</th><th></th></tr></thead><tbody><tr><td colspan="6">Loading…</td></tr></tbody></table>
<div class="pgn"><button type="button" id="prev">‹ Previous</button><span id="pginfo"></span><button type="button" id="next">Next ›</button></div>
<script>var page=1;function load(){var tb=document.querySelector('#docs tbody');tb.innerHTML='<tr><td colspan="6">Loading…</td></tr>';
fetch('/my-account/api/documents?page='+page+'&size=5').then(function(r){return r.json()}).then(function(d){tb.innerHTML='';d.items.forEach(function(x){var tr=document.createElement('tr');tr.className='docrow';
tr.innerHTML='<td class="date">'+x.date+'</td><td class="type">'+x.type+'</td><td>'+x.title+'</td><td class="ref">'+x.ref+'</td><td class="amount">'+(x.amount||'')+'</td><td><a href="'+x.url+'">Download</a></td>';tb.appendChild(tr);});
document.getElementById('pginfo').textContent='Page '+d.page+' of '+d.pages;document.getElementById('prev').disabled=d.page<=1;document.getElementById('next').disabled=d.page>=d.pages;});}
document.getElementById('prev').onclick=function(){page--;load();};document.getElementById('next').onclick=function(){page++;load();};load();</script>"""
    return acc(req, "Documents", body)


class App(BaseApp):
    COOKIE = "TOSESSION"

    def route(self, req):
        p = req.path
        s = self.sess(req)
        nxt = req.q.get("next", "/")
        if not nxt.startswith("/") or nxt.startswith("//"):
            nxt = "/"
        if p == "/didomi/consent":
            c = req.q.get("choice", "reject")
            on = ["audience_measurement", "personalised_ads", "social_media"] if c == "accept" else [x for x in req.q.get("purposes", "").split(",") if x]
            if c == "custom" and not on:
                c = "reject"
            c = self.consent_event(c, on if c != "reject" else [])
            return self.redirect(nxt, ["didomi_token=%s; Path=/; Max-Age=15552000" % c])
        if p == "/didomi/preferences":
            body = """<div class="box" style="max-width:560px"><h1>Your consent choices</h1><form method="get" action="/didomi/consent"><input type="hidden" name="choice" value="custom"><input type="hidden" name="next" value="%s">
<p><label><input type="checkbox" name="p1" checked disabled> Strictly necessary</label></p><p><label><input type="checkbox" class="pp" value="audience_measurement"> Audience measurement</label></p><p><label><input type="checkbox" class="pp" value="personalised_ads"> Personalised advertising</label></p>
<input type="hidden" name="purposes" id="purposes"><button class="btn" type="submit" onclick="document.getElementById('purposes').value=[].filter.call(document.querySelectorAll('.pp'),function(x){return x.checked}).map(function(x){return x.value}).join(',')">Save</button>
<a class="btn o" href="/didomi/consent?choice=reject&amp;next=%s">Disagree to all</a></form></div>""" % (esc(nxt), quote(nxt, safe=""))
            return self.html(layout(req, "Cookie preferences", body))
        if p == "/":
            return self.html(home(req))
        if p == "/my-account/login":
            if req.method == "POST":
                u = req.form.get("username", "").strip()
                ok = u.lower() == USER["username"] and req.form.get("password", "") == USER["password"]
                self.log({"kind": "credential", "form": "my-account-login", "target": "account", "username": u, "ok": ok})
                if not ok:
                    return self.html(login(req, "Your username or password is incorrect. 3 attempts remaining."))
                sid = self.new_sess({"user": USER["username"]})
                return self.redirect("/my-account/", ["%s=%s; Path=/; HttpOnly" % (self.COOKIE, sid)])
            return self.html(login(req))
        if p in ("/pet/login", "/my-account/register"):
            form, title = ("pet-portal-login", "Pet insurance - policyholder login") if p == "/pet/login" else ("register", "Register for My Account")
            err = ""
            if req.method == "POST":
                self.log({"kind": "credential", "form": form, "target": "decoy", "username": req.form.get("username", ""), "ok": False})
                err = '<div class="err">Those details don\'t match our records.</div>'
            return self.html(layout(req, title, '<div class="box"><h1>%s</h1>%s<form method="post"><label>%s<input type="text" name="username"></label><label>Password<input type="password" name="password"></label><button class="btn" type="submit">Continue</button></form></div>' % (
                title, err, "Email or pet policy number" if form.startswith("pet") else "Choose a username")))
        if p == "/logout":
            self.sessions.pop(req.cookies.get(self.COOKIE), None)
            return self.redirect("/")
        if p.startswith("/my-account/"):
            if not s:
                return self.redirect("/my-account/login")
            if p == "/my-account/":
                body = '<h1>Hello Rory</h1><div class="g"><div class="card"><b>Home &amp; motor</b><br>TO-HM-5520174<br>Renews 01/03/2027</div><div class="card"><b>Next collection</b><br>Direct Debit 31/12/2026</div><div class="card"><b>Latest document</b><br>%s<br><a href="/my-account/documents">All documents</a></div></div>' % esc(DOCS[0]["title"])
                return self.html(acc(req, "Dashboard", body))
            if p == "/my-account/documents":
                return self.html(docs_page(req))
            if p == "/my-account/api/documents":
                size = min(max(int(req.q.get("size", "5") or 5), 1), 25)
                pages = (len(DOCS) + size - 1) // size
                pg = min(max(int(req.q.get("page", "1") or 1), 1), pages)
                items = [{"date": uk_num(d["date"]), "type": d["kind"], "title": esc(d["title"]), "ref": d["id"], "amount": gbp(d["amount"]) if d["amount"] is not None else None,
                          "url": "/my-account/documents/%s.pdf" % d["id"]} for d in DOCS[(pg - 1) * size:pg * size]]
                return self.json({"page": pg, "pages": pages, "items": items})
            if p.startswith("/my-account/documents/") and p.endswith(".pdf"):
                self.log({"kind": "download", "path": p})
                return self.pdf(p.rsplit("/", 1)[1], _pdf("Thistle & Oak Insurance", ["Document " + p.rsplit("/", 1)[1][:-4], "Policyholder: Rory Mackenzie"]))
            return self.html(acc(req, "Dashboard", "<h1>Coming soon</h1>"))
        return self.html(layout(req, "Thistle & Oak", '<div class="wrap"><h1>%s</h1><p>Content coming soon.</p></div>' % esc(p.strip("/").split("/")[-1].replace("-", " ").capitalize() or "Page")))


def make_app():
    return App()
