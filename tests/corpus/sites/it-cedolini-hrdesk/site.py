"""HR Desk Paghe - fixture imitating an Italian payroll/HR self-service portal (employee payslips).

Consent: modal dialog over a full-page backdrop (backdrop is a separate element) that stays until a choice:
"Accetta tutti", "Accetta solo i necessari" (= reject), "Personalizza".
Entry: "Login" (employees; the page is titled "Area riservata dipendenti") with decoy "Area Aziende" (employer / payroll consultant login) beside it.
Sign-in: separate page, Username + Password, "Ricordami"; interstitial company selection ("Entra").
Navigation: top menu "Documenti" -> tabs "Cedolini" / "CU" / "Comunicazioni".
List: server-rendered, year tabs (?anno=, default 2026), PDF link per row.
"""
import html
import secrets
import threading
from http.cookies import SimpleCookie
from urllib.parse import parse_qs

USER = "m.ferrante"
PASSWORD = "Cedolino.2026!"

MESI = ["Gennaio", "Febbraio", "Marzo", "Aprile", "Maggio", "Giugno", "Luglio", "Agosto", "Settembre",
        "Ottobre", "Novembre", "Dicembre"]
MDAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]


def _docs():
    ced, others = [], []
    prog = 0
    for y in (2024, 2025, 2026):
        for m in range(1, 13):
            if y == 2026 and m > 11:
                break
            prog += 1
            last = MDAYS[m - 1] + (1 if y == 2024 and m == 2 else 0)
            net = round(1712.40 + (y - 2024) * 41.2 + ((m * 37) % 120) - (15.5 if m in (3, 8) else 0), 2)
            ced.append({"id": "%06d/%d" % (prog + 400, y), "year": y, "period": "%s %d" % (MESI[m - 1], y),
                        "start": "%d-%02d-01" % (y, m), "end": "%d-%02d-%02d" % (y, m, last), "net": net,
                        "gross": round(net * 1.41, 2), "type": "Mensilita' ordinaria"})
            if m == 7:
                prog += 1
                ced.append({"id": "%06d/%d" % (prog + 400, y), "year": y, "period": "%s %d - 14\u00aa mensilita'" % (MESI[m - 1], y),
                            "start": "%d-07-01" % y, "end": "%d-07-31" % y, "net": round(1490.75 + (y - 2024) * 30.1, 2),
                            "gross": round((1490.75 + (y - 2024) * 30.1) * 1.38, 2), "type": "14\u00aa mensilita'"})
            if m == 12:
                prog += 1
                ced.append({"id": "%06d/%d" % (prog + 400, y), "year": y, "period": "Dicembre %d - 13\u00aa mensilita'" % y,
                            "start": "%d-12-01" % y, "end": "%d-12-31" % y, "net": round(1533.10 + (y - 2024) * 28.4, 2),
                            "gross": round((1533.10 + (y - 2024) * 28.4) * 1.39, 2), "type": "13\u00aa mensilita'"})
    for y in (2024, 2025, 2026):
        others.append({"tab": "cu", "id": "CU%d-0088412" % y, "year": y, "title": "Certificazione Unica %d (redditi %d)" % (y, y - 1),
                       "date": "%d-03-16" % y})
    for date, title in (("2026-01-12", "Comunicazione aumento contrattuale CCNL Commercio"),
                        ("2026-06-03", "Informativa welfare aziendale 2026"),
                        ("2026-10-20", "Calendario chiusure natalizie"),
                        ("2025-04-02", "Nuova polizza sanitaria integrativa")):
        others.append({"tab": "com", "id": "COM-%s-%s" % (date[:4], date[5:7] + date[8:]), "year": int(date[:4]),
                       "title": title, "date": date})
    return ced, others


CEDOLINI, ALTRI = _docs()
ALL_IDS = [c["id"] for c in CEDOLINI] + [o["id"] for o in ALTRI]

PDF = (b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n"
       b"3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n")


