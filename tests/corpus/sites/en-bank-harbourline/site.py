"""Harbourline Private Bank - fixture imitating a European private bank with an e-banking document inbox.

Consent: banner rendered inside a same-origin <iframe> (consent manager served from /cmp/frame).
Entry: home page with ~40 links; the way in is the small "Authentication" link; decoy "Corporate" next to it.
Sign-in: separate page, Customer number + password, then interstitial "Continue to your account".
List: e-documents inbox rendered by JS with in-place pagination (URL unchanged), period select defaulting to
"Last 3 months", amounts only inside expandable detail panels.
"""
import html
import json
import secrets
import threading
from http.cookies import SimpleCookie
from urllib.parse import parse_qs

USER = "7730-4412"
PASSWORD = "Tide&Quay-2026"

MON = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def _docs():
    out = []
    k = 0
    for y in (2024, 2025, 2026):
        for q, (m, d) in enumerate([(3, 31), (6, 30), (9, 30), (12, 31)]):
            if y == 2026 and m == 12:
                continue
            k += 1
            out.append({"id": "HPB/ST/%d/Q%d" % (y, q + 1), "date": "%d-%02d-%02d" % (y, m, d), "kind": "Account statement",
                        "title": "Quarterly statement - Current account GB29 HRBL 6016 1331 9268 19",
                        "amount": round(48210.55 + k * 1733.1 + (q * 911.27), 2), "alabel": "Closing balance"})
    adv = [("2024-05-14", "Payment advice", "Outgoing SEPA transfer to Whitcombe Lettings Ltd", 2150.00),
           ("2025-02-03", "Payment advice", "Incoming transfer from Aldgate Trustees", 12500.00),
           ("2025-09-19", "Securities advice", "Purchase 40 units Harbourline Global Bond Fund", 4388.40),
           ("2025-11-07", "Payment advice", "Outgoing transfer - school fees St Aldric", 6900.00),
           ("2026-01-16", "Payment advice", "Outgoing transfer to HMRC Self Assessment", 8412.77),
           ("2026-02-27", "Securities advice", "Sale 120 shares Norvale Energy plc", 3126.60),
           ("2026-04-08", "Payment advice", "Incoming transfer - dividend Aldgate Trustees", 2275.00),
           ("2026-05-21", "Securities advice", "Coupon payment UK Gilt 4.25% 2032", 531.25),
           ("2026-07-01", "Fee statement", "Custody and advisory fees H1 2026", 1284.90),
           ("2026-08-12", "Payment advice", "Outgoing transfer to Whitcombe Lettings Ltd", 2150.00),
           ("2026-10-02", "Securities advice", "Purchase 15 units Harbourline Equity Income", 2961.45),
           ("2026-11-18", "Payment advice", "Outgoing transfer - Kensington Motors deposit", 5000.00)]
    for i, (date, kind, title, amt) in enumerate(adv):
        out.append({"id": "HPB/AD/%s/%05d" % (date[:4], 1021 + i * 113), "date": date, "kind": kind, "title": title,
                    "amount": amt, "alabel": "Amount"})
    notes = [("2025-04-30", "Notice", "Changes to our General Terms and Conditions"),
             ("2026-03-05", "Notice", "Your annual suitability review is due"),
             ("2026-06-15", "Tax document", "Annual tax certificate 2025/26 (interest and dividends)"),
             ("2026-09-09", "Notice", "Updated cost and charges disclosure (MiFID II)"),
             ("2025-06-12", "Tax document", "Annual tax certificate 2024/25 (interest and dividends)")]
    for i, (date, kind, title) in enumerate(notes):
        out.append({"id": "HPB/NT/%s/%04d" % (date[:4], 310 + i * 29), "date": date, "kind": kind, "title": title,
                    "amount": None, "alabel": ""})
    out.sort(key=lambda d: (d["date"], d["id"]), reverse=True)
    return out


DOCS = _docs()

PDF = (b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n"
       b"3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n")

