"""Metanord Gas - vendita gas naturale (stile venditore gas regionale; banner Garante con X che rifiuta)."""
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
    return "%s.%s.%s" % (d, m, y)


MESI = ["Gennaio", "Febbraio", "Marzo", "Aprile", "Maggio", "Giugno", "Luglio", "Agosto", "Settembre", "Ottobre", "Novembre", "Dicembre"]


def build_docs():
    rnd = random.Random(1313)
    docs = []
    cnt = {}
    y, m = 2023, 12
    while (y, m) <= (2026, 10):
        iy, im = (y + 1, 1) if m == 12 else (y, m + 1)
        cnt[iy] = cnt.get(iy, 0) + rnd.randint(900, 1500)
        smc = {1: 210, 2: 190, 3: 140, 4: 80, 5: 35, 6: 20, 7: 15, 8: 14, 9: 22, 10: 60, 11: 130, 12: 200}[m] + rnd.randint(-15, 15)
        amt = round(smc * 1.08 + 14.5 + rnd.uniform(0, 4), 2)
        iso = "%04d-%02d-%02d" % (iy, im, rnd.randint(2, 9))
        kind = "Bolletta di conguaglio" if m in (4, 10) else "Bolletta"
        docs.append({"key": "d%d%02d" % (iy, im), "id": "GN/%d/%05d" % (iy, cnt[iy]), "date": iso, "kind": kind,
                     "period": "%s %d" % (MESI[m - 1], y), "smc": smc, "amount": amt,
                     "due": "%04d-%02d-%02d" % (iy, im, 26), "paid": iso < "2026-11-01"})
        y, m = iy, im
    docs.sort(key=lambda d: d["date"], reverse=True)
    return docs


DOCS = build_docs()
USERS = {"elena.marchetti": {"password": "Fiamma-Blu-55", "name": "Elena Marchetti"}}

MENU = [("Offerte gas", ["Metano Casa Fisso", "Metano Casa Indicizzato", "Gas per condomini", "Gas per imprese"]),
        ("Luce", ["Luce Casa", "Luce Impresa"]), ("Servizi", ["Manutenzione caldaia", "Assicurazione impianto", "Efficienza energetica"]),
        ("Supporto", ["Autolettura", "Pagamenti", "Voltura", "Reclami", "Contatti", "Sportelli sul territorio"])]
FOOTER = ["Chi siamo", "Gruppo Metanord", "Sostenibilit\u00e0", "Lavora con noi", "Fornitori", "Comunicati stampa",
          "Offerte gas", "Offerte luce", "Condizioni economiche", "Schede di confrontabilit\u00e0", "Bonus sociale",
          "Autolettura", "Leggere la bolletta", "Pagamenti", "Domiciliazione SDD", "Rateizzazione", "Reclami",
          "Conciliazione ARERA", "Sportelli", "Numero verde", "Privacy", "Cookie policy", "Note legali",
          "Trasparenza", "Accessibilit\u00e0", "Modello 231", "Whistleblowing", "Mappa del sito"]

