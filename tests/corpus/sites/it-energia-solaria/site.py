"""Solaria Energia - fornitore di luce e gas (stile grandi utility italiane, banner tipo Iubenda)."""
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


MESI = ["gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre",
        "ottobre", "novembre", "dicembre"]


def eur(v):
    s = "{:,.2f}".format(abs(v)).replace(",", "X").replace(".", ",").replace("X", ".")
    return ("-" if v < 0 else "") + s + " \u20ac"


def it_date(iso):
    y, m, d = iso.split("-")
    return "%s/%s/%s" % (d, m, y)


def build_docs():
    rnd = random.Random(4471)
    docs = []
    seq = {2024: 10233, 2025: 11870, 2026: 12811}
    # bollette mensili luce+gas: periodo mese M emessa nel mese M+1
    y, m = 2023, 12
    while (y, m) <= (2026, 10):
        iy, im = (y + 1, 1) if m == 12 else (y, m + 1)
        day = rnd.randint(4, 12)
        seq[iy] += rnd.randint(300, 900)
        base = 58 + (70 if m in (12, 1, 2) else 35 if m in (3, 11) else 0)
        amt = round(base + rnd.uniform(-9, 28), 2)
        iso = "%04d-%02d-%02d" % (iy, im, day)
        due = "%04d-%02d-%02d" % (iy, im, min(day + 20, 28))
        docs.append({"id": "FT-%d-%07d" % (iy, seq[iy]), "kind": "Bolletta", "date": iso, "due": due,
                     "period": "%s %d" % (MESI[m - 1].capitalize(), y), "amount": amt,
                     "status": "Pagata" if iso < "2026-11-01" else "Da pagare", "supply": "Luce e Gas"})
        y, m = iy, im
    credits = [("NC-2024-0000871", "2024-06-18", -18.40, "Rettifica consumi aprile 2024"),
               ("NC-2025-0001022", "2025-09-24", -31.75, "Storno conguaglio luglio 2025"),
               ("NC-2026-0001190", "2026-03-20", -12.60, "Bonus sociale - rimborso"),
               ("NC-2026-0001347", "2026-08-27", -44.10, "Rettifica lettura contatore gas")]
    for cid, iso, amt, why in credits:
        docs.append({"id": cid, "kind": "Nota di credito", "date": iso, "due": "", "period": why,
                     "amount": amt, "status": "Compensata", "supply": "Luce e Gas"})
    docs.sort(key=lambda d: d["date"], reverse=True)
    return docs


DOCS = build_docs()
USERS = {"3001458826": {"password": "Girasole!2026", "name": "Chiara Bellini"}}
BUSINESS = "business"

NAV = [("Luce", ["Offerte luce", "Luce a prezzo fisso", "Luce a prezzo variabile", "Energia verde"]),
       ("Gas", ["Offerte gas", "Gas a prezzo fisso", "Caldaie e manutenzione"]),
       ("Luce e Gas", ["Solaria Duo", "Solaria Duo Web", "Bonus sociale"]),
       ("Fotovoltaico", ["Pannelli solari", "Batterie di accumulo", "Comunità energetiche"]),
       ("Mobilit\u00e0 elettrica", ["Wallbox", "Ricarica pubblica", "App Solaria Move"]),
       ("Assistenza", ["Leggere la bolletta", "Autolettura", "Voltura e subentro", "Contatti", "Guasti"])]
FOOTER = {
    "Offerte": ["Offerte luce casa", "Offerte gas casa", "Offerte business", "Offerte condomini",
                "Codici sconto", "Porta un amico", "Solaria Premi"],
    "Assistenza": ["Centro assistenza", "Come leggere la bolletta", "Modalit\u00e0 di pagamento",
                   "Domiciliazione bancaria", "Rateizzazione", "Reclami", "Conciliazione", "Trova negozio"],
    "Azienda": ["Chi siamo", "Sostenibilit\u00e0", "Investitori", "Lavora con noi", "Sala stampa",
                "Fornitori", "Codice etico"],
    "Legale": ["Privacy", "Cookie policy", "Note legali", "Trasparenza ARERA", "Carta dei servizi",
               "Condizioni generali", "Accessibilit\u00e0"],
}


def slug(s):
    out = "".join(c.lower() if c.isalnum() else "-" for c in s)
    while "--" in out:
        out = out.replace("--", "-")
    return out.strip("-")