CSS = """
*{box-sizing:border-box}body{margin:0;font-family:Georgia,'Times New Roman',serif;color:#1c1c1c;background:#fbfaf7}
a{color:#0f3b5f}.topline{display:flex;justify-content:flex-end;gap:18px;padding:8px 40px;font-family:Arial,sans-serif;font-size:12px;background:#0f3b5f}
.topline a{color:#e9dfc7;text-decoration:none}
header{padding:26px 40px;display:flex;align-items:flex-end;gap:40px;border-bottom:1px solid #d8d0bd}
.logo{font-size:28px;letter-spacing:2px;color:#0f3b5f;text-decoration:none;text-transform:uppercase}.logo small{display:block;font-size:11px;letter-spacing:4px;color:#9a7b3c}
header nav a{font-family:Arial,sans-serif;font-size:14px;color:#1c1c1c;text-decoration:none;margin-right:22px}
.hero{padding:70px 40px;background:#0f3b5f;color:#fff}.hero h1{font-weight:normal;font-size:42px;margin:0 0 16px}
.grid{display:grid;grid-template-columns:repeat(4,1fr);gap:28px;padding:36px 40px;font-family:Arial,sans-serif;font-size:14px}
.grid h3{font-family:Georgia,serif;font-weight:normal;color:#0f3b5f;border-bottom:1px solid #d8d0bd;padding-bottom:6px}
.grid a{display:block;padding:4px 0;text-decoration:none}
.insights{padding:10px 40px 30px;font-family:Arial,sans-serif}.insights article{border-top:1px solid #d8d0bd;padding:14px 0}
footer{background:#1b2530;color:#b9c2cc;padding:28px 40px;font-family:Arial,sans-serif;font-size:12px}footer a{color:#b9c2cc;margin-right:14px}
.panel{max-width:460px;margin:50px auto;background:#fff;border:1px solid #d8d0bd;padding:30px;font-family:Arial,sans-serif}
label{display:block;font-weight:bold;font-size:13px;margin:14px 0 5px}input[type=text],input[type=password]{width:100%;padding:10px;border:1px solid #999;font-size:15px}
.btn{background:#0f3b5f;color:#fff;border:0;padding:11px 24px;font-size:14px;cursor:pointer;text-decoration:none;display:inline-block}
.btn.l{background:#fff;color:#0f3b5f;border:1px solid #0f3b5f}
.err{border:1px solid #b3261e;color:#b3261e;padding:10px;margin:10px 0}
.eb{display:flex;font-family:Arial,sans-serif}.eb nav{width:230px;background:#0f3b5f;min-height:80vh;padding-top:16px}.eb nav a{display:block;color:#e9dfc7;padding:11px 22px;text-decoration:none;font-size:14px}
.eb nav a.on{background:#fbfaf7;color:#0f3b5f;font-weight:bold}.eb main{flex:1;padding:26px 36px}
.item{background:#fff;border:1px solid #e2dccd;margin-bottom:6px}.item .h{display:flex;gap:18px;padding:12px 16px;align-items:center}
.item .h .dt{width:110px;font-size:13px;color:#555}.item .h .k{width:150px;font-size:12px;text-transform:uppercase;color:#9a7b3c}.item .h .tt{flex:1;font-size:14px}
.item .h button{border:1px solid #0f3b5f;background:#fff;color:#0f3b5f;padding:5px 12px;cursor:pointer;font-size:12px}
.item .det{display:none;padding:10px 16px 14px 144px;font-size:13px;background:#f7f4ec;border-top:1px solid #e2dccd}.item.open .det{display:block}
.pg{margin-top:14px;display:flex;gap:6px;align-items:center;font-size:13px}.pg button{border:1px solid #0f3b5f;background:#fff;padding:6px 12px;cursor:pointer}
.pg button[disabled]{opacity:.4;cursor:default}.pg button.cur{background:#0f3b5f;color:#fff}
#cmp-frame{position:fixed;left:50%;bottom:28px;transform:translateX(-50%);width:760px;height:230px;border:0;box-shadow:0 10px 40px rgba(0,0,0,.35);z-index:1000;background:#fff}
"""

