"""Serena Assicurazioni - fixture imitating an Italian insurer customer area (Area riservata)."""
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
    s = "{:,.2f}".format(a).replace(",", "X").replace(".", ",").replace("X", ".")
    return "€ " + s


# ---------------------------------------------------------------- data
USER = {"cf": "BNCLRA79D52L219K", "password": "Serena.2026!", "name": "Laura Bianchi"}

POLICIES = [
    {"n": "AU-0093317245", "prod": "Serena Auto", "obj": "Fiat 500 Hybrid - targa GK 412 RT", "start": "2019-04-15", "freq": "Semestrale"},
    {"n": "CA-0041208876", "prod": "Serena Casa & Famiglia", "obj": "Via Po 18, Torino", "start": "2021-06-01", "freq": "Annuale"},
    {"n": "SA-0007731902", "prod": "Serena Salute Plus", "obj": "Nucleo familiare (3 assicurati)", "start": "2025-01-01", "freq": "Mensile"},
]


def _build_receipts():
    r = []
    k = 11020
    def add(pol, date, amt, kind="Quietanza di pagamento"):
        nonlocal k
        k += 137
        r.append({"id": "Q-%s/%06d" % (date[:4], k), "pol": pol, "date": date, "amount": amt, "kind": kind})
    for y in (2024, 2025, 2026):
        add("AU-0093317245", "%d-04-15" % y, {2024: 398.40, 2025: 405.10, 2026: 412.80}[y])
        add("CA-0041208876", "%d-06-01" % y, {2024: 226.00, 2025: 231.50, 2026: 238.00}[y])
        add("AU-0093317245", "%d-10-15" % y, {2024: 398.40, 2025: 405.10, 2026: 412.80}[y])
    for y in (2025, 2026):
        for m in range(1, 13):
            if y == 2026 and m == 12:
                break
            add("SA-0007731902", "%d-%02d-05" % (y, m), 61.40 if y == 2025 else 64.90)
    r.sort(key=lambda x: x["date"], reverse=True)
    return r


RECEIPTS = _build_receipts()
COMMS = [("2026-11-10", "Avviso di scadenza - Serena Auto AU-0093317245", "AV-2026-88123"),
         ("2026-09-30", "Estratto conto annuale polizza Salute", "EC-2026-00412"),
         ("2026-05-02", "Avviso di scadenza - Serena Casa & Famiglia", "AV-2026-40551"),
         ("2026-03-01", "Comunicazione variazione premio 2026", "CV-2026-00077"),
         ("2025-11-08", "Avviso di scadenza - Serena Auto", "AV-2025-80410")]

