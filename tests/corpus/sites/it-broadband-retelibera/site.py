"""ReteLibera Fibra - fixture imitating an Italian FTTH/FWA broadband operator customer area."""
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
    s = "{:,.2f}".format(abs(a)).replace(",", "X").replace(".", ",").replace("X", ".")
    return ("-" if a < 0 else "") + s + " €"


# ---------------------------------------------------------------- data
USER = {"code": "RL0048213", "password": "Libera#Fibra24", "name": "Marco Esposito"}


def _build():
    out = []
    seq = {2024: 3990, 2025: 4100, 2026: 4230}
    for y in (2024, 2025, 2026):
        for m in range(1, 13):
            if y == 2026 and m == 12:
                break
            amt = {2024: 26.90, 2025: 28.90, 2026: 29.90}[y]
            if (y, m) == (2025, 1):
                amt += 49.00  # contributo attivazione rateizzato / modem
            if (y, m) in ((2025, 7), (2026, 3)):
                amt += 3.50  # spese spedizione fattura cartacea
            n = "%d/%06d" % (y, seq[y] * 10 + m * 7)
            end = "%d-%02d-%02d" % (y, m, [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1])
            out.append({"id": n, "kind": "Fattura", "date": "%d-%02d-10" % (y, m), "amount": round(amt, 2), "scad": "%d-%02d-25" % (y, m),
                        "per": "%s - %s" % (it_date("%d-%02d-01" % (y, m)), it_date(end))})
    out.append({"id": "NC/2026/000318", "kind": "Nota di credito", "date": "2026-02-16", "amount": -14.95, "scad": "", "per": "Indennizzo disservizio"})
    out.sort(key=lambda d: d["date"], reverse=True)
    return out


BILLS = _build()

# ---------------------------------------------------------------- pages
CSS = """
*{box-sizing:border-box}body{margin:0;font-family:Verdana,Arial,sans-serif;font-size:14px;color:#202124;background:#fff}
a{color:#e4572e}.top{background:#202124;color:#ddd;padding:6px 26px;font-size:12px;display:flex;gap:18px}.top a{color:#ddd;text-decoration:none}.top .r{margin-left:auto;display:flex;gap:14px}
header{display:flex;align-items:center;padding:0 26px;height:70px;gap:24px;border-bottom:3px solid #e4572e}.logo{font:bold 24px Verdana;color:#202124;text-decoration:none}.logo b{color:#e4572e}
header nav a{color:#202124;text-decoration:none;margin-right:14px;font-weight:bold;font-size:13px}.hr{margin-left:auto;display:flex;gap:10px}
.btn{display:inline-block;padding:9px 16px;border-radius:3px;border:1px solid #e4572e;color:#e4572e;background:#fff;text-decoration:none;font-weight:bold;cursor:pointer;font-size:13px}.btn.f{background:#e4572e;color:#fff}
.hero{background:#fbe9e3;padding:46px 26px;display:flex;gap:30px;align-items:center}.hero h1{font-size:36px;margin:0}
.wrap{max-width:1180px;margin:0 auto;padding:24px}.g{display:grid;grid-template-columns:repeat(4,1fr);gap:16px}.card{border:1px solid #e6e6e6;padding:16px;border-radius:4px;background:#fff}
.links{columns:4;font-size:13px}.links a{display:block;padding:3px 0;color:#333;text-decoration:none}
footer{background:#2b2b2b;color:#aaa;padding:30px 26px;font-size:12px;margin-top:30px}footer .cols{display:grid;grid-template-columns:repeat(6,1fr);gap:14px;max-width:1180px;margin:auto}footer a{display:block;color:#ccc;text-decoration:none;padding:2px 0}footer h4{color:#fff}
#cmp-frame{position:fixed;left:0;bottom:0;width:100%;height:190px;border:0;z-index:5000;box-shadow:0 -3px 14px #0003;background:#fff}
.box{max-width:430px;margin:40px auto;border:1px solid #ddd;padding:28px;border-radius:4px}.box input[type=text],.box input[type=password]{width:100%;padding:10px;margin:5px 0 12px;border:1px solid #999}
.err{background:#fdecea;color:#a52714;padding:10px;margin-bottom:10px}
.acc{display:flex;gap:22px}.side{width:220px;background:#f6f6f6;padding:8px}.side a{display:block;padding:9px;color:#202124;text-decoration:none}.side a.on{background:#e4572e;color:#fff}
table{width:100%;border-collapse:collapse}th,td{padding:9px;border-bottom:1px solid #e6e6e6;text-align:left}th{background:#f3f3f3}
.dt-pg button{padding:5px 10px;margin:1px;border:1px solid #ccc;background:#fff;cursor:pointer}.dt-pg button.cur{background:#e4572e;color:#fff;border-color:#e4572e}.dt-pg button:disabled{opacity:.4}
.crumb{font-size:12px;color:#777;margin-bottom:10px}.wa{position:fixed;right:18px;bottom:210px;background:#25a35a;color:#fff;padding:10px 14px;border-radius:20px;z-index:40}
"""

