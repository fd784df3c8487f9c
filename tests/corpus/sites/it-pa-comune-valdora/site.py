"""Comune di Valdora - portale istituzionale e area personale del cittadino (stile modello Comuni di Designers Italia)."""
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
    return "\u20ac " + s


MESI = ["gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre", "ottobre", "novembre", "dicembre"]


def long_date(iso):
    y, m, d = iso.split("-")
    return "%d %s %s" % (int(d), MESI[int(m) - 1], y)


RAW = [
    # (data, tipo, causale, importo)
    ("2024-03-12", "R", "Mensa scolastica - ricarica", 80.00), ("2024-05-31", "R", "TARI 2024 - rata 1", 124.00),
    ("2024-07-15", "R", "Centro estivo comunale", 145.00), ("2024-09-30", "R", "TARI 2024 - rata 2", 124.00),
    ("2024-10-08", "R", "Trasporto scolastico a.s. 2024/25", 210.00), ("2024-12-02", "R", "TARI 2024 - saldo", 123.00),
    ("2025-01-20", "R", "Mensa scolastica - ricarica", 100.00), ("2025-04-04", "R", "Diritti di segreteria - certificato", 16.52),
    ("2025-05-30", "R", "TARI 2025 - rata 1", 128.00), ("2025-09-29", "R", "TARI 2025 - rata 2", 128.00),
    ("2025-10-10", "R", "Trasporto scolastico a.s. 2025/26", 215.00), ("2025-12-01", "R", "TARI 2025 - saldo", 127.00),
    ("2026-01-14", "R", "Mensa scolastica - ricarica", 100.00), ("2026-02-23", "R", "Carta d'identit\u00e0 elettronica", 22.21),
    ("2026-03-09", "R", "Mensa scolastica - ricarica", 60.00), ("2026-04-16", "R", "Occupazione suolo pubblico - trasloco", 35.40),
    ("2026-05-29", "R", "TARI 2026 - rata 1", 131.00), ("2026-06-22", "R", "Centro estivo comunale", 160.00),
    ("2026-07-03", "A", "Sanzione codice della strada - verbale 2026/1187", 42.00),
    ("2026-07-21", "R", "Sanzione codice della strada - verbale 2026/1187", 42.00),
    ("2026-09-30", "R", "TARI 2026 - rata 2", 131.00), ("2026-10-06", "R", "Trasporto scolastico a.s. 2026/27", 220.00),
    ("2026-10-27", "R", "Mensa scolastica - ricarica", 100.00), ("2026-11-02", "A", "TARI 2026 - saldo", 130.00),
    ("2026-11-18", "R", "Diritti di segreteria - cambio residenza", 16.00), ("2026-11-25", "A", "Lampade votive cimitero 2027", 28.00),
]


def build_docs():
    docs = []
    cnt = {}
    for iso, t, caus, amt in RAW:
        y = int(iso[:4])
        cnt[(y, t)] = cnt.get((y, t), 0) + 1
        num = ("RT %d/%06d" if t == "R" else "AVV %d/%06d") % (y, 4100 + cnt[(y, t)] * 37)
        iuv = "RF%02d%015d" % (int(iso[5:7]) + 10, (sum(ord(c) * (i + 7) ** 3 for i, c in enumerate(iso + caus)) * 7919) % 10 ** 15)
        docs.append({"id": num, "date": iso, "kind": "Ricevuta di pagamento" if t == "R" else "Avviso di pagamento",
                     "subject": caus, "amount": amt, "iuv": iuv, "key": "%s-%s" % (t, iso)})
    docs.sort(key=lambda d: d["date"], reverse=True)
    return docs


DOCS = build_docs()
USERS = {"RSSGPP70A01L219K": {"password": "Valdora#Citt4d1no", "name": "Giuseppe Rossi"}}

