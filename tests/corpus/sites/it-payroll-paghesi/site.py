"""Paghesi' - fixture imitating an Italian payroll service provider's employee area ("MyPaghesi'").

Consent: non-blocking cookie notice with only "Ho capito" (no choice; not reported as consent).
Entry: "MyPaghesi'" brand-style link in the header; decoys "Accedi a PaghesiMail" (webmail) and "Registrati"
in the top bar.
Sign-in: one form with Email + password, "Resta connesso"; wrong credentials -> error.
Navigation: sidebar "Archivio documenti".
List: server-rendered archive grouped by year in collapsible accordions (<details>), current year open,
mixed kinds (cedolini, tredicesima, CU, comunicazioni).
"""
import html
import secrets
import threading
from http.cookies import SimpleCookie
from urllib.parse import parse_qs

USER = "luca.bernardi@postaweb.it"
PASSWORD = "Paghesi_Luca_88"

MESI = ["Gennaio", "Febbraio", "Marzo", "Aprile", "Maggio", "Giugno", "Luglio", "Agosto", "Settembre",
        "Ottobre", "Novembre", "Dicembre"]
MDAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]


def _docs():
    out = []
    for y in (2024, 2025, 2026):
        k = 0
        for m in range(1, 13):
            if y == 2026 and m > 11:
                break
            k += 1
            last = MDAYS[m - 1] + (1 if y == 2024 and m == 2 else 0)
            net = round(2055.30 + (y - 2024) * 36.0 + ((m * 29) % 140) + (88.0 if m == 6 else 0), 2)
            out.append({"id": "%d/%04d" % (y, k), "kind": "Cedolino", "title": "Cedolino %s %d" % (MESI[m - 1], y),
                        "date": "%d-%02d-%02d" % (y, m, last), "issued": "%d-%02d-%02d" % (y + (m == 12), (m % 12) + 1, 10),
                        "amount": net})
            if m == 12:
                k += 1
                out.append({"id": "%d/%04d" % (y, k), "kind": "Cedolino", "title": "Cedolino Tredicesima %d" % y,
                            "date": "%d-12-31" % y, "issued": "%d-12-15" % y, "amount": round(1887.44 + (y - 2024) * 31.5, 2)})
        out.append({"id": "CU-%d-771203" % y, "kind": "CU", "title": "Certificazione Unica %d - redditi %d" % (y, y - 1),
                    "date": "%d-03-14" % y, "issued": "%d-03-14" % y, "amount": None})
    for d, t in (("2025-02-07", "Variazione detrazioni per familiari a carico"), ("2025-09-30", "Conguaglio addizionale regionale"),
                 ("2026-05-04", "Comunicazione rinnovo CCNL Metalmeccanici"), ("2024-11-12", "Adesione fondo Cometa")):
        out.append({"id": "COM-%s" % d.replace("-", ""), "kind": "Comunicazione", "title": t, "date": d, "issued": d, "amount": None})
    out.sort(key=lambda x: (x["date"], x["id"]), reverse=True)
    return out


DOCS = _docs()

PDF = (b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n"
       b"3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n")


def eur(v):
    return "\u20ac " + "{:,.2f}".format(v).replace(",", "X").replace(".", ",").replace("X", ".")


def itd(iso):
    y, m, d = iso.split("-")
    return "%s/%s/%s" % (d, m, y)


