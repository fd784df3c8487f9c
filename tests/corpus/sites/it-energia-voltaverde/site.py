"""VoltaVerde - luce e gas 100% green (stile utility digitale italiana; banner a due livelli tipo Didomi/OneTrust)."""
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


MESI_BREVI = ["gen", "feb", "mar", "apr", "mag", "giu", "lug", "ago", "set", "ott", "nov", "dic"]
MESI = ["gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre",
        "ottobre", "novembre", "dicembre"]


def eur(v):
    s = "{:,.2f}".format(abs(v)).replace(",", "X").replace(".", ",").replace("X", ".")
    return ("- " if v < 0 else "") + "\u20ac " + s


def long_date(iso):
    y, m, d = iso.split("-")
    return "%d %s %s" % (int(d), MESI[int(m) - 1], y)


def build_docs():
    rnd = random.Random(2207)
    docs = []
    n = 41000
    for y in (2024, 2025, 2026):
        for bi in range(6):  # bimestri
            m_end = bi * 2 + 2
            iy, im = (y + 1, 1) if m_end == 12 else (y, m_end + 1)
            if (iy, im) > (2026, 11):
                continue
            for supply, off, base in (("Luce", 3, 74.0), ("Gas", 9, 96.0)):
                n += rnd.randint(40, 180)
                winter = bi in (0, 5)
                amt = round(base * (1.9 if (supply == "Gas" and winter) else 1.0) + rnd.uniform(-12, 22), 2)
                iso = "%04d-%02d-%02d" % (iy, im, off + rnd.randint(0, 5))
                docs.append({"id": "%d/%07d" % (iy, n), "supply": supply, "date": iso,
                             "period": "%s - %s %d" % (MESI_BREVI[m_end - 2], MESI_BREVI[m_end - 1], y),
                             "amount": amt, "paid": iso < "2026-11-01"})
    docs.sort(key=lambda d: d["date"], reverse=True)
    return docs


DOCS = build_docs()
USERS = {"marco.ferri82@postaweb.it": {"password": "Vv-Casa#4471", "name": "Marco Ferri"}}

FOOTER = {
    "Offerte": ["Luce VerdeFix", "Gas VerdeFix", "VerdeDuo", "Offerte fibra", "Fotovoltaico", "Wallbox"],
    "Clienti": ["Come leggere la bolletta", "Autolettura", "Pagamenti", "Bolletta web", "Voltura",
                "Subentro", "Rateizzazione", "Bonus sociale"],
    "VoltaVerde": ["Chi siamo", "Manifesto green", "Bilancio di sostenibilit\u00e0", "Lavora con noi", "Press",
                   "Webmail dipendenti"],
    "Informazioni": ["Privacy", "Cookie policy", "Preferenze cookie", "Note legali", "Trasparenza", "Carta dei servizi",
                     "Qualit\u00e0 commerciale", "Mappa del sito"],
}


def slug(s):
    out = "".join(c.lower() if c.isalnum() else "-" for c in s)
    while "--" in out:
        out = out.replace("--", "-")
    return out.strip("-")


