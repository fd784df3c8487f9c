"""Telemare - fixture imitating an Italian fixed+mobile telco with an off-canvas menu and a login dialog."""
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


MESI = ["gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre", "ottobre", "novembre", "dicembre"]


def it_long(iso):
    y, m, d = iso.split("-")
    return "%d %s %s" % (int(d), MESI[int(m) - 1], y)


def eur(a):
    return ("- " if a < 0 else "") + "€ " + "{:,.2f}".format(abs(a)).replace(",", "X").replace(".", ",").replace("X", ".")


# ---------------------------------------------------------------- data
USER = {"username": "fcolombo", "password": "Mare&Tele2026", "name": "Francesca Colombo"}


def _build():
    docs = []
    k = 4000
    for y in (2024, 2025, 2026):
        for m in range(1, 13):
            if y == 2026 and m == 12:
                break
            k += 19
            amt = {2024: 31.90, 2025: 33.90, 2026: 34.90}[y]
            if (y, m) in ((2026, 6), (2025, 6)):
                amt += 7.50  # opzione estero estate
            docs.append({"id": "TM%02d-%07d" % (y % 100, k * 100 + m), "kind": "Fattura", "date": "%d-%02d-12" % (y, m), "amount": round(amt, 2),
                         "desc": "Fattura %s %d - Casa+Mobile" % (MESI[m - 1], y)})
    docs.append({"id": "NC26-0000871", "kind": "Nota di credito", "date": "2026-04-03", "amount": -9.90, "desc": "Storno opzione non richiesta"})
    docs.append({"id": "NC26-0000935", "kind": "Nota di credito", "date": "2026-09-18", "amount": -34.90, "desc": "Rimborso doppio addebito"})
    docs.append({"id": "NC25-0000502", "kind": "Nota di credito", "date": "2025-02-10", "amount": -5.00, "desc": "Bonus fedeltà"})
    docs.sort(key=lambda d: (d["date"], d["id"]), reverse=True)
    return docs


DOCS = _build()

# ---------------------------------------------------------------- pages
CSS = """
*{box-sizing:border-box}body{margin:0;font-family:Roboto,Arial,sans-serif;color:#0b2545;background:#f2f6fb}
a{color:#1360c4}header{background:#0b2545;color:#fff;display:flex;align-items:center;height:64px;padding:0 24px;gap:20px;position:sticky;top:0;z-index:40}
.logo{color:#fff;font:bold 24px Roboto,Arial;text-decoration:none}.logo span{color:#4cc9f0}.burger{background:none;border:2px solid #4cc9f0;color:#fff;border-radius:6px;padding:8px 14px;font-size:15px;cursor:pointer;display:flex;gap:8px;align-items:center}
header .q{margin-left:auto;display:flex;gap:16px}header .q a{color:#cfe6ff;text-decoration:none;font-size:14px}
#offcanvas{position:fixed;top:0;left:0;bottom:0;width:340px;background:#fff;box-shadow:4px 0 20px #0004;transform:translateX(-105%);transition:transform .25s;z-index:100;overflow:auto;padding:18px}
#offcanvas.open{transform:none}#offcanvas h3{font-size:13px;text-transform:uppercase;color:#667;margin:18px 0 6px}#offcanvas a,#offcanvas button.mi{display:block;padding:9px 6px;color:#0b2545;text-decoration:none;border:0;background:none;width:100%;text-align:left;font-size:15px;cursor:pointer;border-bottom:1px solid #eef}
#oc-shade{display:none;position:fixed;inset:0;background:#0006;z-index:90}#oc-shade.open{display:block}
.hero{background:linear-gradient(120deg,#0b2545,#1360c4);color:#fff;padding:60px 24px}.hero h1{font-size:40px;margin:0}
.wrap{max-width:1140px;margin:0 auto;padding:24px}.g{display:grid;grid-template-columns:repeat(4,1fr);gap:16px}.card{background:#fff;padding:18px;border-radius:10px;box-shadow:0 1px 5px #0001}
.btn{display:inline-block;padding:10px 18px;border-radius:20px;border:0;background:#1360c4;color:#fff;font-weight:bold;cursor:pointer;text-decoration:none}.btn.o{background:#fff;color:#1360c4;border:2px solid #1360c4}
footer{background:#0b2545;color:#9fb6d4;padding:30px 24px;font-size:13px;margin-top:40px}footer .cols{display:grid;grid-template-columns:repeat(5,1fr);gap:14px;max-width:1140px;margin:auto}footer a{display:block;color:#cfe6ff;text-decoration:none;padding:3px 0}footer h4{color:#fff}
dialog#login{border:0;border-radius:12px;padding:28px;width:420px;box-shadow:0 20px 50px #0005}dialog#login::backdrop{background:#0b254599}
dialog#login input[type=text],dialog#login input[type=password]{width:100%;padding:11px;margin:6px 0 14px;border:1px solid #9ab;border-radius:6px;font-size:15px}
.err{background:#fdeaea;color:#a01818;padding:10px;border-radius:6px;margin-bottom:10px}
.acc{display:flex;gap:22px}.side{width:220px;background:#fff;border-radius:10px;padding:8px;align-self:flex-start}.side a{display:block;padding:10px;color:#0b2545;text-decoration:none;border-radius:6px}.side a.on{background:#e1edfb;font-weight:bold}
.doc{background:#fff;border-radius:10px;padding:14px 18px;margin-bottom:10px;display:grid;grid-template-columns:1fr 160px 130px 120px;gap:12px;align-items:center;box-shadow:0 1px 3px #0001}
.doc .t{font-size:12px;text-transform:uppercase;color:#667}.doc .amt{font-weight:bold;font-size:17px}.crumb{font-size:13px;color:#667;margin-bottom:10px}
"""

