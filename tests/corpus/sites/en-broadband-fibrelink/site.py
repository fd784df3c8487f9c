"""FibreLink - fixture imitating a UK full-fibre broadband provider customer area (My FibreLink)."""
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


# ---------------------------------------------------------------- data
USER = {"username": "dmorgan84", "password": "Fibre-Link#7731", "name": "Daniel Morgan", "account": "FL-30918274"}


def _build_bills():
    bills = []
    price = {2024: 32.00, 2025: 34.50, 2026: 36.99}
    n = 552810
    for y in (2024, 2025, 2026):
        for m in range(1, 13):
            if y == 2026 and m == 12:
                break
            n += 37 + m
            amt = price[y]
            if (y, m) in ((2025, 3), (2025, 8), (2026, 2)):
                amt += 4.99  # pay-per-view / engineer visit
            if (y, m) == (2025, 11):
                amt += 65.00
            bills.append({"id": "INV-%d" % n, "type": "Bill", "date": "%d-%02d-14" % (y, m), "amount": round(amt, 2),
                          "period": "%s - %s" % (uk_date("%d-%02d-14" % (y, m)), uk_date("%d-%02d-13" % (y + (m == 12), m % 12 + 1)))})
    bills.append({"id": "CRN-20913", "type": "Credit note", "date": "2025-06-02", "amount": -18.00, "period": "Service outage credit"})
    bills.append({"id": "CRN-21577", "type": "Credit note", "date": "2026-04-21", "amount": -10.00, "period": "Loyalty credit"})
    bills.sort(key=lambda b: b["date"], reverse=True)
    return bills


BILLS = _build_bills()

# ---------------------------------------------------------------- pages
CSS = """
*{box-sizing:border-box}body{margin:0;font-family:'Segoe UI',Roboto,Arial,sans-serif;color:#231942;background:#fafaff}
a{color:#5b2bd6}header{background:#231942;color:#fff;display:flex;align-items:center;height:64px;padding:0 28px;gap:28px;position:relative}
.logo{color:#fff;font-size:23px;font-weight:800;text-decoration:none}.logo b{color:#ff5fa2}
header nav a{color:#e8e3ff;text-decoration:none;margin-right:18px;font-weight:600}.hr{margin-left:auto;display:flex;gap:14px;align-items:center}
.hr a{color:#e8e3ff;text-decoration:none;font-size:14px}.iconbtn{background:none;border:2px solid #8f7bff;border-radius:50%;width:40px;height:40px;color:#fff;cursor:pointer;display:flex;align-items:center;justify-content:center}
#acct-menu{display:none;position:absolute;right:20px;top:60px;background:#fff;color:#231942;border-radius:10px;box-shadow:0 10px 30px #0004;width:270px;z-index:50;padding:10px}
#acct-menu.open{display:block}#acct-menu a,#acct-menu button.lnk{display:block;padding:10px 12px;color:#231942;text-decoration:none;border-radius:6px;background:none;border:0;width:100%;text-align:left;font-size:15px;cursor:pointer}
#acct-menu a:hover,#acct-menu button.lnk:hover{background:#f0ecff}#acct-menu hr{border:0;border-top:1px solid #eee}
.hero{background:linear-gradient(110deg,#231942,#5b2bd6);color:#fff;padding:64px 28px}.hero h1{font-size:44px;margin:0 0 12px}
.wrap{max-width:1160px;margin:0 auto;padding:26px}.grid{display:grid;grid-template-columns:repeat(3,1fr);gap:20px}
.card{background:#fff;border-radius:14px;padding:20px;box-shadow:0 2px 10px #2319421a}.big{font-size:34px;font-weight:800}
.btn{display:inline-block;border:0;border-radius:8px;padding:11px 20px;font-weight:700;cursor:pointer;text-decoration:none;font-size:15px}
.btn-p{background:#ff5fa2;color:#fff}.btn-s{background:#fff;color:#5b2bd6;border:2px solid #5b2bd6}.btn-d{background:#231942;color:#fff}
footer{background:#150f2b;color:#bdb3e6;margin-top:40px;padding:34px 28px;font-size:13px}footer .cols{display:grid;grid-template-columns:repeat(5,1fr);gap:20px;max-width:1160px;margin:0 auto}
footer a{color:#bdb3e6;display:block;padding:3px 0;text-decoration:none}footer h4{color:#fff;margin:0 0 8px}
.wm input{width:100%;padding:7px;margin:3px 0;border-radius:5px;border:0}.wm button{margin-top:4px}
#cky-bar{position:fixed;left:0;right:0;bottom:0;background:#fff;color:#222;box-shadow:0 -2px 16px #0003;padding:18px 30px;z-index:900;display:flex;gap:14px;align-items:center;font-size:14px}
#cky-bar p{flex:1;margin:0}.cky-btn{border:2px solid #5b2bd6;background:#fff;color:#5b2bd6;padding:9px 16px;border-radius:6px;font-weight:700;cursor:pointer}
.cky-btn.acc{background:#5b2bd6;color:#fff}#cky-pref{display:none;position:fixed;inset:0;background:#0007;z-index:901}
#cky-pref .in{background:#fff;width:560px;margin:10vh auto;padding:24px;border-radius:8px}.cky-row{display:flex;justify-content:space-between;padding:10px 0;border-bottom:1px solid #eee}
#login-modal{display:none;position:fixed;inset:0;background:#0009;z-index:800}#login-modal .in{background:#fff;width:420px;margin:12vh auto;padding:28px;border-radius:12px;position:relative}
#login-modal input[type=text],#login-modal input[type=password]{width:100%;padding:11px;margin:6px 0 14px;border:1px solid #bbb;border-radius:6px;font-size:15px}
.err{background:#ffe3ea;color:#a0003a;padding:9px;border-radius:6px;margin-bottom:10px}.x{position:absolute;right:14px;top:10px;background:none;border:0;font-size:22px;cursor:pointer}
.acc{display:flex;gap:24px}.side{width:220px}.side a{display:block;padding:10px;border-radius:8px;text-decoration:none;color:#231942}.side a.on{background:#ece6ff;font-weight:700}
table{width:100%;border-collapse:collapse;background:#fff}th,td{text-align:left;padding:11px;border-bottom:1px solid #eee;font-size:14px}th{background:#f3f0ff}
.crumb{font-size:13px;margin-bottom:10px;color:#666}.chat{position:fixed;left:20px;bottom:20px;background:#ff5fa2;color:#fff;border-radius:50%;width:56px;height:56px;display:flex;align-items:center;justify-content:center;font-size:24px;z-index:700}
.promo{background:#ffe0ef;padding:8px 28px;font-size:14px;text-align:center}
"""