CSS = """
*{box-sizing:border-box}body{margin:0;font-family:Helvetica,Arial,sans-serif;background:#fff;color:#222}
a{color:#c4401a}.hdr{display:flex;align-items:center;gap:26px;padding:18px 34px;border-bottom:1px solid #eee}
.logo{font-size:26px;font-weight:800;color:#c4401a;text-decoration:none;letter-spacing:-1px}.logo i{color:#1d3f72;font-style:normal}
.menu{display:flex;gap:4px;flex:1}.menu details{position:relative}.menu summary{list-style:none;padding:10px 14px;cursor:pointer}
.menu summary::-webkit-details-marker{display:none}.menu .sub{position:absolute;top:40px;left:0;background:#fff;box-shadow:0 8px 20px #0002;padding:10px 16px;width:240px;z-index:10}
.menu .sub a{display:block;padding:6px 0;text-decoration:none;color:#222}.acct a{margin-left:14px;text-decoration:none;font-weight:600}
.btn{display:inline-block;background:#c4401a;color:#fff;border:0;padding:11px 22px;border-radius:3px;cursor:pointer;text-decoration:none;font-size:15px}
.btn.blue{background:#1d3f72}.btn.line{background:#fff;color:#1d3f72;border:1px solid #1d3f72}
.hero{height:300px;background:linear-gradient(90deg,#1d3f72 0,#1d3f72 50%,#c4401a 100%);color:#fff;padding:60px 34px}.hero h1{font-size:42px;margin:0 0 10px}
.wrap{max-width:1100px;margin:0 auto;padding:24px 20px}.row3{display:grid;grid-template-columns:repeat(3,1fr);gap:18px}.box{border:1px solid #e5e5e5;padding:18px;border-radius:4px}
footer{background:#222;color:#bbb;padding:30px 34px;font-size:13px}footer .grid{display:grid;grid-template-columns:repeat(4,1fr);gap:4px 20px}footer a{color:#bbb;text-decoration:none}
.form{max-width:420px;margin:40px auto}.form label{display:block;margin:14px 0 4px;font-weight:600;font-size:14px}.form input[type=text],.form input[type=password]{width:100%;padding:12px;border:1px solid #999;font-size:15px}
.err{border-left:4px solid #c00;background:#fff0f0;padding:10px 12px;color:#900}
.acc-layout{display:grid;grid-template-columns:220px 1fr;gap:30px}.acc-menu a{display:block;padding:10px 0;border-bottom:1px solid #eee;text-decoration:none;color:#222}.acc-menu a.on{color:#c4401a;font-weight:700}
table{width:100%;border-collapse:collapse}th,td{text-align:left;padding:12px 8px;border-bottom:1px solid #e5e5e5;font-size:14px}th{font-size:12px;text-transform:uppercase;color:#666}
dl.det{display:grid;grid-template-columns:220px 1fr;gap:10px}dl.det dt{color:#666}dl.det dd{margin:0;font-weight:600}
#cookie-law{position:fixed;bottom:0;left:0;right:0;background:#1d3f72;color:#fff;padding:18px 60px 18px 34px;z-index:500;font-size:14px}
#cookie-law .x{position:absolute;right:14px;top:10px;background:none;border:0;color:#fff;font-size:22px;cursor:pointer;line-height:1}
#cookie-law .acts{margin-top:10px}#cookie-law .acts button{margin-right:10px}#cookie-law a{color:#ffd7c9}
#cl-prefs{display:none;margin-top:10px;background:#fff;color:#222;padding:12px;border-radius:4px}
"""

