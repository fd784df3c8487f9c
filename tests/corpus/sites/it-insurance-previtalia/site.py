"""Previtalia - fixture imitating an Italian life/health insurer customer area (Il mio account)."""
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


def it_date(iso):
    y, m, d = iso.split("-")
    return "%s/%s/%s" % (d, m, y)


def eur(a):
    return "{:,.2f}".format(a).replace(",", "X").replace(".", ",").replace("X", ".") + " €"


# ---------------------------------------------------------------- data
USER = {"email": "paolo.ricci76@libero-posta.it", "password": "Previtalia76", "name": "Paolo Ricci"}


def _build():
    docs = []
    c = {2023: 20, 2024: 30, 2025: 40, 2026: 50}
    def q(y, d, amt, pol, desc):
        c[y] += 1
        docs.append({"id": "%d/%04d" % (y, c[y] * 3 + 17), "kind": "Quietanza", "date": d, "amount": amt, "pol": pol, "desc": desc})
    for y in (2023, 2024, 2025, 2026):
        for m in range(1, 13):
            if y == 2026 and m == 12:
                break
            if y == 2023 and m < 10:
                continue
            prem = {2023: 84.00, 2024: 86.20, 2025: 89.50, 2026: 92.10}[y]
            q(y, "%d-%02d-%02d" % (y, m, 2 if m != 8 else 5), prem, "VS-118204", "Premio mensile PreviSalute Famiglia")
            if m == 2:
                q(y, "%d-02-20" % y, {2023: 170.0, 2024: 175.0, 2025: 180.0, 2026: 186.0}[y], "IN-553091", "Premio annuale Infortuni Plus")
    for y in (2024, 2025, 2026):
        docs.append({"id": "AV %d/%03d" % (y, 118 + y % 10), "kind": "Avviso di scadenza", "date": "%d-01-25" % y, "amount": None, "pol": "IN-553091", "desc": "Avviso di scadenza rata annuale"})
        docs.append({"id": "CF %d/%03d" % (y, 40 + y % 10), "kind": "Certificato fiscale", "date": "%d-02-28" % y, "amount": None, "pol": "VS-118204", "desc": "Attestazione premi detraibili anno %d" % (y - 1)})
    docs.append({"id": "RIMB 2026/007", "kind": "Rimborso", "date": "2026-07-14", "amount": 240.00, "pol": "VS-118204", "desc": "Rimborso spese mediche - pratica 88213"})
    docs.sort(key=lambda d: (d["date"], d["id"]), reverse=True)
    return docs


DOCS = _build()
YEARS = [2026, 2025, 2024, 2023]

# ---------------------------------------------------------------- pages
CSS = """
*{box-sizing:border-box}body{margin:0;font-family:'Trebuchet MS',Arial,sans-serif;color:#2a2438;background:#fbf9f6}
a{color:#8a2a5b}header{background:#fff;display:flex;align-items:center;height:76px;padding:0 32px;gap:28px;box-shadow:0 2px 8px #0001}
.logo{font:bold 25px 'Trebuchet MS';color:#8a2a5b;text-decoration:none}header nav a{color:#2a2438;text-decoration:none;margin-right:16px}
.hr{margin-left:auto;display:flex;gap:18px;align-items:center}.hr a{text-decoration:none;color:#2a2438;font-size:14px}.hr a.my{background:#8a2a5b;color:#fff;padding:10px 16px;border-radius:6px}
.hero{background:linear-gradient(90deg,#8a2a5b,#c0487d);color:#fff;padding:58px 32px}.hero h1{font-size:40px;margin:0}
.wrap{max-width:1120px;margin:0 auto;padding:26px}.g{display:grid;grid-template-columns:repeat(3,1fr);gap:18px}.card{background:#fff;padding:20px;border-radius:10px;box-shadow:0 1px 6px #0001}
.btn{display:inline-block;padding:10px 18px;border-radius:6px;border:1px solid #8a2a5b;background:#8a2a5b;color:#fff;text-decoration:none;font-weight:bold;cursor:pointer}
footer{background:#2a2438;color:#c9c2d6;padding:32px;margin-top:40px;font-size:13px}footer .cols{display:grid;grid-template-columns:repeat(5,1fr);gap:16px;max-width:1120px;margin:auto}footer a{display:block;color:#c9c2d6;text-decoration:none;padding:3px 0}footer h4{color:#fff}
#cookie-notice{position:fixed;left:0;right:0;bottom:0;background:#2a2438;color:#fff;padding:12px 32px;display:flex;gap:18px;align-items:center;font-size:13px;z-index:100}#cookie-notice p{flex:1;margin:0}#cookie-notice a{color:#f6c}
#cookie-notice button{background:#fff;color:#2a2438;border:0;padding:8px 16px;border-radius:4px;font-weight:bold;cursor:pointer}
.box{max-width:450px;margin:40px auto;background:#fff;padding:30px;border-radius:10px;box-shadow:0 1px 8px #0002}.box input[type=email],.box input[type=text],.box input[type=password]{width:100%;padding:11px;margin:6px 0 14px;border:1px solid #a99;border-radius:6px}
.err{background:#fde8ef;color:#8a1538;padding:10px;border-radius:6px;margin-bottom:10px}
.acc{display:flex;gap:24px}.side{width:230px;background:#fff;border-radius:10px;padding:10px;align-self:flex-start}.side a{display:block;padding:10px;color:#2a2438;text-decoration:none;border-radius:6px}.side a.on{background:#f6e3ec;font-weight:bold}
.years{display:flex;gap:6px;margin:14px 0}.years a{padding:8px 16px;border-radius:20px;border:1px solid #8a2a5b;text-decoration:none}.years a.on{background:#8a2a5b;color:#fff}
table{width:100%;border-collapse:collapse;background:#fff}th,td{padding:10px;border-bottom:1px solid #eee;text-align:left;font-size:14px}th{background:#f6eef2}.crumb{font-size:13px;color:#777;margin-bottom:10px}
"""