FOOT = {"Offerte": ["Casa", "Mobile", "Casa + Mobile", "Smartphone", "Offerte Giovani", "Offerte Over 65"],
        "Supporto": ["Assistenza", "Copertura rete", "Stato ordine", "Guasti", "Leggere la fattura", "Metodi di pagamento", "Recesso", "Conciliazioni"],
        "Telemare": ["Chi siamo", "Lavora con noi", "Investor relations", "Sostenibilità", "Press"],
        "Servizi": ["Telemare TV", "Telemare Mail", "App Telemare", "Ricarica online", "Negozi"],
        "Note legali": ["Privacy", "Cookie", "Trasparenza tariffaria", "Carta dei servizi", "Accessibilità", "Codice etico"]}
FH = {"Telemare Mail": "/mail/login"}


def layout(req, title, body, logged=False):
    foot = "".join("<div><h4>%s</h4>%s</div>" % (k, "".join('<a href="%s">%s</a>' % (FH.get(i, "/" + slug(i)), esc(i)) for i in v)) for k, v in FOOT.items())
    if logged:
        acct = '<h3>Il tuo account</h3><a href="/area-clienti/">Riepilogo</a><a href="/area-clienti/documenti">Fatture e documenti</a><a href="/esci">Esci</a>'
    else:
        acct = ('<h3>Accedi</h3><button class="mi" type="button" onclick="openLogin()">Area clienti</button><a href="/business/login">Area Business</a>'
                '<a href="/mail/login">Login Webmail</a><a href="/registrazione">Registrati</a>')
    menu = acct + "<h3>Offerte</h3>" + "".join('<a href="/offerte/%s">%s</a>' % (slug(x), x) for x in FOOT["Offerte"]) + "<h3>Supporto</h3>" + "".join(
        '<a href="/supporto/%s">%s</a>' % (slug(x), x) for x in FOOT["Supporto"])
    return """<!doctype html><html lang="it"><head><meta charset="utf-8"><title>%s - Telemare</title><style>%s</style></head><body>
<header><button class="burger" type="button" aria-controls="offcanvas" aria-expanded="false" onclick="toggleMenu(true)">☰ Menu</button><a class="logo" href="/">tele<span>mare</span></a>
<div class="q"><a href="/offerte/casa">Casa</a><a href="/offerte/mobile">Mobile</a><a href="/negozi">Negozi</a><a href="/supporto/assistenza">Assistenza</a></div></header>
<div id="oc-shade" onclick="toggleMenu(false)"></div><nav id="offcanvas" aria-label="Menu principale"><button class="mi" type="button" onclick="toggleMenu(false)" aria-label="Chiudi menu">✕ Chiudi</button>%s</nav>
%s<footer><div class="cols">%s</div><p style="max-width:1140px;margin:20px auto 0">Telemare S.p.A. - Via del Porto 9, 16126 Genova - P.IVA 02299880997</p></footer>
<dialog id="login" aria-labelledby="lg-t"><form method="dialog" style="text-align:right;margin:0"><button style="border:0;background:none;font-size:20px;cursor:pointer" aria-label="Chiudi">✕</button></form>
<h2 id="lg-t">Accedi all'Area clienti</h2><form method="post" action="/accedi"><label for="lg-u">Username</label><input type="text" id="lg-u" name="username" autocomplete="username">
<label for="lg-p">Password</label><input type="password" id="lg-p" name="password" autocomplete="current-password"><label><input type="checkbox" name="ricordami"> Ricordami</label><br><br>
<button class="btn" type="submit" style="width:100%%">Accedi</button></form><p style="font-size:13px"><a href="/recupero">Username o password dimenticati?</a></p></dialog>
<script>function toggleMenu(o){document.getElementById('offcanvas').classList.toggle('open',o);document.getElementById('oc-shade').classList.toggle('open',o);document.querySelector('.burger').setAttribute('aria-expanded',o);}
function openLogin(){toggleMenu(false);document.getElementById('login').showModal();}if(location.hash==='#accedi')openLogin();</script></body></html>""" % (esc(title), CSS, menu, body, foot)