CONSENT = """<div id="cookie-law" role="region" aria-label="Informativa sui cookie">
<button class="x" type="button" aria-label="Chiudi" title="Chiudi" onclick="clSend('reject')">&times;</button>
<p style="margin:0">Questo sito utilizza cookie tecnici e, previo consenso, cookie di profilazione propri e di terze parti.
Chiudendo il banner con la X verranno mantenute le impostazioni di default, che non consentono l'utilizzo di cookie diversi da quelli tecnici.
Per saperne di pi&ugrave; consulta la <a href="/info/cookie-policy">cookie policy</a>.</p>
<div class="acts"><button class="btn" type="button" onclick="clSend('accept')">Accetta</button>
<button class="btn line" type="button" style="background:transparent;color:#fff;border-color:#fff" onclick="document.getElementById('cl-prefs').style.display='block'">Personalizza</button></div>
<div id="cl-prefs"><label><input type="checkbox" class="clp" value="analytics"> Statistici</label> &nbsp;
<label><input type="checkbox" class="clp" value="profilazione"> Profilazione</label> &nbsp;
<button class="btn blue" type="button" onclick="clSend('custom')">Conferma</button></div></div>
<script>function clSend(c){var on=c=='accept'?['analytics','profilazione']:c=='custom'?[].map.call(document.querySelectorAll('.clp:checked'),function(x){return x.value}):[];
var img=new Image();img.onload=img.onerror=function(){var b=document.getElementById('cookie-law');if(b)b.remove()};
img.src='/cookie-consent/save?c='+c+'&p='+on.join('|')+'&t='+Date.now();}</script>"""


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

    def user(self, req):
        return self.sessions.get(req.cookies.get("MNSID", ""))

    def __call__(self, environ, start_response):
        req = Req(environ)
        try:
            status, headers, body = self.route(req)
        except Exception as e:  # pragma: no cover
            status, headers, body = "500 Internal Server Error", [("Content-Type", "text/plain")], repr(e).encode()
        start_response(status, headers)
        return [body]

    def page(self, req, title, body, status="200 OK"):
        u = self.user(req)
        menu = "".join('<details><summary>%s &#9660;</summary><div class="sub">%s</div></details>' % (
            esc(a), "".join('<a href="/info/%s">%s</a>' % (esc(x.lower().replace(" ", "-")), esc(x)) for x in b)) for a, b in MENU)
        acct = ('<a href="/il-mio-account/">Il mio account (%s)</a><a href="/esci">Esci</a>' % esc(USERS[u]["name"].split()[0]) if u else
                '<a href="/business/accedi">Area Business</a><a href="/registrazione">Registrati</a><a href="/login" class="btn blue" style="color:#fff">Il mio account</a>')
        foot = "".join('<a href="/info/%s">%s</a>' % (esc(x.lower().replace(" ", "-")), esc(x)) for x in FOOTER)
        banner = "" if "mn_cookie_choice" in req.cookies else CONSENT
        doc = """<!doctype html><html lang="it"><head><meta charset="utf-8"><title>%s | Metanord Gas</title><style>%s</style></head><body>
<div class="hdr"><a class="logo" href="/">metanord<i>gas</i></a><nav class="menu" aria-label="Menu principale">%s</nav><div class="acct">%s</div></div>
%s<footer><div class="grid">%s</div><p>Metanord Gas S.p.A. a socio unico - Via Emilia Est 250, 41121 Modena - P.IVA 02233445566 - Pronto intervento gas 800 900 700</p></footer>%s</body></html>""" % (
            esc(title), CSS, menu, acct, body, foot, banner)
        return self.resp(doc, status=status)

    def route(self, req):
        p = req.path
        if p == "/":
            body = """<section class="hero"><h1>Il calore di casa, al giusto prezzo</h1><p>Metano Casa Fisso: prezzo bloccato 12 mesi e nessun costo di attivazione.</p>
<a class="btn" href="/info/metano-casa-fisso">Scopri l'offerta</a></section><div class="wrap"><div class="row3">
<div class="box"><h3>Autolettura</h3><p>Comunica la lettura tra il 25 e l'ultimo giorno del mese.</p><a href="/info/autolettura">Comunica ora</a></div>
<div class="box"><h3>Bolletta 2.0</h3><p>Scopri come leggere la nuova bolletta sintetica.</p><a href="/info/leggere-la-bolletta">Guida</a></div>
<div class="box"><h3>Sportelli</h3><p>14 sportelli in Emilia-Romagna e Lombardia.</p><a href="/info/sportelli">Trova lo sportello</a></div></div>
<h2>Gestisci la tua fornitura online</h2><p>Accedi a <a href="/login">Il mio account</a> per bollette, consumi, pagamenti e autoletture. Sei un'impresa? Usa l'<a href="/business/accedi">Area Business</a>.</p></div>"""
            return self.page(req, "Gas naturale per la casa", body)
        if p == "/cookie-consent/save":
            c = req.q.get("c", "reject")
            if c not in ("accept", "reject", "custom"):
                c = "custom"
            on = [x for x in req.q.get("p", "").split("|") if x]
            self.log(kind="consent", choice=c, optional_enabled=on)
            gif = b"GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;"
            return self.resp(gif, ctype="image/gif", cookies=["mn_cookie_choice=%s; Path=/; Max-Age=15552000" % c])
        if p.startswith("/info/"):
            t = p[6:].replace("-", " ").capitalize()
            return self.page(req, t, '<div class="wrap"><h1>%s</h1><p>Informazioni in aggiornamento.</p></div>' % esc(t))
        if p == "/login":
            return self.login(req)
        if p in ("/business/accedi", "/registrazione"):
            return self.decoy(req, p)
        if p == "/esci":
            self.sessions.pop(req.cookies.get("MNSID", ""), None)
            return self.redirect("/")
        if p.startswith("/il-mio-account"):
            u = self.user(req)
            if not u:
                return self.redirect("/login")
            return self.account(req, u)
        return self.page(req, "Pagina non trovata", '<div class="wrap"><h1>404 - Pagina non trovata</h1></div>', status="404 Not Found")

    def login(self, req):
        err, un = "", ""
        if req.method == "POST":
            un = req.form.get("username", "").strip()
            ok = un in USERS and USERS[un]["password"] == req.form.get("password", "")
            self.log(kind="credential", form="il-mio-account", target="account", username=un, ok=ok)
            if ok:
                sid = secrets.token_urlsafe(18)
                self.sessions[sid] = un
                return self.redirect("/il-mio-account/", cookies=["MNSID=%s; Path=/; HttpOnly" % sid])
            err = '<div class="err" role="alert">Username o password errati. Dopo 5 tentativi l\'account verr&agrave; bloccato.</div>'
        body = """<div class="wrap"><form class="form" method="post" action="/login"><h1>Il mio account</h1>%s
<label for="u">Username</label><input type="text" id="u" name="username" value="%s" autocomplete="username">
<label for="p">Password</label><input type="password" id="p" name="password" autocomplete="current-password">
<p style="margin:18px 0"><button class="btn" type="submit">Entra</button> &nbsp; <a href="/info/recupero-credenziali">Hai dimenticato username o password?</a></p>
<p>Non hai ancora un account? <a href="/registrazione">Registrati ora</a></p></form></div>""" % (err, esc(un))
        return self.page(req, "Accedi", body)

    def decoy(self, req, p):
        biz = p.startswith("/business")
        msg = ""
        if req.method == "POST":
            self.log(kind="credential", form="area-business" if biz else "registrazione", target="decoy",
                     username=req.form.get("username", ""), ok=False)
            msg = '<div class="err" role="alert">%s</div>' % ("Utente non abilitato all'Area Business." if biz else "Impossibile completare la registrazione: dati gi&agrave; presenti.")
        body = """<div class="wrap"><form class="form" method="post"><h1>%s</h1>%s<label for="u">%s</label><input type="text" id="u" name="username">
<label for="p">Password</label><input type="password" id="p" name="password">%s<p><button class="btn blue" type="submit">%s</button></p></form></div>""" % (
            "Area Business" if biz else "Registrazione", msg, "Username aziendale" if biz else "Scegli uno username",
            "" if biz else '<label for="c">Codice cliente</label><input type="text" id="c" name="codice">', "Accedi" if biz else "Registrati")
        return self.page(req, "Area Business" if biz else "Registrazione", body)

    def accmenu(self, on):
        items = [("/il-mio-account/", "Riepilogo"), ("/il-mio-account/documenti", "I miei documenti"), ("/il-mio-account/consumi", "Consumi"),
                 ("/il-mio-account/autolettura", "Autolettura"), ("/il-mio-account/pagamenti", "Pagamenti"), ("/il-mio-account/dati", "I miei dati")]
        return '<nav class="acc-menu">%s</nav>' % "".join('<a href="%s"%s>%s</a>' % (h, ' class="on"' if h == on else "", l) for h, l in items)

    def account(self, req, u):
        p = req.path
        if p == "/il-mio-account/documenti":
            per = req.q.get("periodo", "12m")
            if per == "12m":
                sel = [d for d in DOCS if d["date"] >= "2025-12-01"]
            else:
                sel = [d for d in DOCS if d["date"][:4] == per]
            opts = "".join('<option value="%s"%s>%s</option>' % (v, " selected" if v == per else "", l) for v, l in
                           [("12m", "Ultimi 12 mesi"), ("2026", "2026"), ("2025", "2025"), ("2024", "2024")])
            rows = "".join('<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td><a href="/il-mio-account/documenti/%s">Dettaglio</a></td></tr>' % (
                esc(d["kind"]), esc(d["id"]), esc(d["period"]), it_date(d["date"]), d["key"]) for d in sel)
            body = """<div class="wrap"><p><a href="/il-mio-account/">Il mio account</a> &gt; I miei documenti</p><div class="acc-layout">%s<main>
<h1>I miei documenti</h1><form method="get" id="filtro"><label for="periodo">Periodo</label>
<select id="periodo" name="periodo" onchange="this.form.submit()">%s</select> <noscript><button>Filtra</button></noscript></form>
<p>%d documenti trovati.</p><table><thead><tr><th>Tipo documento</th><th>Numero</th><th>Competenza</th><th>Data emissione</th><th></th></tr></thead><tbody>%s</tbody></table>
<p style="font-size:13px;color:#666">L'importo e il PDF sono disponibili nel dettaglio di ciascun documento.</p></main></div></div>""" % (
                self.accmenu(p), opts, len(sel), rows)
            return self.page(req, "I miei documenti", body)
        if p.startswith("/il-mio-account/documenti/"):
            key = p.rsplit("/", 1)[1]
            pdf = key.endswith(".pdf")
            d = next((x for x in DOCS if x["key"] == key.replace(".pdf", "")), None)
            if not d:
                return self.page(req, "Documento non trovato", '<div class="wrap"><h1>Documento non trovato</h1></div>', status="404 Not Found")
            if pdf:
                self.log(kind="download", path=p)
                return self.resp(make_pdf(["Metanord Gas S.p.A.", "%s n. %s" % (d["kind"], d["id"]), "Data emissione %s" % it_date(d["date"]),
                                           "Totale da pagare %.2f EUR" % d["amount"]]), ctype="application/pdf")
            body = """<div class="wrap"><p><a href="/il-mio-account/">Il mio account</a> &gt; <a href="/il-mio-account/documenti">I miei documenti</a> &gt; %s</p>
<div class="acc-layout">%s<main><h1>%s n. %s</h1><dl class="det"><dt>Numero documento</dt><dd id="numero">%s</dd><dt>Data emissione</dt><dd id="emissione">%s</dd>
<dt>Periodo di competenza</dt><dd>%s</dd><dt>Consumo fatturato</dt><dd>%d Smc</dd><dt>Scadenza</dt><dd>%s</dd><dt>Totale da pagare</dt><dd id="totale">%s</dd>
<dt>Stato pagamento</dt><dd>%s</dd><dt>PDR</dt><dd>15020000334412</dd></dl><p><a class="btn" href="/il-mio-account/documenti/%s.pdf">Scarica PDF</a>
<a href="javascript:history.back()" style="margin-left:14px">Torna all'elenco</a></p></main></div></div>""" % (
                esc(d["id"]), self.accmenu("/il-mio-account/documenti"), esc(d["kind"]), esc(d["id"]), esc(d["id"]), it_date(d["date"]), esc(d["period"]),
                d["smc"], it_date(d["due"]), eur(d["amount"]), "Pagata" if d["paid"] else "In attesa di pagamento", d["key"])
            return self.page(req, d["id"], body)
        if p == "/il-mio-account/":
            body = """<div class="wrap"><div class="acc-layout">%s<main><h1>Buongiorno %s</h1><div class="row3">
<div class="box"><b>Fornitura gas</b><p>Via Giardini 77, Modena<br>PDR 15020000334412</p></div><div class="box"><b>Offerta</b><p>Metano Casa Fisso</p></div>
<div class="box"><b>Prossima autolettura</b><p>dal 25/12/2026</p></div></div><p>Le tue bollette sono in <a href="/il-mio-account/documenti">I miei documenti</a>.</p></main></div></div>""" % (
                self.accmenu(p), esc(USERS[u]["name"].split()[0]))
            return self.page(req, "Il mio account", body)
        return self.page(req, "Il mio account", '<div class="wrap"><div class="acc-layout">%s<main><h1>Servizio non disponibile</h1></main></div></div>' % self.accmenu(p))


def make_app():
    return App()