SECTIONS = {
    "Fibra": ["Fibra 1 Giga", "Fibra 2.5 Giga", "Fibra 10 Giga", "FWA Wireless", "Verifica copertura", "Mappa cantieri", "Tecnologia FTTH", "Modem incluso"],
    "Offerte": ["Fibra + Voce", "Fibra + Mobile", "Offerta Studenti", "Offerta Smart Working", "Porta un amico", "Offerte per seconde case", "Promo estate"],
    "Assistenza": ["Guida all'attivazione", "Configura il modem", "Stato attivazione", "Segnala un guasto", "Leggi la bolletta", "Pagamenti e domiciliazione",
                   "Cambio intestatario", "Trasloco", "Recesso", "Reclami e conciliazione", "Velocità e Ookla test", "FAQ"],
    "Azienda": ["Chi siamo", "La nostra rete", "Lavora con noi", "Comunicati stampa", "Carta dei servizi", "Trasparenza tariffaria", "Qualità del servizio"],
    "Per le imprese": ["Fibra Business", "Connettività dedicata", "Centralino cloud", "Area rivenditori"],
}
HREF = {"Area rivenditori": "/rivenditori/login"}


def layout(req, title, body, logged=False):
    foot = "".join("<div><h4>%s</h4>%s</div>" % (k, "".join('<a href="%s">%s</a>' % (HREF.get(i, "/%s/%s" % (slug(k), slug(i))), esc(i)) for i in v)) for k, v in SECTIONS.items())
    foot += '<div><h4>Seguici</h4><a href="/social/fb">Facebook</a><a href="/social/ig">Instagram</a><a href="/social/li">LinkedIn</a><a href="/privacy">Privacy</a><a href="/cookie">Cookie policy</a><a href="/cookie?prefs=1">Preferenze cookie</a></div>'
    right = ('<a class="btn" href="/area-clienti/esci">Esci</a>' if logged else
             '<a class="btn" href="/paga-bolletta">Paga senza registrarti</a><a class="btn f" href="/area-clienti/accesso">Area clienti</a>')
    cmp = "" if "rl_cmp" in req.cookies else '<iframe id="cmp-frame" src="/cmp/banner" title="Consenso cookie"></iframe><script>window.addEventListener("message",function(e){if(e.origin===location.origin&&e.data==="cmp-closed"){var f=document.getElementById("cmp-frame");f&&f.remove();}});</script>'
    return """<!doctype html><html lang="it"><head><meta charset="utf-8"><title>%s - ReteLibera Fibra</title><style>%s</style></head><body>
<div class="top"><a href="/">Casa</a><a href="/per-le-imprese">Imprese</a><a href="/assistenza">Assistenza</a><div class="r"><a href="/verifica-copertura">Verifica copertura</a><a href="/negozi">Punti vendita</a><a href="/tel">Chiamaci 800 55 11 22</a></div></div>
<header><a class="logo" href="/">Rete<b>Libera</b></a><nav><a href="/fibra">Fibra</a><a href="/offerte">Offerte</a><a href="/fibra/fwa-wireless">FWA</a><a href="/mobile">Mobile</a><a href="/assistenza">Assistenza</a><a href="/blog">Blog</a></nav><div class="hr">%s</div></header>
%s<footer><div class="cols">%s</div><p style="max-width:1180px;margin:20px auto 0">ReteLibera S.r.l. - Via Toledo 256, 80134 Napoli - P.IVA 08123450631 - Autorizzazione generale MIMIT n. 1244</p></footer>
<div class="wa">Scrivici su WhatsApp</div>%s</body></html>""" % (esc(title), CSS, right, body, foot, cmp)


