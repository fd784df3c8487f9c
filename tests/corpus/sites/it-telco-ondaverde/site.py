"""OndaVerde Mobile - fixture imitating an Italian mobile/fixed telco customer area (MyOnda)."""
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


# ---------------------------------------------------------------- data
USER = {"email": "giulia.ferraris@postamail.it", "password": "Onda!Verde2026", "name": "Giulia Ferraris",
        "codice": "OV-5584127", "line": "347 218 5590"}

MONTHS_IT = ["gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto",
             "settembre", "ottobre", "novembre", "dicembre"]


def _build_docs():
    docs = []
    base = [27.99, 27.99, 31.48, 27.99, 29.47, 27.99, 34.99, 27.99, 27.99, 30.12, 27.99, 27.99]
    seq = {2024: 118230, 2025: 127104, 2026: 139871}
    for y in (2024, 2025, 2026):
        for m in range(1, 13):
            if y == 2026 and m == 12:
                break
            amt = base[m - 1] + (0 if y < 2026 else 2.00)  # price change 2026
            n = seq[y] + m * 731
            docs.append({"id": "FT-%d-%07d" % (y, n), "kind": "Fattura", "y": y, "m": m,
                         "date": "%d-%02d-06" % (y, m), "amount": round(amt, 2),
                         "period": "01/%02d/%d - %s" % (m, y, "fine mese")})
    docs.append({"id": "NC-2026-0004417", "kind": "Nota di credito", "y": 2026, "m": 5, "date": "2026-05-19",
                 "amount": -8.50, "period": "rimborso traffico"})
    docs.append({"id": "NC-2025-0003902", "kind": "Nota di credito", "y": 2025, "m": 9, "date": "2025-09-23",
                 "amount": -12.00, "period": "storno costo attivazione"})
    docs.sort(key=lambda d: d["date"], reverse=True)
    return docs


DOCS = _build_docs()


def it_date(iso):
    y, m, d = iso.split("-")
    return "%s/%s/%s" % (d, m, y)


def it_amount(a):
    s = "%.2f" % abs(a)
    ip, dp = s.split(".")
    g = ""
    while len(ip) > 3:
        g = "." + ip[-3:] + g
        ip = ip[:-3]
    return ("-" if a < 0 else "") + ip + g + "," + dp + " \u20ac"