PERSON_SVG = '<svg width="20" height="20" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true"><circle cx="12" cy="8" r="4"/><path d="M4 21c0-4 4-6 8-6s8 2 8 6"/></svg>'

FOOT = {
    "Broadband": ["Full fibre 150", "Full fibre 500", "Full fibre 900", "Gigabit 2000", "Broadband & phone", "Check availability", "Moving home"],
    "TV & Extras": ["FibreLink TV", "Sports add-on", "Mesh Wi-Fi", "Static IP", "Security suite", "Landline packs"],
    "Help": ["Help centre", "Service status", "Set up your router", "Understanding your bill", "Ways to pay", "Complaints", "Accessibility", "Contact us"],
    "About": ["About FibreLink", "Careers", "Press", "Our network", "Sustainability", "Modern slavery statement", "Refer a friend", "Business broadband"],
}


def cookie_bar(req):
    if "cky_consent" in req.cookies:
        return ""
    return """<div id="cky-mount"></div>
<script>
setTimeout(function(){
 var m=document.getElementById('cky-mount');
 m.innerHTML='<div id="cky-bar" role="region" aria-label="Cookie consent"><p><b>We value your privacy</b><br>We use cookies to enhance your browsing experience, serve personalised ads or content, and analyse our traffic. By clicking "Accept All", you consent to our use of cookies. <a href="/cookie-policy">Cookie Policy</a></p>'+
 '<button class="cky-btn" type="button" data-cky="customise">Customise</button><button class="cky-btn" type="button" data-cky="reject">Reject All</button><button class="cky-btn acc" type="button" data-cky="accept">Accept All</button></div>'+
 '<div id="cky-pref" role="dialog" aria-label="Customise Consent Preferences"><div class="in"><h3>Customise Consent Preferences</h3>'+
 '<div class="cky-row"><span>Necessary <small>(Always Active)</small></span><input type="checkbox" checked disabled></div>'+
 '<div class="cky-row"><label for="ck-fn">Functional</label><input id="ck-fn" class="ckp" name="functional" type="checkbox"></div>'+
 '<div class="cky-row"><label for="ck-an">Analytics</label><input id="ck-an" class="ckp" name="analytics" type="checkbox"></div>'+
 '<div class="cky-row"><label for="ck-ad">Advertisement</label><input id="ck-ad" class="ckp" name="advertisement" type="checkbox"></div>'+
 '<p><button class="cky-btn" type="button" data-cky="reject">Reject All</button> <button class="cky-btn" type="button" data-cky="save">Save My Preferences</button> <button class="cky-btn acc" type="button" data-cky="accept">Accept All</button></p></div></div>';
 m.addEventListener('click',function(e){var a=e.target.getAttribute&&e.target.getAttribute('data-cky');if(!a)return;
  if(a==='customise'){document.getElementById('cky-pref').style.display='block';return;}
  var all=[].map.call(m.querySelectorAll('.ckp'),function(x){return x.name});
  var on=a==='accept'?all:(a==='reject'?[]:[].filter.call(m.querySelectorAll('.ckp'),function(x){return x.checked}).map(function(x){return x.name}));
  var c=a==='save'?(on.length===0?'reject':(on.length===all.length?'accept':'custom')):a;
  fetch('/api/consent',{method:'POST',headers:{'Content-Type':'application/json'},body:JSON.stringify({choice:c,categories:on})}).then(function(){m.remove();});
 });
}, 2200);
</script>"""