CSS = """
*{box-sizing:border-box}body{margin:0;font-family:Roboto,Arial,sans-serif;background:#fff;color:#212121}a{color:#1565c0}
.pre{background:#0d47a1;color:#bbdefb;font-size:12px;padding:5px 28px;text-align:right}.pre a{color:#bbdefb;margin-left:14px;text-decoration:none}
header{display:flex;align-items:center;gap:22px;padding:14px 28px;border-bottom:1px solid #e0e0e0}
.logo{font-size:26px;font-weight:900;color:#0d47a1;text-decoration:none}.logo span{color:#43a047}
header nav a{text-decoration:none;color:#424242;margin-right:14px}.sp{flex:1}
.my{background:#43a047;color:#fff!important;text-decoration:none;padding:10px 18px;border-radius:20px;font-weight:bold}
.hero{background:#e3f2fd;padding:54px 28px;display:flex;gap:30px}.hero h1{font-size:34px;color:#0d47a1;margin:0 0 10px}
.srv{display:grid;grid-template-columns:repeat(4,1fr);gap:14px;padding:26px 28px}.srv a{border:1px solid #e0e0e0;border-radius:6px;padding:16px;text-decoration:none;color:#212121}
.quote{background:#fafafa;padding:24px 28px;font-style:italic}
footer{background:#102027;color:#b0bec5;padding:26px 28px;font-size:12px}footer .g{display:grid;grid-template-columns:repeat(4,1fr);gap:14px}footer a{display:block;color:#b0bec5;text-decoration:none;padding:2px 0}
.box{max-width:420px;margin:46px auto;border:1px solid #e0e0e0;border-radius:8px;padding:28px}
label{display:block;font-size:14px;margin:12px 0 4px;font-weight:bold}input[type=text],input[type=email],input[type=password]{width:100%;padding:11px;border:1px solid #9e9e9e;border-radius:4px;font-size:15px}
.btn{background:#0d47a1;color:#fff;border:0;padding:11px 24px;border-radius:20px;cursor:pointer;font-size:15px}
.err{color:#c62828;background:#ffebee;padding:10px;border-radius:4px}
.area{display:flex;min-height:70vh}.area aside{width:220px;border-right:1px solid #e0e0e0;padding:18px 0}.area aside a{display:block;padding:10px 22px;text-decoration:none;color:#212121}
.area aside a.on{background:#e3f2fd;color:#0d47a1;font-weight:bold}.area main{flex:1;padding:24px 30px}
details{border:1px solid #e0e0e0;border-radius:6px;margin-bottom:10px}details summary{padding:12px 16px;cursor:pointer;font-weight:bold;background:#f5f5f5}
table.a{width:100%;border-collapse:collapse}table.a td,table.a th{padding:9px 14px;border-top:1px solid #eee;text-align:left;font-size:14px}
table.a th{font-size:12px;color:#616161}
#cookie-notice{position:fixed;bottom:0;left:0;right:0;background:#263238;color:#eceff1;padding:14px 28px;font-size:13px;display:flex;gap:18px;align-items:center;z-index:50}
#cookie-notice p{margin:0;flex:1}#cookie-notice button{background:#43a047;color:#fff;border:0;padding:9px 20px;border-radius:4px;cursor:pointer}
"""

FOOT = [("Servizi", ["Elaborazione cedolini", "Amministrazione del personale", "730 e dichiarazioni", "Consulenza del lavoro", "Paghe per colf e badanti"]),
        ("Dipendenti", ["MyPaghesi'", "Domande frequenti", "Come leggere il cedolino", "App MyPaghesi'"]),
        ("Azienda", ["Chi siamo", "Sedi", "Lavora con noi", "PaghesiMail", "Contatti"]),
        ("Note legali", ["Privacy", "Cookie", "Termini d'uso", "Accessibilita'", "Whistleblowing"])]