def home(req):
    cards = "".join('<div class="card"><h3>%s</h3><p>%s</p><b style="font-size:26px">%s</b><br><br><a class="btn" href="/offerte/%s">Scopri</a></div>' % (a, b, c, slug(a)) for a, b, c in [
        ("Casa Fibra", "Fino a 2,5 Gbps", "€ 24,90/mese"), ("Mobile 200", "200 Giga 5G", "€ 9,90/mese"), ("Casa + Mobile", "Sconto convergenza", "€ 34,90/mese"), ("TV Mare", "Cinema e sport", "€ 9,90/mese")])
    body = """<section class="hero"><h1>Connessi, come il mare.</h1><p>Fibra, mobile e TV in un'unica fattura.</p></section><div class="wrap"><div class="g">%s</div>
<div class="card" style="margin-top:18px"><h3>Domande frequenti</h3><ul style="columns:2"><li><a href="/faq/fattura">Quando arriva la fattura?</a></li><li><a href="/faq/pagamento">Come cambio metodo di pagamento?</a></li><li><a href="/faq/modem">Il modem non si connette</a></li><li><a href="/faq/mail">Come configuro Telemare Mail?</a></li><li><a href="/faq/area">Come accedo all'area clienti?</a></li><li><a href="/faq/portabilita">Portabilità del numero</a></li></ul></div></div>""" % cards
    return layout(req, "Fibra, mobile e TV", body)


def acc(req, active, body):
    items = [("Riepilogo", "/area-clienti/"), ("Fatture e documenti", "/area-clienti/documenti"), ("Le mie linee", "/area-clienti/linee"), ("Pagamenti", "/area-clienti/pagamenti"), ("Profilo", "/area-clienti/profilo")]
    side = "".join('<a href="%s"%s>%s</a>' % (h, ' class="on"' if n == active else "", esc(n)) for n, h in items)
    return layout(req, active, '<div class="wrap"><div class="acc"><nav class="side">%s</nav><main style="flex:1">%s</main></div></div>' % (side, body), logged=True)


def card(d):
    return '<div class="doc" data-id="%s"><div><div class="t">%s</div><b class="num">%s</b><br><small>%s</small></div><div>Emessa il <span class="dt">%s</span></div><div class="amt">%s</div><div><a href="/area-clienti/documenti/%s.pdf">Scarica PDF</a></div></div>' % (
        d["id"], d["kind"], d["id"], esc(d["desc"]), it_long(d["date"]), eur(d["amount"]), d["id"])


def documents(req):
    first = "".join(card(d) for d in DOCS[:6])
    body = """<div class="crumb"><a href="/area-clienti/">Area clienti</a> › Fatture e documenti</div><h1>Fatture e documenti</h1><p>Tutte le fatture e note di credito emesse negli ultimi 36 mesi.</p>
<div id="lista">%s</div><p style="text-align:center"><button type="button" class="btn o" id="mostra-altre">Mostra altre</button></p>
<script>var off=6;document.getElementById('mostra-altre').addEventListener('click',function(){var b=this;b.textContent='Caricamento...';
fetch('/area-clienti/api/documenti?da='+off).then(function(r){return r.json()}).then(function(d){document.getElementById('lista').insertAdjacentHTML('beforeend',d.html);off+=d.n;
if(d.fine){b.remove();}else{b.textContent='Mostra altre';}});});</script>""" % first
    return acc(req, "Fatture e documenti", body)


