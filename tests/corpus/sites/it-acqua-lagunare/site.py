"""Acque Lagunari - gestore del servizio idrico integrato (stile multiutility/consorzio acqua italiano; banner modale tipo Didomi)."""
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



def eur(v):
    s = "{:,.2f}".format(abs(v)).replace(",", "X").replace(".", ",").replace("X", ".")
    return ("-" if v < 0 else "") + s + " \u20ac"


def it_date(iso):
    y, m, d = iso.split("-")
    return "%s/%s/%s" % (d, m, y)


UTENZE = [("0100458823", "Via Garibaldi 1844, Venezia - Castello", 2, 38.0),
          ("0100977310", "Lungomare Adriatico 31, Sottomarina (Chioggia)", 3, 29.0)]


def build_docs():
    rnd = random.Random(9083)
    docs = []
    seq = {2024: 3311, 2025: 3120, 2026: 2987}
    for code, addr, step, base in UTENZE:
        for y in (2024, 2025, 2026):
            for m in range(1 + (1 if step == 2 else 0), 13, step):
                if (y, m) > (2026, 11):
                    continue
                seq[y] += rnd.randint(250, 700)
                day = rnd.randint(3, 24)
                iso = "%04d-%02d-%02d" % (y, m, day)
                amt = round(base * step * (1.35 if m in (7, 8, 9) else 1.0) + rnd.uniform(-6, 15), 2)
                kind = "Conguaglio" if (m in (4, 10) and step == 3) else "Acconto"
                docs.append({"id": "B%02d-%07d" % (y % 100, seq[y]), "date": iso, "utenza": code, "addr": addr,
                             "amount": amt, "kind": kind, "due": "%04d-%02d-%02d" % (y, m, min(day + 25, 28) if day + 25 <= 28 else 28),
                             "paid": iso < "2026-10-15"})
    docs.sort(key=lambda d: d["date"], reverse=True)
    return docs


DOCS = build_docs()
COMUNICAZIONI = [("2026-10-02", "Aggiornamento tariffario 2026 - delibera ARERA"), ("2026-06-15", "Lettura contatore programmata"),
                 ("2026-01-20", "Bonus idrico: come richiederlo"), ("2025-09-01", "Interruzione programmata del servizio")]
USERS = {"BNCLRA79E52L736Z": {"password": "Laguna.Blu-79", "name": "Laura Bianchi"}}

FOOT = ["Chi siamo", "Societ\u00e0 trasparente", "Bandi e gare", "Lavora con noi", "Qualit\u00e0 dell'acqua", "Analisi per comune",
        "Tariffe", "Bonus idrico", "Carta del servizio", "Regolamento utenza", "Sportelli", "Numero verde guasti",
        "Leggere la bolletta", "Autolettura", "Domiciliazione", "Bolletta via email", "Rateizzazione", "Reclami",
        "Privacy", "Cookie policy", "Accessibilit\u00e0", "Whistleblowing", "Note legali", "Mappa del sito",
        "Area stampa", "Progetti PNRR", "Depurazione", "Fognatura", "Nuovi allacciamenti", "Fontanelle pubbliche"]