# ---------------------------------------------------------------- pages
CSS = """
*{box-sizing:border-box}body{margin:0;font-family:'Helvetica Neue',Arial,sans-serif;color:#17324d;background:#f5f7fa}
a{color:#0059b3}.util{background:#e9eef4;font-size:12px;padding:6px 30px;display:flex;gap:18px}.util a{color:#17324d;text-decoration:none}.util .r{margin-left:auto;display:flex;gap:16px}
header{background:#fff;display:flex;align-items:center;padding:0 30px;height:74px;gap:30px;box-shadow:0 1px 4px #0001}
.logo{font-family:Georgia,serif;font-size:26px;color:#004a8f;text-decoration:none;font-weight:bold}.logo i{color:#f0a500}
header nav{display:flex;gap:20px}header nav a{color:#17324d;text-decoration:none;font-weight:600;font-size:15px}
.hr{margin-left:auto;display:flex;gap:10px}.btn{display:inline-block;padding:10px 18px;border-radius:4px;border:1px solid #004a8f;font-weight:700;text-decoration:none;cursor:pointer;font-size:14px;background:#fff;color:#004a8f}
.btn.pri{background:#004a8f;color:#fff}.btn.gold{background:#f0a500;border-color:#f0a500;color:#17324d}
.hero{background:#004a8f;color:#fff;padding:56px 30px}.hero h1{font-size:38px;margin:0 0 8px}.wrap{max-width:1140px;margin:0 auto;padding:26px}
.grid{display:grid;grid-template-columns:repeat(4,1fr);gap:16px}.card{background:#fff;padding:18px;border-radius:6px;box-shadow:0 1px 5px #0001}
footer{background:#0c2440;color:#b8c7d9;padding:30px;font-size:13px;margin-top:40px}footer .cols{display:grid;grid-template-columns:repeat(5,1fr);gap:18px;max-width:1140px;margin:auto}
footer a{display:block;color:#b8c7d9;text-decoration:none;padding:3px 0}footer h4{color:#fff;margin:0 0 8px}
#cc-box{position:fixed;left:50%;bottom:24px;transform:translateX(-50%);width:min(760px,94vw);background:#fff;border-radius:8px;box-shadow:0 6px 30px #0004;padding:22px 26px;z-index:999;font-size:14px}
#cc-box .cc-x{position:absolute;top:8px;right:10px;background:none;border:0;font-size:20px;line-height:1;cursor:pointer;color:#445}
#cc-box .acts{display:flex;gap:12px;justify-content:flex-end;margin-top:12px}
.box{background:#fff;max-width:460px;margin:40px auto;padding:30px;border-radius:6px;box-shadow:0 1px 8px #0002}.box input[type=text],.box input[type=password]{width:100%;padding:11px;margin:6px 0 14px;border:1px solid #9ab;border-radius:4px;font-size:15px}
.err{background:#fdecea;color:#8a1c10;padding:10px;margin-bottom:12px;border-left:4px solid #c62}
.acc{display:flex;gap:22px}.side{width:240px;background:#fff;border-radius:6px;padding:10px;align-self:flex-start}.side a{display:block;padding:10px;color:#17324d;text-decoration:none}.side a.on{background:#e6f0fa;font-weight:700;border-left:3px solid #004a8f}
.tabs{display:flex;border-bottom:2px solid #dde5ee;margin-bottom:16px}.tabs a{padding:10px 18px;text-decoration:none;color:#17324d}.tabs a.on{border-bottom:3px solid #004a8f;font-weight:700}
.q{background:#fff;border:1px solid #dde5ee;border-radius:6px;margin-bottom:8px}.q>button{width:100%;text-align:left;background:none;border:0;padding:14px 16px;font-size:15px;cursor:pointer;display:flex;gap:20px}
.q>button:after{content:'\\25BE';margin-left:auto}.q .body{padding:0 16px 14px 16px;font-size:14px}.q .body dl{display:grid;grid-template-columns:180px 1fr;gap:6px;margin:0}
.crumb{font-size:13px;color:#567;margin-bottom:10px}.chat{position:fixed;right:18px;bottom:18px;background:#f0a500;border-radius:24px;padding:12px 16px;font-weight:700;z-index:50}
"""

MENU = {"Auto e Moto": ["Assicurazione Auto", "Assicurazione Moto", "Preventivo RC Auto", "Furto e incendio", "Assistenza stradale", "Scatola nera"],
        "Casa e Famiglia": ["Assicurazione Casa", "Responsabilità civile", "Animali domestici", "Viaggi", "Infortuni"],
        "Salute": ["Serena Salute Plus", "Dentale", "Long Term Care", "Rete convenzionata"],
        "Risparmio": ["Piani di accumulo", "Polizze vita", "Previdenza complementare", "Fondo pensione Serena"]}
FOOT = {"Prodotti": ["Auto", "Moto", "Casa", "Salute", "Viaggi", "Vita", "Previdenza", "Imprese"],
        "Assistenza": ["Denuncia un sinistro", "Trova agenzia", "Numeri utili", "Reclami", "FAQ", "Paga online la polizza", "Modulistica"],
        "Gruppo": ["Chi siamo", "Bilanci", "Sostenibilità", "Lavora con noi", "Stampa", "Governance"],
        "Accesso": ["Area riservata clienti", "Area Agenti", "Area Broker", "Registrati", "App Serena"],
        "Informazioni": ["Privacy", "Cookie policy", "Note legali", "Accessibilità", "IVASS", "Whistleblowing", "Set informativi"]}