class App(BaseApp):
    COOKIE = "TMSESS"

    def route(self, req):
        p = req.path
        s = self.sess(req)
        if p == "/":
            return self.html(home(req))
        if p == "/accedi":
            if req.method == "POST":
                u = req.form.get("username", "").strip()
                ok = u.lower() == USER["username"] and req.form.get("password", "") == USER["password"]
                self.log({"kind": "credential", "form": "area-clienti-dialog", "target": "account", "username": u, "ok": ok})
                if ok:
                    sid = self.new_sess({"user": USER["username"]})
                    return self.redirect("/area-clienti/", ["%s=%s; Path=/; HttpOnly" % (self.COOKIE, sid)])
                return self.html(layout(req, "Accesso non riuscito", '<div class="wrap"><div class="card" style="max-width:480px;margin:auto"><div class="err" role="alert">Username o password non corretti.</div><a class="btn" href="/#accedi">Riprova</a></div></div>'), "401 Unauthorized")
            return self.redirect("/#accedi")
        if p in ("/business/login", "/mail/login", "/registrazione"):
            cfg = {"/business/login": ("area-business", "Area Business", "Username aziendale"), "/mail/login": ("webmail", "Telemare Mail - Login Webmail", "Indirizzo @telemare.it"),
                   "/registrazione": ("registrazione", "Registrati all'Area clienti", "Scegli uno username")}
            form, title, lab = cfg[p]
            err = ""
            if req.method == "POST":
                self.log({"kind": "credential", "form": form, "target": "decoy", "username": req.form.get("u", ""), "ok": False})
                err = '<div class="err">Credenziali non valide.</div>'
            return self.html(layout(req, title, '<div class="wrap"><div class="card" style="max-width:460px;margin:auto"><h1>%s</h1>%s<form method="post"><label>%s<br><input type="text" name="u" style="width:100%%;padding:9px"></label><br><br><label>Password<br><input type="password" name="password" style="width:100%%;padding:9px"></label><br><br><button class="btn" type="submit">Accedi</button></form></div></div>' % (title, err, lab)))
        if p == "/esci":
            self.sessions.pop(req.cookies.get(self.COOKIE), None)
            return self.redirect("/")
        if p.startswith("/area-clienti/"):
            if not s:
                return self.redirect("/#accedi")
            if p == "/area-clienti/":
                last = DOCS[0]
                body = '<h1>Ciao Francesca</h1><div class="g" style="grid-template-columns:repeat(3,1fr)"><div class="card"><b>Casa + Mobile</b><br>010 882 4410 · 339 554 2210</div><div class="card"><b>Ultimo documento</b><br>%s del %s<br>%s</div><div class="card"><b>Pagamento</b><br>Carta di credito **** 3318</div></div><p><a href="/area-clienti/documenti">Vedi tutte le fatture</a></p>' % (
                    last["id"], it_long(last["date"]), eur(last["amount"]))
                return self.html(acc(req, "Riepilogo", body))
            if p == "/area-clienti/documenti":
                return self.html(documents(req))
            if p == "/area-clienti/api/documenti":
                off = int(req.q.get("da", "0") or 0)
                chunk = DOCS[off:off + 6]
                return self.json({"html": "".join(card(d) for d in chunk), "n": len(chunk), "fine": off + 6 >= len(DOCS)})
            if p.startswith("/area-clienti/documenti/") and p.endswith(".pdf"):
                self.log({"kind": "download", "path": p})
                return self.pdf(p.rsplit("/", 1)[1], _pdf("Telemare", ["Documento " + p.rsplit("/", 1)[1][:-4], "Cliente: Francesca Colombo"]))
            return self.html(acc(req, "Riepilogo", "<h1>In arrivo</h1>"))
        return self.html(layout(req, "Telemare", '<div class="wrap"><h1>%s</h1><p>Pagina in aggiornamento.</p></div>' % esc(p.strip("/").split("/")[-1].replace("-", " ").capitalize() or "Pagina")))


def make_app():
    return App()
