"""Banca Valdora - fixture imitating an Italian retail bank (home banking privati).

Consent: two-layer banner (layer 1: "Accetta tutto" / "Personalizza"; reject only in layer 2).
Entry: "Accedi" button opening a dropdown (Privati = real, Imprese/Corporate banking = decoy).
Sign-in: two steps (Codice cliente, then password), interstitial "Vai alla tua area".
List: server-rendered archive with year/type filters and ?page=N, mixed kinds.
"""
import html
import json
import secrets
import threading
from http.cookies import SimpleCookie
from urllib.parse import parse_qs, quote

USER = "40817733"
PASSWORD = "Valdora!2026"

MONTHS = ["gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto",
          "settembre", "ottobre", "novembre", "dicembre"]
MDAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]


def _build_docs():
    docs = []
    n = 1170
    bal = 4210.35
    for y in (2024, 2025, 2026):
        for m in range(1, 13):
            if y == 2026 and m > 11:
                break
            n += 7 + (m * 3) % 5
            bal = round(bal + ((m * 37 + y) % 900) - 410.17 + (m % 3) * 55.4, 2)
            d = MDAYS[m - 1] + (1 if (m == 2 and y == 2024) else 0)
            docs.append({
                "id": "EC%d%06d" % (y, n), "kind": "ec", "type": "Estratto conto",
                "title": "Estratto conto c/c n. 000041207733 - %s %d" % (MONTHS[m - 1], y),
                "date": "%d-%02d-%02d" % (y, m, d), "amount": bal,
            })
    extra = [
        ("CO", "com", "Comunicazione", "Variazione unilaterale condizioni contrattuali (art. 118 TUB)", "2026-02-14", None),
        ("CO", "com", "Comunicazione", "Aggiornamento Foglio informativo carta di debito", "2026-05-06", None),
        ("CO", "com", "Comunicazione", "Informativa PSD2 - nuove soglie autenticazione forte", "2026-09-22", None),
        ("DS", "sint", "Documento di sintesi", "Documento di sintesi periodico 2025", "2026-01-15", None),
        ("CF", "fisc", "Documento fiscale", "Certificazione interessi e ritenute 2025", "2026-03-10", 12.84),
        ("CF", "fisc", "Documento fiscale", "Riepilogo imposta di bollo 2025", "2026-02-02", 34.20),
        ("CO", "com", "Comunicazione", "Variazione tasso creditore conto deposito", "2025-06-30", None),
        ("DS", "sint", "Documento di sintesi", "Documento di sintesi periodico 2024", "2025-01-14", None),
        ("CF", "fisc", "Documento fiscale", "Certificazione interessi e ritenute 2024", "2025-03-11", 9.11),
        ("CF", "fisc", "Documento fiscale", "Certificazione interessi e ritenute 2023", "2024-03-08", 7.02),
    ]
    for i, (p, k, t, title, date, amt) in enumerate(extra):
        docs.append({"id": "%s%s%06d" % (p, date[:4], 3300 + i * 17), "kind": k, "type": t,
                     "title": title, "date": date, "amount": amt})
    docs.sort(key=lambda d: (d["date"], d["id"]), reverse=True)
    return docs


DOCS = _build_docs()


def eur(v):
    s = "{:,.2f}".format(v).replace(",", "X").replace(".", ",").replace("X", ".")
    return s + " \u20ac"


def itdate(iso):
    y, m, d = iso.split("-")
    return "%s/%s/%s" % (d, m, y)


PDF = (b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n"
       b"3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n")