def eur(v):
    return "{:,.2f}".format(v).replace(",", "X").replace(".", ",").replace("X", ".") + " \u20ac"


def itd(iso):
    y, m, d = iso.split("-")
    return "%s/%s/%s" % (d, m, y)


CSS = """
*{box-sizing:border-box}body{margin:0;font-family:'Trebuchet MS',Arial,sans-serif;color:#263238;background:#eceff1}a{color:#00796b}
header{background:#fff;display:flex;align-items:center;gap:24px;padding:0 30px;height:64px;border-bottom:1px solid #cfd8dc}
.logo{font-weight:bold;font-size:21px;color:#004d40;text-decoration:none}.logo em{color:#ff7043;font-style:normal}
header nav a{text-decoration:none;color:#37474f;margin-right:16px;font-size:14px}.sp{flex:1}
.ar{background:#00796b;color:#fff!important;text-decoration:none;padding:9px 16px;border-radius:3px;font-size:14px}
.az{color:#00796b!important;border:1px solid #00796b;text-decoration:none;padding:8px 14px;border-radius:3px;font-size:14px}
.hero{padding:60px 30px;background:#004d40;color:#e0f2f1}.hero h1{font-size:34px;margin:0 0 12px;color:#fff}
.cols{display:grid;grid-template-columns:repeat(3,1fr);gap:18px;padding:28px 30px}.cols div{background:#fff;padding:20px;border-radius:4px}
.news{padding:0 30px 30px}.news li{margin:6px 0}
footer{background:#263238;color:#b0bec5;padding:26px 30px;font-size:12px}footer .f{display:grid;grid-template-columns:repeat(4,1fr);gap:14px}footer a{display:block;color:#b0bec5;text-decoration:none;padding:2px 0}
.box{max-width:430px;margin:44px auto;background:#fff;padding:28px;border-radius:4px;box-shadow:0 1px 4px rgba(0,0,0,.1)}
label{display:block;font-size:13px;font-weight:bold;margin:12px 0 4px}input[type=text],input[type=password]{width:100%;padding:10px;border:1px solid #90a4ae;font-size:15px}
.btn{background:#00796b;color:#fff;border:0;padding:11px 22px;border-radius:3px;cursor:pointer;font-size:14px;text-decoration:none;display:inline-block}
.btn.g{background:#eceff1;color:#263238;border:1px solid #b0bec5}
.err{background:#ffebee;color:#c62828;padding:10px;margin:8px 0;font-size:14px}
.portal{max-width:1060px;margin:0 auto;padding:22px}.pbar{background:#00796b;color:#fff;padding:0 30px;display:flex;gap:4px}
.pbar a{color:#e0f2f1;text-decoration:none;padding:12px 16px;display:block}.pbar a.on{background:#004d40;color:#fff}
.card{background:#fff;padding:22px;border-radius:4px;margin-bottom:16px}
.tabs{display:flex;border-bottom:2px solid #00796b;margin-bottom:0}.tabs a{padding:9px 18px;text-decoration:none;background:#e0e0e0;margin-right:3px;color:#37474f}
.tabs a.on{background:#00796b;color:#fff}.ytabs{margin:14px 0}.ytabs a{display:inline-block;padding:6px 14px;border:1px solid #00796b;border-radius:14px;margin-right:6px;text-decoration:none}
.ytabs a.on{background:#00796b;color:#fff}
table.c{width:100%;border-collapse:collapse}table.c th,table.c td{padding:9px;border-bottom:1px solid #eceff1;text-align:left;font-size:14px}table.c th{background:#f5f5f5;font-size:12px}
#cc-backdrop{position:fixed;inset:0;background:rgba(0,0,0,.6);z-index:900}
#cc-modal{position:fixed;top:50%;left:50%;transform:translate(-50%,-50%);width:560px;max-width:94vw;background:#fff;z-index:901;border-radius:6px;padding:26px;box-shadow:0 10px 40px rgba(0,0,0,.4)}
#cc-modal h2{margin:0 0 10px;font-size:20px}#cc-modal p{font-size:13px;line-height:1.5}#cc-modal .a{display:flex;gap:10px;flex-wrap:wrap;margin-top:14px}
#cc-modal .opt{display:none;border-top:1px solid #eee;padding-top:8px}#cc-modal .opt label{font-weight:normal;display:flex;justify-content:space-between}
"""