CSS = """
*{box-sizing:border-box}body{margin:0;font-family:'Segoe UI',Roboto,Arial,sans-serif;color:#17301f;background:#fafcf9}
a{color:#1c7c3c}header{display:flex;align-items:center;gap:20px;padding:0 28px;height:68px;background:#fff;border-bottom:1px solid #e2ebe3;position:sticky;top:0;z-index:50}
.logo{font-size:23px;font-weight:700;color:#1c7c3c;text-decoration:none}.logo b{color:#8bc53f}
header nav{display:flex;gap:22px;flex:1}header nav a{text-decoration:none;color:#17301f;font-size:15px}
.iconbtn{background:#eef6ee;border:0;border-radius:50%;width:42px;height:42px;cursor:pointer;display:flex;align-items:center;justify-content:center}
.usermenu{position:relative}.usermenu .dd{display:none;position:absolute;right:0;top:50px;background:#fff;border:1px solid #dfe8df;border-radius:10px;box-shadow:0 8px 24px #0002;width:270px;padding:8px}
.usermenu.open .dd{display:block}.dd a{display:block;padding:10px 12px;text-decoration:none;color:#17301f;border-radius:6px}.dd a:hover{background:#f0f7f0}
.dd small{display:block;color:#678;font-size:12px}.dd hr{border:0;border-top:1px solid #e6ece6}
.btn{display:inline-block;background:#1c7c3c;color:#fff;border:0;border-radius:8px;padding:11px 20px;font-size:15px;cursor:pointer;text-decoration:none}
.btn.light{background:#fff;color:#1c7c3c;border:1px solid #1c7c3c}
.hero{padding:60px 40px;background:#e6f3e4}.hero h1{font-size:40px;margin:0}
.wrap{max-width:1180px;margin:0 auto;padding:26px}.grid{display:grid;grid-template-columns:repeat(4,1fr);gap:16px}
.card{background:#fff;border:1px solid #e2ebe3;border-radius:12px;padding:18px}
footer{background:#17301f;color:#cfe3d2;padding:34px 28px;font-size:13px;margin-top:40px}footer .cols{display:grid;grid-template-columns:repeat(4,1fr);gap:18px}
footer a{color:#cfe3d2;display:block;padding:3px 0;text-decoration:none}
.shell{display:grid;grid-template-columns:240px 1fr;gap:26px}.sidenav a{display:block;padding:9px 12px;text-decoration:none;color:#17301f;border-radius:6px}
.sidenav .grp{font-weight:600;padding:12px 12px 4px;color:#456}.sidenav .sub a{padding-left:26px}.sidenav a.on{background:#e6f3e4}
.tabs{display:flex;gap:6px;border-bottom:2px solid #e2ebe3;margin:12px 0}.tabs button{border:0;background:none;padding:10px 18px;cursor:pointer;font-size:15px}
.tabs button[aria-selected=true]{border-bottom:3px solid #1c7c3c;font-weight:700}
table{width:100%;border-collapse:collapse;background:#fff}td,th{padding:11px;border-bottom:1px solid #edf1ed;text-align:left;font-size:14px}
.form{max-width:420px;margin:40px auto;background:#fff;border:1px solid #e2ebe3;border-radius:14px;padding:30px}
.form label{display:block;margin:12px 0 4px;font-size:14px}.form input[type=email],.form input[type=password],.form input[type=text]{width:100%;padding:12px;border:1px solid #b9c9bb;border-radius:8px;font-size:15px}
.err{background:#fdeaea;color:#9b1c1c;padding:10px;border-radius:8px}.spinner{padding:30px;text-align:center;color:#678}
.promo{background:#8bc53f;color:#17301f;padding:10px 28px;font-size:14px}
#vv-consent{position:fixed;left:24px;bottom:24px;width:420px;background:#fff;border-radius:14px;box-shadow:0 10px 40px #0004;padding:22px;z-index:999;font-size:14px}
#vv-consent .row{display:flex;gap:10px;margin-top:14px}#vv-consent button{flex:1}
#vv-prefs{display:none;position:fixed;inset:0;background:#0007;z-index:1000}#vv-prefs .box{background:#fff;max-width:620px;margin:6% auto;border-radius:14px;padding:26px;max-height:80vh;overflow:auto}
.purpose{display:flex;justify-content:space-between;align-items:center;border-bottom:1px solid #eee;padding:12px 0}
.switch{position:relative;width:46px;height:26px}.switch input{opacity:0;width:0;height:0}.switch span{position:absolute;inset:0;background:#ccc;border-radius:26px;cursor:pointer}
.switch span:before{content:'';position:absolute;width:20px;height:20px;left:3px;top:3px;background:#fff;border-radius:50%;transition:.2s}
.switch input:checked+span{background:#1c7c3c}.switch input:checked+span:before{transform:translateX(20px)}
"""