# ---------------------------------------------------------------- layout
CSS = """
*{box-sizing:border-box}body{margin:0;font-family:Arial,Helvetica,sans-serif;color:#1d2b24;background:#f4f7f5}
a{color:#0a7a48}.top{background:#0d3b2a;color:#cfe;font-size:12px;padding:6px 24px;display:flex;gap:16px}
.top a{color:#cfe;text-decoration:none}.top .r{margin-left:auto;display:flex;gap:14px}
header{background:#fff;border-bottom:1px solid #dde;display:flex;align-items:center;padding:0 24px;height:68px;gap:26px}
.logo{font-weight:900;font-size:24px;color:#0a7a48;text-decoration:none}.logo span{color:#1d2b24}
nav.main{display:flex;gap:4px}nav.main>div{position:relative}nav.main>div>a{display:block;padding:24px 12px;color:#1d2b24;text-decoration:none;font-weight:600}
nav.main .mega{display:none;position:absolute;top:66px;left:0;background:#fff;box-shadow:0 8px 20px #0002;padding:18px;width:560px;z-index:20;columns:3}
nav.main>div:hover .mega{display:block}.mega a{display:block;padding:4px 0;color:#1d2b24;font-size:14px;text-decoration:none}
.hdr-r{margin-left:auto;display:flex;gap:12px;align-items:center}.btn{display:inline-block;padding:10px 18px;border-radius:22px;border:0;font-weight:700;cursor:pointer;text-decoration:none;font-size:14px}
.btn-g{background:#0a7a48;color:#fff}.btn-o{background:#fff;color:#0a7a48;border:2px solid #0a7a48}.btn-l{background:#eef;color:#334}
.hero{background:linear-gradient(120deg,#0a7a48,#15a86a);color:#fff;padding:60px 24px}.hero h1{font-size:40px;margin:0 0 10px}
.wrap{max-width:1180px;margin:0 auto;padding:24px}.cards{display:grid;grid-template-columns:repeat(4,1fr);gap:18px}
.card{background:#fff;border-radius:10px;padding:18px;box-shadow:0 2px 6px #0001}.card h3{margin-top:0}
.price{font-size:30px;font-weight:900;color:#0a7a48}footer{background:#0d3b2a;color:#cfe;padding:30px 24px;font-size:13px;margin-top:40px}
footer .cols{display:grid;grid-template-columns:repeat(5,1fr);gap:18px;max-width:1180px;margin:0 auto}footer a{color:#cfe;display:block;padding:3px 0;text-decoration:none}
footer h4{color:#fff}.legal{max-width:1180px;margin:20px auto 0;border-top:1px solid #2b5;padding-top:12px;opacity:.8}
.chat{position:fixed;right:20px;bottom:20px;background:#0a7a48;color:#fff;border-radius:30px;padding:12px 18px;font-weight:700;box-shadow:0 4px 12px #0004;z-index:30;cursor:pointer}
table{border-collapse:collapse;width:100%;background:#fff}th,td{padding:10px 12px;border-bottom:1px solid #e3e8e5;text-align:left;font-size:14px}th{background:#eef4f0}
.side{width:230px;background:#fff;border-radius:10px;padding:12px}.side a{display:block;padding:9px 10px;text-decoration:none;color:#1d2b24;border-radius:6px}.side a.on{background:#e2f3ea;font-weight:700}
.acc{display:flex;gap:22px;align-items:flex-start}.acc main{flex:1}.crumb{font-size:13px;color:#667;margin-bottom:12px}
.pager a,.pager span{display:inline-block;padding:6px 11px;margin:2px;border:1px solid #cdd;border-radius:4px;text-decoration:none}.pager .cur{background:#0a7a48;color:#fff}
.box{background:#fff;padding:28px;border-radius:10px;max-width:440px;margin:40px auto;box-shadow:0 2px 10px #0002}
.box input[type=text],.box input[type=email],.box input[type=password]{width:100%;padding:11px;border:1px solid #aab;border-radius:6px;font-size:15px;margin:6px 0 14px}
.err{background:#fde8e8;color:#a11;padding:10px;border-radius:6px;margin-bottom:12px}
.badge{font-size:12px;padding:3px 8px;border-radius:10px;background:#e2f3ea}.badge.nc{background:#fff1d6}
#iub-banner{position:fixed;left:0;right:0;bottom:0;background:#fff;box-shadow:0 -4px 18px #0003;padding:20px 28px;z-index:1000;display:flex;gap:20px;align-items:center;font-size:14px}
#iub-banner p{margin:0;flex:1}#iub-prefs{display:none;position:fixed;inset:0;background:#0008;z-index:1001}
#iub-prefs .pnl{background:#fff;max-width:620px;margin:6vh auto;border-radius:10px;padding:24px;max-height:86vh;overflow:auto}
.purp{border-bottom:1px solid #eee;padding:12px 0;display:flex;justify-content:space-between;gap:12px}.purp small{display:block;color:#667}
"""

MEGA = {
    "Mobile": ["Offerte Mobile", "Giga illimitati", "Passa a OndaVerde", "Ricaricabile", "Abbonamento", "eSIM", "Roaming UE",
               "Offerte Under 30", "Smartphone a rate", "Copertura 5G"],
    "Fibra e Casa": ["Fibra FTTH", "FWA wireless", "Modem Wi-Fi 7", "Telefono di casa", "Verifica copertura", "TV e streaming",
                     "Offerta Fibra + Mobile", "Trasloco linea"],
    "Smartphone": ["iPhone", "Samsung Galaxy", "Xiaomi", "Ricondizionati", "Accessori", "Smartwatch", "Tablet"],
    "Assistenza": ["Centro assistenza", "Stato della linea", "Come leggere la fattura", "Metodi di pagamento", "Configurare APN",
                   "Portabilità del numero", "Trova negozio", "Contatti", "Disdetta"],
}