FOOT = [("Soluzioni", ["Elaborazione paghe", "Rilevazione presenze", "Note spese", "Welfare aziendale", "Gestione ferie"]),
        ("Per chi", ["Dipendenti", "Aziende", "Consulenti del lavoro", "Commercialisti"]),
        ("Supporto", ["Assistenza dipendenti", "Assistenza aziende", "Guide e tutorial", "Stato del servizio", "Contatti"]),
        ("Legale", ["Privacy policy", "Cookie policy", "Termini di servizio", "Accessibilita'", "Certificazioni ISO 27001"])]


class App:
    def __init__(self):
        self.events = []
        self.lock = threading.Lock()
        self.sessions = {}

    def log(self, e):
        with self.lock:
            self.events.append(e)

    def shell(self, title, body, banner, logged=False, pbar=""):
        foot = "".join("<div><b>%s</b>%s</div>" % (h, "".join("<a href='/info/%s'>%s</a>" % (
            x.lower().replace(" ", "-").replace("'", ""), x) for x in items)) for h, items in FOOT)
        right = ("<a class='az' href='/esci'>Esci</a>" if logged else
                 "<a class='az' href='/aziende/login'>Area Aziende</a><a class='ar' href='/login'>Login</a>")
        return ("<!DOCTYPE html><html lang='it'><head><meta charset='utf-8'><title>%s</title><style>%s</style></head><body>"
                "<header><a class='logo' href='/'>HR<em>Desk</em> Paghe</a><nav><a href='/info/soluzioni'>Soluzioni</a>"
                "<a href='/info/dipendenti'>Dipendenti</a><a href='/info/aziende'>Aziende</a><a href='/info/consulenti'>Consulenti</a>"
                "<a href='/info/blog'>Blog</a><a href='/info/assistenza'>Assistenza</a></nav><span class='sp'></span>%s</header>%s%s"
                "<footer><div class='f'>%s</div><p>HR Desk S.r.l. - Via Mazzini 44, 40121 Bologna - P.IVA 03344556677</p></footer>%s</body></html>") % (
            html.escape(title), CSS, right, pbar, body, foot, BANNER if banner else "")

    def __call__(self, environ, start_response):
        path = environ.get("PATH_INFO", "/")
        method = environ["REQUEST_METHOD"]
        qs = parse_qs(environ.get("QUERY_STRING", ""))
        form = {}
        if method == "POST":
            raw = environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0)).decode("utf-8", "replace")
            form = {k: v[0] for k, v in parse_qs(raw, keep_blank_values=True).items()}
        ck = {k: v.value for k, v in SimpleCookie(environ.get("HTTP_COOKIE", "")).items()}
        sess = self.sessions.get(ck.get("hrdesk_sid", ""))
        banner = "hrdesk_cc" not in ck
        headers = []

        def respond(body, status="200 OK", ctype="text/html; charset=utf-8", extra=()):
            data = body if isinstance(body, bytes) else body.encode("utf-8")
            start_response(status, [("Content-Type", ctype), ("Content-Length", str(len(data)))] + headers + list(extra))
            return [data]

        def redirect(loc):
            return respond("", "302 Found", extra=[("Location", loc)])

        if path == "/cc/consenso" and method == "POST":
            scelta = form.get("scelta")
            on = [x for x in form.get("attivi", "").split(",") if x in ("analitici", "marketing")]
            if scelta == "tutti":
                ev = {"kind": "consent", "choice": "accept", "optional_enabled": ["analitici", "marketing"]}
            elif scelta == "necessari":
                ev = {"kind": "consent", "choice": "reject", "optional_enabled": []}
            else:
                ev = {"kind": "consent", "choice": "custom", "optional_enabled": on}
            self.log(ev)
            headers.append(("Set-Cookie", "hrdesk_cc=%s; Path=/; Max-Age=15552000" % ("+".join(ev["optional_enabled"]) or "necessari")))
            return respond("{}", ctype="application/json")

        if path == "/":
            return respond(self.shell("HR Desk Paghe - Cedolini e documenti del lavoro online", HOME, banner))

        if path == "/login":
            err = ""
            if method == "POST":
                u = form.get("username", "").strip()
                ok = u == USER and form.get("password", "") == PASSWORD
                self.log({"kind": "credential", "form": "area-riservata-dipendenti", "target": "account", "username": u, "ok": ok})
                if ok:
                    s = secrets.token_hex(16)
                    self.sessions[s] = {"azienda": None}
                    headers.append(("Set-Cookie", "hrdesk_sid=%s; Path=/; HttpOnly" % s))
                    return redirect("/portale/azienda")
                err = "<div class='err' role='alert'>Nome utente o password non corretti.</div>"
            body = ("<div class='box'><h1 style='font-size:22px;margin-top:0'>Area riservata dipendenti</h1>"
                    "<p style='font-size:13px'>Accedi per consultare cedolini, CU e comunicazioni della tua azienda.</p>%s"
                    "<form method='post' action='/login'><label for='us'>Nome utente</label><input type='text' id='us' name='username' autocomplete='username'>"
                    "<label for='pw'>Password</label><input type='password' id='pw' name='password' autocomplete='current-password'>"
                    "<p><label style='font-weight:normal;display:inline'><input type='checkbox' name='ricordami'> Ricordami</label></p>"
                    "<button class='btn' type='submit'>Accedi</button></form><p style='font-size:13px'><a href='/info/recupero-password'>Password dimenticata?</a></p>"
                    "<p style='font-size:12px;color:#607d8b'>Sei un datore di lavoro o un consulente? Usa l'<a href='/aziende/login'>Area Aziende</a>.</p></div>") % err
            return respond(self.shell("Area riservata - HR Desk", body, banner))

        if path == "/aziende/login":
            err = ""
            if method == "POST":
                self.log({"kind": "credential", "form": "area-aziende", "target": "decoy", "username": form.get("utente", ""), "ok": False})
                err = "<div class='err' role='alert'>Utenza aziendale non abilitata.</div>"
            body = ("<div class='box'><h1 style='font-size:22px;margin-top:0'>Area Aziende e Consulenti</h1>%s"
                    "<form method='post' action='/aziende/login'><label for='pi'>Partita IVA azienda</label><input type='text' id='pi' name='piva'>"
                    "<label for='ut'>Utente</label><input type='text' id='ut' name='utente'>"
                    "<label for='apw'>Password</label><input type='password' id='apw' name='password'>"
                    "<p><button class='btn' type='submit'>Accedi</button></p></form></div>") % err
            return respond(self.shell("Area Aziende - HR Desk", body, banner))

        if path == "/esci":
            headers.append(("Set-Cookie", "hrdesk_sid=; Path=/; Max-Age=0"))
            return redirect("/")

        if path.startswith("/portale") and not sess:
            return redirect("/login")

        if path == "/portale/azienda":
            if method == "POST":
                sess["azienda"] = form.get("azienda", "LUMEN")
                return redirect("/portale")
            body = ("<div class='box'><h1 style='font-size:22px;margin-top:0'>Benvenuta, Martina</h1><p>Seleziona l'azienda per cui vuoi consultare i documenti.</p>"
                    "<form method='post' action='/portale/azienda'><label><input type='radio' name='azienda' value='LUMEN' checked> Lumen Retail S.p.A. - matricola 004417</label>"
                    "<p><button class='btn' type='submit'>Entra</button></p></form></div>")
            return respond(self.shell("Seleziona azienda - HR Desk", body, banner, True))

        pitems = [("/portale", "Bacheca"), ("/portale/documenti", "Documenti"), ("/portale/presenze", "Presenze"),
                  ("/portale/ferie", "Ferie e permessi"), ("/portale/profilo", "Profilo")]

        def portal(cur, inner, title):
            bar = "<div class='pbar'>%s</div>" % "".join("<a href='%s'%s>%s</a>" % (h, " class='on'" if h == cur else "", t) for h, t in pitems)
            return respond(self.shell(title + " - HR Desk", "<div class='portal'>%s</div>" % inner, banner, True, bar))

        if path == "/portale":
            if not sess.get("azienda"):
                return redirect("/portale/azienda")
            inner = ("<div class='card'><h1 style='font-size:22px;margin-top:0'>Bacheca</h1><p>Lumen Retail S.p.A. &middot; Matricola 004417</p>"
                     "<p>Il cedolino di <b>Novembre 2026</b> e' disponibile nella sezione Documenti.</p></div>"
                     "<div class='card'><h3 style='margin-top:0'>Avvisi</h3><ul><li>Chiusura aziendale dal 24/12 al 06/01</li>"
                     "<li>Scadenza richiesta ferie estive: 31/03</li></ul></div>")
            return portal("/portale", inner, "Bacheca")

        if path == "/portale/documenti":
            tab = qs.get("tab", ["cedolini"])[0]
            anno = qs.get("anno", ["2026"])[0]
            years = ["2026", "2025", "2024"]
            if anno not in years:
                anno = "2026"
            tabs = "".join("<a href='/portale/documenti?tab=%s&anno=%s'%s>%s</a>" % (t, anno, " class='on'" if t == tab else "", l)
                           for t, l in (("cedolini", "Cedolini"), ("cu", "CU"), ("com", "Comunicazioni")))
            ytabs = "".join("<a href='/portale/documenti?tab=%s&anno=%s'%s>%s</a>" % (tab, y, " class='on' aria-current='page'" if y == anno else "", y)
                            for y in years)
            if tab == "cedolini":
                rows = [c for c in CEDOLINI if str(c["year"]) == anno]
                rows.sort(key=lambda c: (c["end"], c["id"]), reverse=True)
                trs = "".join("<tr><td>%s</td><td>%s</td><td>%s - %s</td><td>%s</td><td>%s</td>"
                              "<td><a href='/portale/pdf/%s.pdf'>Scarica PDF</a></td></tr>" % (
                                  c["id"], c["period"], itd(c["start"]), itd(c["end"]), eur(c["gross"]), eur(c["net"]),
                                  c["id"].replace("/", "-")) for c in rows)
                table = ("<table class='c'><thead><tr><th>N. cedolino</th><th>Mensilita'</th><th>Periodo di competenza</th><th>Lordo</th>"
                         "<th>Netto in busta</th><th></th></tr></thead><tbody>%s</tbody></table>") % trs
            else:
                rows = [o for o in ALTRI if o["tab"] == tab and str(o["year"]) == anno]
                trs = "".join("<tr><td>%s</td><td>%s</td><td>%s</td><td><a href='/portale/pdf/%s.pdf'>Scarica PDF</a></td></tr>" % (
                    o["id"], html.escape(o["title"]), itd(o["date"]), o["id"]) for o in rows) or "<tr><td colspan='4'>Nessun documento.</td></tr>"
                table = "<table class='c'><thead><tr><th>Protocollo</th><th>Documento</th><th>Data</th><th></th></tr></thead><tbody>%s</tbody></table>" % trs
            inner = ("<div class='card'><p style='font-size:12px;margin-top:0'><a href='/portale'>Bacheca</a> &rsaquo; Documenti</p>"
                     "<h1 style='font-size:22px'>I miei documenti</h1><nav class='tabs'>%s</nav><div class='ytabs' role='tablist' aria-label='Anno'>%s</div>%s</div>") % (
                tabs, ytabs, table)
            return portal("/portale/documenti", inner, "Documenti")

        if path.startswith("/portale/pdf/"):
            self.log({"kind": "download", "path": path})
            return respond(PDF, ctype="application/pdf")

        if path.startswith("/portale/"):
            return portal(path, "<div class='card'><h1 style='font-size:22px;margin-top:0'>Funzione non attiva per la tua azienda</h1></div>", "Portale")

        if path.startswith("/info/"):
            name = path[6:].replace("-", " ").capitalize()
            return respond(self.shell(name + " - HR Desk", "<div class='portal'><div class='card'><h1>%s</h1><p>La piattaforma HR per "
                                      "aziende e consulenti del lavoro.</p></div></div>" % name, banner))
        return respond("Pagina non trovata", "404 Not Found", "text/plain")