def layout(req, title, body, user=None):
    if user:
        menu = """<a href="/my-account">Account overview</a><a href="/my-account/billing">Bills &amp; payments</a><a href="/my-account/settings">Settings</a><hr><a href="/logout">Sign out</a>"""
        label = "Account menu"
    else:
        menu = """<button class="lnk" type="button" id="open-login" onclick="openLogin()">Sign in to My FibreLink</button>
<a href="/join">Create an account</a><a href="/webmail">Webmail login</a><a href="/business/portal">Business portal</a><hr><a href="/help/sign-in">Trouble signing in?</a>"""
        label = "Account"
    foot = "".join("<div><h4>%s</h4>%s</div>" % (k, "".join('<a href="/%s/%s">%s</a>' % (slug(k), slug(i), esc(i)) for i in v)) for k, v in FOOT.items())
    foot += """<div class="wm"><h4>Webmail</h4><form method="post" action="/webmail/login"><label>Email address<input type="text" name="email" placeholder="you@fibrelink.net"></label>
<label>Password<input type="password" name="password"></label><button class="btn btn-p" type="submit">Log in to Webmail</button></form></div>"""
    return """<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><title>%s | FibreLink</title><style>%s</style></head><body>
<div class="promo">Black Friday: Full fibre 900 for £29.99/month for 24 months. <a href="/deals">See deals</a></div>
<header><a class="logo" href="/">Fibre<b>Link</b></a><nav><a href="/broadband">Broadband</a><a href="/tv">TV</a><a href="/deals">Deals</a><a href="/business">Business</a><a href="/help">Help</a></nav>
<div class="hr"><a href="/check-availability">Check availability</a><a href="/help/contact">Contact</a>
<button class="iconbtn" type="button" aria-label="%s" aria-haspopup="true" aria-expanded="false" id="acct-btn" onclick="var m=document.getElementById('acct-menu');m.classList.toggle('open');this.setAttribute('aria-expanded',m.classList.contains('open'))">%s</button></div>
<div id="acct-menu" role="menu">%s</div></header>
%s
<footer><div class="cols">%s</div><p style="max-width:1160px;margin:24px auto 0">© 2026 FibreLink Networks Ltd. Registered in England and Wales No. 10293847. Unit 4, Canal Wharf, Leeds LS11 5PS.</p></footer>
<div class="chat" title="Chat with us">💬</div>
<div id="login-modal" role="dialog" aria-modal="true" aria-labelledby="lm-t"><div class="in"><button class="x" type="button" aria-label="Close" onclick="document.getElementById('login-modal').style.display='none'">×</button>
<h2 id="lm-t">Sign in to My FibreLink</h2><div id="lm-err"></div>
<form id="login-form" method="post" action="/login"><label for="lm-u">Username</label><input type="text" id="lm-u" name="username" autocomplete="username">
<label for="lm-p">Password</label><input type="password" id="lm-p" name="password" autocomplete="current-password">
<label><input type="checkbox" name="remember" value="1"> Keep me signed in</label><br><br><button class="btn btn-p" type="submit" style="width:100%%">Sign in</button></form>
<p style="font-size:13px"><a href="/help/forgot-username">Forgotten your username?</a> · <a href="/help/reset-password">Reset password</a></p><p style="font-size:13px">New to FibreLink? <a href="/join">Create an account</a></p></div></div>
<script>function openLogin(){document.getElementById('acct-menu').classList.remove('open');document.getElementById('login-modal').style.display='block';document.getElementById('lm-u').focus();}
if(location.hash==='#signin'){openLogin();}</script>
%s</body></html>""" % (esc(title), CSS, label, PERSON_SVG, menu, body, foot, cookie_bar(req))