class App:
    def __init__(self):
        self.events = []
        self.lock = threading.Lock()
        self.sessions = {}

    def log(self, e):
        with self.lock:
            self.events.append(e)

    def shell(self, title, body, notice, logged):
        def href(x):
            return {"MyPaghesi'": "/my/accesso", "PaghesiMail": "/webmail"}.get(x, "/pagine/" + x.lower().replace(" ", "-").replace("'", ""))
        foot = "".join("<div><b>%s</b>%s</div>" % (h, "".join("<a href='%s'>%s</a>" % (href(x), x) for x in items)) for h, items in FOOT)
        my = ("<a class='my' href='/my/archivio'>MyPaghes\u00ec</a> <a href='/my/esci'>Esci</a>" if logged
              else "<a class='my' href='/my/accesso'>MyPaghes\u00ec</a>")
        return ("<!DOCTYPE html><html lang='it'><head><meta charset='utf-8'><title>%s</title><style>%s</style></head><body>"
                "<div class='pre'><a href='/webmail'>Accedi a PaghesiMail</a><a href='/registrati'>Registrati</a><a href='/pagine/contatti'>Contatti</a></div>"
                "<header><a class='logo' href='/'>Paghes<span>\u00ec</span></a><nav><a href='/pagine/servizi'>Servizi</a><a href='/pagine/aziende'>Per le aziende</a>"
                "<a href='/pagine/famiglie'>Per le famiglie</a><a href='/pagine/sedi'>Sedi</a><a href='/pagine/blog'>Blog</a></nav><span class='sp'></span>%s</header>"
                "%s<footer><div class='g'>%s</div><p>Paghes\u00ec Servizi S.r.l. - Corso Vittorio Emanuele 210, 80132 Napoli - P.IVA 07788990631</p></footer>%s</body></html>") % (
            html.escape(title), CSS, my, body, foot, NOTICE if notice else "")

    def __call__(self, environ, start_response):
        path = environ.get("PATH_INFO", "/")
        method = environ["REQUEST_METHOD"]
        form = {}
        if method == "POST":
            raw = environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0)).decode("utf-8", "replace")
            form = {k: v[0] for k, v in parse_qs(raw, keep_blank_values=True).items()}
        ck = {k: v.value for k, v in SimpleCookie(environ.get("HTTP_COOKIE", "")).items()}
        logged = ck.get("PAGHESI_SID", "") in self.sessions
        notice = "cookie_notice_ok" not in ck
        headers = []

        def respond(body, status="200 OK", ctype="text/html; charset=utf-8", extra=()):
            data = body if isinstance(body, bytes) else body.encode("utf-8")
            start_response(status, [("Content-Type", ctype), ("Content-Length", str(len(data)))] + headers + list(extra))
            return [data]

        def redirect(loc):
            return respond("", "302 Found", extra=[("Location", loc)])

        if path == "/":
            return respond(self.shell("Paghes\u00ec - Elaborazione paghe e consulenza del lavoro", HOME, notice, logged))

        if path == "/my/accesso":
            err = ""
            if method == "POST":
                u = form.get("email", "").strip()
                ok = u.lower() == USER and form.get("password", "") == PASSWORD
                self.log({"kind": "credential", "form": "mypaghesi-accesso", "target": "account", "username": u, "ok": ok})
                if ok:
                    s = secrets.token_hex(16)
                    self.sessions[s] = True
                    headers.append(("Set-Cookie", "PAGHESI_SID=%s; Path=/; HttpOnly%s" % (s, "; Max-Age=1209600" if form.get("resta") else "")))
                    return redirect("/my/home")
                err = "<p class='err' role='alert'>Email o password errata.</p>"
            body = ("<div class='box'><h1 style='margin-top:0;font-size:24px'>Accedi a MyPaghes\u00ec</h1><p style='font-size:14px'>L'area dei lavoratori "
                    "per cui Paghes\u00ec elabora il cedolino.</p>%s<form method='post' action='/my/accesso'>"
                    "<label for='em'>Email</label><input type='email' id='em' name='email' autocomplete='username'>"
                    "<label for='pw'>Password</label><input type='password' id='pw' name='password' autocomplete='current-password'>"
                    "<p><label style='font-weight:normal;display:inline'><input type='checkbox' name='resta' value='1'> Resta connesso</label></p>"
                    "<button class='btn' type='submit'>Accedi</button></form>"
                    "<p style='font-size:13px'><a href='/pagine/password-dimenticata'>Password dimenticata?</a> &middot; Primo accesso? <a href='/registrati'>Registrati</a></p></div>") % err
            return respond(self.shell("Accedi - MyPaghes\u00ec", body, notice, False))

        if path == "/webmail":
            err = ""
            if method == "POST":
                self.log({"kind": "credential", "form": "paghesimail-webmail", "target": "decoy", "username": form.get("user", ""), "ok": False})
                err = "<p class='err' role='alert'>Login failed.</p>"
            body = ("<div class='box'><h1 style='margin-top:0;font-size:24px'>PaghesiMail</h1><p style='font-size:13px'>Webmail riservata ai collaboratori Paghes\u00ec.</p>%s"
                    "<form method='post' action='/webmail'><label for='wu'>Indirizzo email</label><input type='text' id='wu' name='user'>"
                    "<label for='wp'>Password</label><input type='password' id='wp' name='password'><p><button class='btn' type='submit'>Accedi alla posta</button></p></form></div>") % err
            return respond(self.shell("PaghesiMail - Webmail", body, notice, logged))

        if path == "/registrati":
            err = ""
            if method == "POST":
                self.log({"kind": "credential", "form": "registrazione", "target": "decoy", "username": form.get("email", ""), "ok": False})
                err = "<p class='err' role='alert'>Indirizzo gia' registrato.</p>"
            body = ("<div class='box'><h1 style='margin-top:0;font-size:24px'>Registrati a MyPaghes\u00ec</h1><p style='font-size:13px'>Ti serve il codice di attivazione "
                    "ricevuto dal tuo datore di lavoro.</p>%s<form method='post' action='/registrati'><label for='ca'>Codice di attivazione</label><input type='text' id='ca' name='codice'>"
                    "<label for='rem'>Email</label><input type='email' id='rem' name='email'><label for='rpw'>Crea password</label><input type='password' id='rpw' name='password'>"
                    "<p><button class='btn' type='submit'>Registrati</button></p></form></div>") % err
            return respond(self.shell("Registrazione - MyPaghes\u00ec", body, notice, logged))

        if path == "/my/esci":
            headers.append(("Set-Cookie", "PAGHESI_SID=; Path=/; Max-Age=0"))
            return redirect("/")

        if path.startswith("/my/") and not logged:
            return redirect("/my/accesso")

        side = [("/my/home", "Home"), ("/my/archivio", "Archivio documenti"), ("/my/730", "Il mio 730"),
                ("/my/richieste", "Richieste al consulente"), ("/my/dati", "Dati personali")]

        def area(cur, inner, title):
            s = "".join("<a href='%s'%s>%s</a>" % (h, " class='on'" if h == cur else "", t) for h, t in side)
            return respond(self.shell(title + " - MyPaghes\u00ec", "<div class='area'><aside>%s</aside><main>%s</main></div>" % (s, inner), notice, True))

        if path == "/my/home":
            inner = ("<h1 style='font-size:24px'>Ciao Luca</h1><p>Datore di lavoro: <b>Officine Vesuviane S.r.l.</b> &middot; Qualifica: impiegato 5\u00b0 livello</p>"
                     "<div style='background:#e8f5e9;padding:14px;border-radius:6px'>Nuovo documento: <b>Cedolino Ottobre 2026</b>. "
                     "Tutti i documenti sono nell'<a href='/my/archivio'>Archivio documenti</a>.</div>"
                     "<div style='margin-top:16px;background:#fff8e1;padding:14px;border-radius:6px'>Campagna 730/2027: prenota l'appuntamento con il CAF convenzionato.</div>")
            return area(path, inner, "Home")

        if path == "/my/archivio":
            blocks = []
            for y in ("2026", "2025", "2024"):
                rows = [d for d in DOCS if d["date"][:4] == y]
                trs = "".join("<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td><a href='/my/pdf/%s.pdf'>PDF</a></td></tr>" % (
                    d["kind"], html.escape(d["title"]), d["id"], itd(d["date"]), itd(d["issued"]),
                    eur(d["amount"]) if d["amount"] is not None else "", d["id"].replace("/", "_")) for d in rows)
                blocks.append("<details%s><summary>Anno %s (%d documenti)</summary><table class='a'><thead><tr><th>Tipo</th><th>Documento</th>"
                              "<th>Numero</th><th>Fine periodo</th><th>Pubblicato il</th><th>Netto</th><th></th></tr></thead><tbody>%s</tbody></table></details>" % (
                                  " open" if y == "2026" else "", y, len(rows), trs))
            inner = "<h1 style='font-size:24px'>Archivio documenti</h1><p style='font-size:14px;color:#616161'>Cedolini, CU e comunicazioni del consulente, divisi per anno.</p>" + "".join(blocks)
            return area(path, inner, "Archivio documenti")

        if path.startswith("/my/pdf/"):
            self.log({"kind": "download", "path": path})
            return respond(PDF, ctype="application/pdf")

        if path.startswith("/my/"):
            return area(path, "<h1 style='font-size:24px'>Servizio in arrivo</h1>", "MyPaghes\u00ec")

        if path.startswith("/pagine/"):
            name = path[8:].replace("-", " ").capitalize()
            return respond(self.shell(name + " - Paghes\u00ec", "<div style='padding:36px 28px'><h1>%s</h1><p>Dal 1987 al fianco di aziende e famiglie.</p></div>" % name, notice, logged))
        return respond("Pagina non trovata", "404 Not Found", "text/plain")