FOOT = {"Protezione": ["Salute", "Infortuni", "Vita", "Long Term Care", "Dentale", "Viaggi"],
        "Risparmio e previdenza": ["Piani individuali pensionistici", "Polizze di investimento", "TFR", "Simulatore pensione"],
        "Clienti": ["Il mio account", "Rimborsi sanitari", "Rete convenzionata", "Moduli", "Reclami", "Domande frequenti", "Detrazioni fiscali"],
        "Intermediari": ["Area Intermediari", "Diventa consulente", "Formazione IVASS"],
        "Società": ["Chi siamo", "Solvibilità (SFCR)", "Privacy", "Cookie policy", "Accessibilità", "Note legali", "Lavora con noi"]}
FH = {"Il mio account": "/il-mio-account/accedi", "Area Intermediari": "/intermediari/accesso"}


def notice(req):
    if "cookie_notice_ok" in req.cookies:
        return ""
    return """<div id="cookie-notice" role="region" aria-label="Informativa cookie"><p>Questo sito utilizza esclusivamente cookie tecnici necessari al suo funzionamento e cookie analitici anonimizzati, per i quali non è richiesto il consenso. <a href="/cookie-policy">Maggiori informazioni</a></p>
<button type="button" onclick="document.cookie='cookie_notice_ok=1; path=/; max-age=31536000';this.parentNode.remove()">Ho capito</button></div>"""


def layout(req, title, body, logged=False):
    foot = "".join("<div><h4>%s</h4>%s</div>" % (k, "".join('<a href="%s">%s</a>' % (FH.get(i, "/" + slug(i)), esc(i)) for i in v)) for k, v in FOOT.items())
    right = ('<a href="/il-mio-account/messaggi">Messaggi (1)</a><a href="/il-mio-account/esci">Esci</a>' if logged else
             '<a href="/preventivo">Preventivo</a><a href="/intermediari/accesso">Area Intermediari</a><a class="my" href="/il-mio-account/accedi">Il mio account</a>')
    return """<!doctype html><html lang="it"><head><meta charset="utf-8"><title>%s | Previtalia</title><style>%s</style></head><body>
<header><a class="logo" href="/">previtalia</a><nav><a href="/salute">Salute</a><a href="/infortuni">Infortuni</a><a href="/vita">Vita</a><a href="/previdenza">Previdenza</a><a href="/magazine">Magazine</a></nav><div class="hr">%s</div></header>
%s<footer><div class="cols">%s</div><p style="max-width:1120px;margin:20px auto 0">Previtalia Vita S.p.A. - Sede legale Corso Vittorio Emanuele II 101, 10128 Torino - Iscr. Albo Imprese IVASS n. 1.00188</p></footer>%s</body></html>""" % (
        esc(title), CSS, right, body, foot, notice(req))