HOME = """
<section class='hero'><h1>Il tuo cedolino, sempre con te</h1><p>HR Desk e' il portale con cui oltre 3.000 aziende italiane pubblicano cedolini, CU e comunicazioni ai dipendenti.</p>
<a class='btn' href='/info/dipendenti' style='background:#ff7043'>Sei un dipendente? Scopri come accedere</a></section>
<div class='cols'><div><h3>Per i dipendenti</h3><p>Consulta cedolini e CU, richiedi ferie e permessi dall'app.</p><a href='/info/app'>Scarica l'app</a></div>
<div><h3>Per le aziende</h3><p>Pubblica documenti con firma digitale e conservazione a norma.</p><a href='/info/aziende'>Richiedi una demo</a></div>
<div><h3>Per i consulenti</h3><p>Gestisci centinaia di aziende clienti da un'unica console.</p><a href='/info/consulenti'>Diventa partner</a></div></div>
<div class='news'><h2>Dal blog</h2><ul><li><a href='/info/blog/tredicesima-2026'>Tredicesima 2026: quando arriva e come si calcola</a></li>
<li><a href='/info/blog/cu-2027'>CU 2027: le novita' per i lavoratori dipendenti</a></li><li><a href='/info/blog/welfare'>Welfare aziendale: i fringe benefit nel 2026</a></li></ul></div>
"""