def home(req):
    plans = [("Full fibre 150", "150Mbps average", "£24.99"), ("Full fibre 500", "500Mbps average", "£27.99"), ("Full fibre 900", "900Mbps average", "£29.99")]
    cards = "".join('<div class="card"><h3>%s</h3><p>%s</p><div class="big">%s</div><p>a month, 24-month contract</p><a class="btn btn-p" href="/broadband/%s">Choose plan</a></div>' % (a, b, c, slug(a)) for a, b, c in plans)
    helps = ["Why is my broadband slow?", "How do I read my bill?", "Change my payment date", "Set up Direct Debit", "Moving house with FibreLink",
             "Reset my router", "Wi-Fi dead spots", "Parental controls", "Price changes in April", "Cancel my contract", "Report a fault", "Set up email on my phone"]
    hl = "".join('<li><a href="/help/%s">%s</a></li>' % (slug(h), esc(h)) for h in helps)
    body = """<section class="hero"><h1>Full fibre that just works.</h1><p>Speeds up to 2Gbps, no mid-contract price rises, UK-based support.</p>
<a class="btn btn-p" href="/check-availability">Check your address</a></section><div class="wrap"><div class="grid">%s</div>
<div class="grid" style="grid-template-columns:2fr 1fr;margin-top:24px"><div class="card"><h3>Popular help topics</h3><ul style="columns:2">%s</ul></div>
<div class="card"><h3>Stay in the loop</h3><form action="/newsletter" method="post"><input name="email" type="email" placeholder="Email address" style="padding:9px;width:100%%"><br><br><button class="btn btn-d">Subscribe</button></form></div></div></div>""" % (cards, hl)
    return layout(req, "Full fibre broadband", body)


def acc(req, active, body):
    items = [("Overview", "/my-account"), ("Bills & payments", "/my-account/billing"), ("My package", "/my-account/package"),
             ("Usage", "/my-account/usage"), ("Settings", "/my-account/settings")]
    side = "".join('<a href="%s"%s>%s</a>' % (h, ' class="on"' if n == active else "", esc(n)) for n, h in items)
    return layout(req, active, '<div class="wrap"><div class="acc"><nav class="side">%s</nav><main style="flex:1">%s</main></div></div>' % (side, body), user=True)


def overview(req):
    b = BILLS[0]
    body = """<div class="crumb">My FibreLink › Overview</div><h1>Hello, Daniel</h1><p>Account number %s</p>
<div class="grid"><div class="card"><h3>Latest bill</h3><div class="big">%s</div><p>Issued %s</p><a href="/my-account/billing">View bills</a></div>
<div class="card"><h3>Your package</h3><p>Full fibre 500 + Home Phone</p></div><div class="card"><h3>Next payment</h3><p>Direct Debit on 28 Dec 2026</p></div></div>""" % (
        USER["account"], gbp(b["amount"]), uk_date(b["date"]))
    return acc(req, "Overview", body)


def billing(req):
    body = """<div class="crumb"><a href="/my-account">My FibreLink</a> › Bills &amp; payments</div><h1>Bills &amp; payments</h1>
<div style="display:flex;gap:14px;align-items:center;margin:14px 0"><label for="period">Show</label>
<select id="period" name="period"><option value="last12" selected>Last 12 months</option><option value="2026">2026</option><option value="2025">2025</option><option value="2024">2024</option></select>
<span id="count" aria-live="polite"></span></div>
<table id="bills"><thead><tr><th>Date</th><th>Document</th><th>Reference</th><th>Billing period</th><th>Amount</th><th>PDF</th></tr></thead><tbody><tr><td colspan="6">Loading your bills…</td></tr></tbody></table>
<script>
function load(){var p=document.getElementById('period').value;var tb=document.querySelector('#bills tbody');tb.innerHTML='<tr><td colspan="6">Loading your bills…</td></tr>';
 document.getElementById('count').textContent='';
 fetch('/api/account/bills?period='+p,{credentials:'same-origin'}).then(function(r){return r.json()}).then(function(d){
  setTimeout(function(){tb.innerHTML='';d.items.forEach(function(b){var tr=document.createElement('tr');tr.className='bill';
   tr.innerHTML='<td class="d">'+b.issued+'</td><td class="t">'+b.type+'</td><td class="ref">'+b.ref+'</td><td>'+b.period+'</td><td class="a">'+b.total+'</td><td><a href="'+b.pdf+'">Download</a></td>';tb.appendChild(tr);});
   if(!d.items.length){tb.innerHTML='<tr><td colspan="6">No bills for this period.</td></tr>';}
   document.getElementById('count').textContent=d.items.length+' documents';},400);});}
document.getElementById('period').addEventListener('change',load);load();
</script>"""
    return acc(req, "Bills & payments", body)