def home(req):
    body = """<section class="hero"><h1>La salute della tua famiglia, al centro.</h1><p>Polizze salute, infortuni e vita con oltre 4.000 strutture convenzionate.</p></section>
<div class="wrap"><div class="g"><div class="card"><h3>PreviSalute Famiglia</h3><p>Visite, esami e ricoveri per tutto il nucleo.</p><a href="/salute">Scopri</a></div>
<div class="card"><h3>Infortuni Plus</h3><p>Tutela 24 ore su 24, anche nel tempo libero.</p><a href="/infortuni">Scopri</a></div><div class="card"><h3>Sei cliente?</h3><p>Nel tuo account trovi polizze, quietanze e rimborsi.</p><a class="btn" href="/il-mio-account/accedi">Accedi</a> <a href="/il-mio-account/registrati">Registrati</a></div></div>
<div class="card" style="margin-top:18px"><h3>Dal magazine</h3><ul style="columns:2"><li><a href="/magazine/prevenzione">Prevenzione: gli esami dopo i 40 anni</a></li><li><a href="/magazine/detrazioni">Detrazione dei premi: come funziona</a></li><li><a href="/magazine/rimborsi">Richiedere un rimborso in 3 passi</a></li><li><a href="/magazine/dentista">Cure dentistiche coperte</a></li><li><a href="/magazine/viaggio">In viaggio con la polizza salute</a></li><li><a href="/magazine/ltc">Long Term Care spiegata</a></li></ul></div></div>"""
    return layout(req, "Assicurazioni salute e vita", body)


def login(req, err=""):
    e = '<div class="err" role="alert">%s</div>' % err if err else ""
    body = """<div class="box"><h1>Il mio account</h1><p>Accedi per gestire le tue polizze.</p>%s<form method="post" action="/il-mio-account/accedi"><label for="em">Email</label><input type="email" id="em" name="email" value="%s">
<label for="pw">Password</label><input type="password" id="pw" name="password"><label><input type="checkbox" name="ricordami"> Ricordami</label><br><br><button class="btn" type="submit" style="width:100%%">Accedi</button></form>
<p style="font-size:13px"><a href="/il-mio-account/password">Password dimenticata?</a><br>Non hai un account? <a href="/il-mio-account/registrati">Registrati</a><br>Sei un intermediario? <a href="/intermediari/accesso">Area Intermediari</a></p></div>""" % (e, esc(req.form.get("email", "")))
    return layout(req, "Accedi", body)


def acc(req, active, body):
    items = [("Panoramica", "/il-mio-account/"), ("Polizze", "/il-mio-account/polizze"), ("Documenti", "/il-mio-account/documenti"), ("Rimborsi", "/il-mio-account/rimborsi"), ("Dati e consensi", "/il-mio-account/dati")]
    side = "".join('<a href="%s"%s>%s</a>' % (h, ' class="on"' if n == active else "", esc(n)) for n, h in items)
    return layout(req, active, '<div class="wrap"><div class="acc"><nav class="side">%s</nav><main style="flex:1">%s</main></div></div>' % (side, body), logged=True)


def documents(req):
    try:
        y = int(req.q.get("anno", "2026"))
    except ValueError:
        y = 2026
    kind = req.q.get("tipo", "")
    yrs = "".join('<a href="?anno=%d" %s>%d</a>' % (x, 'class="on" aria-current="true"' if x == y else "", x) for x in YEARS)
    sel = [d for d in DOCS if d["date"].startswith(str(y)) and (not kind or d["kind"] == kind)]
    kinds = ["Quietanza", "Avviso di scadenza", "Certificato fiscale", "Rimborso"]
    opts = '<option value="">Tutti i documenti</option>' + "".join('<option%s>%s</option>' % (" selected" if k == kind else "", k) for k in kinds)
    rows = "".join('<tr><td class="tipo">%s</td><td class="num">%s</td><td>%s</td><td>%s</td><td class="data">%s</td><td class="imp">%s</td><td><a href="/il-mio-account/documenti/pdf?id=%s">Scarica PDF</a></td></tr>' % (
        d["kind"], d["id"], d["pol"], esc(d["desc"]), it_date(d["date"]), eur(d["amount"]) if d["amount"] is not None else "", quote(d["id"])) for d in sel)
    body = """<div class="crumb"><a href="/il-mio-account/">Il mio account</a> › Documenti › Archivio</div><h1>Archivio documenti</h1>
<nav class="years" aria-label="Anno">%s</nav><form method="get" style="margin-bottom:12px"><input type="hidden" name="anno" value="%d"><label>Tipo documento <select name="tipo" onchange="this.form.submit()">%s</select></label></form>
<table id="archivio"><thead><tr><th>Tipo</th><th>Numero</th><th>Polizza</th><th>Descrizione</th><th>Data</th><th>Importo</th><th></th></tr></thead><tbody>%s</tbody></table><p>%d documenti nel %d.</p>""" % (
        yrs, y, opts, rows or '<tr><td colspan="7">Nessun documento.</td></tr>', len(sel), y)
    return acc(req, "Documenti", body)


