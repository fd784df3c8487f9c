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

USERNAME = '2291847'
PASSWORD = 'Vela_Porto-63'

_RAW = [
    # (kind, date, service, net)
    ('F', (2024, 1, 18), 'Rinnovo dominio marcellibottega.it - 1 anno', 9.99),
    ('F', (2024, 3, 4), 'Hosting Linux Easy - 12 mesi', 39.90),
    ('F', (2024, 3, 4), 'Casella PEC Standard - 12 mesi', 5.90),
    ('PF', (2024, 6, 20), 'Proforma: Certificato SSL DV - 12 mesi', 29.00),
    ('F', (2024, 6, 24), 'Certificato SSL DV - 12 mesi', 29.00),
    ('F', (2024, 10, 9), 'Registrazione dominio marcellibottega.com - 1 anno', 12.99),
    ('F', (2025, 1, 17), 'Rinnovo dominio marcellibottega.it - 1 anno', 10.99),
    ('PF', (2025, 2, 20), 'Proforma: Upgrade Hosting WordPress Pro', 64.00),
    ('F', (2025, 3, 3), 'Hosting WordPress Pro - 12 mesi (upgrade)', 79.00),
    ('F', (2025, 3, 3), 'Casella PEC Standard - 12 mesi', 5.90),
    ('F', (2025, 4, 15), 'Backup giornaliero - 12 mesi', 24.00),
    ('F', (2025, 6, 24), 'Certificato SSL DV - 12 mesi', 29.00),
    ('F', (2025, 10, 9), 'Rinnovo dominio marcellibottega.com - 1 anno', 14.99),
    ('F', (2025, 11, 28), 'Email Pro 3 caselle - 12 mesi', 54.00),
    ('F', (2026, 1, 16), 'Rinnovo dominio marcellibottega.it - 1 anno', 10.99),
    ('F', (2026, 3, 2), 'Hosting WordPress Pro - 12 mesi', 89.00),
    ('F', (2026, 3, 2), 'Casella PEC Standard - 12 mesi', 6.90),
    ('F', (2026, 4, 14), 'Backup giornaliero - 12 mesi', 24.00),
    ('PF', (2026, 6, 10), 'Proforma: Server VPS S - 1 mese', 7.90),
    ('F', (2026, 6, 23), 'Certificato SSL DV - 12 mesi', 29.00),
    ('F', (2026, 7, 1), 'Server VPS S - luglio 2026', 7.90),
    ('F', (2026, 8, 1), 'Server VPS S - agosto 2026', 7.90),
    ('F', (2026, 9, 1), 'Server VPS S - settembre 2026', 7.90),
    ('F', (2026, 10, 1), 'Server VPS S - ottobre 2026', 7.90),
    ('F', (2026, 10, 8), 'Rinnovo dominio marcellibottega.com - 1 anno', 14.99),
    ('F', (2026, 11, 1), 'Server VPS S - novembre 2026', 7.90),
    ('PF', (2026, 11, 20), 'Proforma: Rinnovo Email Pro 3 caselle - 12 mesi', 54.00),
]


def _docs():
    docs = []
    c = {}
    for k, (y, m, d), svc, net in _RAW:
        key = (k, y)
        c[key] = c.get(key, 0) + 1
        yy = y % 100
        if k == 'F':
            num = 'F %02d/%06d' % (yy, 18000 + (m * 1931 + d * 47 + c[key] * 13) % 9000 + m * 9000)
        else:
            num = 'PF %02d/%06d' % (yy, 4100 + m * 300 + d)
        iva = round(net * 0.22 + 1e-9, 2)
        docs.append(dict(id=num, kind=k, date=_dt.date(y, m, d), svc=svc, net=net, iva=iva, total=round(net + iva, 2)))
    docs.sort(key=lambda x: (x['date'], x['id']), reverse=True)
    return docs

DOCS = _docs()


def data_it(d):
    return d.strftime('%d/%m/%Y')


def eur(x):
    return '{:,.2f}'.format(x).replace(',', 'X').replace('.', ',').replace('X', '.') + ' \u20ac'