FOOT_HREF = {"Area riservata clienti": "/area-riservata/login", "Area Agenti": "/agenti/login", "Area Broker": "/agenti/login",
             "Registrati": "/area-riservata/registrazione", "Paga online la polizza": "/paga-online"}


def banner(req):
    if "srn_cc" in req.cookies:
        return ""
    return """<div id="cc-box" role="dialog" aria-label="Informativa sui cookie">
<button class="cc-x" type="button" aria-label="Chiudi" title="Chiudi e continua senza accettare" onclick="ccSend('reject',[])">✕</button>
<b>Informativa</b><p>Noi e terze parti selezionate utilizziamo cookie o tecnologie simili per finalità tecniche e, con il tuo consenso,
per altre finalità (misurazione, marketing personalizzato) come specificato nella <a href="/cookie-policy">cookie policy</a>.
Chiudendo questo banner con la X continui la navigazione in assenza di cookie o altri strumenti di tracciamento diversi da quelli tecnici.</p>
<div class="acts"><button class="btn" type="button" onclick="document.getElementById('cc-more').style.display='block'">Scopri di più e personalizza</button>
<button class="btn pri" type="button" onclick="ccSend('accept',['misurazione','marketing'])">Accetta</button></div>
<div id="cc-more" style="display:none;border-top:1px solid #eee;margin-top:12px;padding-top:10px">
<label><input type="checkbox" checked disabled> Tecnici (necessari)</label><br><label><input type="checkbox" class="ccp" value="misurazione" checked> Misurazione</label><br>
<label><input type="checkbox" class="ccp" value="marketing" checked> Marketing</label><br>
<button class="btn" type="button" onclick="var on=[].filter.call(document.querySelectorAll('.ccp'),function(x){return x.checked}).map(function(x){return x.value});ccSend(on.length==2?'accept':(on.length?'custom':'reject'),on)">Salva preferenze</button></div></div>
<script>function ccSend(c,on){fetch('/cc/consent',{method:'POST',headers:{'Content-Type':'application/x-www-form-urlencoded'},body:'choice='+c+'&enabled='+on.join(',')}).then(function(){document.getElementById('cc-box').remove();});}</script>"""


def layout(req, title, body, logged=False):
    nav = "".join('<a href="/%s">%s</a>' % (slug(k), esc(k)) for k in MENU)
    foot = "".join("<div><h4>%s</h4>%s</div>" % (k, "".join('<a href="%s">%s</a>' % (FOOT_HREF.get(i, "/info/" + slug(i)), esc(i)) for i in v)) for k, v in FOOT.items())
    right = ('<a class="btn" href="/area-riservata/logout">Esci</a>' if logged else
             '<a class="btn" href="/agenti/login">Area Agenti</a><a class="btn pri" href="/area-riservata/login">Area riservata</a>')
    return """<!doctype html><html lang="it"><head><meta charset="utf-8"><title>%s - Serena Assicurazioni</title><style>%s</style></head><body>
<div class="util"><a href="/">Privati</a><a href="/imprese">Imprese</a><a href="/agenzie">Trova agenzia</a><div class="r"><a href="/paga-online">Paga online</a><a href="/sinistri">Denuncia sinistro</a><a href="/contatti">800 123 456</a></div></div>
<header><a class="logo" href="/">Serena<i>.</i></a><nav>%s</nav><div class="hr">%s</div></header>%s
<footer><div class="cols">%s</div><p style="max-width:1140px;margin:20px auto 0">Serena Assicurazioni S.p.A. - Capitale sociale € 120.000.000 i.v. - Iscritta all'Albo imprese IVASS n. 1.00231 - P.IVA 04455660011</p></footer>
<div class="chat">Serena risponde</div>%s</body></html>""" % (esc(title), CSS, nav, right, body, foot, banner(req))