MEGA = {"Amministrazione": ["Organi di governo", "Aree amministrative", "Uffici", "Enti e fondazioni", "Politici", "Personale amministrativo", "Documenti e dati"],
        "Novit\u00e0": ["Notizie", "Comunicati", "Avvisi"],
        "Servizi": ["Anagrafe e stato civile", "Cultura e tempo libero", "Vita lavorativa", "Imprese e commercio", "Appalti pubblici",
                    "Catasto e urbanistica", "Turismo", "Mobilit\u00e0 e trasporti", "Educazione e formazione", "Giustizia e sicurezza pubblica",
                    "Tributi, finanze e contravvenzioni", "Ambiente", "Salute, benessere e assistenza", "Autorizzazioni", "Agricoltura e pesca"],
        "Vivere il comune": ["Luoghi", "Eventi"]}
FOOT = ["Amministrazione trasparente", "Informativa privacy", "Note legali", "Dichiarazione di accessibilit\u00e0", "Albo pretorio",
        "Leggi le FAQ", "Prenotazione appuntamento", "Segnalazione disservizio", "Richiesta d'assistenza", "Mappa del sito",
        "Piano di miglioramento del sito", "Media policy", "Statistiche del sito", "Login Webmail dipendenti", "Intranet"]

CSS = """
*{box-sizing:border-box}body{margin:0;font-family:'Titillium Web',Geneva,Tahoma,sans-serif;color:#1a1a1a;background:#fff}
a{color:#0066cc}.slim{background:#004080;color:#fff;padding:8px 32px;font-size:14px;display:flex;justify-content:space-between}.slim a{color:#fff;text-decoration:none}
.center{background:#0066cc;color:#fff;padding:22px 32px;display:flex;align-items:center;gap:20px}.center .brand{color:#fff;text-decoration:none;font-size:28px;font-weight:700}
.center .brand small{display:block;font-size:14px;font-weight:400}.center .search{margin-left:auto;background:#fff;color:#0066cc;border-radius:50%;width:42px;height:42px;border:0}
.navbar{background:#0066cc;padding:0 32px;display:flex;gap:26px;border-top:1px solid #ffffff33}.navbar a{color:#fff;text-decoration:none;padding:12px 0;font-weight:600}
.menu-btn{background:#fff;color:#0066cc;border:0;border-radius:4px;padding:8px 16px;font-weight:700;cursor:pointer}
#offcanvas{display:none;position:fixed;top:0;left:0;bottom:0;width:360px;background:#fff;box-shadow:4px 0 30px #0005;z-index:300;overflow:auto;padding:22px}
#offcanvas.open{display:block}#offcanvas h4{margin:18px 0 6px;color:#004080}#offcanvas a{display:block;padding:6px 0;text-decoration:none}
.wrap{max-width:1140px;margin:0 auto;padding:28px 20px}.cards{display:grid;grid-template-columns:repeat(3,1fr);gap:20px}.card{border:1px solid #d9dadb;padding:20px;border-radius:4px}
footer{background:#004080;color:#fff;padding:34px;margin-top:40px;font-size:14px}footer a{color:#fff;display:block;padding:4px 0}footer .cols{display:grid;grid-template-columns:repeat(4,1fr)}
.btn{background:#0066cc;color:#fff;border:0;border-radius:4px;padding:12px 22px;font-size:16px;cursor:pointer;text-decoration:none;display:inline-block}.btn.o{background:#fff;color:#0066cc;border:2px solid #0066cc}
.cookiebar{position:fixed;bottom:0;left:0;right:0;background:#30373d;color:#fff;padding:16px 32px;display:flex;align-items:center;gap:20px;z-index:200;font-size:15px}
.cookiebar a{color:#9fcbff}.cookiebar button{background:none;border:2px solid #fff;color:#fff;padding:8px 18px;border-radius:4px;cursor:pointer;font-weight:700}
.tabs{display:flex;border-bottom:2px solid #0066cc}.tabs a{padding:12px 20px;text-decoration:none;font-weight:600}.tabs a.on{background:#0066cc;color:#fff}
.form label{display:block;margin:16px 0 6px;font-weight:600}.form input[type=text],.form input[type=password]{width:100%;max-width:460px;padding:12px;border:0;border-bottom:1px solid #5c6f82;font-size:16px;background:#f5f6f7}
.alert{border-left:6px solid #d9364f;background:#fff;padding:12px;margin:12px 0;box-shadow:0 1px 4px #0002}
.spid{background:#0066cc;color:#fff;border:0;border-radius:4px;padding:12px 24px;font-weight:700;cursor:pointer;margin:6px 0}
.dash{display:grid;grid-template-columns:260px 1fr;gap:32px}.side a{display:block;padding:12px 14px;border-left:3px solid transparent;text-decoration:none}.side a.on{border-left-color:#0066cc;background:#f0f6fc;font-weight:700}
.accordion-item{border-bottom:1px solid #d9dadb}.accordion-item h3{margin:0}.accordion-button{width:100%;text-align:left;background:none;border:0;padding:16px 6px;font-size:16px;cursor:pointer;display:flex;justify-content:space-between;color:#0066cc;font-weight:600}
.accordion-body{padding:4px 10px 18px}.accordion-body dl{display:grid;grid-template-columns:240px 1fr;gap:6px;margin:0}.accordion-body dt{color:#5c6f82}
.chip{font-size:12px;border:1px solid #0066cc;border-radius:12px;padding:2px 10px;margin-left:8px;color:#0066cc;font-weight:400}.chip.avv{border-color:#b35c00;color:#b35c00}
.year{margin-top:30px;color:#004080;border-bottom:2px solid #004080}
"""