CONSENT = """
<div id="vv-consent" role="dialog" aria-modal="false" aria-labelledby="vvc-t">
<h3 id="vvc-t" style="margin-top:0">Rispettiamo la tua privacy</h3>
<p>Usiamo cookie tecnici e, previo tuo consenso, cookie di profilazione e di terze parti per analizzare il traffico,
personalizzare i contenuti e mostrarti pubblicit&agrave; in linea con le tue preferenze. <a href="/info/cookie-policy">Cookie policy</a></p>
<div class="row"><button class="btn light" type="button" id="vvc-manage">Personalizza</button>
<button class="btn" type="button" id="vvc-accept">Accetta tutto</button></div></div>
<div id="vv-prefs" role="dialog" aria-modal="true" aria-labelledby="vvp-t"><div class="box">
<h3 id="vvp-t">Preferenze sulla privacy</h3><p>Puoi scegliere a quali finalit&agrave; acconsentire. Alcune finalit&agrave; si basano sul legittimo interesse e sono attive per impostazione predefinita.</p>
<div class="purpose"><div><b>Strettamente necessari</b><br><small>Sempre attivi</small></div><span>Sempre attivi</span></div>
<div class="purpose"><div><b>Statistiche</b><br><small>Misurazione delle performance del sito</small></div><label class="switch"><input type="checkbox" class="vvp" value="statistiche" checked aria-label="Statistiche"><span></span></label></div>
<div class="purpose"><div><b>Funzionalit&agrave;</b><br><small>Chat, video e mappe</small></div><label class="switch"><input type="checkbox" class="vvp" value="funzionalita" checked aria-label="Funzionalit&agrave;"><span></span></label></div>
<div class="purpose"><div><b>Profilazione e pubblicit&agrave;</b><br><small>Annunci personalizzati anche su siti di terzi</small></div><label class="switch"><input type="checkbox" class="vvp" value="marketing" checked aria-label="Profilazione e pubblicit&agrave;"><span></span></label></div>
<div class="purpose"><div><b>Social media</b><br><small>Condivisione e remarketing sui social</small></div><label class="switch"><input type="checkbox" class="vvp" value="social" checked aria-label="Social media"><span></span></label></div>
<div class="row" style="display:flex;gap:10px;margin-top:18px"><button class="btn" type="button" id="vvp-all">Accetta tutto</button>
<button class="btn light" type="button" id="vvp-save">Salva le mie scelte</button></div></div></div>
<script>
(function(){
function send(c,l){return fetch('/api/consent',{method:'POST',headers:{'Content-Type':'application/x-www-form-urlencoded'},
 body:'choice='+c+'&enabled='+encodeURIComponent(l.join(','))}).then(function(){document.getElementById('vv-consent').remove();document.getElementById('vv-prefs').remove();});}
var ALL=['statistiche','funzionalita','marketing','social'];
document.getElementById('vvc-accept').onclick=function(){send('accept',ALL)};
document.getElementById('vvp-all').onclick=function(){send('accept',ALL)};
document.getElementById('vvc-manage').onclick=function(){document.getElementById('vv-prefs').style.display='block'};
document.getElementById('vvp-save').onclick=function(){var on=[].slice.call(document.querySelectorAll('.vvp:checked')).map(function(x){return x.value});send('custom',on)};
})();
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

    def redirect(self, loc, cookies=()):
        return "303 See Other", [("Location", loc), ("Content-Length", "0")] + [("Set-Cookie", c) for c in cookies], b""

    def sess(self, req):
        return self.sessions.get(req.cookies.get("vv_sid", ""))

    def user(self, req):
        s = self.sess(req)
        return s.get("user") if s else None

    def __call__(self, environ, start_response):
        req = Req(environ)
        try:
            status, headers, body = self.route(req)
        except Exception as e:  # pragma: no cover
            status, headers, body = "500 Internal Server Error", [("Content-Type", "text/plain")], repr(e).encode()
        start_response(status, headers)
        return [body]

    def page(self, req, title, body, status="200 OK", cookies=()):
        u = self.user(req)
        if u:
            menu = ('<a href="/area-clienti/">Area clienti Luce e Gas<small>Ciao %s</small></a>'
                    '<a href="/area-clienti/profilo">Il mio profilo</a><hr><a href="/logout">Esci</a>' % esc(USERS[u]["name"].split()[0]))
        else:
            menu = ('<a href="/accedi">Area clienti Luce e Gas<small>Bollette, consumi e contratti</small></a>'
                    '<a href="/fibra/login">Area clienti Fibra<small>Gestisci la tua connessione VoltaVerde Fibra</small></a>'
                    '<hr><a href="/registrati">Registrati<small>Nuovo cliente? Crea il tuo accesso</small></a>'
                    '<a href="/info/assistenza">Serve aiuto?</a>')
        cols = "".join('<div><h4>%s</h4>%s</div>' % (esc(h), "".join(
            '<a href="%s">%s</a>' % ("/webmail" if x == "Webmail dipendenti" else "/info/" + slug(x), esc(x)) for x in items))
            for h, items in FOOTER.items())
        banner = "" if "vv_consent" in req.cookies else CONSENT
        doc = """<!doctype html><html lang="it"><head><meta charset="utf-8"><title>%s - VoltaVerde</title><style>%s</style></head><body>