FOOTER = {
    "OndaVerde": ["Chi siamo", "Lavora con noi", "Sala stampa", "Investitori", "Sostenibilità", "Fondazione OndaVerde"],
    "Offerte": ["Mobile", "Fibra", "Fibra + Mobile", "Smartphone", "Offerte Business", "Promo del mese", "Carta docente"],
    "Assistenza": ["Centro assistenza", "Ricarica online", "Trova negozio", "Stato spedizione", "Segnala un guasto",
                   "Trasparenza tariffaria", "Carta dei servizi"],
    "Servizi online": ["MyOnda - Area clienti", "App MyOnda", "MyMail - Webmail", "Area Business", "Area Partner"],
    "Legale": ["Privacy", "Cookie policy", "Note legali", "Accessibilità", "Condizioni generali", "Modello 231", "AGCOM"],
}
FOOTER_HREF = {"MyOnda - Area clienti": "/myonda/login", "MyMail - Webmail": "/mymail/", "Area Business": "/business/login",
               "Area Partner": "/business/login", "Cookie policy": "/cookie-policy"}


def slug(s):
    return "".join(c if c.isalnum() else "-" for c in s.lower()).strip("-")


CONSENT_HTML = """
<div id="iub-banner" role="dialog" aria-label="Informativa cookie">
  <p><b>Questo sito utilizza cookie.</b> Noi e terze parti selezionate utilizziamo cookie o tecnologie simili per finalità
  tecniche e, con il tuo consenso, anche per funzionalità, esperienza, misurazione e marketing (con annunci personalizzati)
  come specificato nella <a href="/cookie-policy">cookie policy</a>. Puoi liberamente prestare, rifiutare o revocare il tuo
  consenso, in qualsiasi momento.</p>
  <button class="btn btn-o iubenda-cs-customize-btn" type="button" onclick="iubOpen()">Personalizza</button>
  <button class="btn btn-g iubenda-cs-accept-btn" type="button" onclick="iubSend('accept')">Accetta tutto</button>
</div>
<div id="iub-prefs" aria-modal="true" role="dialog"><div class="pnl">
  <h2>Le tue preferenze relative alla privacy</h2>
  <p style="font-size:14px">Questo pannello ti permette di esprimere alcune preferenze relative al trattamento delle tue informazioni personali.</p>
  <div class="purp"><div><b>Necessari</b><small>Sempre attivi: sessione, sicurezza, carrello.</small></div><input type="checkbox" checked disabled></div>
  <div class="purp"><div><b>Funzionalità</b><small>Chat di assistenza, preferenze di lingua.</small></div><input type="checkbox" class="iubp" name="funzionalita" checked></div>
  <div class="purp"><div><b>Esperienza</b><small>Personalizzazione dei contenuti.</small></div><input type="checkbox" class="iubp" name="esperienza" checked></div>
  <div class="purp"><div><b>Misurazione</b><small>Statistiche di navigazione.</small></div><input type="checkbox" class="iubp" name="misurazione" checked></div>
  <div class="purp"><div><b>Marketing</b><small>Annunci personalizzati su siti terzi.</small></div><input type="checkbox" class="iubp" name="marketing" checked></div>
  <div style="display:flex;gap:10px;justify-content:flex-end;margin-top:18px">
    <button class="btn btn-l" type="button" onclick="iubSend('reject')">Rifiuta tutto</button>
    <button class="btn btn-o" type="button" onclick="iubSave()">Salva e continua</button>
    <button class="btn btn-g" type="button" onclick="iubSend('accept')">Accetta tutto</button>
  </div></div></div>
<script>
function iubOpen(){document.getElementById('iub-prefs').style.display='block';}
function iubDone(){var b=document.getElementById('iub-banner');b&&b.remove();var p=document.getElementById('iub-prefs');p&&p.remove();}
function iubPost(d){return fetch('/consent',{method:'POST',headers:{'Content-Type':'application/json'},body:JSON.stringify(d)}).then(iubDone);}
function iubSend(c){var all=[].map.call(document.querySelectorAll('.iubp'),function(x){return x.name});iubPost({choice:c,optional_enabled:c==='accept'?all:[]});}
function iubSave(){var on=[].filter.call(document.querySelectorAll('.iubp'),function(x){return x.checked}).map(function(x){return x.name});
 var all=document.querySelectorAll('.iubp').length;iubPost({choice:on.length===all?'accept':(on.length?'custom':'reject'),optional_enabled:on});}
</script>
"""