def home(req):
    prods = [("Auto", "Preventivo in 2 minuti, sconto 15% online"), ("Casa", "Proteggi casa e famiglia"), ("Salute", "Visite e ricoveri in rete convenzionata"), ("Viaggi", "Annullamento e spese mediche")]
    cards = "".join('<div class="card"><h3>%s</h3><p>%s</p><a href="/%s/preventivo">Fai un preventivo</a></div>' % (a, b, slug(a)) for a, b in prods)
    news = ["Grandine: come denunciare il sinistro", "Detrazione fiscale delle polizze salute", "Nuova app Serena: firma digitale", "Bonus-malus: come funziona",
            "Carta verde per l'estero", "Scatola nera: risparmia fino al 20%", "Attestato di rischio online", "Rinnovo polizza: cosa sapere"]
    nl = "".join('<li><a href="/magazine/%s">%s</a></li>' % (slug(x), esc(x)) for x in news)
    body = """<section class="hero"><h1>Sereni, ogni giorno.</h1><p>Assicurazioni per auto, casa, salute e risparmio. Oltre 900 agenzie in Italia.</p>
<a class="btn gold" href="/auto/preventivo">Calcola il preventivo</a> <a class="btn" style="background:transparent;color:#fff;border-color:#fff" href="/paga-online">Paga la polizza senza registrarti</a></section>
<div class="wrap"><div class="grid">%s</div><div class="grid" style="grid-template-columns:2fr 1fr;margin-top:20px"><div class="card"><h3>Serena Magazine</h3><ul style="columns:2">%s</ul></div>
<div class="card"><h3>Sei già cliente?</h3><p>Nell'Area riservata trovi polizze, quietanze e comunicazioni.</p><a class="btn pri" href="/area-riservata/login">Accedi</a> <a class="btn" href="/area-riservata/registrazione">Registrati</a></div></div></div>""" % (cards, nl)
    return layout(req, "Assicurazioni auto, casa e salute", body)


def login(req, err=""):
    e = '<div class="err" role="alert">%s</div>' % err if err else ""
    body = """<div class="crumb" style="max-width:460px;margin:20px auto 0"><a href="/">Home</a> › Area riservata</div><div class="box"><h1>Accedi all'Area riservata</h1>%s
<form method="post" action="/area-riservata/login"><label for="cf">Codice fiscale</label><input type="text" id="cf" name="codiceFiscale" maxlength="16" autocomplete="username" value="%s">
<label for="pw">Password</label><input type="password" id="pw" name="password" autocomplete="current-password">
<label><input type="checkbox" name="ricordami"> Ricordami</label><br><br><button class="btn pri" type="submit" style="width:100%%">Accedi</button></form>
<p style="font-size:13px"><a href="/area-riservata/recupero">Hai dimenticato la password?</a></p><hr><p style="font-size:13px">Non hai ancora un account? <a href="/area-riservata/registrazione">Registrati</a><br>
Sei un agente o un broker? <a href="/agenti/login">Accedi all'Area Agenti</a></p></div>""" % (e, esc(req.form.get("codiceFiscale", "")))
    return layout(req, "Accedi", body)


def interstitial(req):
    body = """<div class="box" style="max-width:560px"><h1>Ciao Laura, bentornata</h1><p>Ti ricordiamo di verificare i tuoi recapiti: riceverai gli avvisi di scadenza via email.</p>
<p>Email: l.bianchi@***.it<br>Cellulare: +39 ***** 4471</p><p><a class="btn" href="/area-riservata/profilo">Modifica recapiti</a> <a class="btn pri" href="/area-riservata/home">Vai alla tua area</a></p></div>"""
    return layout(req, "Benvenuta", body, logged=True)


def acc(req, active, body):
    items = [("Home", "/area-riservata/home"), ("Le mie polizze", "/area-riservata/polizze"), ("I miei documenti", "/area-riservata/documenti"),
             ("Pagamenti", "/area-riservata/pagamenti"), ("Sinistri", "/area-riservata/sinistri"), ("Profilo", "/area-riservata/profilo")]
    side = "".join('<a href="%s"%s>%s</a>' % (h, ' class="on"' if n == active else "", esc(n)) for n, h in items)
    return layout(req, active, '<div class="wrap"><div class="acc"><nav class="side" aria-label="Area riservata">%s</nav><main style="flex:1">%s</main></div></div>' % (side, body), logged=True)