<div class="promo">&#127793; Fino a 120 &euro; di sconto con VerdeDuo: attiva entro il 31 dicembre. <a href="/info/verdeduo">Scopri di pi&ugrave;</a></div>
<header><a class="logo" href="/">volta<b>verde</b></a><nav><a href="/info/luce">Luce</a><a href="/info/gas">Gas</a>
<a href="/info/luce-e-gas">Luce e Gas</a><a href="/info/fibra">Fibra</a><a href="/info/fotovoltaico">Fotovoltaico</a>
<a href="/info/business">Business</a><a href="/info/assistenza">Assistenza</a></nav>
<a class="btn" href="/info/offerte">Passa a VoltaVerde</a>
<div class="usermenu" id="um"><button class="iconbtn" type="button" aria-label="Menu utente" aria-haspopup="true" aria-expanded="false"
 onclick="var m=document.getElementById('um');m.classList.toggle('open');this.setAttribute('aria-expanded',m.classList.contains('open'))">
<svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true"><circle cx="12" cy="8" r="4.2" fill="#1c7c3c"/><path d="M3.5 21c1-4.5 4.6-7 8.5-7s7.5 2.5 8.5 7" fill="#1c7c3c"/></svg></button>
<div class="dd" role="menu">%s</div></div></header>
%s<footer><div class="cols">%s</div><p>&copy; 2026 VoltaVerde S.r.l. Societ&agrave; Benefit - P.IVA 09876543210</p></footer>%s</body></html>""" % (
            esc(title), CSS, menu, body, cols, banner)
        return self.resp(doc, status=status, cookies=cookies)

    def route(self, req):
        p = req.path
        if p == "/":
            cards = "".join('<div class="card"><h3>%s</h3><p>%s</p><a href="/info/%s">Dettagli</a></div>' % (
                esc(a), esc(b), slug(a)) for a, b in [
                ("Luce VerdeFix", "Prezzo fisso 24 mesi, 100% rinnovabile certificata."),
                ("Gas VerdeFix", "Compensiamo la CO2 del tuo gas con progetti forestali."),
                ("VoltaVerde Fibra", "Fino a 2.5 Gbit/s, modem incluso."),
                ("Fotovoltaico chiavi in mano", "Sopralluogo gratuito e detrazioni fiscali.")])
            body = """<section class="hero"><h1>Energia pulita, bollette chiare.</h1><p>Oltre 400.000 famiglie hanno gi&agrave; scelto VoltaVerde.</p>
<a class="btn" href="/info/offerte">Scopri le offerte</a></section><div class="wrap"><div class="grid">%s</div>
<h2>Assistenza rapida</h2><div class="grid"><div class="card"><a href="/info/autolettura">Fai l'autolettura</a></div>
<div class="card"><a href="/info/come-leggere-la-bolletta">Capire la bolletta</a></div><div class="card"><a href="/info/pagamenti">Metodi di pagamento</a></div>
<div class="card"><a href="/info/guasti">Segnala un guasto</a></div></div></div>""" % cards
            return self.page(req, "Luce e gas green", body)
        if p == "/api/consent" and req.method == "POST":
            c = req.form.get("choice", "custom")
            en = [x for x in req.form.get("enabled", "").split(",") if x]
            if c not in ("accept", "custom", "reject"):
                c = "custom"
            self.log(kind="consent", choice=c, optional_enabled=en)
            return self.resp('{"status":"saved"}', ctype="application/json",
                             cookies=["vv_consent=%s; Path=/; Max-Age=15552000" % (c if en or c == "accept" else "min")])
        if p.startswith("/info/"):
            t = p[6:].replace("-", " ").capitalize()
            return self.page(req, t, '<div class="wrap"><h1>%s</h1><p>Pagina informativa. Per qualsiasi dubbio scrivici in chat o '
                             'chiama l\'800 55 66 77.</p></div>' % esc(t))
        if p == "/accedi":
            return self.login(req)
        if p == "/fibra/login":
            return self.decoy(req, "fibra-login", "Area clienti Fibra", "Numero di telefono fisso o email")
        if p == "/webmail":
            return self.decoy(req, "webmail-dipendenti", "Webmail dipendenti VoltaVerde", "Username aziendale")
        if p == "/registrati":
            return self.decoy(req, "registrazione", "Crea il tuo accesso", "Email", button="Registrati")
        if p == "/logout":
            self.sessions.pop(req.cookies.get("vv_sid", ""), None)
            return self.redirect("/")
        if p.startswith("/area-clienti") or p.startswith("/api/"):
            u = self.user(req)
            if not u:
                if p.startswith("/api/"):
                    return self.resp('{"error":"unauthorized"}', status="401 Unauthorized", ctype="application/json")
                return self.redirect("/accedi")
            return self.area(req, u)
        return self.page(req, "Pagina non trovata", '<div class="wrap"><h1>Ops, pagina non trovata</h1></div>', status="404 Not Found")

    def decoy(self, req, form, title, idlabel, button="Accedi"):
        err = ""
        if req.method == "POST":
            self.log(kind="credential", form=form, target="decoy", username=req.form.get("login", ""), ok=False)
            err = '<p class="err" role="alert">Credenziali non riconosciute.</p>'
        body = """<form class="form" method="post"><h2>%s</h2>%s<label for="l">%s</label><input type="text" id="l" name="login">