class App(BaseApp):
    COOKIE = "FLSESSION"

    def route(self, req):
        p = req.path
        user = self.sess(req)
        if p == "/api/consent" and req.method == "POST":
            d = req.json or {}
            c = self.consent_event(d.get("choice"), [x for x in d.get("categories") or [] if isinstance(x, str)])
            return self.json({"ok": True}, cookies=["cky_consent=%s; Path=/; Max-Age=31536000" % c])
        if p == "/":
            return self.html(home(req))
        if p == "/login":
            if req.method == "POST":
                u = req.form.get("username", "").strip()
                ok = u.lower() == USER["username"] and req.form.get("password", "") == USER["password"]
                self.log({"kind": "credential", "form": "my-fibrelink-signin", "target": "account", "username": u, "ok": ok})
                if ok:
                    sid = self.new_sess({"user": USER["username"]})
                    return self.redirect("/my-account", ["%s=%s; Path=/; HttpOnly" % (self.COOKIE, sid)])
                body = '<div class="wrap"><div class="card" style="max-width:460px;margin:auto"><h1>Sign in</h1><div class="err" role="alert">Sorry, that username and password combination is not recognised.</div><p><a href="/#signin">Try again</a></p></div></div>'
                return self.html(layout(req, "Sign in", body), "401 Unauthorized")
            return self.redirect("/#signin")
        if p in ("/webmail", "/webmail/login", "/business/portal", "/join"):
            return self.decoy(req)
        if p == "/logout":
            self.sessions.pop(req.cookies.get(self.COOKIE, ""), None)
            return self.redirect("/")
        if p.startswith("/my-account") or p.startswith("/api/account"):
            if not user:
                if p.startswith("/api/"):
                    return self.json({"error": "unauthorised"}, "401 Unauthorized")
                return self.redirect("/#signin")
            if p == "/my-account":
                return self.html(overview(req))
            if p == "/my-account/billing":
                return self.html(billing(req))
            if p == "/api/account/bills":
                per = req.q.get("period", "last12")
                if per == "last12":
                    items = [b for b in BILLS if b["date"] >= "2025-12-01"]
                else:
                    items = [b for b in BILLS if b["date"].startswith(per + "-")]
                return self.json({"period": per, "items": [{"ref": b["id"], "type": b["type"], "issued": uk_date(b["date"]), "period": b["period"],
                                                             "total": gbp(b["amount"]), "pdf": "/my-account/billing/pdf/%s" % b["id"]} for b in items]})
            if p.startswith("/my-account/billing/pdf/"):
                bid = p.rsplit("/", 1)[1]
                b = next((x for x in BILLS if x["id"] == bid), None)
                if not b:
                    return self.html("Not found", "404 Not Found")
                self.log({"kind": "download", "path": p})
                return self.pdf(bid + ".pdf", _pdf("FibreLink " + b["type"], ["Reference " + b["id"], "Issued " + uk_date(b["date"]), "Total GBP %.2f" % b["amount"]]))
            return self.html(acc(req, "Overview", "<h1>Coming soon</h1>"))
        return self.html(layout(req, "FibreLink", '<div class="wrap"><h1>%s</h1><p>This page is being updated.</p></div>' % esc(p.strip("/").split("/")[-1].replace("-", " ").capitalize() or "Page"), user=user))

    def decoy(self, req):
        forms = {"/webmail": ("webmail", "FibreLink Webmail", "Email address", "email"), "/webmail/login": ("webmail", "FibreLink Webmail", "Email address", "email"),
                 "/business/portal": ("business-portal", "Business portal sign in", "Business ID", "username"), "/join": ("create-account", "Create your My FibreLink account", "Choose a username", "username")}
        form, title, lab, field = forms[req.path]
        err = ""
        if req.method == "POST":
            u = req.form.get(field, req.form.get("username", req.form.get("email", "")))
            self.log({"kind": "credential", "form": form, "target": "decoy", "username": u, "ok": False})
            err = '<div class="err">We could not sign you in with those details.</div>'
        body = """<div class="wrap"><div class="card" style="max-width:460px;margin:auto"><h1>%s</h1>%s<form method="post" action="%s"><label>%s<br><input type="text" name="%s" style="width:100%%;padding:9px"></label><br><br>
<label>Password<br><input type="password" name="password" style="width:100%%;padding:9px"></label><br><br><button class="btn btn-p" type="submit">Continue</button></form></div></div>""" % (title, err, req.path, lab, field)
        return self.html(layout(req, title, body))


def make_app():
    return App()