CSS = """
*{box-sizing:border-box}body{margin:0;font-family:'Titillium Web',Verdana,sans-serif;color:#13334c;background:#f4f8fb}
a{color:#0067a8}.pre{background:#003b5c;color:#fff;font-size:13px;padding:7px 30px;display:flex;gap:20px}.pre a{color:#bfe3ff;text-decoration:none}
header{background:#fff;display:flex;align-items:center;padding:14px 30px;gap:24px;border-bottom:4px solid #00a3e0}
.logo{font-size:22px;font-weight:bold;color:#003b5c;text-decoration:none}.logo small{display:block;font-size:11px;color:#00a3e0;font-weight:normal}
header nav{flex:1;display:flex;gap:18px}header nav a{text-decoration:none;color:#13334c}
.btn{display:inline-block;background:#0067a8;color:#fff;border:0;padding:10px 18px;border-radius:4px;cursor:pointer;font-size:15px;text-decoration:none}
.btn.out{background:#fff;color:#0067a8;border:1px solid #0067a8}.btn.green{background:#2e8540}
.hero{background:#00a3e0;color:#fff;padding:46px 30px}.wrap{max-width:1120px;margin:0 auto;padding:24px}
.tiles{display:grid;grid-template-columns:repeat(4,1fr);gap:14px}.tile{background:#fff;padding:18px;border-radius:6px;box-shadow:0 1px 3px #0002}
footer{background:#003b5c;color:#d8ecf8;padding:30px;font-size:13px;margin-top:30px}footer .links{columns:5}footer a{color:#d8ecf8;display:block;padding:3px 0}
.alert{background:#fff4ce;border-left:5px solid #f2b400;padding:12px 30px;font-size:14px}
.modal-bg{position:fixed;inset:0;background:rgba(0,20,40,.6);z-index:900}.modal{position:fixed;top:50%;left:50%;transform:translate(-50%,-50%);background:#fff;border-radius:8px;padding:28px;width:440px;z-index:901}
.modal label{display:block;margin:12px 0 4px}.modal input[type=text],.modal input[type=password]{width:100%;padding:10px;border:1px solid #9fb3c2;border-radius:4px;font-size:15px}
.err{color:#b00020;background:#fde7ea;padding:8px;border-radius:4px}
.didomi-popup-backdrop{position:fixed;inset:0;background:rgba(0,0,0,.55);z-index:2000}
.didomi-popup{position:fixed;top:50%;left:50%;transform:translate(-50%,-50%);width:560px;background:#fff;border-radius:6px;z-index:2001;padding:30px 30px 22px;font-size:14px}
.didomi-continue-without-agreeing{position:absolute;right:18px;top:12px;color:#555;font-size:13px;text-decoration:underline;background:none;border:0;cursor:pointer}
.didomi-buttons{display:flex;gap:10px;justify-content:flex-end;margin-top:18px}
.tabs{display:flex;border-bottom:1px solid #c8d6e0}.tabs a{padding:10px 20px;text-decoration:none;color:#13334c}.tabs a.on{border-bottom:3px solid #0067a8;font-weight:bold}
.bill{background:#fff;border:1px solid #dbe5ec;border-radius:6px;padding:14px 18px;margin:10px 0;display:grid;grid-template-columns:2fr 1fr 1fr 1fr auto;gap:12px;align-items:center}
.bill .lbl{display:block;font-size:12px;color:#607d8b}.areanav{background:#e6f2f9;padding:0 30px;display:flex;gap:4px}.areanav a{padding:12px 16px;text-decoration:none;color:#13334c}.areanav a.on{background:#fff}
.chatbot{position:fixed;right:20px;bottom:20px;background:#2e8540;color:#fff;border-radius:50%;width:58px;height:58px;display:flex;align-items:center;justify-content:center;font-size:26px;z-index:100}
"""

CONSENT = """
<div class="didomi-popup-backdrop" id="didomi-backdrop"></div>
<div class="didomi-popup" id="didomi-popup" role="dialog" aria-modal="true" aria-labelledby="didomi-t">
<button class="didomi-continue-without-agreeing" type="button" onclick="dmSend('reject')">Continua senza accettare &rarr;</button>
<h2 id="didomi-t">Acque Lagunari rispetta la tua privacy</h2>
<p>Noi e i nostri <a href="/info/partner">partner</a> utilizziamo cookie e tecnologie simili per misurare l'audience del sito, migliorare i servizi
e mostrarti contenuti personalizzati. Puoi acconsentire cliccando su "Accetta e chiudi" o impostare le tue preferenze.</p>
<div id="dm-prefs" style="display:none;border-top:1px solid #ddd;padding-top:10px">
<p><label><input type="checkbox" class="dmp" value="audience"> Misurazione dell'audience</label></p>
<p><label><input type="checkbox" class="dmp" value="personalizzazione"> Contenuti personalizzati</label></p>
<p><label><input type="checkbox" class="dmp" value="video"> Video e mappe di terze parti</label></p>
<button class="btn out" type="button" onclick="dmSend('custom')">Salva</button></div>
<div class="didomi-buttons"><button class="btn out" type="button" onclick="document.getElementById('dm-prefs').style.display='block'">Scopri di pi&ugrave;</button>
<button class="btn" type="button" onclick="dmSend('accept')">Accetta e chiudi</button></div></div>
<script>
function dmSend(c){var on=c=='accept'?['audience','personalizzazione','video']:(c=='custom'?[].map.call(document.querySelectorAll('.dmp:checked'),function(x){return x.value}):[]);
var f=new URLSearchParams();f.set('choice',c);on.forEach(function(x){f.append('purpose',x)});
fetch('/didomi/consent',{method:'POST',body:f}).then(function(){['didomi-backdrop','didomi-popup'].forEach(function(i){document.getElementById(i).remove()})});}
</script>"""