CSS = """
*{box-sizing:border-box}body{margin:0;font-family:Roboto,Arial,sans-serif;color:#222;background:#f4f6f9}a{color:#e0531f}
.pre{background:#10233d;color:#9fb3cc;font-size:12px;padding:6px 40px;display:flex;gap:16px;justify-content:flex-end}.pre a{color:#dbe6f3;text-decoration:none}
header.hv{background:#fff;display:flex;align-items:center;gap:26px;padding:14px 40px;box-shadow:0 1px 0 #e3e8ef}.logo{font-size:24px;font-weight:900;color:#10233d;text-decoration:none}.logo b{color:#e0531f}
nav.m{display:flex;gap:6px;flex:1}nav.m a{padding:8px 12px;color:#10233d;text-decoration:none;font-weight:500}
.cta{padding:9px 16px;border-radius:3px;font-weight:700;text-decoration:none;font-size:14px}.cta.o{background:#e0531f;color:#fff}.cta.w{border:1px solid #10233d;color:#10233d}
.search{background:#10233d;padding:50px 40px;color:#fff}.search h1{margin:0 0 14px;font-size:36px}.search form{display:flex;max-width:700px}.search input{flex:1;padding:14px;font-size:16px;border:0}.search button{padding:14px 22px;background:#e0531f;color:#fff;border:0;font-weight:700}
.cards{display:grid;grid-template-columns:repeat(4,1fr);gap:16px;padding:30px 40px}.cards div{background:#fff;padding:18px;border-radius:4px;font-size:14px;border-top:4px solid #e0531f}.cards b{font-size:22px;display:block;margin:6px 0}
.links{padding:0 40px 30px;columns:4;font-size:14px}.links a{display:block;padding:3px 0;color:#10233d}
footer{background:#0a1627;color:#8ea3bd;padding:36px 40px;font-size:13px;display:grid;grid-template-columns:repeat(5,1fr);gap:12px}footer a{color:#c3d1e2;display:block;padding:3px 0;text-decoration:none}footer h4{color:#fff;margin:0 0 8px}
#cmp-frame{position:fixed;left:0;bottom:0;width:100%;height:190px;border:0;z-index:9999;box-shadow:0 -4px 20px rgba(0,0,0,.25)}
.box{max-width:440px;margin:50px auto;background:#fff;padding:32px;border-radius:4px;box-shadow:0 2px 10px rgba(0,0,0,.06)}.box label{display:block;font-weight:500;font-size:14px;margin:14px 0 6px}
.box input[type=text],.box input[type=password],.box input[type=email]{width:100%;padding:11px;border:1px solid #b8c3d1;border-radius:3px;font-size:15px}.box button{margin-top:18px;width:100%;padding:12px;background:#e0531f;color:#fff;border:0;font-weight:700;font-size:15px;border-radius:3px;cursor:pointer}
.err{background:#fdecea;color:#b3261e;padding:10px;margin-top:12px;font-size:14px;border-left:4px solid #b3261e}
.ar{display:flex;min-height:85vh}.ar aside{width:250px;background:#10233d;padding:18px 0}.ar aside a{display:block;padding:10px 22px;color:#c3d1e2;text-decoration:none;font-size:14px}.ar aside .grp{color:#6f86a3;font-size:11px;text-transform:uppercase;padding:16px 22px 4px}.ar aside a.on{background:#1b3658;color:#fff;border-left:3px solid #e0531f}
.ar main{flex:1;padding:26px 36px}.acc{background:#fff;border:1px solid #e3e8ef;margin-bottom:6px;border-radius:3px}.acc>button{width:100%;display:flex;gap:20px;align-items:center;background:none;border:0;padding:14px 18px;font:inherit;font-size:14px;cursor:pointer;text-align:left}
.acc>button .n{font-weight:700;width:170px}.acc>button .t{width:110px;color:#5b6b80}.acc>button .s{flex:1}.acc>button::after{content:'\\25BE';color:#e0531f}.acc .body{display:none;padding:4px 18px 16px 18px;font-size:14px;border-top:1px dashed #e3e8ef}
.acc.open .body{display:block}.acc .body dl{display:grid;grid-template-columns:160px 1fr;gap:6px 10px;margin:10px 0}.acc .body dt{color:#5b6b80}.tag{font-size:11px;padding:2px 6px;border-radius:3px;background:#e7eef7;color:#10233d;font-weight:700}.tag.pf{background:#fff1d6;color:#8a5a00}
"""