CSS = """
*{box-sizing:border-box}body{margin:0;font-family:Arial,Helvetica,sans-serif;color:#1d2a36;background:#f6f7f9}
a{color:#0a5cae}.topbar{background:#0d2a4a;color:#fff;font-size:13px;padding:6px 24px;display:flex;gap:18px}
.topbar a{color:#cfe0f5;text-decoration:none}.topbar .sp{flex:1}
header.main{background:#fff;display:flex;align-items:center;padding:0 24px;height:72px;box-shadow:0 1px 4px #0002;position:relative}
.logo{font-weight:bold;font-size:24px;color:#f39200;text-decoration:none;margin-right:30px}.logo span{color:#0d2a4a}
nav.mega{display:flex;gap:4px;flex:1}nav.mega>div{position:relative}
nav.mega>div>button{background:none;border:0;font-size:15px;padding:26px 12px;cursor:pointer;color:#1d2a36}
nav.mega .panel{display:none;position:absolute;top:72px;left:0;background:#fff;box-shadow:0 6px 18px #0003;padding:16px;min-width:230px;z-index:20}
nav.mega>div:hover .panel{display:block}nav.mega .panel a{display:block;padding:6px 0;text-decoration:none}
.hdr-actions{display:flex;gap:12px;align-items:center}
.btn{display:inline-block;background:#f39200;color:#fff;border:0;border-radius:22px;padding:10px 20px;font-size:15px;text-decoration:none;cursor:pointer}
.btn.ghost{background:#fff;color:#0d2a4a;border:1px solid #0d2a4a}.btn.dark{background:#0d2a4a}
.hero{background:linear-gradient(120deg,#0d2a4a,#1f5d99);color:#fff;padding:56px 48px}.hero h1{font-size:38px;margin:0 0 12px}
.wrap{max-width:1140px;margin:0 auto;padding:24px}.cards{display:grid;grid-template-columns:repeat(3,1fr);gap:18px}
.card{background:#fff;border-radius:10px;padding:20px;box-shadow:0 1px 3px #0001}
footer{background:#0d2a4a;color:#cfe0f5;padding:36px 24px;margin-top:40px;font-size:13px}
footer .cols{display:grid;grid-template-columns:repeat(5,1fr);gap:20px;max-width:1140px;margin:0 auto}
footer a{color:#cfe0f5;display:block;padding:3px 0;text-decoration:none}footer h4{color:#fff}
.chat{position:fixed;right:22px;bottom:22px;background:#f39200;color:#fff;border-radius:30px;padding:12px 18px;box-shadow:0 3px 10px #0004;z-index:30;cursor:pointer}
table.docs{width:100%;border-collapse:collapse;background:#fff}table.docs th,table.docs td{padding:10px;border-bottom:1px solid #e3e6ea;text-align:left;font-size:14px}
table.docs th{background:#eef2f6}.crumbs{font-size:13px;color:#5b6875;margin-bottom:14px}
.layout{display:grid;grid-template-columns:230px 1fr;gap:24px}.side a{display:block;padding:10px 12px;background:#fff;margin-bottom:4px;border-radius:6px;text-decoration:none}
.pager{margin-top:16px;display:flex;gap:6px}.pager a,.pager span{padding:6px 11px;border:1px solid #c9d1da;border-radius:4px;background:#fff;text-decoration:none}
.pager .cur{background:#0d2a4a;color:#fff}.form{background:#fff;max-width:440px;margin:30px auto;padding:30px;border-radius:10px;box-shadow:0 2px 8px #0002}
.form label{display:block;margin:14px 0 4px;font-size:14px}.form input[type=text],.form input[type=password],.form input[type=email]{width:100%;padding:11px;border:1px solid #aab4bf;border-radius:6px;font-size:15px}
.err{background:#fde8e8;color:#a11;padding:10px;border-radius:6px;margin-bottom:10px}
#iubenda-cs-banner{position:fixed;left:0;right:0;bottom:0;background:#fff;border-top:3px solid #f39200;box-shadow:0 -4px 16px #0003;padding:18px 28px;z-index:1000;display:none;font-size:14px}
#iubenda-cs-banner .iubenda-cs-opt-group{margin-top:12px;display:flex;gap:10px;justify-content:flex-end}
#iubenda-cs-banner button{border-radius:20px;padding:9px 18px;font-size:14px;cursor:pointer;border:1px solid #0d2a4a;background:#fff;color:#0d2a4a}
#iubenda-cs-banner button.iubenda-cs-accept-btn{background:#0d2a4a;color:#fff}
#iub-prefs{display:none;position:fixed;inset:10% 25%;background:#fff;z-index:1001;padding:24px;box-shadow:0 0 40px #0006;border-radius:8px;overflow:auto}
.badge{font-size:12px;padding:2px 8px;border-radius:10px;background:#e8f3e8;color:#25662a}.badge.nc{background:#eef0ff;color:#334}
"""