BANNER = """
<div id='cc-backdrop' aria-hidden='true'></div>
<div id='cc-modal' role='dialog' aria-modal='true' aria-labelledby='cc-h'>
<h2 id='cc-h'>Rispettiamo la tua privacy</h2>
<p>Utilizziamo cookie tecnici necessari al funzionamento del portale e, con il tuo consenso, cookie analitici e di marketing di terze parti.
Puoi accettare tutti i cookie, accettare solo quelli necessari oppure personalizzare la tua scelta. <a href='/info/cookie-policy'>Cookie policy</a></p>
<div class='opt' id='cc-opt'><label>Analitici <input type='checkbox' data-c='analitici'></label><label>Marketing <input type='checkbox' data-c='marketing'></label>
<p><button class='btn' type='button' id='cc-salva'>Salva preferenze</button></p></div>
<div class='a'><button class='btn g' type='button' id='cc-pers'>Personalizza</button><button class='btn g' type='button' id='cc-nec'>Accetta solo i necessari</button>
<button class='btn' type='button' id='cc-tutti'>Accetta tutti</button></div></div>
<script>(function(){document.documentElement.style.overflow='hidden';
function send(s,a){var f=new URLSearchParams();f.set('scelta',s);f.set('attivi',(a||[]).join(','));
fetch('/cc/consenso',{method:'POST',body:f}).then(function(){document.getElementById('cc-modal').remove();document.getElementById('cc-backdrop').remove();document.documentElement.style.overflow='';});}
document.getElementById('cc-tutti').onclick=function(){send('tutti')};
document.getElementById('cc-nec').onclick=function(){send('necessari')};
document.getElementById('cc-pers').onclick=function(){document.getElementById('cc-opt').style.display='block'};
document.getElementById('cc-salva').onclick=function(){var a=[];document.querySelectorAll('#cc-opt input:checked').forEach(function(c){a.push(c.getAttribute('data-c'))});send('personalizzata',a)};
})();</script>
"""


def make_app():
    return App()