def cmp_banner():
    return """<!doctype html><html lang="it"><head><meta charset="utf-8"><style>body{margin:0;font:13px Verdana,Arial;color:#222;padding:16px 26px}
.row{display:flex;gap:22px;align-items:flex-start}.row p{flex:1;margin:0 0 8px}button{padding:10px 16px;border-radius:3px;border:1px solid #e4572e;background:#fff;color:#e4572e;font-weight:bold;cursor:pointer;margin:3px}
button.all{background:#e4572e;color:#fff}#prefs{display:none}label{margin-right:16px}</style></head><body>
<div class="row"><p><b>Rispettiamo la tua privacy</b><br>Utilizziamo cookie tecnici e, previo consenso, cookie di profilazione e di terze parti per analizzare il traffico e mostrarti pubblicità in linea con le tue preferenze.
Puoi accettare tutti i cookie, accettare solo quelli necessari o scegliere quali abilitare. <a href="/cookie" target="_top">Cookie policy</a></p>
<div><button type="button" class="all" id="c-all">Accetta tutti</button><br><button type="button" id="c-nec">Accetta solo i necessari</button><br><button type="button" id="c-set">Impostazioni</button></div></div>
<div id="prefs"><label><input type="checkbox" checked disabled> Necessari</label><label><input type="checkbox" class="o" value="statistiche"> Statistiche</label><label><input type="checkbox" class="o" value="profilazione"> Profilazione</label><button type="button" id="c-save">Conferma</button></div>
<script>function send(c,on){fetch('/cmp/consent',{method:'POST',headers:{'Content-Type':'application/json'},body:JSON.stringify({choice:c,purposes:on})}).then(function(){parent.postMessage('cmp-closed',location.origin);});}
document.getElementById('c-all').onclick=function(){send('accept',['statistiche','profilazione'])};document.getElementById('c-nec').onclick=function(){send('reject',[])};
document.getElementById('c-set').onclick=function(){document.getElementById('prefs').style.display='block'};
document.getElementById('c-save').onclick=function(){var on=[].filter.call(document.querySelectorAll('.o'),function(x){return x.checked}).map(function(x){return x.value});send(on.length==2?'accept':(on.length?'custom':'reject'),on)};</script></body></html>"""


def home(req):
    cards = "".join('<div class="card"><h3>%s</h3><p>%s</p><b style="font-size:24px">%s €/mese</b><br><br><a class="btn f" href="/offerte/%s">Attiva online</a></div>' % (a, b, c, slug(a)) for a, b, c in [
        ("Fibra 1 Giga", "Modem Wi-Fi 6 incluso", "24,90"), ("Fibra 2.5 Giga", "Wi-Fi 7 + chiamate illimitate", "29,90"), ("FWA 300 Mega", "Dove la fibra non arriva", "22,90"), ("Fibra + Mobile", "100 Giga in 5G", "32,90")])
    many = []
    for k, v in SECTIONS.items():
        many += ['<a href="%s">%s</a>' % (HREF.get(i, "/%s/%s" % (slug(k), slug(i))), esc(i)) for i in v]
    guides = ["Come leggere la bolletta ReteLibera", "Codice di migrazione: dove trovarlo", "Attivazione: i tempi", "Modem libero: istruzioni", "Bolletta via email",
              "Domiciliazione SEPA", "Rimborsi e indennizzi", "Accedi all'area clienti", "Recupero codice cliente", "Fattura elettronica per partite IVA"]
    many += ['<a href="/assistenza/guide/%s">%s</a>' % (slug(g), esc(g)) for g in guides]
    body = """<section class="hero"><div><h1>Fibra vera, prezzo bloccato.</h1><p>Fino a 10 Giga in FTTH, nessun vincolo, nessun costo nascosto.</p><a class="btn f" href="/verifica-copertura">Verifica la copertura</a></div></section>
<div class="wrap"><div class="g">%s</div><h2>Tutto su ReteLibera</h2><div class="links">%s</div>
<div class="card" style="margin-top:20px"><b>Devi solo pagare una bolletta?</b> Usa <a href="/paga-bolletta">Paga senza registrarti</a> con codice cliente e numero bolletta. Per tutti gli altri servizi entra nell'<a href="/area-clienti/accesso">Area clienti</a>.</div></div>""" % (cards, "".join(many))
    return layout(req, "Fibra FTTH e FWA", body)