def layout(req, title, body, account=False):
    show_consent = "ov_consent" not in req.cookies
    mega = ""
    for k, items in MEGA.items():
        mega += '<div><a href="/%s">%s</a><div class="mega">%s</div></div>' % (
            slug(k), esc(k), "".join('<a href="/%s/%s">%s</a>' % (slug(k), slug(i), esc(i)) for i in items))
    foot = ""
    for k, items in FOOTER.items():
        foot += "<div><h4>%s</h4>%s</div>" % (esc(k), "".join(
            '<a href="%s">%s</a>' % (FOOTER_HREF.get(i, "/info/" + slug(i)), esc(i)) for i in items))
    if account:
        right = '<span style="font-size:14px">Ciao, <b>Giulia</b></span><a class="btn btn-o" href="/myonda/logout">Esci</a>'
    else:
        right = ('<a href="/ricarica" class="btn btn-l">Ricarica</a>'
                 '<a href="/mymail/" class="btn btn-l" title="Accedi alla webmail MyMail">Accedi a MyMail</a>'
                 '<a href="/myonda/login" class="btn btn-g" id="hdr-login">MyOnda</a>')
    return """<!doctype html><html lang="it"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>%s | OndaVerde</title><style>%s</style></head><body>
<div class="top"><a href="/"><b>Privati</b></a><a href="/business">Business</a><a href="/info/chi-siamo">Chi siamo</a>
<div class="r"><a href="/negozi">Trova negozio</a><a href="/assistenza">Assistenza</a><a href="/?lang=en">EN</a></div></div>
<header><a class="logo" href="/">Onda<span>Verde</span></a><nav class="main">%s</nav><div class="hdr-r">%s</div></header>
%s
<footer><div class="cols">%s</div><div class="legal">© 2026 OndaVerde Telecomunicazioni S.p.A. - P.IVA 09876540967 - Sede legale Via dei Mille 42, 20121 Milano</div></footer>
<div class="chat" onclick="alert('La chat sarà disponibile a breve')">💬 Chatta con Onda</div>
%s</body></html>""" % (esc(title), CSS, mega, right, body, foot, CONSENT_HTML if show_consent else "")


def home(req):
    offers = [("Onda 150 5G", "150 Giga, minuti e SMS illimitati", "7,99"), ("Onda Unlimited", "Giga illimitati in 5G", "14,99"),
              ("Fibra 2.5 Giga", "Modem Wi-Fi 7 incluso", "24,90"), ("Fibra + Mobile", "Sconto 5 € al mese", "27,99")]
    cards = "".join('<div class="card"><h3>%s</h3><p>%s</p><div class="price">%s €<small>/mese</small></div>'
                    '<a class="btn btn-g" href="/offerte/%s">Scopri</a></div>' % (a, b, c, slug(a)) for a, b, c in offers)
    helps = ["Come attivare la eSIM", "Come leggere la fattura OndaVerde", "Cambiare metodo di pagamento", "Configurare la segreteria",
             "Attivare il roaming", "Bloccare la SIM smarrita", "Richiedere la portabilità", "Recuperare la password MyOnda",
             "Velocità della fibra: test", "Disattivare i servizi a pagamento", "Domiciliazione bancaria", "Trasparenza e tariffe"]
    hl = "".join('<li><a href="/assistenza/%s">%s</a></li>' % (slug(h), h) for h in helps)
    body = """<section class="hero"><div class="wrap"><h1>Il 5G che rispetta l'ambiente</h1>
<p>Rete alimentata al 100%% da energia rinnovabile. Passa a OndaVerde e tieni il tuo numero.</p>
<a class="btn btn-o" href="/offerte">Vedi le offerte</a> <a class="btn btn-l" href="/verifica-copertura">Verifica copertura</a></div></section>
<div class="wrap"><h2>Offerte in evidenza</h2><div class="cards">%s</div>
<div class="cards" style="grid-template-columns:2fr 1fr;margin-top:26px">
<div class="card"><h3>Hai bisogno di aiuto?</h3><ul style="columns:2">%s</ul></div>
<div class="card"><h3>Già cliente?</h3><p>Gestisci linea, offerte e fatture dall'area clienti MyOnda o dall'app.</p>
<p style="font-size:13px">Cerchi la tua casella di posta @ondaverde.it? Vai su <a href="/mymail/">MyMail</a>.</p>
<h3>Newsletter</h3><form action="/newsletter" method="post"><input type="email" name="email" placeholder="La tua email" style="padding:8px;width:70%%">
<button class="btn btn-g" type="submit">Iscriviti</button></form></div></div></div>""" % (cards, hl)
    return layout(req, "Offerte mobile e fibra", body)