LINKS = [
    ("Private Banking", ["Our approach", "Relationship managers", "Multi-currency accounts", "Lombard lending",
                         "Residential mortgages"]),
    ("Wealth Management", ["Discretionary portfolios", "Advisory mandates", "Sustainable investing",
                           "Fixed income", "Family office services"]),
    ("Planning", ["Succession planning", "Trusts and foundations", "Philanthropy", "Relocating to the UK",
                  "Business owners", "Next generation"]),
    ("Insights", ["Market outlook 2027", "Weekly investment letter", "Podcasts", "Events", "Research library"]),
]


class App:
    def __init__(self):
        self.events = []
        self.lock = threading.Lock()
        self.sessions = {}

    def log(self, e):
        with self.lock:
            self.events.append(e)

    def shell(self, title, body, cmp, extra=""):
        return ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>%s</title><style>%s</style></head><body>"
                "<div class='topline'><a href='/p/contact'>Contact</a><a href='/p/offices'>Offices</a><a href='/p/careers'>Careers</a>"
                "<a href='/p/media'>Media</a>"
                "<a href='/corporate/login'>Corporate</a><a href='/authentication'>Authentication</a></div>"
                "<header><a class='logo' href='/'>Harbourline<small>Private Bank since 1871</small></a><nav>"
                "<a href='/p/private-banking'>Private Banking</a><a href='/p/wealth-management'>Wealth Management</a>"
                "<a href='/p/planning'>Planning</a><a href='/p/insights'>Insights</a><a href='/p/about-us'>About us</a></nav></header>"
                "%s<footer><a href='/p/legal-notice'>Legal notice</a><a href='/p/privacy'>Privacy</a><a href='/p/cookies'>Cookies</a>"
                "<a href='/p/complaints'>Complaints</a><a href='/p/fscs'>FSCS protection</a><a href='/p/modern-slavery'>Modern slavery statement</a>"
                "<a href='/p/accessibility'>Accessibility</a><a href='/p/security'>Security</a><a href='/p/sitemap'>Sitemap</a>"
                "<p>Harbourline Private Bank Ltd is authorised by the Prudential Regulation Authority and regulated by the Financial Conduct "
                "Authority and the PRA. Registered in England No. 00021871.</p></footer>%s%s</body></html>") % (
            html.escape(title), CSS, body,
            "<iframe id='cmp-frame' src='/cmp/frame' title='Cookie consent'></iframe>" if cmp else "", extra)

    def __call__(self, environ, start_response):
        path = environ.get("PATH_INFO", "/")
        method = environ["REQUEST_METHOD"]
        form = {}
        if method == "POST":
            raw = environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0)).decode("utf-8", "replace")
            form = {k: v[0] for k, v in parse_qs(raw, keep_blank_values=True).items()}
        ck = {k: v.value for k, v in SimpleCookie(environ.get("HTTP_COOKIE", "")).items()}
        sess = self.sessions.get(ck.get("HPB_EB", ""))
        cmp = "hpb_cookie_choice" not in ck
        headers = []

        def respond(body, status="200 OK", ctype="text/html; charset=utf-8", extra=()):
            data = body if isinstance(body, bytes) else body.encode("utf-8")
            start_response(status, [("Content-Type", ctype), ("Content-Length", str(len(data)))] + headers + list(extra))
            return [data]

        def redirect(loc):
            return respond("", "302 Found", extra=[("Location", loc)])

        if path == "/cmp/frame":
            return respond(CMP_FRAME)

        if path == "/cmp/save" and method == "POST":
            choice = form.get("choice")
            opts = [x for x in form.get("purposes", "").split(",") if x in ("performance", "functional", "targeting")]
            if choice == "accept":
                opts = ["performance", "functional", "targeting"]
            elif choice == "reject":
                opts = []
            else:
                choice = "custom"
            self.log({"kind": "consent", "choice": choice, "optional_enabled": opts})
            headers.append(("Set-Cookie", "hpb_cookie_choice=%s; Path=/; Max-Age=31536000" % (".".join(opts) or "none")))
            return respond("saved", ctype="text/plain")

        if path == "/":
            return respond(self.shell("Harbourline Private Bank | Private banking and wealth management", home(), cmp))

        if path == "/authentication":
            err = ""
            if method == "POST":
                u = form.get("customer_number", "").strip()
                ok = u == USER and form.get("password", "") == PASSWORD
                self.log({"kind": "credential", "form": "e-banking-authentication", "target": "account", "username": u, "ok": ok})
                if ok:
                    s = secrets.token_hex(16)
                    self.sessions[s] = {"seen": False}
                    headers.append(("Set-Cookie", "HPB_EB=%s; Path=/; HttpOnly" % s))
                    return redirect("/ebanking/notice")
                err = "<div class='err' role='alert'>Authentication failed. Please check your customer number and password.</div>"
            body = ("<div class='panel'><h1 style='font-family:Georgia;font-weight:normal'>e-Banking authentication</h1>"
                    "<p style='font-size:13px'>Private clients. Please have your customer number ready (format 0000-0000).</p>%s"
                    "<form method='post' action='/authentication'><label for='cn'>Customer number</label>"
                    "<input type='text' id='cn' name='customer_number' autocomplete='username' placeholder='0000-0000'>"
                    "<label for='pwd'>Password</label><input type='password' id='pwd' name='password' autocomplete='current-password'>"
                    "<p><button class='btn' type='submit'>Log in</button></p></form>"
                    "<p style='font-size:12px'><a href='/p/reset'>Reset your password</a> &middot; <a href='/p/security'>Security advice</a></p>"
                    "<p style='font-size:12px'>Corporate and institutional clients: <a href='/corporate/login'>Corporate e-banking</a></p></div>") % err
            return respond(self.shell("Authentication | Harbourline e-Banking", body, cmp))

        if path == "/corporate/login":
            err = ""
            if method == "POST":
                self.log({"kind": "credential", "form": "corporate-e-banking", "target": "decoy",
                          "username": form.get("contract", ""), "ok": False})
                err = "<div class='err' role='alert'>Contract number or password not recognised.</div>"
            body = ("<div class='panel'><h1 style='font-family:Georgia;font-weight:normal'>Corporate e-banking</h1>"
                    "<p style='font-size:13px'>For companies, trusts and institutional clients.</p>%s"
                    "<form method='post' action='/corporate/login'><label for='ct'>Contract number</label><input type='text' id='ct' name='contract'>"
                    "<label for='cpw'>Password</label><input type='password' id='cpw' name='password'>"
                    "<p><button class='btn' type='submit'>Log in</button></p></form></div>") % err
            return respond(self.shell("Corporate e-banking | Harbourline", body, cmp))

        if path.startswith("/ebanking"):
            if not sess:
                if path.startswith("/ebanking/api"):
                    return respond("[]", "401 Unauthorized", "application/json")
                return redirect("/authentication")

        if path == "/ebanking/notice":
            body = ("<div class='panel' style='max-width:600px'><h1 style='font-family:Georgia;font-weight:normal'>Important security information</h1>"
                    "<p>Harbourline will never ask you to disclose your password, or to transfer money to a \"safe account\".</p>"
                    "<p>Last login: 27 Nov 2026, 08:14 (London).</p>"
                    "<p><a class='btn l' href='/p/security'>Read our security guide</a> <a class='btn' href='/ebanking/home'>Continue to your account</a></p></div>")
            return respond(self.shell("Security information | Harbourline e-Banking", body, cmp))

        nav = [("/ebanking/home", "Overview"), ("/ebanking/payments", "Payments"), ("/ebanking/portfolio", "Portfolio"),
               ("/ebanking/documents", "e-Documents"), ("/ebanking/messages", "Secure messages"), ("/ebanking/settings", "Settings"),
               ("/logout", "Log out")]

        def eb(cur, inner, title, extra=""):
            side = "".join("<a href='%s'%s>%s</a>" % (h, " class='on'" if h == cur else "", t) for h, t in nav)
            return respond(self.shell(title + " | Harbourline e-Banking", "<div class='eb'><nav>%s</nav><main>%s</main></div>" % (
                side, inner), cmp, extra))

        if path == "/ebanking/home":
            inner = ("<h1 style='font-family:Georgia;font-weight:normal'>Overview</h1><p>Welcome back, Ms Eleanor Ashdown</p>"
                     "<table style='border-collapse:collapse;font-size:14px'><tr><td style='padding:8px 30px 8px 0'>Current account GBP</td><td>\u00a364,281.07</td></tr>"
                     "<tr><td style='padding:8px 30px 8px 0'>Discretionary portfolio</td><td>\u00a31,204,553.90</td></tr></table>"
                     "<p style='margin-top:24px'>You have 2 unread e-documents. <a href='/ebanking/documents'>Open e-Documents</a></p>")
            return eb(path, inner, "Overview")

        if path == "/ebanking/documents":
            return eb(path, DOCS_HTML, "e-Documents", DOCS_JS)

        if path == "/ebanking/api/documents":
            return respond(json.dumps(DOCS), ctype="application/json")

        if path.startswith("/ebanking/pdf/"):
            self.log({"kind": "download", "path": path})
            return respond(PDF, ctype="application/pdf")

        if path.startswith("/ebanking/"):
            return eb(path, "<h1 style='font-family:Georgia;font-weight:normal'>Not available</h1><p>Please contact your relationship manager.</p>", "e-Banking")

        if path == "/logout":
            headers.append(("Set-Cookie", "HPB_EB=; Path=/; Max-Age=0"))
            return redirect("/")

        if path.startswith("/p/"):
            name = path[3:].replace("-", " ").capitalize()
            return respond(self.shell(name + " | Harbourline", "<div style='padding:40px'><h1 style='font-weight:normal'>%s</h1>"
                                      "<p>Discreet, personal and independent advice since 1871.</p></div>" % name, cmp))
        return respond("Not found", "404 Not Found", "text/plain")