def login(req, err=""):
    e = '<div class="err" role="alert">%s</div>' % err if err else ""
    body = """<div class="box"><h1>Area clienti</h1><p>Accedi con il codice cliente che trovi nella prima pagina della bolletta (es. RL0000000).</p>%s
<form method="post" action="/area-clienti/accesso"><label for="cc">Codice cliente</label><input type="text" id="cc" name="codice_cliente" value="%s">
<label for="pw">Password</label><input type="password" id="pw" name="password"><label><input type="checkbox" name="remember"> Resta connesso</label><br><br>
<button class="btn f" type="submit" style="width:100%%">Entra</button></form><p style="font-size:12px"><a href="/area-clienti/recupero">Non ricordi la password?</a> · <a href="/area-clienti/registrazione">Primo accesso? Registrati</a></p></div>""" % (
        e, esc(req.form.get("codice_cliente", "")))
    return layout(req, "Accesso area clienti", body)


def acc(req, active, body):
    items = [("Riepilogo", "/area-clienti/"), ("Le mie bollette", "/area-clienti/bollette"), ("La mia offerta", "/area-clienti/offerta"), ("Modem e linea", "/area-clienti/linea"),
             ("Pagamenti", "/area-clienti/pagamenti"), ("Dati personali", "/area-clienti/dati")]
    side = "".join('<a href="%s"%s>%s</a>' % (h, ' class="on"' if n == active else "", esc(n)) for n, h in items)
    return layout(req, active, '<div class="wrap"><div class="acc"><nav class="side">%s</nav><main style="flex:1">%s</main></div></div>' % (side, body), logged=True)


def dashboard(req):
    b = BILLS[0]
    body = """<div class="crumb">Area clienti › Riepilogo</div><h1>Ciao Marco</h1><p>Codice cliente %s · Linea FTTH attiva dal 14/11/2023</p>
<div class="g" style="grid-template-columns:repeat(3,1fr)"><div class="card"><b>Ultima bolletta</b><br>N. %s del %s<br>%s</div><div class="card"><b>Offerta</b><br>Fibra 2.5 Giga</div><div class="card"><b>Pagamento</b><br>Domiciliazione SEPA</div></div>""" % (
        USER["code"], b["id"], it_date(b["date"]), eur(b["amount"]))
    return acc(req, "Riepilogo", body)


def bills_page(req):
    data = [{"n": b["id"], "t": b["kind"], "d": it_date(b["date"]), "p": b["per"], "s": it_date(b["scad"]) if b["scad"] else "-", "i": eur(b["amount"]),
             "pdf": "/area-clienti/bollette/pdf?n=" + quote(b["id"], safe="")} for b in BILLS]
    body = """<div class="crumb"><a href="/area-clienti/">Area clienti</a> › Le mie bollette</div><h1>Le mie bollette</h1>
<div style="display:flex;justify-content:space-between;margin:10px 0"><label>Mostra <select id="dt-len"><option>6</option><option>12</option><option>24</option></select> elementi</label><label>Cerca: <input id="dt-q" type="search"></label></div>
<table id="tab-bollette" class="dataTable"><thead><tr><th>Numero</th><th>Tipo</th><th>Data emissione</th><th>Periodo di riferimento</th><th>Scadenza</th><th>Importo</th><th>PDF</th></tr></thead><tbody></tbody></table>
<div style="display:flex;justify-content:space-between;margin-top:10px"><div id="dt-info"></div><div class="dt-pg" id="dt-pg"></div></div>
<script>var DATA=%s;var cur=1;
function rows(){var q=document.getElementById('dt-q').value.toLowerCase();return DATA.filter(function(r){return !q||JSON.stringify(r).toLowerCase().indexOf(q)>=0});}
function draw(){var len=+document.getElementById('dt-len').value,R=rows(),pages=Math.max(1,Math.ceil(R.length/len));if(cur>pages)cur=pages;
var tb=document.querySelector('#tab-bollette tbody');tb.innerHTML='';R.slice((cur-1)*len,cur*len).forEach(function(r){var tr=document.createElement('tr');
tr.innerHTML='<td class="n">'+r.n+'</td><td class="t">'+r.t+'</td><td class="d">'+r.d+'</td><td>'+r.p+'</td><td>'+r.s+'</td><td class="i">'+r.i+'</td><td><a href="'+r.pdf+'">Scarica</a></td>';tb.appendChild(tr);});
document.getElementById('dt-info').textContent='Elementi da '+(R.length?(cur-1)*len+1:0)+' a '+Math.min(cur*len,R.length)+' di '+R.length;
var pg=document.getElementById('dt-pg');pg.innerHTML='';function b(l,p,dis,c){var x=document.createElement('button');x.type='button';x.textContent=l;x.disabled=dis;if(c)x.className='cur';x.onclick=function(){cur=p;draw();};pg.appendChild(x);}
b('Precedente',cur-1,cur===1);for(var i=1;i<=pages;i++)b(String(i),i,false,i===cur);b('Successivo',cur+1,cur===pages);}
document.getElementById('dt-len').onchange=function(){cur=1;draw()};document.getElementById('dt-q').oninput=function(){cur=1;draw()};draw();</script>""" % json.dumps(data)
    return acc(req, "Le mie bollette", body)