def login_page(req, step, err=""):
    e = '<div class="err" role="alert">%s</div>' % esc(err) if err else ""
    if step == 1:
        form = """<h1>Accedi a MyOnda</h1><p>Inserisci l'email o il numero di cellulare con cui ti sei registrato.</p>%s
<form method="post" action="/myonda/login"><label for="uid">Email o numero di cellulare</label>
<input type="text" id="uid" name="identifier" autocomplete="username" value="%s">
<button class="btn btn-g" type="submit" style="width:100%%">Continua</button></form>
<p style="font-size:13px">Non sei ancora registrato? <a href="/myonda/registrati">Registrati a MyOnda</a></p>
<p style="font-size:13px">Sei un cliente Business? <a href="/business/login">Accedi all'Area Business</a></p>""" % (e, esc(req.form.get("identifier", "")))
    else:
        form = """<h1>Inserisci la password</h1><p>Stai accedendo come <b>%s</b> <a href="/myonda/login">Cambia</a></p>%s
<form method="post" action="/myonda/password"><label for="pwd">Password</label>
<input type="password" id="pwd" name="password" autocomplete="current-password">
<label style="font-size:14px"><input type="checkbox" name="remember" value="1"> Ricordami su questo dispositivo</label><br><br>
<button class="btn btn-g" type="submit" style="width:100%%">Accedi</button></form>
<p style="font-size:13px"><a href="/myonda/recupera">Password dimenticata?</a></p>""" % (esc(step), e)
    return layout(req, "Accedi", '<div class="box">%s</div>' % form)


def acc_layout(req, active, body):
    items = [("Riepilogo", "/myonda/"), ("Le mie linee", "/myonda/linee"), ("Fatture e pagamenti", "/myonda/fatture"),
             ("Ricariche e traffico", "/myonda/traffico"), ("Offerte per te", "/myonda/offerte"), ("Profilo e privacy", "/myonda/profilo")]
    side = "".join('<a href="%s"%s>%s</a>' % (h, ' class="on"' if n == active else "", n) for n, h in items)
    return layout(req, active + " - MyOnda", '<div class="wrap"><div class="acc"><aside class="side">%s</aside><main>%s</main></div></div>' % (side, body), account=True)


def dashboard(req):
    last = [d for d in DOCS if d["kind"] == "Fattura"][:3]
    rows = "".join("<tr><td>%s</td><td>%s</td><td>%s</td><td><span class='badge'>Pagata</span></td></tr>" % (
        d["id"], it_date(d["date"]), it_amount(d["amount"])) for d in last)
    body = """<div class="crumb"><a href="/">Home</a> › MyOnda › Riepilogo</div><h1>Ciao Giulia!</h1>
<div class="cards" style="grid-template-columns:repeat(3,1fr)"><div class="card"><h3>Linea %s</h3><p>Onda Unlimited 5G</p><p>Giga: <b>illimitati</b></p></div>
<div class="card"><h3>Prossima fattura</h3><p>Emissione prevista 06/12/2026</p></div><div class="card"><h3>Metodo di pagamento</h3><p>Addebito SEPA su IT**0471</p></div></div>
<div class="card" style="margin-top:20px"><h3>Ultime fatture</h3><table><tr><th>Numero</th><th>Data</th><th>Importo</th><th>Stato</th></tr>%s</table>
<p><a href="/myonda/fatture" class="btn btn-o">Vedi tutte le fatture</a></p></div>""" % (USER["line"], rows)
    return acc_layout(req, "Riepilogo", body)