def home():
    grid = "".join("<div><h3>%s</h3>%s</div>" % (t, "".join(
        "<a href='/p/%s'>%s</a>" % (x.lower().replace(" ", "-"), x) for x in items)) for t, items in LINKS)
    return ("<section class='hero'><h1>Wealth, thoughtfully stewarded.</h1><p style='font-family:Arial;max-width:640px'>For over 150 years "
            "Harbourline has looked after the wealth of families, entrepreneurs and charities.</p>"
            "<a class='btn l' href='/p/contact'>Speak to a banker</a></section><div class='grid'>%s</div>"
            "<div class='insights'><h2 style='font-family:Georgia;font-weight:normal'>Latest insights</h2>"
            "<article><a href='/p/insights/rates-2027'>Where next for interest rates in 2027?</a></article>"
            "<article><a href='/p/insights/inheritance'>Inheritance tax changes: what families should know</a></article>"
            "</div>") % grid


DOCS_HTML = """
<h1 style='font-family:Georgia;font-weight:normal'>e-Documents</h1>
<p style='font-size:13px;color:#555'>Statements, advices, tax documents and notices. Documents are kept for 10 years.</p>
<p><label for='period' style='display:inline'>Period</label>
<select id='period'><option value='3m' selected>Last 3 months</option><option value='12m'>Last 12 months</option>
<option value='2026'>2026</option><option value='2025'>2025</option><option value='2024'>2024</option><option value='all'>All documents</option></select>
<span id='count' style='margin-left:14px;font-size:13px'></span></p>
<div id='docs'></div><div class='pg' id='pg'></div>
"""