CSS = """
*{box-sizing:border-box}body{margin:0;font-family:Arial,Helvetica,sans-serif;color:#1d2b36;background:#f4f6f8}
a{color:#0a5c8a}.top{background:#0b3954;color:#fff;font-size:12px;padding:6px 24px;display:flex;gap:18px}
.top a{color:#cfe3ee;text-decoration:none}.top .sp{flex:1}
header.main{background:#fff;display:flex;align-items:center;padding:0 24px;height:72px;border-bottom:1px solid #dde3e8;position:relative}
.logo{font-weight:bold;font-size:22px;color:#0b3954;text-decoration:none;margin-right:30px}.logo span{color:#e08a1e}
nav.mega>ul{list-style:none;display:flex;margin:0;padding:0}nav.mega>ul>li{position:relative}
nav.mega>ul>li>a{display:block;padding:26px 14px;text-decoration:none;color:#1d2b36;font-weight:bold;font-size:14px}
nav.mega li .panel{display:none;position:absolute;top:72px;left:0;background:#fff;box-shadow:0 6px 20px rgba(0,0,0,.15);padding:16px 20px;width:520px;z-index:20;columns:2}
nav.mega li:hover .panel{display:block}.panel a{display:block;padding:5px 0;font-size:13px;text-decoration:none}
.hsp{flex:1}.search{border:1px solid #ccd;padding:7px 10px;border-radius:18px;width:180px;margin-right:14px}
.acc-wrap{position:relative}.btn{background:#e08a1e;color:#fff;border:0;padding:11px 20px;border-radius:4px;font-weight:bold;cursor:pointer;font-size:14px;text-decoration:none;display:inline-block}
.btn.sec{background:#fff;color:#0b3954;border:1px solid #0b3954}
.acc-menu{display:none;position:absolute;right:0;top:48px;background:#fff;width:300px;box-shadow:0 8px 24px rgba(0,0,0,.2);border-radius:6px;padding:10px 0;z-index:30}
.acc-menu.open{display:block}.acc-menu a{display:block;padding:12px 18px;text-decoration:none;color:#1d2b36}
.acc-menu a small{display:block;color:#667;font-size:12px}.acc-menu a:hover{background:#f0f4f7}
.acc-menu h4{margin:6px 18px;font-size:11px;text-transform:uppercase;color:#889}
.hero{background:linear-gradient(90deg,#0b3954,#087e8b);color:#fff;padding:60px 24px}.hero h1{font-size:34px;margin:0 0 10px}
.cards{display:grid;grid-template-columns:repeat(4,1fr);gap:16px;padding:24px}.card{background:#fff;padding:18px;border-radius:6px;box-shadow:0 1px 3px rgba(0,0,0,.08)}
footer{background:#0b3954;color:#cfe3ee;padding:30px 24px;font-size:13px}footer .cols{display:grid;grid-template-columns:repeat(5,1fr);gap:16px}
footer a{color:#cfe3ee;display:block;padding:3px 0;text-decoration:none}footer h5{color:#fff;margin:0 0 8px}
.legal{border-top:1px solid #2c5a75;margin-top:20px;padding-top:12px;font-size:11px}
.chat{position:fixed;right:20px;bottom:20px;background:#087e8b;color:#fff;border-radius:30px;padding:12px 18px;font-size:13px;z-index:5}
.wrap{max-width:1100px;margin:0 auto;padding:24px}.box{background:#fff;padding:24px;border-radius:6px;box-shadow:0 1px 3px rgba(0,0,0,.08)}
label{display:block;margin:14px 0 4px;font-weight:bold;font-size:14px}input[type=text],input[type=password]{width:100%;padding:10px;border:1px solid #aab;border-radius:4px;font-size:15px}
.err{background:#fde8e8;color:#a11;padding:10px;border-radius:4px;margin:10px 0}
table.docs{width:100%;border-collapse:collapse;background:#fff}table.docs th,table.docs td{padding:10px;border-bottom:1px solid #e3e8ec;text-align:left;font-size:14px}
table.docs th{background:#eef2f5;font-size:12px;text-transform:uppercase;color:#556}
.side{width:230px;float:left}.side a{display:block;padding:10px 14px;background:#fff;margin-bottom:2px;text-decoration:none;color:#1d2b36}.side a.on{border-left:4px solid #e08a1e;font-weight:bold}
.content{margin-left:250px}.pager a,.pager span{display:inline-block;padding:6px 11px;margin:2px;border:1px solid #ccd;background:#fff;text-decoration:none}.pager span.cur{background:#0b3954;color:#fff}
.crumbs{font-size:12px;color:#667;margin-bottom:12px}
#cmp-root .cmp-bar{position:fixed;left:0;right:0;bottom:0;background:#fff;box-shadow:0 -4px 18px rgba(0,0,0,.2);padding:20px 40px;z-index:100;display:flex;gap:24px;align-items:center}
#cmp-root .cmp-bar p{flex:1;font-size:13px;margin:0}
#cmp-root .cmp-pref{position:fixed;inset:0;background:rgba(0,0,0,.45);z-index:110;display:none}
#cmp-root .cmp-pref .dlg{background:#fff;width:560px;margin:60px auto;padding:24px;border-radius:6px;max-height:80vh;overflow:auto}
.purp{border-bottom:1px solid #e5e5e5;padding:12px 0;display:flex;justify-content:space-between;gap:12px}.purp p{font-size:12px;color:#556;margin:4px 0 0}
"""