def area_home(req):
    pols = "".join('<div class="card"><b>%s</b><br>%s<br><small>Polizza n. %s</small></div>' % (esc(p["prod"]), esc(p["obj"]), p["n"]) for p in POLICIES)
    body = """<div class="crumb">Area riservata › Home</div><h1>Benvenuta nella tua area</h1><div class="grid" style="grid-template-columns:repeat(3,1fr)">%s</div>
<div class="card" style="margin-top:18px"><h3>Prossima scadenza</h3><p>Serena Salute Plus - rata del 05/12/2026 - € 64,90</p><a href="/area-riservata/documenti">Vai ai documenti</a></div>""" % pols
    return acc(req, "Home", body)


def documents(req):
    tab = req.q.get("tab", "polizze")
    tabs = [("polizze", "Contratti e condizioni"), ("quietanze", "Quietanze"), ("comunicazioni", "Comunicazioni")]
    tb = "".join('<a href="?tab=%s"%s>%s</a>' % (k, ' class="on" aria-current="page"' if k == tab else "", v) for k, v in tabs)
    if tab == "quietanze":
        items = ""
        for r in RECEIPTS:
            items += """<div class="q" data-id="%s"><button type="button" aria-expanded="false" onclick="qToggle(this)"><span>Quietanza <b class="qid">%s</b></span><span>Polizza %s</span><span>del <span class="qdate">%s</span></span></button>
<div class="body" hidden></div></div>""" % (r["id"], r["id"], r["pol"], it_date(r["date"]))
        content = """<p>Le quietanze attestano l'avvenuto pagamento del premio. Clicca su una quietanza per vederne il dettaglio.</p>%s
<script>function qToggle(b){var box=b.parentNode,body=box.querySelector('.body');var open=b.getAttribute('aria-expanded')==='true';
if(open){b.setAttribute('aria-expanded','false');body.hidden=true;return;}
b.setAttribute('aria-expanded','true');body.hidden=false;if(body.dataset.loaded)return;body.textContent='Caricamento...';
fetch('/area-riservata/api/quietanze/'+encodeURIComponent(box.dataset.id)).then(function(r){return r.json()}).then(function(d){body.dataset.loaded=1;
body.innerHTML='<dl><dt>Prodotto</dt><dd>'+d.prodotto+'</dd><dt>Data incasso</dt><dd class="paid">'+d.data+'</dd><dt>Importo pagato</dt><dd class="amt">'+d.importo+'</dd><dt>Mezzo di pagamento</dt><dd>'+d.mezzo+'</dd></dl><p><a href="'+d.pdf+'">Scarica quietanza (PDF)</a></p>';});}</script>""" % items
    elif tab == "comunicazioni":
        content = "<table style='width:100%;background:#fff'><tr><th>Data</th><th>Comunicazione</th><th>Protocollo</th></tr>" + "".join(
            "<tr><td>%s</td><td>%s</td><td>%s</td></tr>" % (it_date(d), esc(t), n) for d, t, n in COMMS) + "</table>"
    else:
        content = "".join('<div class="card" style="margin-bottom:10px"><b>%s</b> - Polizza n. %s<br>Frazionamento: %s<br><a href="/area-riservata/doc/%s.pdf">Condizioni di assicurazione</a> · <a href="/area-riservata/doc/%s-contratto.pdf">Contratto firmato</a></div>' % (
            esc(p["prod"]), p["n"], p["freq"], p["n"], p["n"]) for p in POLICIES)
    body = '<div class="crumb"><a href="/area-riservata/home">Area riservata</a> › I miei documenti</div><h1>I miei documenti</h1><nav class="tabs">%s</nav>%s' % (tb, content)
    return acc(req, "I miei documenti", body)