<label for="p">Password</label><input type="password" id="p" name="password"><p></p><button class="btn" type="submit">%s</button></form>""" % (
            esc(title), err, esc(idlabel), esc(button))
        return self.page(req, title, body)

    def login(self, req):
        s = self.sess(req)
        step = req.form.get("step") if req.method == "POST" else None
        err = ""
        if step == "email":
            email = req.form.get("email", "").strip()
            known = email.lower() in USERS
            self.log(kind="credential", form="area-clienti-email", target="account", username=email, ok=known)
            if known:
                sid = secrets.token_hex(16)
                self.sessions[sid] = {"pending": email.lower()}
                return self.redirect("/accedi", cookies=["vv_sid=%s; Path=/; HttpOnly; SameSite=Lax" % sid])
            err = '<p class="err" role="alert">Non troviamo un account associato a questa email.</p>'
        elif step == "password" and s and s.get("pending"):
            pw = req.form.get("password", "")
            ok = USERS[s["pending"]]["password"] == pw
            self.log(kind="credential", form="area-clienti-password", target="account", username=s["pending"], ok=ok)
            if ok:
                s["user"] = s.pop("pending")
                return self.redirect("/area-clienti/")
            err = '<p class="err" role="alert">La password inserita non &egrave; corretta.</p>'
        if s and s.get("pending"):
            body = """<form class="form" method="post" action="/accedi"><h2>Inserisci la password</h2>%s
<p style="font-size:14px">Stai accedendo come <b>%s</b> &middot; <a href="/logout">Cambia</a></p><input type="hidden" name="step" value="password">
<label for="pw">Password</label><input type="password" id="pw" name="password" autocomplete="current-password" autofocus>
<p><a href="/info/recupera-password" style="font-size:13px">Hai dimenticato la password?</a></p>
<button class="btn" type="submit" style="width:100%%">Accedi</button></form>""" % (err, esc(s["pending"]))
        else:
            body = """<form class="form" method="post" action="/accedi"><h2>Area clienti Luce e Gas</h2>%s