MEGA = [
    ("Privati", ["Conti correnti", "Conto Valdora Smart", "Conto Giovani", "Carte di debito", "Carte di credito",
                 "Carte prepagate", "Mutui casa", "Prestiti personali", "Cessione del quinto", "Assicurazioni casa"]),
    ("Imprese", ["Conto business", "Finanziamenti imprese", "POS e incassi", "Leasing", "Factoring", "Estero e trade"]),
    ("Risparmio e investimenti", ["Conto deposito", "Fondi comuni", "Piani di accumulo", "Gestioni patrimoniali",
                                  "Previdenza complementare", "Trading online"]),
    ("Mutui", ["Mutuo prima casa", "Surroga mutuo", "Mutuo green", "Calcola la rata"]),
    ("Assistenza", ["Centro assistenza", "Blocco carte", "Trova filiale", "Sicurezza online", "Reclami"]),
]

FOOTER = [
    ("Banca Valdora", ["Chi siamo", "Lavora con noi", "Sala stampa", "Investor relations", "Sostenibilita'", "Governance"]),
    ("Prodotti", ["Conti", "Carte", "Mutui", "Prestiti", "Investimenti", "Assicurazioni"]),
    ("Servizi digitali", ["App Valdora", "Home banking privati", "Corporate banking", "Bonifici istantanei", "Apple Pay"]),
    ("Trasparenza", ["Fogli informativi", "Tassi e condizioni", "Arbitro Bancario Finanziario", "Reclami", "PSD2"]),
    ("Supporto", ["Contatti", "Trova filiale", "Sicurezza", "Privacy", "Cookie policy", "Accessibilita'"]),
]


def slug(s):
    return "".join(c if c.isalnum() else "-" for c in s.lower()).strip("-")