LOGIN_MODAL = """
<div id="login-bg" class="modal-bg" style="display:none"></div>
<div id="login-modal" class="modal" role="dialog" aria-modal="true" aria-labelledby="lm-t" style="display:none">
<button type="button" aria-label="Chiudi" style="float:right;border:0;background:none;font-size:20px;cursor:pointer" onclick="loginToggle(false)">&times;</button>
<h2 id="lm-t">Accedi all'Area riservata</h2><div id="login-err"></div>
<form id="login-form"><label for="cf">Codice fiscale</label><input type="text" id="cf" name="codice_fiscale" autocomplete="username" maxlength="16" style="text-transform:uppercase">
<label for="lpw">Password</label><input type="password" id="lpw" name="password" autocomplete="current-password">
<p><label style="display:inline"><input type="checkbox" name="ricorda"> Resta collegato</label></p>
<button class="btn" type="submit" style="width:100%">Accedi</button></form>
<p style="font-size:13px"><a href="/info/recupero-password">Password dimenticata?</a> &middot; Non sei registrato? <a href="/registrazione">Registrati</a></p>
<p style="font-size:13px">Vuoi solo pagare una bolletta? <a href="/paga-online">Paga senza registrarti</a></p></div>
<script>
function loginToggle(v){['login-bg','login-modal'].forEach(function(i){document.getElementById(i).style.display=v?'block':'none'});}
document.getElementById('login-form').onsubmit=function(e){e.preventDefault();
 fetch('/api/auth/login',{method:'POST',headers:{'Content-Type':'application/json'},body:JSON.stringify({cf:this.codice_fiscale.value,password:this.password.value,remember:this.ricorda.checked})})
 .then(function(r){return r.json()}).then(function(j){if(j.ok){location.href=j.redirect}else{document.getElementById('login-err').innerHTML='<p class="err" role="alert">'+j.message+'</p>'}});};
</script>"""


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

    def redirect(self, loc):
        return "302 Found", [("Location", loc), ("Content-Length", "0")], b""

    def user(self, req):
        return self.sessions.get(req.cookies.get("ALSESSION", ""))

    def __call__(self, environ, start_response):
        req = Req(environ)
        try:
            status, headers, body = self.route(req)
        except Exception as e:  # pragma: no cover
            status, headers, body = "500 Internal Server Error", [("Content-Type", "text/plain")], repr(e).encode()
        start_response(status, headers)
        return [body]

    def page(self, req, title, body, status="200 OK", area=False):
        u = self.user(req)
        if u:
            acct = '<a class="btn" href="/area-riservata/">Area riservata</a> <a href="/esci">Esci</a>'
        else:
            acct = ('<a class="btn green" href="/paga-online">Paga online</a> '
                    '<a class="btn" href="/area-riservata/" onclick="loginToggle(true);return false">Area riservata</a>')
        links = "".join('<a href="/info/%s">%s</a>' % (esc(x.lower().replace(" ", "-").replace("'", "")), esc(x)) for x in FOOT)
        banner = "" if "didomi_token" in req.cookies else CONSENT
        doc = """<!doctype html><html lang="it"><head><meta charset="utf-8"><title>%s - Acque Lagunari S.p.A.</title><style>%s</style></head><body>
<div class="pre"><a href="/info/societa-trasparente">Societ&agrave; trasparente</a><a href="/info/bandi-e-gare">Bandi e gare</a><span style="flex:1"></span>
<a href="/info/numero-verde-guasti">Guasti 24h: 800 896 960</a><a href="/info/sportelli">Sportelli</a></div>
<header><a class="logo" href="/">Acque Lagunari<small>Servizio idrico integrato</small></a>
<nav><a href="/info/servizi">Servizi</a><a href="/info/tariffe">Tariffe</a><a href="/info/qualita-dellacqua">Qualit&agrave; dell'acqua</a>
<a href="/info/lavori-in-corso">Lavori in corso</a><a href="/info/assistenza">Assistenza</a><a href="/info/azienda">Azienda</a></nav>%s</header>
%s<footer><div class="links">%s</div><p>Acque Lagunari S.p.A. - Via Torino 180, 30172 Venezia Mestre - C.F./P.IVA 04012345678 - Capitale sociale i.v.</p></footer>
<a class="chatbot" href="/info/assistente-virtuale" aria-label="Assistente virtuale">&#128167;</a>%s%s</body></html>""" % (
            esc(title), CSS, acct, body, links, "" if u else LOGIN_MODAL, banner)
        return self.resp(doc, status=status)

    def route(self, req):
        p = req.path
        if p == "/":
            tiles = "".join('<div class="tile"><h3>%s</h3><p>%s</p><a href="/info/%s">Vai</a></div>' % (a, b, c) for a, b, c in [
                ("Autolettura", "Comunica la lettura del tuo contatore.", "autolettura"),
                ("Bolletta via email", "Ricevi le bollette in formato digitale.", "bolletta-via-email"),
                ("Nuovo allacciamento", "Richiedi un nuovo contratto.", "nuovi-allacciamenti"),
                ("Segnala un guasto", "Perdite e interruzioni, 24 ore su 24.", "numero-verde-guasti"),
                ("Bonus idrico", "Agevolazioni per famiglie in difficolt\u00e0.", "bonus-idrico"),
                ("Qualit\u00e0 dell'acqua", "I parametri del tuo comune.", "analisi-per-comune"),
                ("Tariffe 2026", "Articolazione tariffaria vigente.", "tariffe"),
                ("Sportelli", "Orari e prenotazione appuntamenti.", "sportelli")])
            body = """<div class="alert">&#9888; Lavori programmati a Mestre (via Piave) il 4 dicembre 2026 dalle 8:30 alle 16:00. <a href="/info/lavori-in-corso">Dettagli</a></div>
<section class="hero"><h1>L'acqua di tutti, ogni giorno</h1><p>Gestiamo il servizio idrico di 25 comuni dell'area veneziana.</p></section>
<div class="wrap"><div class="tiles">%s</div><h2>Servizi online</h2><p>Con l'Area riservata consulti bollette, consumi e pagamenti delle tue utenze.
<a href="/registrazione">Registrati</a> oppure <a href="/paga-online">paga senza registrarti</a> con PagoPA.</p>
<div class="tile"><h3>Newsletter</h3><form onsubmit="alert('Iscrizione completata');return false"><input type="email" placeholder="Indirizzo email"> <button class="btn">Iscriviti</button></form></div></div>""" % tiles
            return self.page(req, "Home", body)
        if p == "/didomi/consent" and req.method == "POST":
            c = req.form.get("choice", "reject")
            on = req.formlist.get("purpose", [])
            if c not in ("accept", "reject", "custom"):
                c = "custom"
            self.log(kind="consent", choice=c, optional_enabled=on)
            return self.resp("ok", ctype="text/plain", cookies=["didomi_token=%s; Path=/; Max-Age=15552000" % c])
        if p.startswith("/info/"):
            t = p[6:].replace("-", " ").capitalize()
            return self.page(req, t, '<div class="wrap"><p><a href="/">Home</a> / %s</p><h1>%s</h1><p>Contenuto in aggiornamento.</p></div>' % (esc(t), esc(t)))
        if p == "/api/auth/login" and req.method == "POST":
            cf = str(req.form.get("cf", "")).strip()
            ok = cf.upper() in USERS and USERS[cf.upper()]["password"] == req.form.get("password")
            self.log(kind="credential", form="area-riservata-modal", target="account", username=cf, ok=ok)
            if not ok:
                return self.resp(json.dumps({"ok": False, "message": "Codice fiscale o password non validi."}), ctype="application/json")
            sid = secrets.token_hex(16)
            self.sessions[sid] = cf.upper()
            return self.resp(json.dumps({"ok": True, "redirect": "/area-riservata/"}), ctype="application/json",
                             cookies=["ALSESSION=%s; Path=/; HttpOnly" % sid])
        if p == "/paga-online":
            return self.guest_pay(req)
        if p == "/registrazione":
            return self.registration(req)
        if p == "/esci":
            self.sessions.pop(req.cookies.get("ALSESSION", ""), None)
            return self.redirect("/")
        if p.startswith("/area-riservata") or p.startswith("/api/"):
            u = self.user(req)
            if not u:
                if p.startswith("/api/"):
                    return self.resp('{"error":"auth"}', status="401 Unauthorized", ctype="application/json")
                return self.page(req, "Accesso richiesto", '<div class="wrap"><h1>Accesso richiesto</h1><p>Per continuare '
                                 '<a href="#" onclick="loginToggle(true);return false">accedi all\'Area riservata</a>.</p></div>')
            return self.area(req, u)
        return self.page(req, "Pagina non trovata", '<div class="wrap"><h1>Pagina non trovata</h1></div>', status="404 Not Found")

    def guest_pay(self, req):
        msg = ""
        if req.method == "POST":
            self.log(kind="credential", form="paga-senza-registrarti", target="decoy",
                     username=req.form.get("codice_fiscale", ""), ok=False)
            msg = '<p class="err" role="alert">Nessun avviso di pagamento trovato per i dati inseriti.</p>'
        body = """<div class="wrap"><h1>Paga senza registrarti</h1><p>Paga la tua bolletta con PagoPA inserendo i dati presenti sull'avviso.</p>%s
<form method="post" class="tile" style="max-width:460px"><label>Codice fiscale intestatario<br><input type="text" name="codice_fiscale" style="width:100%%;padding:9px"></label><br><br>
<label>Codice avviso (18 cifre)<br><input type="text" name="codice_avviso" style="width:100%%;padding:9px"></label><br><br>
<label>Codice PIN ricevuto via SMS<br><input type="password" name="pin" style="width:100%%;padding:9px"></label><br><br>
<button class="btn green" type="submit">Procedi al pagamento</button></form></div>""" % msg
        return self.page(req, "Paga online", body)

    def registration(self, req):
        msg = ""
        if req.method == "POST":
            self.log(kind="credential", form="registrazione", target="decoy", username=req.form.get("codice_fiscale", ""), ok=False)
            msg = '<p class="err" role="alert">Utente gi&agrave; registrato.</p>'
        body = """<div class="wrap"><h1>Registrazione all'Area riservata</h1>%s<form method="post" class="tile" style="max-width:460px">
<label>Codice fiscale<br><input type="text" name="codice_fiscale" style="width:100%%;padding:9px"></label><br><br>
<label>Codice utenza<br><input type="text" name="codice_utenza" style="width:100%%;padding:9px"></label><br><br>
<label>Email<br><input type="email" name="email" style="width:100%%;padding:9px"></label><br><br>
<label>Password<br><input type="password" name="password" style="width:100%%;padding:9px"></label><br><br>
<button class="btn" type="submit">Registrati</button></form></div>""" % msg
        return self.page(req, "Registrazione", body)

    def areanav(self, on):
        items = [("/area-riservata/", "Riepilogo"), ("/area-riservata/utenze", "Le mie utenze"), ("/area-riservata/documenti", "Documenti"),
                 ("/area-riservata/pagamenti", "Pagamenti"), ("/area-riservata/letture", "Letture e consumi"),
                 ("/area-riservata/richieste", "Richieste"), ("/area-riservata/profilo", "Profilo")]
        return '<nav class="areanav">%s</nav>' % "".join('<a href="%s"%s>%s</a>' % (h, ' class="on"' if h == on else "", l) for h, l in items)

    def bill_html(self, d):
        return ('<article class="bill"><div><span class="lbl">%s &middot; utenza %s</span><b>Bolletta n. %s</b><br><small>%s</small></div>'
                '<div><span class="lbl">Emessa il</span>%s</div><div><span class="lbl">Scadenza</span>%s</div>'
                '<div><span class="lbl">Importo</span><b>%s</b></div><div><a href="/area-riservata/bolletta.pdf?n=%s">Scarica PDF</a></div></article>') % (
            esc(d["kind"]), esc(d["utenza"]), esc(d["id"]), esc(d["addr"]), it_date(d["date"]), it_date(d["due"]), eur(d["amount"]), esc(d["id"]))

    def area(self, req, u):
        p = req.path
        if p == "/api/bollette":
            try:
                off = int(req.q.get("offset", "0"))
            except ValueError:
                off = 0
            chunk = DOCS[off:off + 6]
            return self.resp(json.dumps({"html": "".join(self.bill_html(d) for d in chunk), "next": off + 6 if off + 6 < len(DOCS) else None}),
                             ctype="application/json")
        if p == "/area-riservata/bolletta.pdf":
            d = next((x for x in DOCS if x["id"] == req.q.get("n")), None)
            if not d:
                return self.resp("Not found", status="404 Not Found", ctype="text/plain")
            self.log(kind="download", path=p + "?n=" + d["id"])
            return self.resp(make_pdf(["Acque Lagunari S.p.A.", "Bolletta n. %s" % d["id"], "Emessa il %s" % it_date(d["date"]),
                                       "Importo %.2f EUR" % d["amount"]]), ctype="application/pdf")
        name = USERS[u]["name"]
        if p == "/area-riservata/":
            body = """%s<div class="wrap"><h1>Benvenuta %s</h1><div class="tiles"><div class="tile"><b>Utenze attive</b><p>2</p></div>
<div class="tile"><b>Ultima bolletta</b><p>%s</p></div><div class="tile"><b>Consumo annuo</b><p>98 m&sup3;</p></div><div class="tile"><b>Domiciliazione</b><p>Non attiva - <a href="/info/domiciliazione">attiva</a></p></div></div>
<p>Bollette, comunicazioni e contratti si trovano nella sezione <a href="/area-riservata/documenti">Documenti</a>.</p></div>""" % (
                self.areanav(p), esc(name.split()[0]), eur(DOCS[0]["amount"]))
            return self.page(req, "Area riservata", body)
        if p == "/area-riservata/documenti":
            tab = req.q.get("tab", "bollette")
            tabs = '<div class="tabs">%s</div>' % "".join('<a href="?tab=%s"%s>%s</a>' % (k, ' class="on"' if k == tab else "", l) for k, l in [
                ("bollette", "Bollette"), ("comunicazioni", "Comunicazioni"), ("contratti", "Contratti")])
            if tab == "comunicazioni":
                inner = "".join('<article class="bill"><div><b>%s</b></div><div>%s</div><div></div><div></div><div><a href="#">Apri</a></div></article>' % (
                    esc(t), it_date(d)) for d, t in COMUNICAZIONI)
            elif tab == "contratti":
                inner = '<p>Contratto di somministrazione n. 0100458823 del 12/05/2011 - <a href="#">PDF</a></p>'
            else:
                inner = """<div id="lista-bollette">%s</div><p style="text-align:center"><button class="btn out" type="button" id="mostra-altre">Mostra altre bollette</button></p>
<script>var nextOff=6;document.getElementById('mostra-altre').onclick=function(){var b=this;b.disabled=true;b.textContent='Caricamento...';
fetch('/api/bollette?offset='+nextOff).then(function(r){return r.json()}).then(function(j){document.getElementById('lista-bollette').insertAdjacentHTML('beforeend',j.html);
if(j.next===null){b.remove()}else{nextOff=j.next;b.disabled=false;b.textContent='Mostra altre bollette'}})};</script>""" % "".join(
                    self.bill_html(d) for d in DOCS[:6])
            body = '%s<div class="wrap"><p><a href="/area-riservata/">Area riservata</a> / Documenti</p><h1>Documenti</h1>%s%s</div>' % (
                self.areanav(p), tabs, inner)
            return self.page(req, "Documenti", body)
        return self.page(req, "Area riservata", '%s<div class="wrap"><h1>Servizio in aggiornamento</h1></div>' % self.areanav(p))


def make_app():
    return App()
