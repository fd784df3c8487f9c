# -*- coding: utf-8 -*-
# Fixture website (standard library only). make_app() returns a WSGI callable with .events
import json, re, threading, html, secrets, urllib.parse, zlib
from http.cookies import SimpleCookie


def esc(s):
    return html.escape(str(s), quote=True)


def make_pdf(title, lines):
    """Return bytes of a tiny but valid one-page PDF."""
    def pdfstr(t):
        t = str(t).encode('latin-1', 'replace').decode('latin-1')
        return t.replace('\\', '\\\\').replace('(', '\\(').replace(')', '\\)')
    y = 780
    parts = ['BT /F1 16 Tf 50 %d Td (%s) Tj ET' % (y, pdfstr(title))]
    for ln in lines:
        y -= 22
        parts.append('BT /F1 11 Tf 50 %d Td (%s) Tj ET' % (y, pdfstr(ln)))
    stream = '\n'.join(parts).encode('latin-1')
    objs = [
        b'<< /Type /Catalog /Pages 2 0 R >>',
        b'<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
        b'<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
        b'<< /Length ' + str(len(stream)).encode() + b' >>\nstream\n' + stream + b'\nendstream',
        b'<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    ]
    out = bytearray(b'%PDF-1.4\n%\xe2\xe3\xcf\xd3\n')
    offs = []
    for i, o in enumerate(objs, 1):
        offs.append(len(out))
        out += b'%d 0 obj\n' % i + o + b'\nendobj\n'
    xref = len(out)
    out += b'xref\n0 %d\n0000000000 65535 f \n' % (len(objs) + 1)
    for o in offs:
        out += b'%010d 00000 n \n' % o
    out += b'trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n' % (len(objs) + 1, xref)
    return bytes(out)


class Req:
    def __init__(self, environ):
        self.environ = environ
        self.method = environ.get('REQUEST_METHOD', 'GET').upper()
        self.path = environ.get('PATH_INFO') or '/'
        self.qs = environ.get('QUERY_STRING', '')
        self.query = dict(urllib.parse.parse_qsl(self.qs, keep_blank_values=True))
        c = SimpleCookie()
        try:
            c.load(environ.get('HTTP_COOKIE', ''))
        except Exception:
            pass
        self.cookies = {k: v.value for k, v in c.items()}
        self._form = None

    @property
    def form(self):
        if self._form is None:
            self._form = {}
            if self.method == 'POST':
                try:
                    n = int(self.environ.get('CONTENT_LENGTH') or 0)
                except ValueError:
                    n = 0
                body = self.environ['wsgi.input'].read(n) if n else b''
                ct = self.environ.get('CONTENT_TYPE', '')
                if 'json' in ct:
                    try:
                        d = json.loads(body.decode('utf-8') or '{}')
                        self._form = d if isinstance(d, dict) else {}
                    except Exception:
                        self._form = {}
                else:
                    self._form = dict(urllib.parse.parse_qsl(body.decode('utf-8', 'replace'), keep_blank_values=True))
        return self._form


class Resp:
    def __init__(self, body='', status='200 OK', ctype='text/html; charset=utf-8', headers=None):
        self.body = body.encode('utf-8') if isinstance(body, str) else body
        self.status = status
        self.headers = [('Content-Type', ctype)] + list(headers or [])

    def set_cookie(self, name, value, max_age=None, http_only=True):
        v = '%s=%s; Path=/; SameSite=Lax' % (name, value)
        if max_age is not None:
            v += '; Max-Age=%d' % max_age
        if http_only:
            v += '; HttpOnly'
        self.headers.append(('Set-Cookie', v))
        return self


def redirect(loc):
    return Resp('', '302 Found', headers=[('Location', loc)])


def json_resp(obj, status='200 OK'):
    return Resp(json.dumps(obj), status, 'application/json; charset=utf-8')


class BaseApp:
    SESSION_COOKIE = 'sid'

    def __init__(self):
        self.events = []
        self._lock = threading.Lock()
        self.sessions = {}
        self.routes = []

    def log(self, **ev):
        with self._lock:
            self.events.append(ev)

    def route(self, pattern, methods=('GET',)):
        rx = re.compile('^' + pattern + '$')

        def deco(fn):
            self.routes.append((tuple(methods), rx, fn))
            return fn
        return deco

    def user(self, req):
        sid = req.cookies.get(self.SESSION_COOKIE)
        return self.sessions.get(sid) if sid else None

    def start_session(self, resp, data):
        sid = secrets.token_hex(16)
        with self._lock:
            self.sessions[sid] = data
        resp.set_cookie(self.SESSION_COOKIE, sid)
        return resp

    def end_session(self, req, resp):
        sid = req.cookies.get(self.SESSION_COOKIE)
        with self._lock:
            self.sessions.pop(sid, None)
        resp.set_cookie(self.SESSION_COOKIE, '', 0)
        return resp

    def not_found(self, req):
        return Resp('<!doctype html><title>404</title><h1>404 - Page not found</h1><p><a href="/">Home</a></p>', '404 Not Found')

    def __call__(self, environ, start_response):
        req = Req(environ)
        resp = None
        try:
            for methods, rx, fn in self.routes:
                m = rx.match(req.path)
                if m and req.method in methods:
                    resp = fn(req, **m.groupdict())
                    break
            if resp is None:
                resp = self.not_found(req)
        except Exception as e:  # pragma: no cover
            import traceback
            traceback.print_exc()
            resp = Resp('<h1>500</h1><pre>%s</pre>' % esc(e), '500 Internal Server Error')
        hdrs = resp.headers + [('Content-Length', str(len(resp.body))), ('Cache-Control', 'no-store')]
        start_response(resp.status, hdrs)
        return [resp.body]

# ---------------------------------------------------------------- site specific
import datetime as _dt

USERNAME = 'RSSGLI84M52F205X'
PASSWORD = 'Girasole.2024!'


def _docs():
    docs = []
    seq = {}

    def nxt(y):
        seq[y] = seq.get(y, 0) + 1 + (len(seq) * 0)
        return seq[y]
    rows = []
    for y, m in [(2024, m) for m in range(9, 13)] + [(2025, m) for m in range(1, 13)] + [(2026, m) for m in range(1, 12)]:
        net = 19.90 if (y, m) < (2025, 6) else 24.90
        plan = 'Abbonamento Standard mensile' if net == 19.90 else 'Abbonamento Premium mensile'
        rows.append(('FT', _dt.date(y, m, 5), plan + ' - ' + ['gennaio', 'febbraio', 'marzo', 'aprile', 'maggio', 'giugno', 'luglio', 'agosto', 'settembre', 'ottobre', 'novembre', 'dicembre'][m - 1] + ' %d' % y, net))
    rows += [
        ('FT', _dt.date(2025, 2, 17), 'Pacchetto 500 fatture elettroniche extra', 49.00),
        ('FT', _dt.date(2025, 6, 5), 'Upgrade a Premium - differenza pro rata', 3.33),
        ('NC', _dt.date(2025, 6, 12), 'Nota di credito - storno pacchetto non utilizzato', -24.50),
        ('FT', _dt.date(2025, 9, 22), 'Firma digitale remota - 1 anno', 39.00),
        ('FT', _dt.date(2025, 11, 28), 'Conservazione digitale a norma - 2026', 29.00),
        ('FT', _dt.date(2026, 3, 14), 'Pacchetto 500 fatture elettroniche extra', 49.00),
        ('NC', _dt.date(2026, 4, 2), 'Nota di credito - doppio addebito marzo 2026', -24.90),
        ('FT', _dt.date(2024, 11, 20), 'Attivazione servizio Cassetto fiscale', 15.00),
    ]
    rows.sort(key=lambda r: r[1])
    cnt = {}
    for kind, d, desc, net in rows:
        key = (kind, d.year)
        cnt[key] = cnt.get(key, 0) + 1
        base = {'FT': 400, 'NC': 12}[kind] if d.year > 2024 else {'FT': 380, 'NC': 9}[kind]
        num = ('%d/%04d' % (d.year, base + cnt[key] * (3 if kind == 'FT' else 1))) if kind == 'FT' else ('NC %d/%03d' % (d.year, base + cnt[key]))
        iva = round(net * 0.22 + (1e-9 if net > 0 else -1e-9), 2)
        docs.append(dict(id=num, kind=kind, date=d, desc=desc, net=net, iva=iva, total=round(net + iva, 2)))
    docs.sort(key=lambda x: x['date'], reverse=True)
    return docs

DOCS = _docs()


def data_it(d):
    return d.strftime('%d/%m/%Y')


def eur(x):
    s = '{:,.2f}'.format(abs(x)).replace(',', 'X').replace('.', ',').replace('X', '.')
    return ('-' if x < 0 else '') + s + ' \u20ac'


CSS = """
*{box-sizing:border-box}body{margin:0;font-family:'Open Sans',Arial,sans-serif;color:#263238;background:#fff}a{color:#0277bd}
.top{background:#eceff1;font-size:12px;padding:6px 40px;display:flex;justify-content:space-between}.top a{color:#455a64;margin-left:14px;text-decoration:none}
header.fp{display:flex;align-items:center;gap:28px;padding:16px 40px;border-bottom:1px solid #e0e0e0}.logo{font-size:24px;font-weight:800;color:#0277bd;text-decoration:none}.logo span{color:#ff7043}
header nav{display:flex;gap:20px;flex:1}header nav a{color:#263238;text-decoration:none;font-weight:600;font-size:15px}
.b{display:inline-block;padding:10px 18px;border-radius:4px;font-weight:700;text-decoration:none;font-size:14px;border:0;cursor:pointer;font-family:inherit}.b1{background:#ff7043;color:#fff}.b2{border:2px solid #0277bd;color:#0277bd;background:#fff}
.hero{display:flex;gap:40px;padding:60px 40px;background:#e1f5fe}.hero h1{font-size:42px;margin:0 0 16px;color:#01579b}.hero p{font-size:18px}
.sec{padding:40px;display:grid;grid-template-columns:repeat(4,1fr);gap:20px}.sec div{border:1px solid #e0e0e0;border-radius:6px;padding:18px;font-size:14px}.sec h3{margin-top:0;color:#01579b;font-size:16px}
.faq{padding:10px 40px 40px}.faq details{border-bottom:1px solid #e0e0e0;padding:12px 0}
footer{background:#263238;color:#b0bec5;padding:40px;font-size:13px}footer .c{display:grid;grid-template-columns:repeat(5,1fr);gap:16px}footer a{color:#cfd8dc;display:block;padding:3px 0;text-decoration:none}footer h4{color:#fff;margin:0 0 8px}
.auth{max-width:440px;margin:50px auto;border:1px solid #e0e0e0;border-radius:8px;padding:32px}.auth label{display:block;font-weight:600;font-size:14px;margin:14px 0 6px}
.auth input[type=text],.auth input[type=password],.auth input[type=email]{width:100%;padding:11px;border:1px solid #b0bec5;border-radius:4px;font-size:15px}.err{background:#ffebee;color:#c62828;padding:10px;border-radius:4px;margin-top:12px;font-size:14px}
.ar{display:flex;min-height:80vh}.ar aside{width:250px;background:#f5f7f8;padding:20px 0;border-right:1px solid #e0e0e0}.ar aside a{display:block;padding:10px 24px;color:#37474f;text-decoration:none;font-size:14px}.ar aside a.on{background:#e1f5fe;color:#01579b;font-weight:700;border-left:4px solid #0277bd}
.ar main{flex:1;padding:24px 36px}.bc{font-size:13px;color:#78909c;margin-bottom:10px}.bc a{color:#0277bd}
.tabs{display:flex;border-bottom:2px solid #e0e0e0;margin-bottom:20px}.tabs a{padding:10px 18px;color:#546e7a;text-decoration:none;font-weight:600}.tabs a.on{color:#0277bd;border-bottom:3px solid #0277bd;margin-bottom:-2px}
table{width:100%;border-collapse:collapse;font-size:14px}th{background:#eceff1;text-align:left;padding:10px;font-weight:700;color:#455a64}td{padding:10px;border-bottom:1px solid #eceff1}td.r,th.r{text-align:right}
.nc{color:#c62828;font-weight:600}
#iubenda-cs-banner{position:fixed;left:0;right:0;bottom:0;background:#1b2b34;color:#fff;z-index:999;padding:20px 60px 20px 40px;font-size:14px;line-height:1.5;display:flex;gap:24px;align-items:center}
#iubenda-cs-banner .iubenda-cs-close-btn{position:absolute;top:8px;right:14px;background:none;border:0;color:#fff;font-size:22px;cursor:pointer;line-height:1}
#iubenda-cs-banner .acts{display:flex;gap:10px;flex-shrink:0}#iubenda-cs-banner button.iub{padding:10px 16px;border-radius:64px;border:0;font-weight:700;cursor:pointer;font-size:14px}
.iubenda-cs-accept-btn{background:#0073ce;color:#fff}.iubenda-cs-customize-btn{background:rgba(255,255,255,.15);color:#fff}
#iub-prefs{display:none;position:fixed;inset:0;background:rgba(0,0,0,.5);z-index:1000;align-items:center;justify-content:center}#iub-prefs .box{background:#fff;width:560px;border-radius:8px;padding:26px;font-size:14px}#iub-prefs label{display:flex;justify-content:space-between;padding:10px 0;border-bottom:1px solid #eee}
"""

FOOT = [('Prodotto', ['Fatturazione elettronica', 'Preventivi', 'Prima nota', 'Scadenzario', 'Magazzino', 'App mobile', 'Integrazioni', 'Novit\u00e0']),
        ('Per chi', ['Liberi professionisti', 'Forfettari', 'Artigiani', 'PMI', 'Commercialisti', 'Associazioni']),
        ('Risorse', ['Guide', 'Blog', 'Webinar', 'Glossario fiscale', 'Calcolo ritenuta', 'Centro assistenza', 'Stato servizi']),
        ('Azienda', ['Chi siamo', 'Lavora con noi', 'Contatti', 'Stampa', 'Diventa partner']),
        ('Legale', ['Termini di servizio', 'Privacy policy', 'Cookie policy', 'Preferenze cookie', 'Accessibilit\u00e0', 'Sicurezza'])]


def slug(s):
    import unicodedata
    s = unicodedata.normalize('NFKD', s).encode('ascii', 'ignore').decode()
    return re.sub(r'[^a-z0-9]+', '-', s.lower()).strip('-')


def shell(title, body, req, consent=True):
    foot = ''.join('<div><h4>%s</h4>%s</div>' % (h, ''.join('<a href="/%s">%s</a>' % (slug(i), i) for i in it)) for h, it in FOOT)
    cm = CONSENT if consent and 'fp_cookie_consent' not in req.cookies else ''
    return Resp("""<!doctype html><html lang="it"><head><meta charset="utf-8"><title>%s</title><style>%s</style></head><body>
<div class="top"><span>Assistenza: lun-ven 9-18 &middot; 02 8088 4410</span><span><a href="/blog">Blog</a><a href="/webinar">Webinar</a><a href="/studio/accedi">Accedi come commercialista</a><a href="#">IT &#9662;</a></span></div>
<header class="fp"><a class="logo" href="/">Fattura<span>Pro</span></a><nav><a href="/funzionalita">Funzionalit&agrave;</a><a href="/prezzi">Prezzi</a><a href="/per-chi">Per chi</a><a href="/risorse">Risorse</a><a href="/assistenza">Assistenza</a></nav>
<a class="b b2" href="/area-clienti/accedi">Area clienti</a><a class="b b1" href="/registrati">Registrati gratis</a></header>
%s<footer><div class="c">%s</div><p style="margin-top:24px">FatturaPro S.r.l. &middot; Via Lecco 12, 20124 Milano &middot; P.IVA 09876540961 &middot; Capitale sociale 50.000 &euro; i.v.</p></footer>%s</body></html>""" % (esc(title), CSS, body, foot, cm))


CONSENT = """<div id="iubenda-cs-banner" role="alertdialog" aria-label="Informativa cookie"><button type="button" class="iubenda-cs-close-btn" aria-label="Chiudi" title="Chiudi questa informativa e continua senza accettare">&times;</button>
<div><b>Informativa</b><br>Noi e terze parti selezionate utilizziamo cookie o tecnologie simili per finalit&agrave; tecniche e, con il tuo consenso, anche per &ldquo;miglioramento dell'esperienza&rdquo;, &ldquo;misurazione&rdquo; e &ldquo;targeting e pubblicit&agrave;&rdquo; come specificato nella <a href="/cookie-policy" style="color:#8fd1ff">cookie policy</a>. Usa il pulsante &ldquo;Accetta&rdquo; per acconsentire. Chiudi questa informativa per continuare senza accettare.</div>
<div class="acts"><button type="button" class="iub iubenda-cs-customize-btn">Scopri di pi&ugrave; e personalizza</button><button type="button" class="iub iubenda-cs-accept-btn">Accetta</button></div></div>
<div id="iub-prefs" role="dialog" aria-modal="true" aria-label="Preferenze cookie"><div class="box"><h3 style="margin-top:0">Le tue preferenze relative alla privacy</h3>
<label>Necessari <input type="checkbox" checked disabled></label><label>Interazioni e funzionalit&agrave; semplici <input type="checkbox" data-p="funzionalita" checked></label><label>Miglioramento dell'esperienza <input type="checkbox" data-p="esperienza" checked></label><label>Misurazione <input type="checkbox" data-p="misurazione" checked></label><label>Targeting e pubblicit&agrave; <input type="checkbox" data-p="marketing" checked></label>
<div style="text-align:right;margin-top:16px"><button type="button" class="b b2" id="iub-save">Salva e continua</button> <button type="button" class="b b1" id="iub-all">Accetta tutto</button></div></div></div>
<script>(function(){var all=['funzionalita','esperienza','misurazione','marketing'];
function send(c,l){fetch('/_iub/consent',{method:'POST',headers:{'Content-Type':'application/json'},body:JSON.stringify({choice:c,optional_enabled:l})}).then(function(){['iubenda-cs-banner','iub-prefs'].forEach(function(i){var e=document.getElementById(i);if(e)e.remove();});});}
document.querySelector('.iubenda-cs-close-btn').onclick=function(){send('reject',[])};
document.querySelector('.iubenda-cs-accept-btn').onclick=function(){send('accept',all)};
document.getElementById('iub-all').onclick=function(){send('accept',all)};
document.querySelector('.iubenda-cs-customize-btn').onclick=function(){document.getElementById('iub-prefs').style.display='flex'};
document.getElementById('iub-save').onclick=function(){var l=[];document.querySelectorAll('#iub-prefs input[data-p]').forEach(function(i){if(i.checked)l.push(i.dataset.p)});send('custom',l)};})();</script>"""


def make_app():
    app = BaseApp()
    app.SESSION_COOKIE = 'FPSESSID'

    @app.route('/_iub/consent', methods=('POST',))
    def consent(req):
        f = req.form
        app.log(kind='consent', choice=f.get('choice', 'custom'), optional_enabled=list(f.get('optional_enabled') or []))
        return json_resp({'ok': True}).set_cookie('fp_cookie_consent', f.get('choice', 'custom'), 15552000, False)

    @app.route('/')
    def home(req):
        sec = ''.join('<div><h3>%s</h3><p>%s</p><a href="/%s">Scopri di pi&ugrave;</a></div>' % (t, d, slug(t)) for t, d in [
            ('Fatture elettroniche', 'Crea e invia allo SdI in pochi clic.'), ('Regime forfettario', 'Calcolo automatico di contributi e imposte.'),
            ('Preventivi e ordini', 'Trasforma un preventivo in fattura.'), ('Scadenzario', 'Incassi e pagamenti sotto controllo.'),
            ('Conservazione a norma', 'Inclusa per 10 anni.'), ('Corrispettivi', 'Registratore telematico integrato.'),
            ('App per smartphone', 'Fattura anche dal cantiere.'), ('Collabora col commercialista', 'Accesso dedicato per lo studio.')])
        faq = ''.join('<details><summary>%s</summary><p>%s</p></details>' % q for q in [
            ('Dove trovo le fatture del mio abbonamento?', "Nell'Area clienti, sezione Il mio abbonamento &gt; Fatturazione."), ('Posso disdire quando voglio?', 'S&igrave;, il piano mensile non ha vincoli.'),
            ('Come funziona la prova gratuita?', '30 giorni senza carta di credito.')])
        body = """<section class="hero"><div><h1>La fatturazione elettronica semplice, per davvero.</h1><p>Oltre 200.000 professionisti e piccole imprese usano FatturaPro per fatture, preventivi e scadenze.</p>
<a class="b b1" href="/registrati">Prova gratis 30 giorni</a> <a class="b b2" href="/prezzi">Vedi i prezzi</a></div></section><section class="sec">%s</section><section class="faq"><h2>Domande frequenti</h2>%s</section>""" % (sec, faq)
        return shell('FatturaPro - Software di fatturazione elettronica online', body, req)

    @app.route('/registrati', methods=('GET', 'POST'))
    def registrati(req):
        err = ''
        if req.method == 'POST':
            app.log(kind='credential', form='registrazione', target='decoy', username=req.form.get('email', ''), ok=False)
            err = '<div class="err" role="alert">Devi accettare i Termini di servizio per proseguire.</div>'
        body = """<div class="auth"><h1 style="margin-top:0">Crea il tuo account gratuito</h1><form method="post"><label for="r-email">Email</label><input type="email" id="r-email" name="email">
<label for="r-pw">Scegli una password</label><input type="password" id="r-pw" name="password"><p><label style="font-weight:400"><input type="checkbox" name="tos"> Accetto i Termini di servizio</label></p>
<button class="b b1" type="submit">Registrati</button></form>%s<p style="font-size:14px">Hai gi&agrave; un account? <a href="/area-clienti/accedi">Accedi all'Area clienti</a></p></div>""" % err
        return shell('Registrati - FatturaPro', body, req)

    @app.route('/studio/accedi', methods=('GET', 'POST'))
    def studio(req):
        err = ''
        if req.method == 'POST':
            app.log(kind='credential', form='fatturapro-studio', target='decoy', username=req.form.get('username', ''), ok=False)
            err = '<div class="err" role="alert">Utenza studio non trovata.</div>'
        body = """<div class="auth"><h1 style="margin-top:0">FatturaPro Studio</h1><p>Accesso riservato a commercialisti e CAF.</p><form method="post"><label for="s-u">Codice studio o email</label><input type="text" id="s-u" name="username">
<label for="s-pw">Password</label><input type="password" id="s-pw" name="password"><p><button class="b b1" type="submit">Accedi a FatturaPro Studio</button></p></form>%s</div>""" % err
        return shell('FatturaPro Studio - Accesso commercialisti', body, req)

    def login_page(req, err='', u=''):
        e = '<div class="err" role="alert">%s</div>' % esc(err) if err else ''
        body = """<div class="auth"><h1 style="margin-top:0">Area clienti</h1><p style="font-size:14px">Accedi per gestire il tuo abbonamento, le fatture e i dati di fatturazione.</p>
<form method="post" action="/area-clienti/accedi"><label for="cf">Codice fiscale o Partita IVA</label><input type="text" id="cf" name="cf" value="%s" autocomplete="username">
<label for="pwd">Password</label><input type="password" id="pwd" name="pwd" autocomplete="current-password"><p><label style="font-weight:400"><input type="checkbox" name="ricordami" value="1"> Ricordami</label></p>
<button class="b b1" type="submit" style="width:100%%">Accedi</button></form>%s<p style="font-size:13px"><a href="/area-clienti/password-dimenticata">Password dimenticata?</a> &middot; Sei un commercialista? <a href="/studio/accedi">Accedi a FatturaPro Studio</a></p></div>""" % (esc(u), e)
        return shell('Accedi all\'Area clienti - FatturaPro', body, req)

    @app.route('/area-clienti/accedi', methods=('GET', 'POST'))
    def accedi(req):
        if req.method == 'GET':
            return redirect('/area-clienti') if app.user(req) else login_page(req)
        cf = req.form.get('cf', '').strip()
        ok = cf.upper() == USERNAME and req.form.get('pwd', '') == PASSWORD
        app.log(kind='credential', form='area-clienti', target='account', username=cf, ok=ok)
        if not ok:
            return login_page(req, 'Credenziali non valide. Controlla codice fiscale e password.', cf)
        return app.start_session(redirect('/area-clienti'), {'cf': USERNAME})

    def area(title, on, content):
        side = ''.join('<a href="%s"%s>%s</a>' % (h, ' class="on"' if l == on else '', l) for l, h in [
            ('Bacheca', '/area-clienti'), ('Il mio abbonamento', '/area-clienti/abbonamento'), ('Dati di fatturazione', '/area-clienti/dati-fatturazione'),
            ('Metodi di pagamento', '/area-clienti/pagamenti'), ('Utenti e permessi', '/area-clienti/utenti'), ('Assistenza', '/area-clienti/assistenza'), ('Esci', '/area-clienti/esci')])
        return Resp("""<!doctype html><html lang="it"><head><meta charset="utf-8"><title>%s</title><style>%s</style></head><body>
<header class="fp"><a class="logo" href="/area-clienti">Fattura<span>Pro</span></a><nav><a href="/app">Vai all'app</a><a href="/assistenza">Assistenza</a></nav><span style="font-size:14px">Giulia Rossi &middot; Studio grafico Rossi</span></header>
<div class="ar"><aside>%s</aside><main>%s</main></div></body></html>""" % (esc(title), CSS, side, content))

    @app.route('/area-clienti')
    def bacheca(req):
        if not app.user(req):
            return redirect('/area-clienti/accedi')
        last = ''.join('<tr><td>%s</td><td>%s</td><td class="r">%s</td></tr>' % (data_it(d['date']), d['id'], eur(d['total'])) for d in DOCS[:3])
        c = """<div class="bc"><a href="/area-clienti">Area clienti</a> &rsaquo; Bacheca</div><h1>Ciao Giulia</h1><p>Piano attivo: <b>Premium mensile</b> &middot; prossimo rinnovo 05/12/2026</p>
<h3>Le tue ultime fatture FatturaPro</h3><table><tr><th>Data</th><th>Numero</th><th class="r">Totale</th></tr>%s</table><p><a href="/area-clienti/abbonamento/fatturazione">Vedi tutte</a></p>""" % last
        return area('Bacheca - Area clienti FatturaPro', 'Bacheca', c)

    def abb_tabs(on):
        return '<div class="tabs">%s</div>' % ''.join('<a href="%s"%s>%s</a>' % (h, ' class="on"' if l == on else '', l) for l, h in [
            ('Riepilogo', '/area-clienti/abbonamento'), ('Cambia piano', '/area-clienti/abbonamento/piani'), ('Fatturazione', '/area-clienti/abbonamento/fatturazione')])

    @app.route('/area-clienti/abbonamento')
    def abb(req):
        if not app.user(req):
            return redirect('/area-clienti/accedi')
        return area('Il mio abbonamento', 'Il mio abbonamento', '<div class="bc"><a href="/area-clienti">Area clienti</a> &rsaquo; Il mio abbonamento</div><h1>Il mio abbonamento</h1>' + abb_tabs('Riepilogo') + '<p>Premium mensile - 24,90 &euro; + IVA/mese</p>')

    @app.route('/area-clienti/abbonamento/fatturazione')
    def fatt(req):
        if not app.user(req):
            return redirect('/area-clienti/accedi')
        anni = sorted({d['date'].year for d in DOCS}, reverse=True)
        try:
            anno = int(req.query.get('anno', '2026'))
        except ValueError:
            anno = 2026
        opts = ''.join('<option value="%d"%s>%d</option>' % (a, ' selected' if a == anno else '', a) for a in anni)
        rows = ''
        for d in [x for x in DOCS if x['date'].year == anno]:
            tipo = 'Fattura' if d['kind'] == 'FT' else '<span class="nc">Nota di credito</span>'
            rows += '<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td class="r">%s</td><td class="r">%s</td><td><a href="/area-clienti/documenti/%s.pdf">PDF</a> &middot; <a href="/area-clienti/documenti/%s.xml">XML</a></td></tr>' % (
                tipo, d['id'], data_it(d['date']), esc(d['desc']), eur(d['net']), eur(d['total']), slug(d['id']), slug(d['id']))
        c = """<div class="bc"><a href="/area-clienti">Area clienti</a> &rsaquo; <a href="/area-clienti/abbonamento">Il mio abbonamento</a> &rsaquo; Fatturazione</div><h1>Il mio abbonamento</h1>%s
<form method="get" id="filtro-anno"><label for="anno"><b>Anno</b></label> <select id="anno" name="anno" onchange="this.form.submit()">%s</select> <noscript><button>Filtra</button></noscript></form>
<p style="font-size:13px;color:#607d8b">Documenti emessi da FatturaPro S.r.l. per il tuo abbonamento. Gli importi imponibili sono al netto dell'IVA 22%%.</p>
<table id="documenti"><thead><tr><th>Tipo</th><th>Numero</th><th>Data</th><th>Descrizione</th><th class="r">Imponibile</th><th class="r">Totale</th><th>Scarica</th></tr></thead><tbody>%s</tbody></table>""" % (abb_tabs('Fatturazione'), opts, rows or '<tr><td colspan="7">Nessun documento per questo anno.</td></tr>')
        return area('Fatturazione - Il mio abbonamento', 'Il mio abbonamento', c)

    @app.route(r'/area-clienti/documenti/(?P<s>[a-z0-9-]+)\.(?P<ext>pdf|xml)')
    def doc(req, s, ext):
        if not app.user(req):
            return redirect('/area-clienti/accedi')
        for d in DOCS:
            if slug(d['id']) == s:
                app.log(kind='download', path=req.path)
                if ext == 'xml':
                    return Resp('<?xml version="1.0"?><FatturaElettronica><Numero>%s</Numero><Data>%s</Data><ImportoTotaleDocumento>%.2f</ImportoTotaleDocumento></FatturaElettronica>' % (d['id'], d['date'].isoformat(), d['total']), ctype='application/xml')
                return Resp(make_pdf(('Fattura n. ' if d['kind'] == 'FT' else 'Nota di credito n. ') + d['id'], ['FatturaPro S.r.l. - P.IVA 09876540961', 'Cliente: Giulia Rossi - CF RSSGLI84M52F205X',
                            'Data: ' + data_it(d['date']), d['desc'], 'Imponibile: ' + eur(d['net']).replace('\u20ac', 'EUR'), 'IVA 22%: ' + eur(d['iva']).replace('\u20ac', 'EUR'), 'Totale: ' + eur(d['total']).replace('\u20ac', 'EUR')]), ctype='application/pdf')
        return app.not_found(req)

    @app.route('/area-clienti/esci')
    def esci(req):
        return app.end_session(req, redirect('/'))

    @app.route('/area-clienti/(?P<rest>[a-z0-9/-]+)')
    def area_other(req, rest):
        if not app.user(req):
            return redirect('/area-clienti/accedi')
        return area('Area clienti', '', '<h1>%s</h1><p>Sezione in aggiornamento.</p>' % esc(rest.replace('-', ' ').capitalize()))

    @app.route('/(?P<rest>[a-z0-9/-]+)')
    def generic(req, rest):
        t = rest.split('/')[-1].replace('-', ' ').capitalize()
        return shell(t + ' - FatturaPro', '<section class="hero"><div><h1>%s</h1><p>Contenuto in arrivo.</p></div></section>' % esc(t), req)

    return app