CONSENT_JS = """
<div id="iubenda-cs-banner" role="dialog" aria-label="Informativa cookie">
 <div class="iubenda-cs-content"><div id="iubenda-cs-title"><b>Informativa</b></div>
 <div id="iubenda-cs-paragraph">Noi e terze parti selezionate utilizziamo cookie o tecnologie simili per finalit&agrave; tecniche e,
 con il tuo consenso, anche per le finalit&agrave; di <i>esperienza</i>, <i>misurazione</i> e <i>marketing (con annunci personalizzati)</i>
 come specificato nella <a href="/info/cookie-policy">cookie policy</a>. Puoi liberamente prestare, rifiutare o revocare il tuo consenso, in qualsiasi momento.</div>
 <div class="iubenda-cs-opt-group">
  <button class="iubenda-cs-customize-btn" type="button" onclick="iubPrefs()">Scopri di pi&ugrave; e personalizza</button>
  <button class="iubenda-cs-reject-btn" type="button" onclick="iubSend('reject',[])">Rifiuta</button>
  <button class="iubenda-cs-accept-btn" type="button" onclick="iubSend('accept',['esperienza','misurazione','marketing'])">Accetta</button>
 </div></div></div>
<div id="iub-prefs" role="dialog" aria-label="Preferenze cookie">
 <h3>Le tue preferenze relative al consenso</h3>
 <p><label><input type="checkbox" checked disabled> Necessari (sempre attivi)</label></p>
 <p><label><input type="checkbox" class="iubp" value="esperienza"> Interazioni e funzionalit&agrave; semplici</label></p>
 <p><label><input type="checkbox" class="iubp" value="esperienza2"> Miglioramento dell'esperienza</label></p>
 <p><label><input type="checkbox" class="iubp" value="misurazione"> Misurazione</label></p>
 <p><label><input type="checkbox" class="iubp" value="marketing"> Targeting e Pubblicit&agrave;</label></p>
 <button type="button" onclick="iubSend('reject',[])">Rifiuta tutto</button>
 <button type="button" onclick="iubSend('accept',['esperienza','esperienza2','misurazione','marketing'])">Accetta tutto</button>
 <button type="button" onclick="iubSend('custom',[...document.querySelectorAll('.iubp:checked')].map(x=>x.value))">Salva e continua</button>
</div>
<script>
function iubPrefs(){document.getElementById('iub-prefs').style.display='block';}
function iubSend(c,l){fetch('/consent',{method:'POST',headers:{'Content-Type':'application/json'},body:JSON.stringify({choice:c,enabled:l})})
 .then(()=>{document.getElementById('iubenda-cs-banner').remove();document.getElementById('iub-prefs').remove();});}
setTimeout(function(){var b=document.getElementById('iubenda-cs-banner');if(b)b.style.display='block';},1800);
</script>
"""