PER_PAGE = 8


def invoices(req):
    try:
        p = max(1, int(req.q.get("page", "1")))
    except ValueError:
        p = 1
    pages = (len(DOCS) + PER_PAGE - 1) // PER_PAGE
    p = min(p, pages)
    chunk = DOCS[(p - 1) * PER_PAGE:p * PER_PAGE]
    rows = ""
    for d in chunk:
        nc = d["kind"] != "Fattura"
        rows += ('<tr class="doc-row"><td class="num">%s</td><td><span class="badge%s">%s</span></td><td class="dt">%s</td>'
                 '<td>%s</td><td class="amt">%s</td><td>%s</td><td><a href="/myonda/fatture/%s.pdf">PDF</a></td></tr>') % (
            d["id"], " nc" if nc else "", d["kind"], it_date(d["date"]), esc(d["period"]), it_amount(d["amount"]),
            "Rimborsata" if nc else "Pagata", d["id"])
    pg = ""
    if p > 1:
        pg += '<a href="?page=%d" rel="prev">‹ Precedente</a>' % (p - 1)
    for i in range(1, pages + 1):
        pg += '<span class="cur">%d</span>' % i if i == p else '<a href="?page=%d">%d</a>' % (i, i)
    if p < pages:
        pg += '<a href="?page=%d" rel="next" class="next">Successiva ›</a>' % (p + 1)
    body = """<div class="crumb"><a href="/">Home</a> › <a href="/myonda/">MyOnda</a> › Fatture e pagamenti</div>
<h1>Fatture e pagamenti</h1><p>Qui trovi le fatture e le note di credito degli ultimi 3 anni. Documenti: %d.</p>
<table id="fatture"><thead><tr><th>Numero documento</th><th>Tipo</th><th>Data emissione</th><th>Periodo</th><th>Importo</th><th>Stato</th><th></th></tr></thead>
<tbody>%s</tbody></table><div class="pager" aria-label="Paginazione">%s</div><p style="font-size:13px">Pagina %d di %d</p>""" % (
        len(DOCS), rows, pg, p, pages)
    return acc_layout(req, "Fatture e pagamenti", body)