class App(BaseApp):
    COOKIE = "PRV_SESSION"

    def route(self, req):
        p = req.path
        s = self.sess(req)
        if p == "/":
            return self.html(home(req))
        if p == "/il-mio-account/accedi":
            if req.method == "POST":
                u = req.form.get("email", "").strip()
                ok = u.lower() == USER["email"] and req.form.get("password", "") == USER["password"]
                self.log({"kind": "credential", "form": "il-mio-account", "target": "account", "username": u, "ok": ok})
                if not ok:
                    return self.html(login(req, "Email o password non validi. Dopo 5 tentativi l'account viene bloccato."))
                sid = self.new_sess({"user": USER["email"]})
                return self.redirect("/il-mio-account/", ["%s=%s; Path=/; HttpOnly" % (self.COOKIE, sid)])
            return self.html(login(req))
        if p in ("/intermediari/accesso", "/il-mio-account/registrati"):
            form = "area-intermediari" if p.startswith("/inter") else "registrazione"
            title = "Area Intermediari - Accesso" if p.startswith("/inter") else "Registrati"
            err = ""
            if req.method == "POST":
                self.log({"kind": "credential", "form": form, "target": "decoy", "username": req.form.get("user", ""), "ok": False})
                err = '<div class="err">Accesso non consentito.</div>'
            return self.html(layout(req, title, '<div class="box"><h1>%s</h1>%s<form method="post"><label>%s<input type="text" name="user"></label><label>Password<input type="password" name="password"></label><button class="btn" type="submit">Continua</button></form></div>' % (
                title, err, "Codice RUI / utente" if form == "area-intermediari" else "Email")))
        if p.startswith("/il-mio-account/"):
            if not s:
                return self.redirect("/il-mio-account/accedi")
            if p == "/il-mio-account/esci":
                self.sessions.pop(req.cookies.get(self.COOKIE), None)
                return self.redirect("/")
            if p == "/il-mio-account/":
                body = '<div class="crumb">Il mio account › Panoramica</div><h1>Buongiorno Paolo</h1><div class="g"><div class="card"><b>PreviSalute Famiglia</b><br>VS-118204</div><div class="card"><b>Infortuni Plus</b><br>IN-553091</div><div class="card"><b>Ultimo documento</b><br>Quietanza %s<br><a href="/il-mio-account/documenti">Vai ai documenti</a></div></div>' % DOCS[0]["id"]
                return self.html(acc(req, "Panoramica", body))
            if p == "/il-mio-account/documenti":
                return self.html(documents(req))
            if p == "/il-mio-account/documenti/pdf":
                self.log({"kind": "download", "path": p + "?id=" + req.q.get("id", "")})
                return self.pdf("documento.pdf", _pdf("Previtalia", ["Documento " + req.q.get("id", ""), "Contraente: Paolo Ricci"]))
            return self.html(acc(req, "Panoramica", "<h1>Sezione in aggiornamento</h1>"))
        if p == "/cookie-policy":
            return self.html(layout(req, "Cookie policy", '<div class="wrap"><h1>Cookie policy</h1><p>Utilizziamo solo cookie tecnici e analitici anonimizzati.</p></div>'))
        return self.html(layout(req, "Previtalia", '<div class="wrap"><h1>%s</h1><p>Pagina in costruzione.</p></div>' % esc(p.strip("/").split("/")[-1].replace("-", " ").capitalize() or "Pagina")))


def make_app():
    return App()