HOME = """
<section class='hero'><div><h1>Le paghe, senza pensieri.</h1><p>Elaboriamo ogni mese oltre 40.000 cedolini per aziende, studi e famiglie in tutta Italia.</p>
<p>Sei un dipendente? I tuoi cedolini sono su <b>MyPaghes\u00ec</b>, anche dall'app.</p></div></section>
<div class='srv'><a href='/pagine/elaborazione-cedolini'><b>Elaborazione cedolini</b><br>Per aziende da 1 a 500 dipendenti</a>
<a href='/pagine/colf-e-badanti'><b>Colf e badanti</b><br>Contributi INPS e buste paga</a><a href='/pagine/730'><b>730 precompilato</b><br>Con il nostro CAF</a>
<a href='/pagine/consulenza'><b>Consulenza del lavoro</b><br>Contratti, assunzioni, vertenze</a></div>
<div class='quote'>"Da quando siamo passati a Paghes\u00ec i dipendenti ricevono il cedolino il giorno 10 di ogni mese." - Officine Vesuviane S.r.l.</div>
"""

NOTICE = """<div id='cookie-notice' role='region' aria-label='Cookie'><p>Questo sito utilizza esclusivamente cookie tecnici necessari al suo funzionamento.
Non utilizziamo cookie di profilazione. <a href='/pagine/cookie' style='color:#a5d6a7'>Maggiori informazioni</a></p>
<button type='button' id='cn-ok'>Ho capito</button></div>
<script>document.getElementById('cn-ok').onclick=function(){document.cookie='cookie_notice_ok=1; path=/; max-age=31536000';document.getElementById('cookie-notice').remove();};</script>"""


def make_app():
    return App()