DOCS_JS = """<script>
(function(){
var ALL=[],VIEW=[],page=1,PER=6;var TODAY='2026-12-01';
var MON=['Jan','Feb','Mar','Apr','May','Jun','Jul','Aug','Sep','Oct','Nov','Dec'];
function fd(s){var p=s.split('-');return (+p[2])+' '+MON[+p[1]-1]+' '+p[0];}
function gbp(v){return '\\u00a3'+v.toLocaleString('en-GB',{minimumFractionDigits:2,maximumFractionDigits:2});}
function since(months){var d=new Date(TODAY+'T00:00:00Z');d.setUTCMonth(d.getUTCMonth()-months);return d.toISOString().slice(0,10);}
function filter(){var p=document.getElementById('period').value;
 VIEW=ALL.filter(function(d){if(p=='all')return true;if(p=='3m')return d.date>=since(3);if(p=='12m')return d.date>=since(12);return d.date.slice(0,4)==p;});
 page=1;render();}
function render(){var box=document.getElementById('docs');box.innerHTML='';
 var pages=Math.max(1,Math.ceil(VIEW.length/PER));
 VIEW.slice((page-1)*PER,page*PER).forEach(function(d,i){var it=document.createElement('div');it.className='item';
  var det='<div>Reference: <b>'+d.id+'</b></div>'+(d.amount!==null?'<div>'+d.alabel+': <b class="amt">'+gbp(d.amount)+'</b></div>':'<div>No amount</div>')+
   '<div><a href="/ebanking/pdf/'+encodeURIComponent(d.id)+'.pdf">Download PDF</a></div>';
  it.innerHTML='<div class="h"><span class="dt">'+fd(d.date)+'</span><span class="k">'+d.kind+'</span><span class="tt">'+d.title+'</span>'+
   '<button type="button" aria-expanded="false">Details</button></div><div class="det">'+det+'</div>';
  it.querySelector('button').onclick=function(){var o=it.classList.toggle('open');this.setAttribute('aria-expanded',o);this.textContent=o?'Hide':'Details';};
  box.appendChild(it);});
 document.getElementById('count').textContent=VIEW.length+' documents';
 var pg=document.getElementById('pg');pg.innerHTML='';
 function b(label,p,dis,cur){var x=document.createElement('button');x.type='button';x.textContent=label;if(dis)x.disabled=true;if(cur)x.className='cur';
  x.onclick=function(){page=p;render();window.scrollTo(0,0)};pg.appendChild(x);}
 b('\\u2039 Previous',page-1,page==1);for(var i=1;i<=pages;i++)b(String(i),i,false,i==page);b('Next \\u203a',page+1,page==pages);
 var s=document.createElement('span');s.textContent='Page '+page+' of '+pages;pg.appendChild(s);}
document.getElementById('period').onchange=filter;
fetch('/ebanking/api/documents').then(function(r){return r.json()}).then(function(j){ALL=j;filter();});
})();</script>"""