COOKIEBAR = """<div class="cookiebar" id="cookiebar" role="region" aria-label="Informativa cookie">
<p style="margin:0;flex:1">Questo sito utilizza esclusivamente cookie tecnici necessari al suo funzionamento e cookie analitici anonimizzati
(Web Analytics Italia). Per maggiori informazioni consulta la <a href="/info/informativa-privacy">privacy policy</a>.</p>
<button type="button" onclick="document.cookie='cookies_consent=ok;path=/;max-age=31536000';document.getElementById('cookiebar').remove()">Ho capito</button></div>"""


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

    def sess(self, req):
        return self.sessions.get(req.cookies.get("PORTALE_SESSION", ""))

    def __call__(self, environ, start_response):
        req = Req(environ)
        try:
            status, headers, body = self.route(req)
        except Exception as e:  # pragma: no cover
            status, headers, body = "500 Internal Server Error", [("Content-Type", "text/plain")], repr(e).encode()
        start_response(status, headers)
        return [body]

    def page(self, req, title, body, status="200 OK"):
        s = self.sess(req)
        logged = s and s.get("ok")
        off = "".join("<h4>%s</h4>%s" % (esc(k), "".join('<a href="/info/%s">%s</a>' % (esc(x.lower().replace(" ", "-").replace(",", "")), esc(x)) for x in v))
                      for k, v in MEGA.items())
        off += '<h4>Area personale</h4>' + ('<a href="/area-personale/">La mia area personale</a><a href="/esci">Esci</a>' if logged else
                                             '<a href="/login">Login</a><a href="/info/come-ottenere-spid">Come ottenere SPID</a>')
        links = ['<a href="%s">%s</a>' % ("/webmail" if x.startswith("Login Webmail") else "/intranet" if x == "Intranet" else
                                           "/info/" + esc(x.lower().replace(" ", "-").replace("'", "")), esc(x)) for x in FOOT]
        third = (len(links) + 2) // 3
        cols = "".join("<div>%s</div>" % "".join(links[i * third:(i + 1) * third]) for i in range(3))
        bar = "" if "cookies_consent" in req.cookies else COOKIEBAR
        doc = """<!doctype html><html lang="it"><head><meta charset="utf-8"><title>%s - Comune di Valdora</title><style>%s</style></head><body>
<div class="slim"><a href="/info/regione-piemonte">Regione Piemonte</a><span><a href="/info/english">ITA &#9662;</a></span></div>
<div class="center"><button class="menu-btn" type="button" aria-controls="offcanvas" aria-expanded="false" onclick="document.getElementById('offcanvas').classList.add('open');this.setAttribute('aria-expanded','true')">&#9776; Menu</button>
<a class="brand" href="/">Comune di Valdora<small>Provincia di Cuneo</small></a><button class="search" aria-label="Cerca">&#128269;</button></div>
<nav class="navbar" aria-label="Menu principale"><a href="/info/amministrazione">Amministrazione</a><a href="/info/novita">Novit&agrave;</a><a href="/info/servizi">Servizi</a><a href="/info/vivere-il-comune">Vivere il comune</a></nav>
<div id="offcanvas" role="navigation" aria-label="Menu completo"><button type="button" aria-label="Chiudi menu" onclick="document.getElementById('offcanvas').classList.remove('open')" style="float:right;border:0;background:none;font-size:22px;cursor:pointer">&times;</button>%s</div>
%s<footer><div class="cols"><div><b>Comune di Valdora</b><p>Piazza del Municipio 1<br>12020 Valdora (CN)<br>C.F. 00456780043<br>PEC protocollo@pec.comune.valdora.cn.it</p></div>
%s</div></footer>%s</body></html>""" % (esc(title), CSS, off, body, cols, bar)
        return self.resp(doc, status=status)

    def route(self, req):
        p = req.path
        if p == "/":
            news = "".join('<div class="card"><small>%s</small><h3><a href="/info/%s">%s</a></h3></div>' % (d, esc(t.lower().replace(" ", "-")), esc(t)) for d, t in [
                ("28 novembre 2026", "TARI 2026 scadenza saldo 16 dicembre"), ("20 novembre 2026", "Mercatino di Natale in piazza"),
                ("12 novembre 2026", "Iscrizioni al servizio mensa a.s. 2026-27"), ("5 novembre 2026", "Lavori di asfaltatura via Roma"),
                ("30 ottobre 2026", "Nuovi orari ufficio anagrafe"), ("22 ottobre 2026", "Bando contributi affitto 2026")])
            svc = "".join('<a class="btn o" style="margin:4px" href="/info/%s">%s</a>' % (esc(x.lower().replace(" ", "-")), esc(x)) for x in [
                "Pagare la TARI", "Richiedere la carta d'identit\u00e0", "Iscriversi alla mensa", "Cambio di residenza", "Pagare una multa",
                "Prenotare un appuntamento", "Segnalare un disservizio", "Certificati anagrafici"])
            body = """<div class="wrap"><h1>Benvenuti nel portale del Comune di Valdora</h1><p>Informazioni, servizi online e notizie per cittadini e imprese.</p>
<h2>Servizi in evidenza</h2><p>%s</p><h2>Ultime notizie</h2><div class="cards">%s</div>
<div class="card" style="margin-top:24px"><h3>Area personale</h3><p>Consulta le tue pratiche, i pagamenti pagoPA e le ricevute. Apri il <b>Menu</b> per accedere.</p></div></div>""" % (svc, news)
            return self.page(req, "Home", body)
        if p.startswith("/info/"):
            t = p[6:].replace("-", " ").capitalize()
            return self.page(req, t, '<div class="wrap"><p><a href="/">Home</a> / %s</p><h1>%s</h1><p>Pagina in aggiornamento a cura dell\'Ufficio comunicazione.</p></div>' % (esc(t), esc(t)))
        if p == "/login":
            return self.login(req)
        if p in ("/webmail", "/intranet"):
            return self.decoy(req, p)
        if p == "/esci":
            self.sessions.pop(req.cookies.get("PORTALE_SESSION", ""), None)
            return self.redirect("/")
        if p.startswith("/area-personale"):
            s = self.sess(req)
            if not (s and s.get("ok")):
                return self.redirect("/login")
            return self.area(req, s)
        return self.page(req, "Pagina non trovata", '<div class="wrap"><h1>Pagina non trovata</h1></div>', status="404 Not Found")

    def login(self, req):
        tab = req.q.get("metodo", "spid")
        err = ""
        if req.method == "POST":
            tab = "credenziali"
            cf = req.form.get("codice_fiscale", "").strip()
            ok = cf.upper() in USERS and USERS[cf.upper()]["password"] == req.form.get("password", "")
            self.log(kind="credential", form="portale-credenziali", target="account", username=cf, ok=ok)
            if ok:
                sid = secrets.token_hex(20)
                self.sessions[sid] = {"ok": True, "user": cf.upper(), "ack": False}
                return self.redirect("/area-personale/informativa", cookies=["PORTALE_SESSION=%s; Path=/; HttpOnly" % sid])
            err = '<div class="alert" role="alert">Credenziali non valide. Verifica il codice fiscale e la password.</div>'
        tabs = '<div class="tabs">%s</div>' % "".join('<a href="/login?metodo=%s"%s>%s</a>' % (k, ' class="on"' if k == tab else "", l)
                                                     for k, l in [("spid", "SPID"), ("cie", "CIE"), ("credenziali", "Altre credenziali")])
        if tab == "spid":
            inner = ('<p>SPID &egrave; il sistema di accesso che consente di utilizzare, con un\'identit&agrave; digitale unica, i servizi online della Pubblica Amministrazione.</p>'
                     '<button class="spid" type="button" onclick="alert(\'Servizio SPID momentaneamente non disponibile. Riprova pi\u00f9 tardi o usa Altre credenziali.\')">&#128100; Entra con SPID</button>')
        elif tab == "cie":
            inner = ('<p>Accedi con la Carta d\'Identit&agrave; Elettronica tramite app CieID.</p>'
                     '<button class="spid" type="button" onclick="alert(\'Servizio CIE momentaneamente non disponibile.\')">Entra con CIE</button>')
        else:
            inner = """<p>Accesso riservato ai cittadini in possesso delle credenziali del portale rilasciate dall'Ufficio Tributi.</p>%s
<form class="form" method="post" action="/login"><label for="cf">Codice fiscale</label><input type="text" id="cf" name="codice_fiscale" autocomplete="username">
<label for="pw">Password</label><input type="password" id="pw" name="password" autocomplete="current-password"><p><button class="btn" type="submit">Accedi</button></p></form>""" % err
        body = '<div class="wrap"><p><a href="/">Home</a> / Login</p><h1>Accedi all\'area personale</h1>%s<div style="padding:20px 0">%s</div></div>' % (tabs, inner)
        return self.page(req, "Login", body)

    def decoy(self, req, p):
        msg = ""
        if req.method == "POST":
            self.log(kind="credential", form=p.strip("/"), target="decoy", username=req.form.get("user", ""), ok=False)
            msg = '<div class="alert" role="alert">Autenticazione non riuscita.</div>'
        t = "Webmail dipendenti - Login" if p == "/webmail" else "Intranet comunale"
        body = """<div class="wrap"><h1>%s</h1>%s<form class="form" method="post"><label for="u">Nome utente</label><input type="text" id="u" name="user">
<label for="p">Password</label><input type="password" id="p" name="password"><p><button class="btn" type="submit">Login</button></p></form></div>""" % (t, msg)
        return self.page(req, t, body)

    def side(self, on):
        items = [("/area-personale/", "Scrivania"), ("/area-personale/pratiche", "Le mie pratiche"), ("/area-personale/documenti", "I miei documenti"),
                 ("/area-personale/appuntamenti", "Appuntamenti"), ("/area-personale/messaggi", "Messaggi"), ("/area-personale/profilo", "Profilo")]
        return '<nav class="side" aria-label="Area personale">%s</nav>' % "".join('<a href="%s"%s>%s</a>' % (h, ' class="on"' if h == on else "", l) for h, l in items)

    def area(self, req, s):
        p = req.path
        name = USERS[s["user"]]["name"]
        if p == "/area-personale/informativa":
            if req.method == "POST":
                s["ack"] = True
                return self.redirect("/area-personale/")
            body = """<div class="wrap"><h1>Benvenuto %s</h1><p>Prima di proseguire ti ricordiamo che i dati trattati nell'area personale sono gestiti
ai sensi del Regolamento UE 2016/679. Ultimo accesso: 02/10/2026 18:41.</p><form method="post"><button class="btn" type="submit">Prosegui</button></form></div>""" % esc(name)
            return self.page(req, "Informativa", body)
        if p.startswith("/area-personale/documenti/") and p.endswith(".pdf"):
            key = p.rsplit("/", 1)[1][:-4]
            d = next((x for x in DOCS if x["key"] == key), None)
            if not d:
                return self.resp("Non trovato", status="404 Not Found", ctype="text/plain")
            self.log(kind="download", path=p)
            return self.resp(make_pdf(["Comune di Valdora - pagoPA", "%s %s" % (d["kind"], d["id"]), "Data %s" % d["date"],
                                       "Importo %.2f EUR" % d["amount"], "IUV %s" % d["iuv"]]), ctype="application/pdf")
        if p == "/area-personale/documenti":
            parts = []
            year = None
            for i, d in enumerate(DOCS):
                if d["date"][:4] != year:
                    year = d["date"][:4]
                    parts.append('<h2 class="year">%s</h2>' % year)
                avv = d["kind"].startswith("Avviso")
                parts.append("""<div class="accordion-item"><h3><button class="accordion-button" type="button" aria-expanded="false" aria-controls="acc-%d"
 onclick="var b=document.getElementById('acc-%d');b.hidden=!b.hidden;this.setAttribute('aria-expanded',!b.hidden)"><span>%s<span class="chip%s">%s</span></span><span>%s</span></button></h3>
<div class="accordion-body" id="acc-%d" hidden><dl><dt>Numero documento</dt><dd>%s</dd><dt>%s</dt><dd>%s</dd><dt>Importo</dt><dd>%s</dd>
<dt>Codice IUV</dt><dd>%s</dd><dt>Ente creditore</dt><dd>Comune di Valdora</dd></dl><p><a href="/area-personale/documenti/%s.pdf">Scarica %s (PDF)</a></p></div></div>""" % (
                    i, i, esc(d["subject"]), " avv" if avv else "", "Avviso" if avv else "Ricevuta", long_date(d["date"]), i, esc(d["id"]),
                    "Data emissione" if avv else "Data pagamento", long_date(d["date"]), eur(d["amount"]), d["iuv"], d["key"],
                    "avviso" if avv else "ricevuta"))
            body = """<div class="wrap"><p><a href="/area-personale/">Area personale</a> / I miei documenti</p><div class="dash">%s<main>
<h1>I miei documenti</h1><p>Avvisi di pagamento pagoPA emessi dal Comune e ricevute dei pagamenti effettuati. Espandi un elemento per vederne il dettaglio.</p>%s</main></div></div>""" % (
                self.side(p), "".join(parts))
            return self.page(req, "I miei documenti", body)
        if p == "/area-personale/":
            body = """<div class="wrap"><div class="dash">%s<main><h1>Scrivania</h1><p>Ciao %s, qui trovi un riepilogo della tua area personale.</p>
<div class="cards"><div class="card"><b>Pratiche in corso</b><p>1 - Cambio di residenza</p></div><div class="card"><b>Da pagare</b><p>2 avvisi pagoPA</p>
<a href="/area-personale/documenti">Vedi</a></div><div class="card"><b>Messaggi</b><p>Nessun nuovo messaggio</p></div></div></main></div></div>""" % (
                self.side(p), esc(name.split()[0]))
            return self.page(req, "Area personale", body)
        return self.page(req, "Area personale", '<div class="wrap"><div class="dash">%s<main><h1>Nessun elemento</h1></main></div></div>' % self.side(p))


def make_app():
    return App()