class App:
    def __init__(self):
        self.events = []
        self._lock = threading.Lock()
        self.sessions = {}

    def log(self, **ev):
        with self._lock:
            self.events.append(ev)

    # ---------- layout ----------
    def page(self, req, title, body, status="200 OK", cookies=()):
        nav = "".join('<div><button type="button">%s &#9662;</button><div class="panel">%s</div></div>' % (
            esc(n), "".join('<a href="/info/%s">%s</a>' % (slug(i), esc(i)) for i in items)) for n, items in NAV)
        cols = "".join('<div><h4>%s</h4>%s</div>' % (esc(h), "".join(
            '<a href="/info/%s">%s</a>' % (slug(x), esc(x)) for x in items)) for h, items in FOOTER.items())
        cols += ('<div><h4>Aree riservate</h4><a href="/mysolaria/login">MySolaria clienti casa</a>'
                 '<a href="/business/login">Area Business - Login</a><a href="/registrati">Registrati a MySolaria</a>'
                 '<a href="/info/app-solaria">Scarica l\'app</a><a href="/info/paga-online">Paga online</a></div>')
        banner = "" if "consenso_iub" in req.cookies else CONSENT_JS
        logged = self.user(req)
        acct = ('<a class="btn" href="/mysolaria/home">Ciao %s</a> <a href="/logout">Esci</a>' % esc(
            USERS[logged]["name"].split()[0])) if logged else (
            '<a class="btn ghost" href="/business/login">Area Business</a>'
            '<a class="btn" href="/mysolaria/login" title="Accedi alla tua area clienti">MySolaria</a>')
        doc = """<!doctype html><html lang="it"><head><meta charset="utf-8"><title>%s | Solaria Energia</title>
<meta name="viewport" content="width=device-width,initial-scale=1"><style>%s</style></head><body>
<div class="topbar"><a href="/">Casa</a><a href="/info/offerte-business">Imprese</a><a href="/info/condomini">Condomini</a>
<span class="sp"></span><a href="/info/trova-negozio">Trova negozio</a><a href="/info/contatti">800 123 456</a><a href="/info/english">EN</a></div>
<header class="main"><a class="logo" href="/">solaria<span>energia</span></a><nav class="mega">%s</nav>
<div class="hdr-actions">%s</div></header>
%s
<footer><div class="cols">%s</div><p style="max-width:1140px;margin:20px auto 0">&copy; 2026 Solaria Energia S.p.A. - P.IVA 01234567890 - Sede legale Via dei Mille 12, Milano</p></footer>
<div class="chat" onclick="alert('La chat \u00e8 momentaneamente non disponibile')">&#128172; Chatta con Sole</div>
%s</body></html>""" % (esc(title), CSS, nav, acct, body, cols, banner)
        return self.resp(doc, status=status, cookies=cookies)

    def resp(self, body, status="200 OK", ctype="text/html; charset=utf-8", cookies=(), headers=()):
        if isinstance(body, str):
            body = body.encode("utf-8")
        h = [("Content-Type", ctype), ("Content-Length", str(len(body))), ("Cache-Control", "no-store")]
        h += [("Set-Cookie", c) for c in cookies] + list(headers)
        return status, h, body

    def redirect(self, loc, cookies=()):
        return "302 Found", [("Location", loc), ("Content-Length", "0")] + [("Set-Cookie", c) for c in cookies], b""

    def user(self, req):
        s = self.sessions.get(req.cookies.get("SOLSESSID", ""))
        return s["user"] if s and s.get("auth") else None

    def __call__(self, environ, start_response):
        req = Req(environ)
        try:
            status, headers, body = self.route(req)
        except Exception as e:  # pragma: no cover
            status, headers, body = "500 Internal Server Error", [("Content-Type", "text/plain")], repr(e).encode()
        start_response(status, headers)
        return [body]

    # ---------- routes ----------
    def route(self, req):
        p = req.path
        if p == "/":
            return self.home(req)
        if p == "/consent" and req.method == "POST":
            choice = req.form.get("choice", "reject")
            enabled = [x for x in req.form.get("enabled", []) if isinstance(x, str)]
            if choice not in ("reject", "accept", "custom"):
                choice = "custom"
            self.log(kind="consent", choice=choice, optional_enabled=enabled if choice != "reject" else [])
            return self.resp('{"ok":true}', ctype="application/json",
                             cookies=["consenso_iub=%s; Path=/; Max-Age=31536000" % choice])
        if p.startswith("/info/"):
            name = p[6:].replace("-", " ").capitalize()
            return self.page(req, name, '<div class="wrap"><div class="crumbs"><a href="/">Home</a> &rsaquo; %s</div>'
                             '<h1>%s</h1><p>Contenuto informativo in aggiornamento. Per assistenza chiama il numero verde '
                             '800 123 456 dal luned&igrave; al sabato 8-22.</p></div>' % (esc(name), esc(name)))
        if p == "/mysolaria/login":
            return self.login(req)
        if p == "/business/login":
            return self.business(req)
        if p == "/registrati":
            return self.register(req)
        if p == "/logout":
            self.sessions.pop(req.cookies.get("SOLSESSID", ""), None)
            return self.redirect("/")
        if p.startswith("/mysolaria/"):
            u = self.user(req)
            if not u:
                return self.redirect("/mysolaria/login?next=" + up.quote(p))
            if p == "/mysolaria/benvenuto":
                return self.welcome(req, u)
            if p == "/mysolaria/home":
                return self.dashboard(req, u)
            if p == "/mysolaria/bollette/archivio":
                return self.archive(req, u)
            if p.startswith("/mysolaria/documento/") and p.endswith(".pdf"):
                did = p.rsplit("/", 1)[1][:-4]
                d = next((x for x in DOCS if x["id"] == did), None)
                if not d:
                    return self.resp("Documento non trovato", status="404 Not Found", ctype="text/plain")
                self.log(kind="download", path=p)
                return self.resp(make_pdf(["Solaria Energia S.p.A.", "%s %s" % (d["kind"], d["id"]),
                                           "Data emissione: %s" % it_date(d["date"]),
                                           "Importo: %.2f EUR" % d["amount"], "Periodo: %s" % d["period"]]),
                                 ctype="application/pdf")
            return self.page(req, "Sezione", '<div class="wrap"><h1>Sezione in manutenzione</h1>'
                             '<p>Questa funzione sar&agrave; presto disponibile.</p><a href="/mysolaria/home">Torna alla home</a></div>')
        return self.page(req, "Pagina non trovata", '<div class="wrap"><h1>Pagina non trovata</h1></div>',
                         status="404 Not Found")

    def home(self, req):
        offers = "".join('<div class="card"><h3>%s</h3><p>%s</p><a class="btn" href="/info/%s">Scopri</a></div>' % (
            esc(t), esc(d), slug(t)) for t, d in [
            ("Solaria Luce Fissa 12", "Prezzo bloccato per 12 mesi. 100% energia da fonti rinnovabili."),
            ("Solaria Gas Smart", "Sconto del 10% sulla componente energia per chi attiva la bolletta web."),
            ("Solaria Duo Web", "Luce e gas insieme, gestione 100% digitale dall'app MySolaria.")])
        helps = "".join('<li><a href="/info/%s">%s</a></li>' % (slug(t), esc(t)) for t in [
            "Come leggere la bolletta luce", "Come fare l'autolettura del gas", "Cos'\u00e8 il codice POD",
            "Cos'\u00e8 il codice PDR", "Come attivare la domiciliazione", "Cambio intestatario (voltura)",
            "Bonus sociale energia", "Come richiedere la rateizzazione", "Cosa fare in caso di guasto",
            "Bolletta pi\u00f9 alta del solito?"])
        body = """<section class="hero"><h1>L'energia del sole, a casa tua</h1>
<p>Passa a Solaria: attivazione gratuita e senza interruzioni di fornitura.</p>
<a class="btn" href="/info/offerte-luce">Scopri le offerte</a> <a class="btn ghost" href="/mysolaria/login">Gestisci la tua fornitura</a></section>
<div class="wrap"><h2>Offerte in evidenza</h2><div class="cards">%s</div>
<div class="cards" style="margin-top:24px"><div class="card"><h3>Gestisci tutto online con MySolaria</h3>
<p>Bollette, pagamenti, autolettura e contratti sempre a portata di mano.</p><a href="/mysolaria/login">Accedi a MySolaria</a> &middot;
<a href="/registrati">Non sei registrato? Registrati</a></div>
<div class="card"><h3>Sei un'azienda?</h3><p>Per partite IVA e condomini c'&egrave; l'Area Business dedicata.</p>
<a href="/business/login">Login Area Business</a></div>
<div class="card"><h3>Newsletter</h3><form onsubmit="alert('Grazie! Controlla la tua email.');return false">
<input type="email" placeholder="La tua email" style="padding:8px;width:70%%"> <button class="btn">Iscriviti</button></form></div></div>
<h2>Domande frequenti</h2><ul>%s</ul></div>""" % (offers, helps)
        return self.page(req, "Luce e gas per la casa", body)

    def login(self, req):
        err = ""
        user = ""
        if req.method == "POST":
            user = req.form.get("codice_cliente", "").strip()
            pw = req.form.get("password", "")
            ok = user in USERS and USERS[user]["password"] == pw
            self.log(kind="credential", form="mysolaria-login", target="account", username=user, ok=ok)
            if ok:
                sid = secrets.token_hex(16)
                self.sessions[sid] = {"user": user, "auth": True}
                age = "; Max-Age=2592000" if req.form.get("ricordami") else ""
                return self.redirect("/mysolaria/benvenuto", cookies=["SOLSESSID=%s; Path=/; HttpOnly%s" % (sid, age)])
            err = '<div class="err" role="alert">Codice cliente o password non corretti. Riprova.</div>'
        body = """<div class="wrap"><div class="crumbs"><a href="/">Home</a> &rsaquo; MySolaria</div>
<form class="form" method="post" action="/mysolaria/login"><h2>Accedi a MySolaria</h2>
<p style="font-size:14px">L'area clienti per le forniture domestiche di luce e gas.</p>%s
<label for="cc">Codice cliente</label><input type="text" id="cc" name="codice_cliente" value="%s" autocomplete="username" placeholder="10 cifre, lo trovi in bolletta">
<label for="pw">Password</label><input type="password" id="pw" name="password" autocomplete="current-password">
<p><label style="display:inline"><input type="checkbox" name="ricordami" value="1"> Ricordami</label>
<a href="/info/password-dimenticata" style="float:right;font-size:13px">Password dimenticata?</a></p>
<button class="btn" type="submit" style="width:100%%">Accedi</button>
<p style="font-size:13px;margin-top:18px">Non hai ancora un account? <a href="/registrati">Registrati</a><br>
Cliente business? <a href="/business/login">Vai all'Area Business</a></p></form></div>""" % (err, esc(user))
        return self.page(req, "Accedi a MySolaria", body)

    def business(self, req):
        err = ""
        if req.method == "POST":
            self.log(kind="credential", form="business-login", target="decoy",
                     username=req.form.get("piva", ""), ok=False)
            err = '<div class="err" role="alert">Partita IVA o password errati.</div>'
        body = """<div class="wrap"><form class="form" method="post"><h2>Area Business</h2>
<p style="font-size:14px">Riservata a imprese, professionisti e amministratori di condominio.</p>%s
<label for="pi">Partita IVA o email aziendale</label><input type="text" id="pi" name="piva">
<label for="bp">Password</label><input type="password" id="bp" name="password">
<button class="btn dark" type="submit" style="width:100%%;margin-top:16px">Accedi all'Area Business</button>
<p style="font-size:13px">Cliente privato? <a href="/mysolaria/login">Accedi a MySolaria</a></p></form></div>""" % err
        return self.page(req, "Area Business - Login", body)

    def register(self, req):
        msg = ""
        if req.method == "POST":
            self.log(kind="credential", form="registrazione", target="decoy",
                     username=req.form.get("codice_cliente") or req.form.get("email", ""), ok=False)
            msg = '<div class="err" role="alert">Questo codice cliente risulta gi&agrave; registrato.</div>'
        body = """<div class="wrap"><form class="form" method="post"><h2>Registrati a MySolaria</h2>%s
<label for="re">Email</label><input type="email" id="re" name="email">
<label for="rc">Codice cliente</label><input type="text" id="rc" name="codice_cliente">
<label for="rp">Scegli una password</label><input type="password" id="rp" name="password">
<p><label><input type="checkbox" name="privacy"> Ho letto l'informativa privacy</label></p>
<button class="btn" type="submit" style="width:100%%">Crea account</button></form></div>""" % msg
        return self.page(req, "Registrati", body)

    def welcome(self, req, u):
        body = """<div class="wrap"><div class="form" style="text-align:center"><h2>Bentornata, %s!</h2>
<p>Il tuo accesso &egrave; stato effettuato correttamente. Ultimo accesso: 14/11/2026 alle 09:12.</p>
<p style="font-size:13px">Ti ricordiamo di aggiornare i tuoi recapiti per ricevere le comunicazioni importanti.</p>
<a class="btn" href="/mysolaria/home">Vai alla tua area</a> <a href="/info/aggiorna-recapiti" style="margin-left:10px">Aggiorna recapiti</a></div></div>""" % esc(
            USERS[u]["name"].split()[0])
        return self.page(req, "Benvenuto", body)

    def side(self):
        return ('<aside class="side"><a href="/mysolaria/home"><b>Panoramica</b></a><a href="/mysolaria/forniture">Le mie forniture</a>'
                '<a href="/mysolaria/pagamenti">Metodi di pagamento</a><a href="/mysolaria/autolettura">Autolettura</a>'
                '<a href="/mysolaria/contratti">Contratti</a><a href="/mysolaria/profilo">Profilo e recapiti</a>'
                '<a href="/mysolaria/premi">Solaria Premi</a><a href="/info/centro-assistenza">Assistenza</a></aside>')

    def dashboard(self, req, u):
        last = [d for d in DOCS if d["kind"] == "Bolletta"][:3]
        rows = "".join("<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>" % (
            esc(d["id"]), esc(d["period"]), it_date(d["date"]), eur(d["amount"]), esc(d["status"])) for d in last)
        body = """<div class="wrap"><div class="crumbs"><a href="/">Home</a> &rsaquo; MySolaria</div><div class="layout">%s<main>
<h1>Ciao %s</h1><div class="cards"><div class="card"><h4>Fornitura luce</h4><p>POD IT001E12345678<br>Via Po 44, Torino</p></div>
<div class="card"><h4>Fornitura gas</h4><p>PDR 00881234567812<br>Via Po 44, Torino</p></div>
<div class="card"><h4>Da pagare</h4><p style="font-size:24px">%s</p><a href="/mysolaria/pagamenti">Paga ora</a></div></div>
<div class="card" style="margin-top:20px"><h3>Ultime bollette</h3><table class="docs"><thead><tr><th>Numero</th><th>Periodo</th>
<th>Emessa il</th><th>Importo</th><th>Stato</th></tr></thead><tbody>%s</tbody></table>
<p style="text-align:right"><a href="/mysolaria/bollette/archivio">Tutte le bollette &rsaquo;</a></p></div>
<div class="card" style="margin-top:20px"><h3>Autolettura</h3><p>Comunica la lettura del contatore gas entro il 10/12/2026.</p></div>
</main></div></div>""" % (self.side(), esc(USERS[u]["name"].split()[0]), eur(last[0]["amount"]), rows)
        return self.page(req, "MySolaria", body)

    def archive(self, req, u):
        per = 8
        total = len(DOCS)
        pages = (total + per - 1) // per
        try:
            pg = max(1, min(pages, int(req.q.get("page", "1"))))
        except ValueError:
            pg = 1
        chunk = DOCS[(pg - 1) * per: pg * per]
        rows = "".join(
            '<tr><td>%s</td><td><span class="badge%s">%s</span></td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td>'
            '<td><a href="/mysolaria/documento/%s.pdf" aria-label="Scarica PDF %s">PDF</a></td></tr>' % (
                esc(d["id"]), " nc" if d["kind"] != "Bolletta" else "", esc(d["kind"]), esc(d["period"]),
                it_date(d["date"]), it_date(d["due"]) if d["due"] else "&ndash;", eur(d["amount"]), esc(d["status"]),
                esc(d["id"]), esc(d["id"])) for d in chunk)
        links = []
        if pg > 1:
            links.append('<a href="?page=%d" rel="prev">&lsaquo; Precedente</a>' % (pg - 1))
        for i in range(1, pages + 1):
            links.append('<span class="cur" aria-current="page">%d</span>' % i if i == pg else '<a href="?page=%d">%d</a>' % (i, i))
        if pg < pages:
            links.append('<a href="?page=%d" rel="next">Successiva &rsaquo;</a>' % (pg + 1))
        body = """<div class="wrap"><div class="crumbs"><a href="/">Home</a> &rsaquo; <a href="/mysolaria/home">MySolaria</a> &rsaquo; Archivio bollette</div>
<div class="layout">%s<main><h1>Archivio bollette e documenti</h1>
<p style="font-size:14px">Qui trovi bollette e note di credito degli ultimi 36 mesi. Documenti: %d &middot; Pagina %d di %d</p>
<table class="docs"><thead><tr><th>Numero documento</th><th>Tipo</th><th>Periodo / Causale</th><th>Data emissione</th><th>Scadenza</th>
<th>Importo</th><th>Stato</th><th></th></tr></thead><tbody>%s</tbody></table>
<nav class="pager" aria-label="Paginazione">%s</nav></main></div></div>""" % (
            self.side(), total, pg, pages, rows, "".join(links))
        return self.page(req, "Archivio bollette", body)


def make_app():
    return App()