class App(BaseApp):
    COOKIE = "SERENA_SID"

    def route(self, req):
        p = req.path
        s = self.sess(req)
        if p == "/cc/consent" and req.method == "POST":
            on = [x for x in req.form.get("enabled", "").split(",") if x]
            c = self.consent_event(req.form.get("choice"), on)
            return self.json({"ok": True}, cookies=["srn_cc=%s; Path=/; Max-Age=15552000" % c])
        if p == "/":
            return self.html(home(req))
        if p == "/area-riservata/login":
            if req.method == "POST":
                u = req.form.get("codiceFiscale", "").strip()
                ok = u.upper() == USER["cf"] and req.form.get("password", "") == USER["password"]
                self.log({"kind": "credential", "form": "area-riservata", "target": "account", "username": u, "ok": ok})
                if not ok:
                    return self.html(login(req, "Codice fiscale o password non corretti."))
                sid = self.new_sess({"user": USER["cf"]})
                return self.redirect("/area-riservata/benvenuto", ["%s=%s; Path=/; HttpOnly" % (self.COOKIE, sid)])
            return self.html(login(req))
        if p in ("/agenti/login", "/area-riservata/registrazione", "/paga-online"):
            return self.decoy(req)
        if p.startswith("/area-riservata/"):
            if not s:
                return self.redirect("/area-riservata/login")
            if p == "/area-riservata/logout":
                self.sessions.pop(req.cookies.get(self.COOKIE), None)
                return self.redirect("/")
            if p == "/area-riservata/benvenuto":
                return self.html(interstitial(req))
            if p == "/area-riservata/home":
                return self.html(area_home(req))
            if p == "/area-riservata/documenti":
                return self.html(documents(req))
            if p.startswith("/area-riservata/api/quietanze/"):
                from urllib.parse import unquote
                qid = unquote(p[len("/area-riservata/api/quietanze/"):])
                r = next((x for x in RECEIPTS if x["id"] == qid), None)
                if not r:
                    return self.json({"error": "not found"}, "404 Not Found")
                pol = next(x for x in POLICIES if x["n"] == r["pol"])
                return self.json({"prodotto": pol["prod"], "data": it_date(r["date"]), "importo": eur(r["amount"]),
                                  "mezzo": "Addebito SDD" if pol["freq"] == "Mensile" else "Carta di credito", "pdf": "/area-riservata/doc/q/" + quote(qid, safe="") + ".pdf"})
            if p.startswith("/area-riservata/doc/"):
                self.log({"kind": "download", "path": p})
                return self.pdf("documento.pdf", _pdf("Serena Assicurazioni", ["Documento " + p.rsplit("/", 1)[1], "Contraente: Laura Bianchi"]))
            return self.html(acc(req, "Home", "<h1>Servizio momentaneamente non disponibile</h1>"))
        return self.html(layout(req, "Serena", '<div class="wrap"><h1>%s</h1><p>Pagina informativa.</p></div>' % esc(p.strip("/").split("/")[-1].replace("-", " ").capitalize() or "Pagina")))

    def decoy(self, req):
        cfg = {"/agenti/login": ("area-agenti", "Area Agenti e Broker", "Codice agente", "Accedi"),
               "/area-riservata/registrazione": ("registrazione", "Registrati all'Area riservata", "Codice fiscale", "Crea il tuo account"),
               "/paga-online": ("paga-online-guest", "Paga online senza registrarti", "Numero di polizza", "Procedi al pagamento")}
        form, title, lab, btn = cfg[req.path]
        err = ""
        if req.method == "POST":
            self.log({"kind": "credential", "form": form, "target": "decoy", "username": req.form.get("ident", ""), "ok": False})
            err = '<div class="err">Dati non riconosciuti.</div>'
        extra = '<label>Password<input type="password" name="password"></label>' if req.path != "/paga-online" else '<label>Codice fiscale del contraente<input type="text" name="cf"></label>'
        body = '<div class="box"><h1>%s</h1>%s<form method="post"><label>%s<input type="text" name="ident"></label>%s<button class="btn pri" type="submit">%s</button></form></div>' % (title, err, lab, extra, btn)
        return self.html(layout(req, title, body))


def make_app():
    return App()