CMP_FRAME = """<!DOCTYPE html><html><head><meta charset='utf-8'><style>
body{margin:0;font-family:Arial,sans-serif;font-size:13px;color:#222;padding:20px 24px}h2{font-family:Georgia,serif;font-weight:normal;margin:0 0 8px;color:#0f3b5f}
.b{display:flex;gap:10px;margin-top:14px}button{padding:10px 18px;border:1px solid #0f3b5f;background:#fff;color:#0f3b5f;cursor:pointer;font-size:13px}
button.p{background:#0f3b5f;color:#fff}#prefs{display:none}#prefs label{display:inline-block;margin-right:16px}</style></head><body>
<div id='main'><h2>Your cookie choices</h2><p>We use strictly necessary cookies to make our website work. With your consent we would also like to use
performance, functional and targeting cookies to understand how you use the site and to tailor content. See our <a href='/p/cookies' target='_top'>Cookie notice</a>.</p>
<div id='prefs'><label><input type='checkbox' data-p='performance'> Performance</label><label><input type='checkbox' data-p='functional'> Functional</label>
<label><input type='checkbox' data-p='targeting'> Targeting</label></div>
<div class='b'><button class='p' id='acc'>Accept all cookies</button><button id='rej'>Reject non-essential cookies</button><button id='set'>Cookie settings</button>
<button id='save' style='display:none'>Save settings</button></div></div>
<script>
function send(choice,p){var f=new URLSearchParams();f.set('choice',choice);f.set('purposes',(p||[]).join(','));
fetch('/cmp/save',{method:'POST',body:f}).then(function(){var fr=parent.document.getElementById('cmp-frame');if(fr)fr.remove();});}
document.getElementById('acc').onclick=function(){send('accept')};
document.getElementById('rej').onclick=function(){send('reject')};
document.getElementById('set').onclick=function(){document.getElementById('prefs').style.display='block';document.getElementById('save').style.display='inline-block';this.style.display='none'};
document.getElementById('save').onclick=function(){var p=[];document.querySelectorAll('#prefs input:checked').forEach(function(c){p.push(c.getAttribute('data-p'))});send('custom',p)};
</script></body></html>"""


def make_app():
    return App()