class App:
    def __init__(self):
        self.events = []
        self.lock = threading.Lock()
        self.sessions = {}

    def log(self, ev):
        with self.lock:
            self.events.append(ev)

    # ------------------------------------------------------------------ helpers
    def page(self, title, body, consent_needed, logged=False):
        mega = "".join(
            '<li><a href="/%s">%s</a><div class="panel">%s</div></li>' % (
                slug(t), t, "".join('<a href="/%s/%s">%s</a>' % (slug(t), slug(x), x) for x in items))
            for t, items in MEGA)
        foot = "".join('<div><h5>%s</h5>%s</div>' % (t, "".join(
            '<a href="%s">%s</a>' % ("/login/corporate" if x == "Corporate banking" else
                                     "/login" if x == "Home banking privati" else "/info/" + slug(x), x)
            for x in items)) for t, items in FOOTER)
        if logged:
            acc = '<a class="btn sec" href="/logout">Esci</a>'
        else:
            acc = ('<div class="acc-wrap"><button class="btn" id="btn-accedi" aria-haspopup="true" aria-expanded="false">'
                   'Accedi &#9662;</button><div class="acc-menu" id="acc-menu" role="menu">'
                   '<h4>Privati</h4><a role="menuitem" href="/login">Home banking<small>Conti, carte e documenti dei clienti privati</small></a>'
                   '<h4>Imprese</h4><a role="menuitem" href="/login/corporate">Corporate banking<small>Area Business per aziende e professionisti</small></a>'
                   '<a role="menuitem" href="/info/trading-online">Valdora Trading<small>Piattaforma di trading</small></a>'
                   '</div></div>')
        cmp = CMP_HTML if consent_needed else ""
        return ("<!DOCTYPE html><html lang='it'><head><meta charset='utf-8'><title>%s</title>"
                "<meta name='viewport' content='width=device-width,initial-scale=1'><style>%s</style></head><body>"
                "<div class='top'><a href='/'>Privati</a><a href='/imprese'>Imprese</a><a href='/private-banking'>Private banking</a>"
                "<span class='sp'></span><a href='/info/trova-filiale'>Trova filiale</a><a href='/info/contatti'>Contatti</a>"
                "<a href='/en'>EN</a></div>"
                "<header class='main'><a class='logo' href='/'>Banca <span>Valdora</span></a><nav class='mega'><ul>%s</ul></nav>"
                "<span class='hsp'></span><input class='search' placeholder='Cerca' aria-label='Cerca'>%s</header>"
                "%s<footer><div class='cols'>%s</div><div class='legal'>Banca Valdora S.p.A. - Sede legale Via dei Mille 12, 10121 Torino - "
                "Capitale sociale 120.000.000 euro i.v. - P.IVA 09876540012 - Aderente al Fondo Interbancario di Tutela dei Depositi"
                "</div></footer><div class='chat'>&#128172; Serve aiuto? Chatta con Vale</div>%s"
                "<script>(function(){var b=document.getElementById('btn-accedi');if(!b)return;var m=document.getElementById('acc-menu');"
                "b.addEventListener('click',function(e){e.stopPropagation();m.classList.toggle('open');b.setAttribute('aria-expanded',m.classList.contains('open'))});"
                "document.addEventListener('click',function(){m.classList.remove('open')});})();</script>"
                "</body></html>") % (html.escape(title), CSS, mega, acc, body, foot, cmp)

    # ------------------------------------------------------------------ wsgi
    def __call__(self, environ, start_response):
        path = environ.get("PATH_INFO", "/")
        method = environ["REQUEST_METHOD"]
        qs = parse_qs(environ.get("QUERY_STRING", ""))
        form = {}
        if method == "POST":
            try:
                n = int(environ.get("CONTENT_LENGTH") or 0)
            except ValueError:
                n = 0
            raw = environ["wsgi.input"].read(n).decode("utf-8", "replace")
            if environ.get("CONTENT_TYPE", "").startswith("application/json"):
                try:
                    form = json.loads(raw or "{}")
                except ValueError:
                    form = {}
            else:
                form = {k: v[0] for k, v in parse_qs(raw, keep_blank_values=True).items()}
        cookies = SimpleCookie(environ.get("HTTP_COOKIE", ""))
        ck = {k: v.value for k, v in cookies.items()}
        sid = ck.get("VALDSESSID")
        sess = self.sessions.get(sid) if sid else None
        consent_needed = "valdora_consent" not in ck
        headers = []

        def respond(body, status="200 OK", ctype="text/html; charset=utf-8", extra=()):
            data = body if isinstance(body, bytes) else body.encode("utf-8")
            start_response(status, [("Content-Type", ctype), ("Content-Length", str(len(data))),
                                    ("Cache-Control", "no-store")] + headers + list(extra))
            return [data]

        def redirect(loc):
            return respond("", "302 Found", extra=[("Location", loc)])

        def new_session():
            s = secrets.token_hex(16)
            self.sessions[s] = {"auth": False}
            headers.append(("Set-Cookie", "VALDSESSID=%s; Path=/; HttpOnly; SameSite=Lax" % s))
            return self.sessions[s]

        # ---------------- consent
        if path == "/consent" and method == "POST":
            choice = form.get("choice", "reject")
            enabled = [p for p in form.get("enabled", []) if p in ("statistiche", "marketing", "profilazione")]
            if choice == "accept":
                enabled = ["statistiche", "marketing", "profilazione"]
            elif choice == "reject":
                enabled = []
            self.log({"kind": "consent", "choice": choice, "optional_enabled": enabled})
            headers.append(("Set-Cookie", "valdora_consent=%s; Path=/; Max-Age=15552000" %
                            quote(json.dumps({"c": choice, "e": enabled}))))
            return respond('{"ok":true}', ctype="application/json")

        if path == "/":
            return respond(self.page("Banca Valdora | Conti, carte, mutui e investimenti", HOME, consent_needed,
                                     bool(sess and sess.get("auth"))))

        # ---------------- login (two steps)
        if path == "/login":
            if sess is None:
                sess = new_session()
            err = ""
            if method == "POST":
                uid = form.get("codice_cliente", "").strip()
                ok = uid == USER
                self.log({"kind": "credential", "form": "homebanking-step1-codice-cliente", "target": "account",
                          "username": uid, "ok": ok})
                if ok or (uid.isdigit() and len(uid) == 8):
                    sess["pending"] = uid
                    sess["remember"] = form.get("ricorda") == "1"
                    return redirect("/login/password")
                err = "<div class='err' role='alert'>Il codice cliente deve essere composto da 8 cifre.</div>"
            body = ("<div class='wrap'><div class='crumbs'><a href='/'>Home</a> &rsaquo; Home banking privati</div>"
                    "<div class='box' style='max-width:460px;margin:auto'><h1 style='font-size:24px'>Accedi all'Home banking</h1>"
                    "<p style='font-size:13px;color:#556'>Passo 1 di 2 &middot; Inserisci il tuo codice cliente (8 cifre), lo trovi nella lettera di benvenuto.</p>"
                    "%s<form method='post' action='/login' autocomplete='on'><label for='cc'>Codice cliente</label>"
                    "<input type='text' id='cc' name='codice_cliente' inputmode='numeric' autocomplete='username' maxlength='8'>"
                    "<p><label style='display:inline;font-weight:normal'><input type='checkbox' name='ricorda' value='1'> Ricorda codice cliente</label></p>"
                    "<button class='btn' type='submit'>Continua</button></form>"
                    "<p style='font-size:13px'><a href='/info/recupero-codice'>Non ricordi il codice cliente?</a> &middot; "
                    "<a href='/info/apri-conto'>Non sei cliente? Apri un conto</a></p>"
                    "<p style='font-size:12px;color:#667'>Sei un'azienda? Accedi al <a href='/login/corporate'>Corporate banking</a>.</p>"
                    "</div></div>") % err
            return respond(self.page("Accesso Home banking - Banca Valdora", body, consent_needed))

        if path == "/login/password":
            if not sess or not sess.get("pending"):
                return redirect("/login")
            err = ""
            if method == "POST":
                pw = form.get("password", "")
                ok = sess["pending"] == USER and pw == PASSWORD
                self.log({"kind": "credential", "form": "homebanking-step2-password", "target": "account",
                          "username": sess["pending"], "ok": ok})
                if ok:
                    sess["auth"] = True
                    return redirect("/benvenuto")
                err = "<div class='err' role='alert'>Credenziali non valide. Dopo 5 tentativi errati l'accesso verra' bloccato.</div>"
            masked = sess["pending"][:2] + "****" + sess["pending"][-2:]
            body = ("<div class='wrap'><div class='box' style='max-width:460px;margin:auto'><h1 style='font-size:24px'>Inserisci la password</h1>"
                    "<p style='font-size:13px;color:#556'>Passo 2 di 2 &middot; Codice cliente <b>%s</b> &middot; <a href='/login'>Cambia</a></p>"
                    "%s<form method='post' action='/login/password'><label for='pw'>Password</label>"
                    "<input type='password' id='pw' name='password' autocomplete='current-password'>"
                    "<p><button class='btn' type='submit'>Accedi</button></p></form>"
                    "<p style='font-size:13px'><a href='/info/password-dimenticata'>Password dimenticata?</a></p></div></div>") % (masked, err)
            return respond(self.page("Password - Banca Valdora", body, consent_needed))

        if path == "/login/corporate":
            err = ""
            if method == "POST":
                self.log({"kind": "credential", "form": "corporate-banking", "target": "decoy",
                          "username": form.get("user_id", ""), "ok": False})
                err = "<div class='err' role='alert'>Utente aziendale non riconosciuto. Verifica Codice azienda e User ID.</div>"
            body = ("<div class='wrap'><div class='crumbs'><a href='/'>Home</a> &rsaquo; Imprese &rsaquo; Corporate banking</div>"
                    "<div class='box' style='max-width:460px;margin:auto'><h1 style='font-size:24px'>Valdora Corporate banking</h1>"
                    "<p style='font-size:13px'>Area Business riservata a imprese, enti e professionisti.</p>%s"
                    "<form method='post' action='/login/corporate'><label for='az'>Codice azienda</label><input type='text' id='az' name='azienda'>"
                    "<label for='uid'>User ID</label><input type='text' id='uid' name='user_id'>"
                    "<label for='cpw'>Password</label><input type='password' id='cpw' name='password'>"
                    "<p><button class='btn' type='submit'>Accedi</button></p></form>"
                    "<p style='font-size:12px'>Sei un cliente privato? Vai all'<a href='/login'>Home banking</a>.</p></div></div>") % err
            return respond(self.page("Corporate banking - Banca Valdora", body, consent_needed))

        if path == "/logout":
            if sid in self.sessions:
                del self.sessions[sid]
            return redirect("/")

        # ---------------- private area
        if path.startswith("/hb") or path == "/benvenuto" or path.startswith("/documenti/"):
            if not sess or not sess.get("auth"):
                return redirect("/login")

        if path == "/benvenuto":
            body = ("<div class='wrap'><div class='box' style='max-width:620px;margin:auto;text-align:center'>"
                    "<h1 style='font-size:24px'>Bentornato, Marco</h1><p>Ultimo accesso: 28/11/2026 alle 19:42 da App Valdora.</p>"
                    "<div style='background:#fff7e8;padding:14px;border-radius:6px;font-size:14px;text-align:left'>"
                    "<b>Novita'</b>: dal 1 gennaio i bonifici istantanei sono gratuiti per tutti i conti Valdora Smart. "
                    "Scopri anche il nuovo conto deposito al 3,10%.</div>"
                    "<p style='margin-top:20px'><a class='btn sec' href='/info/conto-deposito'>Scopri il conto deposito</a> "
                    "<a class='btn' href='/hb'>Vai alla tua area</a></p></div></div>")
            return respond(self.page("Benvenuto - Banca Valdora", body, consent_needed, True))

        side_items = [("/hb", "Riepilogo"), ("/hb/conti", "Conti e movimenti"), ("/hb/carte", "Carte"),
                      ("/hb/bonifici", "Bonifici e pagamenti"), ("/hb/investimenti", "Investimenti"),
                      ("/hb/documenti", "Documenti"), ("/hb/profilo", "Profilo e sicurezza")]

        def area(cur, inner, title):
            side = "".join("<a href='%s'%s>%s</a>" % (h, " class='on'" if h == cur else "", t) for h, t in side_items)
            body = ("<div class='wrap'><div class='crumbs'><a href='/hb'>Home banking</a> &rsaquo; %s</div>"
                    "<div class='side'>%s</div><div class='content'>%s</div><div style='clear:both'></div></div>") % (
                html.escape(title), side, inner)
            return respond(self.page(title + " - Home banking Valdora", body, consent_needed, True))

        if path == "/hb":
            inner = ("<div class='box'><h1 style='font-size:22px'>Riepilogo</h1>"
                     "<p>Conto corrente n. 000041207733 &middot; IBAN IT60 X054 2811 1010 0000 4120 7733</p>"
                     "<p style='font-size:28px;margin:6px 0'><b>%s</b> <small style='font-size:13px'>saldo disponibile</small></p>"
                     "<h3>Ultimi movimenti</h3><table class='docs'><tr><th>Data</th><th>Descrizione</th><th>Importo</th></tr>"
                     "<tr><td>30/11/2026</td><td>Pagamento POS Esselunga</td><td>-64,18 \u20ac</td></tr>"
                     "<tr><td>28/11/2026</td><td>Bonifico da ACME SRL - stipendio</td><td>2.145,00 \u20ac</td></tr>"
                     "<tr><td>27/11/2026</td><td>Addebito SDD Enel Energia</td><td>-88,40 \u20ac</td></tr></table>"
                     "<p style='font-size:13px'>Hai nuovi documenti: consulta la sezione <a href='/hb/documenti'>Documenti</a>.</p></div>") % eur(3621.77)
            return area("/hb", inner, "Riepilogo")

        if path == "/hb/documenti":
            anno = qs.get("anno", ["2026"])[0]
            tipo = qs.get("tipo", ["tutti"])[0]
            try:
                pg = max(1, int(qs.get("page", ["1"])[0]))
            except ValueError:
                pg = 1
            rows = [d for d in DOCS if (anno == "tutti" or d["date"][:4] == anno) and (tipo == "tutti" or d["kind"] == tipo)]
            per = 8
            pages = max(1, (len(rows) + per - 1) // per)
            pg = min(pg, pages)
            chunk = rows[(pg - 1) * per: pg * per]
            trs = "".join(
                "<tr><td>%s</td><td>%s</td><td>%s<br><small style='color:#667'>N. documento %s</small></td><td>%s</td>"
                "<td><a href='/documenti/%s.pdf' aria-label='Scarica PDF %s'>PDF &#8595;</a></td></tr>" % (
                    itdate(d["date"]), d["type"], html.escape(d["title"]), d["id"],
                    eur(d["amount"]) if d["amount"] is not None else "&ndash;", d["id"], d["id"]) for d in chunk)
            if not trs:
                trs = "<tr><td colspan='5'>Nessun documento per i filtri selezionati.</td></tr>"

            def opt(v, label, cur):
                return "<option value='%s'%s>%s</option>" % (v, " selected" if v == cur else "", label)
            years = opt("2026", "2026", anno) + opt("2025", "2025", anno) + opt("2024", "2024", anno) + opt("tutti", "Tutti", anno)
            types = (opt("tutti", "Tutti i documenti", tipo) + opt("ec", "Estratti conto", tipo) + opt("com", "Comunicazioni", tipo)
                     + opt("fisc", "Documenti fiscali", tipo) + opt("sint", "Documenti di sintesi", tipo))
            pager = ""
            if pages > 1:
                links = []
                if pg > 1:
                    links.append("<a href='?anno=%s&tipo=%s&page=%d' rel='prev'>&lsaquo; Precedente</a>" % (anno, tipo, pg - 1))
                for i in range(1, pages + 1):
                    links.append("<span class='cur'>%d</span>" % i if i == pg else
                                 "<a href='?anno=%s&tipo=%s&page=%d'>%d</a>" % (anno, tipo, i, i))
                if pg < pages:
                    links.append("<a href='?anno=%s&tipo=%s&page=%d' rel='next'>Successiva &rsaquo;</a>" % (anno, tipo, pg + 1))
                pager = "<div class='pager' role='navigation' aria-label='Paginazione'>%s</div>" % "".join(links)
            inner = ("<div class='box'><h1 style='font-size:22px'>Archivio documenti</h1>"
                     "<p style='font-size:13px;color:#556'>Estratti conto, comunicazioni e documenti fiscali sono disponibili online per 10 anni.</p>"
                     "<form method='get' action='/hb/documenti' style='display:flex;gap:14px;align-items:end;margin:14px 0'>"
                     "<div><label for='anno' style='margin:0'>Anno</label><select id='anno' name='anno'>%s</select></div>"
                     "<div><label for='tipo' style='margin:0'>Tipo documento</label><select id='tipo' name='tipo'>%s</select></div>"
                     "<button class='btn' type='submit'>Filtra</button></form>"
                     "<p style='font-size:13px'>%d documenti &middot; pagina %d di %d</p>"
                     "<table class='docs'><thead><tr><th>Data</th><th>Tipo</th><th>Descrizione</th><th>Importo / saldo</th><th></th></tr></thead>"
                     "<tbody>%s</tbody></table>%s</div>") % (years, types, len(rows), pg, pages, trs, pager)
            return area("/hb/documenti", inner, "Documenti")

        if path.startswith("/hb/"):
            inner = "<div class='box'><h1 style='font-size:22px'>Sezione in aggiornamento</h1><p>Il servizio sara' presto disponibile.</p></div>"
            return area(path, inner, "Home banking")

        if path.startswith("/documenti/") and path.endswith(".pdf"):
            did = path[len("/documenti/"):-4]
            if any(d["id"] == did for d in DOCS):
                self.log({"kind": "download", "path": path})
                return respond(PDF, ctype="application/pdf",
                               extra=[("Content-Disposition", "attachment; filename=%s.pdf" % did)])
            return respond("Not found", "404 Not Found", "text/plain")

        # generic marketing pages
        if path.startswith("/info/") or any(path.startswith("/" + slug(t)) for t, _ in MEGA) or path in (
                "/imprese", "/private-banking", "/en"):
            name = path.strip("/").split("/")[-1].replace("-", " ").capitalize()
            body = ("<div class='wrap'><div class='crumbs'><a href='/'>Home</a> &rsaquo; %s</div><div class='box'>"
                    "<h1>%s</h1><p>Scopri tutte le soluzioni di Banca Valdora pensate per te. Messaggio pubblicitario con "
                    "finalita' promozionale: per le condizioni consulta i fogli informativi.</p></div></div>") % (name, name)
            return respond(self.page(name + " - Banca Valdora", body, consent_needed, bool(sess and sess.get("auth"))))
        return respond("<h1>404</h1><p>Pagina non trovata</p>", "404 Not Found")


HOME = """
<section class='hero'><h1>Il conto che lavora con te</h1><p>Conto Valdora Smart: canone zero il primo anno, carta di debito inclusa e bonifici istantanei gratuiti.</p>
<a class='btn' href='/info/apri-conto'>Apri il conto online</a> <a class='btn sec' href='/info/conto-valdora-smart'>Scopri di piu'</a></section>
<div class='cards'>
<div class='card'><h3>Mutuo green</h3><p>Tasso fisso agevolato per immobili in classe A e B.</p><a href='/mutui/mutuo-green'>Calcola la rata</a></div>
<div class='card'><h3>Prestito Valdora Flex</h3><p>Fino a 50.000 euro con rate flessibili. TAN 6,90% TAEG 7,31%.</p><a href='/privati/prestiti-personali'>Richiedi un preventivo</a></div>
<div class='card'><h3>Carta Valdora Oro</h3><p>Cashback del 2% sugli acquisti di viaggio.</p><a href='/privati/carte-di-credito'>Scopri la carta</a></div>
<div class='card'><h3>Sicurezza</h3><p>Banca Valdora non ti chiedera' mai le credenziali via SMS o email.</p><a href='/info/sicurezza-online'>Come difendersi dal phishing</a></div>
</div>
<div class='wrap'><div class='box'><h2>Newsletter</h2><p>Ricevi consigli su risparmio e investimenti.</p>
<input type='text' placeholder='La tua email' aria-label='Email newsletter' style='width:300px'> <button class='btn sec' type='button'>Iscriviti</button></div></div>
"""

CMP_HTML = """
<div id="cmp-root">
 <div class="cmp-bar" id="cmp-layer1" role="dialog" aria-label="Informativa cookie">
  <p><b>Questo sito utilizza cookie</b><br>Banca Valdora e terze parti selezionate utilizzano cookie tecnici e, previo tuo consenso,
  cookie di statistica, marketing e profilazione per offrirti un'esperienza personalizzata. Puoi scegliere quali cookie attivare in ogni momento.
  Consulta la <a href="/info/cookie-policy">cookie policy</a>.</p>
  <button class="btn sec" type="button" id="cmp-customize">Personalizza</button>
  <button class="btn" type="button" id="cmp-accept-all">Accetta tutto</button>
 </div>
 <div class="cmp-pref" id="cmp-layer2" role="dialog" aria-modal="true" aria-label="Preferenze cookie">
  <div class="dlg"><h2 style="margin-top:0">Le tue preferenze sui cookie</h2>
   <div class="purp"><div><b>Cookie tecnici</b><p>Necessari al funzionamento del sito e dell'home banking.</p></div><span>Sempre attivi</span></div>
   <div class="purp"><div><b>Statistiche</b><p>Ci aiutano a capire come viene usato il sito.</p></div><input type="checkbox" data-p="statistiche" checked aria-label="Statistiche"></div>
   <div class="purp"><div><b>Marketing</b><p>Pubblicita' in linea con i tuoi interessi su siti terzi.</p></div><input type="checkbox" data-p="marketing" checked aria-label="Marketing"></div>
   <div class="purp"><div><b>Profilazione</b><p>Offerte personalizzate in base alle tue abitudini.</p></div><input type="checkbox" data-p="profilazione" checked aria-label="Profilazione"></div>
   <p style="display:flex;gap:10px;justify-content:flex-end;margin-top:18px">
    <button class="btn sec" type="button" id="cmp-reject-all">Rifiuta tutto</button>
    <button class="btn sec" type="button" id="cmp-save">Salva le mie scelte</button>
    <button class="btn" type="button" id="cmp-accept-all-2">Accetta tutto</button></p>
  </div>
 </div>
</div>
<script>
(function(){
 function send(choice, enabled){
  fetch('/consent',{method:'POST',headers:{'Content-Type':'application/json'},body:JSON.stringify({choice:choice,enabled:enabled||[]})})
  .then(function(){var r=document.getElementById('cmp-root');if(r)r.parentNode.removeChild(r);});
 }
 document.getElementById('cmp-accept-all').onclick=function(){send('accept')};
 document.getElementById('cmp-accept-all-2').onclick=function(){send('accept')};
 document.getElementById('cmp-reject-all').onclick=function(){send('reject')};
 document.getElementById('cmp-customize').onclick=function(){document.getElementById('cmp-layer2').style.display='block';document.getElementById('cmp-layer1').style.display='none'};
 document.getElementById('cmp-save').onclick=function(){
  var on=[];document.querySelectorAll('#cmp-layer2 input[data-p]').forEach(function(c){if(c.checked)on.push(c.getAttribute('data-p'))});
  send('custom',on);
 };
})();
</script>
"""


def make_app():
    return App()