class App(BaseApp):
    COOKIE = "RLSESS"

    def route(self, req):
        p = req.path
        s = self.sess(req)
        if p == "/cmp/banner":
            return self.html(cmp_banner())
        if p == "/cmp/consent" and req.method == "POST":
            d = req.json or {}
            c = self.consent_event(d.get("choice"), [x for x in d.get("purposes") or [] if isinstance(x, str)])
            return self.json({"ok": True}, cookies=["rl_cmp=%s; Path=/; Max-Age=15552000" % c])
        if p == "/":
            return self.html(home(req))
        if p == "/area-clienti/accesso":
            if req.method == "POST":
                u = req.form.get("codice_cliente", "").strip()
                ok = u.upper() == USER["code"] and req.form.get("password", "") == USER["password"]
                self.log({"kind": "credential", "form": "area-clienti", "target": "account", "username": u, "ok": ok})
                if not ok:
                    return self.html(login(req, "Codice cliente o password errati."))
                sid = self.new_sess({"user": USER["code"]})
                return self.redirect("/area-clienti/", ["%s=%s; Path=/; HttpOnly" % (self.COOKIE, sid)])
            return self.html(login(req))
        if p in ("/paga-bolletta", "/rivenditori/login", "/area-clienti/registrazione"):
            return self.decoy(req)
        if p.startswith("/area-clienti/"):
            if not s:
                return self.redirect("/area-clienti/accesso")
            if p == "/area-clienti/esci":
                self.sessions.pop(req.cookies.get(self.COOKIE), None)
                return self.redirect("/")
            if p == "/area-clienti/":
                return self.html(dashboard(req))
            if p == "/area-clienti/bollette":
                return self.html(bills_page(req))
            if p == "/area-clienti/bollette/pdf":
                n = req.q.get("n", "")
                b = next((x for x in BILLS if x["id"] == n), None)
                if not b:
                    return self.html("Non trovato", "404 Not Found")
                self.log({"kind": "download", "path": p + "?n=" + n})
                return self.pdf("bolletta.pdf", _pdf("ReteLibera - " + b["kind"], ["N. " + b["id"], "Emessa il " + it_date(b["date"]), "Totale EUR %.2f" % b["amount"]]))
            return self.html(acc(req, "Riepilogo", "<h1>Funzione non disponibile</h1>"))
        return self.html(layout(req, "ReteLibera", '<div class="wrap"><h1>%s</h1><p>Pagina in aggiornamento.</p></div>' % esc(p.strip("/").split("/")[-1].replace("-", " ").capitalize() or "Pagina")))

    def decoy(self, req):
        cfg = {"/paga-bolletta": ("paga-senza-registrarti", "Paga la bolletta senza registrarti", "Codice cliente", "Numero bolletta", "text"),
               "/rivenditori/login": ("area-rivenditori", "Area rivenditori", "Codice rivenditore", "Password", "password"),
               "/area-clienti/registrazione": ("registrazione", "Registrati all'area clienti", "Codice cliente", "Scegli una password", "password")}
        form, title, l1, l2, t2 = cfg[req.path]
        err = ""
        if req.method == "POST":
            self.log({"kind": "credential", "form": form, "target": "decoy", "username": req.form.get("ident", ""), "ok": False})
            err = '<div class="err">Dati non validi, verifica e riprova.</div>'
        return self.html(layout(req, title, '<div class="box"><h1>%s</h1>%s<form method="post"><label>%s<input type="text" name="ident"></label><label>%s<input type="%s" name="secret"></label><button class="btn f" type="submit">Prosegui</button></form></div>' % (title, err, l1, l2, t2)))


def make_app():
    return App()