# ---------------------------------------------------------------- app
class App:
    def __init__(self):
        self.events = []
        self._lock = threading.Lock()
        self.sessions = {}   # sid -> {"user":..., "pending":...}

    def log(self, ev):
        with self._lock:
            self.events.append(ev)

    def __call__(self, env, start_response):
        req = Req(env)
        try:
            status, headers, body = self.route(req)
        except Exception as e:  # pragma: no cover
            status, headers, body = "500 Internal Server Error", [("Content-Type", "text/plain")], ("error: %s" % e).encode()
        if isinstance(body, str):
            body = body.encode("utf-8")
        headers.append(("Content-Length", str(len(body))))
        start_response(status, headers)
        return [body]

    def html(self, s, status="200 OK", cookies=()):
        return status, [("Content-Type", "text/html; charset=utf-8")] + [("Set-Cookie", c) for c in cookies], s

    def redirect(self, loc, cookies=()):
        return "302 Found", [("Location", loc)] + [("Set-Cookie", c) for c in cookies], b""

    def sess(self, req):
        return self.sessions.get(req.cookies.get("OVSESSID", ""))

    def new_sess(self, data):
        sid = secrets.token_hex(16)
        self.sessions[sid] = data
        return sid

    def route(self, req):
        p = req.path
        if p == "/consent" and req.method == "POST":
            d = req.json or {}
            choice = d.get("choice") if d.get("choice") in ("accept", "reject", "custom") else "reject"
            on = [x for x in (d.get("optional_enabled") or []) if isinstance(x, str)]
            self.log({"kind": "consent", "choice": choice, "optional_enabled": on})
            return "200 OK", [("Content-Type", "application/json"),
                              ("Set-Cookie", "ov_consent=%s; Path=/; Max-Age=15552000" % choice)], b'{"ok":true}'
        if p == "/":
            return self.html(home(req))
        if p == "/myonda/login":
            if req.method == "POST":
                ident = req.form.get("identifier", "").strip()
                ok = ident.lower() == USER["email"] or ident.replace(" ", "") == USER["line"].replace(" ", "")
                self.log({"kind": "credential", "form": "myonda-identifier", "target": "account", "username": ident, "ok": ok})
                if not ok:
                    return self.html(login_page(req, 1, "Non troviamo un account MyOnda associato a questo dato."))
                sid = self.new_sess({"pending": ident})
                return self.redirect("/myonda/password", ["OVSESSID=%s; Path=/; HttpOnly" % sid])
            return self.html(login_page(req, 1))
        if p == "/myonda/password":
            s = self.sess(req)
            if not s or not s.get("pending"):
                return self.redirect("/myonda/login")
            if req.method == "POST":
                pw = req.form.get("password", "")
                ok = pw == USER["password"]
                self.log({"kind": "credential", "form": "myonda-password", "target": "account", "username": s["pending"], "ok": ok})
                if not ok:
                    return self.html(login_page(req, s["pending"], "Password non corretta. Riprova."))
                s["user"] = USER["email"]
                return self.redirect("/myonda/")
            return self.html(login_page(req, s["pending"]))
        if p in ("/mymail/", "/mymail", "/business/login", "/myonda/registrati"):
            return self.decoy(req)
        if p.startswith("/myonda/"):
            s = self.sess(req)
            if not s or not s.get("user"):
                return self.redirect("/myonda/login")
            if p == "/myonda/logout":
                self.sessions.pop(req.cookies.get("OVSESSID"), None)
                return self.redirect("/")
            if p == "/myonda/":
                return self.html(dashboard(req))
            if p == "/myonda/fatture":
                return self.html(invoices(req))
            if p.startswith("/myonda/fatture/") and p.endswith(".pdf"):
                did = p.rsplit("/", 1)[1][:-4]
                d = next((x for x in DOCS if x["id"] == did), None)
                if not d:
                    return self.html("Documento non trovato", "404 Not Found")
                self.log({"kind": "download", "path": p})
                return "200 OK", [("Content-Type", "application/pdf"),
                                  ("Content-Disposition", 'inline; filename="%s.pdf"' % did)], _pdf(
                    "OndaVerde - " + d["kind"], ["Numero: " + d["id"], "Data: " + it_date(d["date"]),
                                                 "Importo: EUR %.2f" % d["amount"], "Cliente: " + USER["name"]])
            return self.html(acc_layout(req, "Riepilogo", "<h1>Sezione in manutenzione</h1><p>Riprova più tardi.</p>"))
        if p == "/cookie-policy":
            return self.html(layout(req, "Cookie policy", '<div class="wrap"><h1>Cookie policy</h1><p>Informativa estesa sui cookie.</p></div>'))
        return self.html(layout(req, "OndaVerde", '<div class="wrap"><h1>%s</h1><p>Contenuti in arrivo.</p></div>' % esc(p.strip("/").split("/")[-1].replace("-", " ").capitalize() or "Pagina")))

    def decoy(req_self, req):
        names = {"/mymail/": ("mymail-webmail", "MyMail - la tua posta @ondaverde.it", "Indirizzo email @ondaverde.it", "Accedi a MyMail"),
                 "/mymail": ("mymail-webmail", "MyMail - la tua posta @ondaverde.it", "Indirizzo email @ondaverde.it", "Accedi a MyMail"),
                 "/business/login": ("area-business", "Area Business - Login", "Partita IVA o username aziendale", "Login Business"),
                 "/myonda/registrati": ("registrazione", "Registrati a MyOnda", "Email", "Crea account")}
        form, title, lab, btn = names[req.path]
        err = ""
        if req.method == "POST":
            u = req.form.get("username", "")
            req_self.log({"kind": "credential", "form": form, "target": "decoy", "username": u, "ok": False})
            err = '<div class="err">Credenziali non valide.</div>'
        body = """<div class="box"><h1>%s</h1>%s<form method="post"><label>%s<input type="text" name="username"></label>
<label>Password<input type="password" name="password"></label><button class="btn btn-g" type="submit">%s</button></form></div>""" % (title, err, lab, btn)
        return req_self.html(layout(req, title, body))


def make_app():
    return App()