FOOT = [('Domini', ['Registra dominio', 'Trasferisci dominio', 'Estensioni', 'Whois', 'Prezzi domini']), ('Hosting', ['Hosting Linux', 'Hosting WordPress', 'Hosting Windows', 'E-commerce', 'Server VPS', 'Cloud']),
        ('Email e PEC', ['Email professionale', 'PEC', 'Login Webmail', 'Accedi a VelaMail', 'Configura client']), ('Supporto', ['Guide', 'Apri ticket', 'Stato servizi', 'Contatti', 'Segnala abuso']),
        ('Azienda', ['Chi siamo', 'Data center', 'Lavora con noi', 'Rivenditori', 'Privacy', 'Cookie policy', 'Condizioni di servizio'])]


def slug(s):
    return re.sub(r'[^a-z0-9]+', '-', s.lower()).strip('-')


def shell(title, body, req, consent=True):
    foot = ''.join('<div><h4>%s</h4>%s</div>' % (h, ''.join('<a href="/%s">%s</a>' % ('webmail' if i in ('Login Webmail', 'Accedi a VelaMail') else slug(i), i) for i in it)) for h, it in FOOT)
    cm = '<iframe id="cmp-frame" src="/cmp/banner" title="Informativa sui cookie"></iframe><script>window.addEventListener("message",function(e){if(e.data==="cmp-close"){var f=document.getElementById("cmp-frame");if(f)f.remove();}});</script>' if consent and 'hv_cmp' not in req.cookies else ''
    return Resp("""<!doctype html><html lang="it"><head><meta charset="utf-8"><title>%s</title><style>%s</style></head><body>
<div class="pre"><a href="/supporto">Supporto</a><a href="/rivenditori">Rivenditori</a><a href="/webmail">Login Webmail</a><a href="/stato-servizi">Stato servizi</a><span>Vendite 0575 190 2200</span></div>
<header class="hv"><a class="logo" href="/">Hosting<b>Vela</b></a><nav class="m"><a href="/domini">Domini</a><a href="/hosting">Hosting</a><a href="/email-e-pec">Email e PEC</a><a href="/server-vps">Server</a><a href="/cloud">Cloud</a><a href="/offerte">Offerte</a></nav>
<a class="cta w" href="/webmail">Webmail</a><a class="cta o" href="/area-riservata/login">Area riservata</a></header>%s<footer>%s</footer>%s</body></html>""" % (esc(title), CSS, body, foot, cm))


BANNER = """<!doctype html><html lang="it"><head><meta charset="utf-8"><style>body{margin:0;font-family:Arial,sans-serif;background:#fff;font-size:14px;color:#222}
.w{display:flex;gap:24px;padding:20px 40px;align-items:center}.t{flex:1;line-height:1.5}.a{display:flex;flex-direction:column;gap:8px;width:260px}
.btn{display:block;text-align:center;padding:10px;border-radius:3px;font-weight:bold;cursor:pointer;border:1px solid #10233d;text-decoration:none;font-size:14px}.pri{background:#e0531f;border-color:#e0531f;color:#fff}.sec{background:#fff;color:#10233d}
#p{display:none;padding:0 40px 10px}#p label{margin-right:18px}</style></head><body><div class="w"><div class="t"><b>Questo sito utilizza cookie</b><br>Usiamo cookie tecnici e, previo tuo consenso, cookie di profilazione nostri e di terze parti per inviarti pubblicit&agrave; in linea con le tue preferenze e per statistiche. Puoi accettare tutti i cookie, proseguire senza accettare (solo cookie tecnici) o scegliere. <a href="/cookie-policy" target="_top">Cookie policy</a></div>
<div class="a"><button type="button" class="btn pri" id="all">Accetta tutti</button><a class="btn sec" href="/cmp/choice?c=reject">Continua senza accettare</a><button type="button" class="btn sec" id="pers">Personalizza</button></div></div>
<div id="p"><label><input type="checkbox" value="statistiche"> Statistiche</label><label><input type="checkbox" value="profilazione"> Profilazione</label><label><input type="checkbox" value="social"> Social</label> <button type="button" class="btn sec" id="save" style="display:inline-block;padding:6px 12px">Salva</button></div>
<script>function done(){parent.postMessage('cmp-close','*')}
document.getElementById('all').onclick=function(){fetch('/cmp/choice?c=accept&o=statistiche,profilazione,social',{method:'POST'}).then(done)};
document.getElementById('pers').onclick=function(){document.getElementById('p').style.display='block'};
document.getElementById('save').onclick=function(){var l=[];document.querySelectorAll('#p input:checked').forEach(function(i){l.push(i.value)});fetch('/cmp/choice?c=custom&o='+l.join(','),{method:'POST'}).then(done)};</script></body></html>"""