<p style="font-size:14px">Accedi per vedere bollette, consumi e pagamenti.</p><input type="hidden" name="step" value="email">
<label for="em">Email</label><input type="email" id="em" name="email" autocomplete="username" autofocus>
<button class="btn" type="submit" style="width:100%%;margin-top:16px">Continua</button>
<p style="font-size:13px">Sei cliente Fibra? <a href="/fibra/login">Accedi all'Area clienti Fibra</a><br>Non hai un accesso? <a href="/registrati">Registrati</a></p></form>""" % err
        return self.page(req, "Accedi", body)

    def side(self, on):
        items = [("/area-clienti/", "Riepilogo", None), (None, "Fatturazione", None),
                 ("/area-clienti/fatturazione/bollette", "Le mie bollette", "sub"),
                 ("/area-clienti/fatturazione/pagamenti", "Pagamenti", "sub"),
                 ("/area-clienti/fatturazione/domiciliazione", "Domiciliazione", "sub"),
                 (None, "Forniture", None), ("/area-clienti/consumi", "Consumi", "sub"),
                 ("/area-clienti/autolettura", "Autolettura", "sub"), ("/area-clienti/contratti", "Contratti", "sub"),
                 ("/area-clienti/profilo", "Profilo", None), ("/area-clienti/porta-un-amico", "Porta un amico", None)]
        out = []
        for href, label, kind in items:
            if href is None:
                out.append('<div class="grp">%s</div>' % esc(label))
            else:
                out.append('<div class="%s"><a href="%s"%s>%s</a></div>' % (kind or "", href, ' class="on"' if href == on else "", esc(label)))
        return '<nav class="sidenav" aria-label="Area clienti">%s</nav>' % "".join(out)

    def area(self, req, u):
        p = req.path
        if p == "/api/bollette":
            anno = req.q.get("anno", "2026")
            rows = [{"numero": d["id"], "fornitura": d["supply"], "periodo": d["period"], "emissione": long_date(d["date"]),
                     "totale": eur(d["amount"]), "stato": "Pagata" if d["paid"] else "Da pagare",
                     "pdf": "/area-clienti/pdf?n=" + up.quote(d["id"])} for d in DOCS if d["date"][:4] == anno]
            return self.resp(json.dumps({"anno": anno, "bollette": rows}), ctype="application/json")
        if p == "/area-clienti/pdf":
            d = next((x for x in DOCS if x["id"] == req.q.get("n")), None)
            if not d:
                return self.resp("not found", status="404 Not Found", ctype="text/plain")
            self.log(kind="download", path=p + "?n=" + d["id"])
            return self.resp(make_pdf(["VoltaVerde S.r.l.", "Bolletta %s n. %s" % (d["supply"], d["id"]),
                                       "Emessa il %s" % d["date"], "Totale %.2f EUR" % d["amount"]]), ctype="application/pdf")
        if p == "/area-clienti/":
            last = DOCS[0]
            body = """<div class="wrap"><div class="shell">%s<main><h1>Ciao %s</h1>
<div class="grid"><div class="card"><b>Luce</b><br>Via Nizza 118, Torino<br><small>POD IT020E00451239</small></div>
<div class="card"><b>Gas</b><br>Via Nizza 118, Torino<br><small>PDR 03081200077123</small></div>
<div class="card"><b>Ultima bolletta</b><br>%s<br>%s</div><div class="card"><b>Punti Verdi</b><br>1.240 punti</div></div>
<p>Consulta tutte le tue bollette nella sezione <b>Fatturazione</b>.</p></main></div></div>""" % (
                self.side(p), esc(USERS[u]["name"].split()[0]), eur(last["amount"]), long_date(last["date"]))
            return self.page(req, "Area clienti", body)
        if p == "/area-clienti/fatturazione/bollette":
            body = """<div class="wrap"><div class="shell">%s<main><h1>Le mie bollette</h1>
<p style="font-size:14px">Bollette di luce e gas, emesse con cadenza bimestrale.</p>
<div class="tabs" role="tablist"><button role="tab" data-anno="2026" aria-selected="true">2026</button>
<button role="tab" data-anno="2025" aria-selected="false">2025</button><button role="tab" data-anno="2024" aria-selected="false">2024</button></div>
<div id="bollette-box"><div class="spinner">Caricamento in corso&hellip;</div></div></main></div></div>
<script>
function carica(anno){
 var box=document.getElementById('bollette-box');box.innerHTML='<div class="spinner">Caricamento in corso&hellip;</div>';
 document.querySelectorAll('.tabs button').forEach(function(b){b.setAttribute('aria-selected',b.dataset.anno==anno)});
 setTimeout(function(){fetch('/api/bollette?anno='+anno,{credentials:'same-origin'}).then(function(r){return r.json()}).then(function(j){
  if(!j.bollette.length){box.innerHTML='<p>Nessuna bolletta per il '+anno+'.</p>';return;}
  var h='<table id="tabella-bollette"><thead><tr><th>Fornitura</th><th>Numero bolletta</th><th>Periodo</th><th>Data emissione</th><th>Totale</th><th>Stato</th><th></th></tr></thead><tbody>';
  j.bollette.forEach(function(b){h+='<tr><td>'+b.fornitura+'</td><td>'+b.numero+'</td><td>'+b.periodo+'</td><td>'+b.emissione+'</td><td>'+b.totale+'</td><td>'+b.stato+'</td><td><a href="'+b.pdf+'">Scarica PDF</a></td></tr>'});
  box.innerHTML=h+'</tbody></table>';});},600);
}
document.querySelectorAll('.tabs button').forEach(function(b){b.onclick=function(){carica(b.dataset.anno)}});
carica('2026');
</script>""" % self.side(p)
            return self.page(req, "Le mie bollette", body)
        return self.page(req, "Area clienti", '<div class="wrap"><div class="shell">%s<main><h1>Sezione non disponibile</h1>'
                         '<p>Stiamo lavorando per migliorare questo servizio.</p></main></div></div>' % self.side(p))


def make_app():
    return App()