def make_app():
    app = BaseApp()
    app.SESSION_COOKIE = 'HVSESSION'
    pending = {}

    @app.route('/cmp/banner')
    def banner(req):
        return Resp(BANNER)

    @app.route('/cmp/choice', methods=('GET', 'POST'))
    def choice(req):
        c = req.query.get('c', 'custom')
        opt = [x for x in req.query.get('o', '').split(',') if x]
        app.log(kind='consent', choice=c, optional_enabled=opt)
        r = Resp('<!doctype html><html><body><script>parent.postMessage("cmp-close","*")</script></body></html>') if req.method == 'GET' else json_resp({'ok': True})
        return r.set_cookie('hv_cmp', c, 31536000, False)

    @app.route('/')
    def home(req):
        cards = ''.join('<div>%s<b>%s</b>%s<br><a href="/%s">Scopri</a></div>' % (a, b, c, slug(a)) for a, b, c in [
            ('Dominio .it', '0,99 &euro;', 'il primo anno + IVA'), ('Hosting WordPress', '2,49 &euro;/mese', 'SSL e backup inclusi'), ('PEC', '5,90 &euro;/anno', 'casella da 1 GB'), ('Server VPS', '7,90 &euro;/mese', '2 vCPU, 4 GB RAM')])
        guide = ['Come rinnovare un dominio', 'Configurare la PEC su Outlook', 'Scaricare le fatture', 'Cambiare metodo di pagamento', 'Trasferire un dominio .it', 'Puntare i DNS',
                 'Installare WordPress', 'Attivare SSL', 'Recuperare il codice cliente', 'Configurare la posta su iPhone', 'Backup e ripristino', 'Disdire un servizio',
                 'Fatturazione elettronica e codice SDI', 'Limiti hosting', 'Migrare un sito', 'Accedere alla Webmail']
        links = ''.join('<a href="/guide/%s">%s</a>' % (slug(g), g) for g in guide)
        body = """<section class="search"><h1>Trova il dominio perfetto per la tua attivit&agrave;</h1><form onsubmit="event.preventDefault()"><input placeholder="Cerca il tuo dominio, es. lamiabottega.it" aria-label="Cerca dominio"><button>Cerca</button></form></section>
<section class="cards">%s</section><h3 style="padding:0 40px">Guide pi&ugrave; lette</h3><div class="links">%s</div>""" % (cards, links)
        return shell('HostingVela - Domini, hosting, email e PEC', body, req)

    @app.route('/webmail', methods=('GET', 'POST'))
    def webmail(req):
        err = ''
        if req.method == 'POST':
            app.log(kind='credential', form='webmail', target='decoy', username=req.form.get('email', ''), ok=False)
            err = '<div class="err" role="alert">Indirizzo email o password errati.</div>'
        body = """<div class="box"><h1 style="margin-top:0">Accedi a VelaMail</h1><p style="font-size:14px">Webmail per le caselle email e PEC ospitate su HostingVela.</p><form method="post">
<label for="wm-e">Indirizzo email</label><input type="email" id="wm-e" name="email"><label for="wm-p">Password</label><input type="password" id="wm-p" name="password"><button type="submit">Login Webmail</button></form>%s
<p style="font-size:13px">Vuoi gestire servizi e fatture? Vai all'<a href="/area-riservata/login">Area riservata</a>.</p></div>""" % err
        return shell('Webmail - HostingVela', body, req)

    def step1(req, err='', u=''):
        e = '<div class="err" role="alert">%s</div>' % esc(err) if err else ''
        body = """<div class="box"><h1 style="margin-top:0">Area riservata</h1><p style="font-size:14px">Gestisci servizi, rinnovi e documenti contabili.</p>
<form method="post" action="/area-riservata/login"><label for="cc">Codice cliente</label><input type="text" id="cc" name="codice_cliente" value="%s" inputmode="numeric" autocomplete="username"><button type="submit">Avanti</button></form>%s
<p style="font-size:13px"><a href="/guide/recuperare-il-codice-cliente">Non ricordi il codice cliente?</a><br>Cerchi la posta? <a href="/webmail">Login Webmail</a></p></div>""" % (esc(u), e)
        return shell('Area riservata - HostingVela', body, req)

    def step2(req, u, err=''):
        e = '<div class="err" role="alert">%s</div>' % esc(err) if err else ''
        tok = secrets.token_hex(8)
        pending[tok] = u
        body = """<div class="box"><h1 style="margin-top:0">Area riservata</h1><p style="font-size:14px">Codice cliente <b>%s</b> &middot; <a href="/area-riservata/login">cambia</a></p>
<form method="post" action="/area-riservata/password"><input type="hidden" name="t" value="%s"><label for="pw">Password</label><input type="password" id="pw" name="password" autocomplete="current-password"><button type="submit">Accedi</button></form>%s
<p style="font-size:13px"><a href="/area-riservata/recupero-password">Password dimenticata?</a></p></div>""" % (esc(u), tok, e)
        return shell('Area riservata - HostingVela', body, req)

    @app.route('/area-riservata/login', methods=('GET', 'POST'))
    def login(req):
        if req.method == 'GET':
            return redirect('/area-riservata') if app.user(req) else step1(req)
        u = req.form.get('codice_cliente', '').strip()
        ok = u == USERNAME
        app.log(kind='credential', form='area-riservata-codice', target='account', username=u, ok=ok)
        if not ok:
            return step1(req, 'Codice cliente non trovato.', u)
        return step2(req, u)

    @app.route('/area-riservata/password', methods=('POST',))
    def pw(req):
        u = pending.get(req.form.get('t', ''), '')
        ok = u == USERNAME and req.form.get('password', '') == PASSWORD
        app.log(kind='credential', form='area-riservata-password', target='account', username=u, ok=ok)
        if not ok:
            return step2(req, u, 'Password non corretta.') if u else step1(req, 'Sessione scaduta, riprova.')
        return app.start_session(redirect('/area-riservata/avviso'), {'u': u})

    @app.route('/area-riservata/avviso')
    def avviso(req):
        if not app.user(req):
            return redirect('/area-riservata/login')
        body = """<div class="box" style="max-width:560px"><h2 style="margin-top:0">Proteggi il tuo account</h2><p>Attiva la verifica in due passaggi (2FA): ti chiederemo un codice via SMS o app a ogni accesso.</p>
<p><a class="cta o" href="/area-riservata/sicurezza">Attiva ora</a></p><p><a class="cta w" href="/area-riservata">Non ora, vai alla tua area</a></p></div>"""
        return shell('Sicurezza account - HostingVela', body, req, False)

    def area(title, on, content):
        side = ''
        for grp, items in [('', [('Riepilogo', '/area-riservata')]), ('Servizi', [('I miei servizi', '/area-riservata/servizi'), ('Domini', '/area-riservata/domini'), ('Rinnovi', '/area-riservata/rinnovi')]),
                           ('Amministrazione', [('Documenti contabili', '/area-riservata/amministrazione/documenti'), ('Dati di fatturazione', '/area-riservata/amministrazione/dati'), ('Metodi di pagamento', '/area-riservata/amministrazione/pagamenti'), ('Credito prepagato', '/area-riservata/amministrazione/credito')]),
                           ('Account', [('Profilo e sicurezza', '/area-riservata/sicurezza'), ('Esci', '/area-riservata/esci')])]:
            if grp:
                side += '<div class="grp">%s</div>' % grp
            side += ''.join('<a href="%s"%s>%s</a>' % (h, ' class="on"' if l == on else '', l) for l, h in items)
        return Resp("""<!doctype html><html lang="it"><head><meta charset="utf-8"><title>%s</title><style>%s</style></head><body>
<header class="hv"><a class="logo" href="/area-riservata">Hosting<b>Vela</b></a><nav class="m"><a href="/">Sito</a><a href="/supporto">Supporto</a></nav><span style="font-size:14px">Bottega Marcelli di Luca Marcelli &middot; cod. 2291847</span></header>
<div class="ar"><aside>%s</aside><main>%s</main></div></body></html>""" % (esc(title), CSS, side, content))

    @app.route('/area-riservata')
    def riepilogo(req):
        if not app.user(req):
            return redirect('/area-riservata/login')
        return area('Riepilogo - Area riservata', 'Riepilogo', """<h1>Riepilogo</h1><p>Servizi attivi: 7 &middot; Prossimo rinnovo: <b>Email Pro 3 caselle</b> il 28/11/2026 (proforma emessa)</p>
<p>Cerchi fatture e proforma? Le trovi in <a href="/area-riservata/amministrazione/documenti">Amministrazione &gt; Documenti contabili</a>.</p>""")

    @app.route('/area-riservata/amministrazione/documenti')
    def documenti(req):
        if not app.user(req):
            return redirect('/area-riservata/login')
        items = ''
        for i, d in enumerate(DOCS):
            tag = '<span class="tag">Fattura</span>' if d['kind'] == 'F' else '<span class="tag pf">Proforma</span>'
            items += """<div class="acc" id="doc-%d"><button type="button" aria-expanded="false" aria-controls="b-%d"><span class="n">%s</span><span class="t">%s</span><span class="s">%s %s</span></button>
<div class="body" id="b-%d" role="region"><dl><dt>Numero documento</dt><dd>%s</dd><dt>Data emissione</dt><dd>%s</dd><dt>Imponibile</dt><dd>%s</dd><dt>IVA 22%%</dt><dd>%s</dd><dt>Totale documento</dt><dd class="tot">%s</dd><dt>Stato</dt><dd>%s</dd></dl>
<a href="/area-riservata/amministrazione/documenti/%d.pdf">Scarica PDF</a></div></div>""" % (i, i, d['id'], data_it(d['date']), tag, esc(d['svc']), i, d['id'], data_it(d['date']), eur(d['net']), eur(d['iva']), eur(d['total']),
                'Pagata' if d['kind'] == 'F' else ('In attesa di pagamento' if d['date'].year == 2026 and d['date'].month == 11 else 'Pagata - sostituita da fattura'), i)
        content = """<h1>Documenti contabili</h1><p style="font-size:14px;color:#5b6b80">Fatture e proforma dal 2024. La proforma non ha valore fiscale: la fattura viene emessa al momento del pagamento. Clicca su un documento per vedere importi e download.</p>
<div id="documenti">%s</div><script>document.querySelectorAll('.acc>button').forEach(function(b){b.onclick=function(){var a=b.parentNode;a.classList.toggle('open');b.setAttribute('aria-expanded',a.classList.contains('open'));}});</script>""" % items
        return area('Documenti contabili - Area riservata', 'Documenti contabili', content)

    @app.route(r'/area-riservata/amministrazione/documenti/(?P<i>\d+)\.pdf')
    def pdf(req, i):
        if not app.user(req):
            return redirect('/area-riservata/login')
        i = int(i)
        if i >= len(DOCS):
            return app.not_found(req)
        d = DOCS[i]
        app.log(kind='download', path=req.path)
        return Resp(make_pdf(('Fattura ' if d['kind'] == 'F' else 'Proforma ') + d['id'], ['HostingVela S.p.A. - P.IVA 01573850516', 'Cliente 2291847 - Bottega Marcelli', 'Data: ' + data_it(d['date']), d['svc'],
                    'Totale: ' + eur(d['total']).replace('\u20ac', 'EUR')]), ctype='application/pdf')

    @app.route('/area-riservata/esci')
    def esci(req):
        return app.end_session(req, redirect('/'))

    @app.route('/area-riservata/(?P<rest>[a-z0-9/-]+)')
    def other(req, rest):
        if not app.user(req):
            return redirect('/area-riservata/login')
        return area('Area riservata', '', '<h1>%s</h1><p>Nessun elemento.</p>' % esc(rest.split('/')[-1].capitalize()))

    @app.route('/(?P<rest>[a-z0-9/-]+)')
    def generic(req, rest):
        t = rest.split('/')[-1].replace('-', ' ').capitalize()
        return shell(t + ' - HostingVela', '<section class="search"><h1>%s</h1><p>Pagina in costruzione.</p></section>' % esc(t), req)

    return app
