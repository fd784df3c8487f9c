"""Banca Altavia - fixture imitating an Italian online bank (conto + carte).

Consent: Garante-style banner: "Accetta", "Scopri di piu' e personalizza", and a small X (top right)
that means "continua senza accettare" (= reject).
Entry: icon-only link (person icon, aria-label "Il mio account") in the header; decoy "Registrati" next to it.
Sign-in: modal dialog with Codice fiscale + password + "Ricordami"; wrong credentials -> error page.
Navigation: dashboard with the last 3 documents and "Vedi tutti" -> "I miei documenti".
List: "Mostra altri" (fetch, 10 at a time, newest first, all years mixed).
"""
import html
import json
import secrets
import threading
from http.cookies import SimpleCookie
from urllib.parse import parse_qs

USER = "RSSGLI85M41F205X"
PASSWORD = "Altavia#Giulia85"

MESI = ["gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre",
        "ottobre", "novembre", "dicembre"]


def _docs():
    out = []
    seq = {2024: 0, 2025: 0, 2026: 0}

    def nid(y):
        seq[y] += 1
        return "%d/%04d" % (y, seq[y] * 3 + 11)

    for y in (2024, 2025, 2026):
        for m in range(1, 13):
            if y == 2026 and m > 11:
                break
            # credit card statement issued on the 12th for the previous month
            amt = round(180 + ((m * 71 + y * 3) % 540) + (m % 4) * 13.37, 2)
            out.append({"id": nid(y), "date": "%d-%02d-12" % (y, m), "cat": "Carte",
                        "title": "Estratto conto Carta di credito Altavia Gold **** 6632",
                        "sub": "Periodo contabile %s %d" % (MESI[(m - 2) % 12], y if m > 1 else y - 1),
                        "amount": amt, "label": "Importo addebitato"})
            if m % 3 == 0:
                out.append({"id": nid(y), "date": "%d-%02d-%02d" % (y, m, 30 if m in (6, 9) else 31), "cat": "Conto",
                            "title": "Estratto conto trimestrale c/c 1000/00083412",
                            "sub": "Saldo contabile al %02d/%02d/%d" % (30 if m in (6, 9) else 31, m, y),
                            "amount": round(5200 + (m * 311 + y) % 2900 + 0.45, 2), "label": "Saldo"})
            if m in (2, 7, 10):
                out.append({"id": nid(y), "date": "%d-%02d-05" % (y, m), "cat": "Carte",
                            "title": "Estratto conto Carta prepagata Altavia Pay **** 0918",
                            "sub": "Movimenti del bimestre", "amount": round(40 + (m * 13) % 90 + 0.9, 2),
                            "label": "Totale movimenti"})
    others = [
        ("2026-01-20", "Fiscale", "Quietanza F24 - versamento IMU acconto", "Delega F24 del 16/12/2025", 612.00, "Importo versato"),
        ("2026-03-18", "Fiscale", "Certificazione interessi 2025", "Ritenute su interessi creditori", 4.21, "Ritenute"),
        ("2026-04-02", "Comunicazioni", "Proposta di modifica unilaterale del contratto", "Art. 118 e 126-sexies TUB", None, ""),
        ("2026-06-24", "Comunicazioni", "Nuova carta in spedizione", "Carta di credito Altavia Gold", None, ""),
        ("2026-10-03", "Comunicazioni", "Rendiconto annuale PSD2 sulle commissioni", "Riepilogo delle spese 2025-2026", 48.00, "Totale spese"),
        ("2025-05-11", "Comunicazioni", "Informativa privacy aggiornata", "Regolamento UE 2016/679", None, ""),
        ("2025-03-15", "Fiscale", "Certificazione interessi 2024", "Ritenute su interessi creditori", 3.18, "Ritenute"),
    ]
    for date, cat, title, sub, amt, label in others:
        out.append({"id": nid(int(date[:4])), "date": date, "cat": cat, "title": title, "sub": sub,
                    "amount": amt, "label": label})
    out.sort(key=lambda d: (d["date"], d["id"]), reverse=True)
    return out


DOCS = _docs()

PDF = (b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n"
       b"3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n")


def eur(v):
    return "{:,.2f}".format(v).replace(",", "X").replace(".", ",").replace("X", ".") + " \u20ac"


def itd(iso):
    y, m, d = iso.split("-")
    return "%s/%s/%s" % (d, m, y)


CSS = """
*{box-sizing:border-box}body{margin:0;font-family:Helvetica,Arial,sans-serif;color:#222;background:#fafafa}a{color:#6a1b9a}
header{display:flex;align-items:center;gap:26px;padding:0 36px;height:68px;background:#fff;box-shadow:0 1px 0 #e5e5e5;position:sticky;top:0;z-index:10}
.logo{font-size:23px;font-weight:800;color:#4a148c;text-decoration:none}.logo b{color:#ff6f00}
header nav a{color:#333;text-decoration:none;font-size:15px;margin-right:18px}.sp{flex:1}
.reg{border:1px solid #4a148c;color:#4a148c;padding:8px 16px;border-radius:20px;text-decoration:none;font-size:14px}
.ico{display:inline-flex;width:40px;height:40px;border-radius:50%;background:#4a148c;align-items:center;justify-content:center}
.ico svg{width:22px;height:22px;fill:#fff}
.hero{display:grid;grid-template-columns:1.2fr 1fr;gap:30px;padding:56px 36px;background:#f3e5f5}.hero h1{font-size:40px;margin:0 0 14px;color:#4a148c}
.btn{background:#ff6f00;color:#fff;border:0;padding:12px 24px;border-radius:24px;font-weight:700;cursor:pointer;font-size:15px;text-decoration:none;display:inline-block}
.btn.o{background:#fff;color:#4a148c;border:1px solid #4a148c}
.feat{display:grid;grid-template-columns:repeat(3,1fr);gap:18px;padding:32px 36px}.feat div{background:#fff;border-radius:12px;padding:20px;border:1px solid #eee}
.faq{padding:10px 36px 30px}.faq details{background:#fff;border:1px solid #eee;margin:6px 0;padding:12px;border-radius:6px}
footer{background:#24102f;color:#cbb8d6;padding:34px 36px;font-size:13px}footer .c{display:grid;grid-template-columns:repeat(4,1fr);gap:20px}
footer a{display:block;color:#cbb8d6;text-decoration:none;padding:3px 0}footer h4{color:#fff;margin:0 0 10px}
.modal-bg{position:fixed;inset:0;background:rgba(20,0,30,.55);display:none;z-index:50}.modal-bg.open{display:block}
.modal{background:#fff;width:420px;margin:80px auto;border-radius:14px;padding:28px;position:relative}
.modal .close{position:absolute;right:14px;top:10px;border:0;background:none;font-size:22px;cursor:pointer}
label{display:block;font-weight:700;font-size:14px;margin:14px 0 5px}input[type=text],input[type=password]{width:100%;padding:11px;border:1px solid #bbb;border-radius:8px;font-size:15px}
.err{background:#ffebee;color:#b71c1c;padding:10px;border-radius:6px}
.wrap{max-width:1000px;margin:0 auto;padding:28px 20px}.panel{background:#fff;border-radius:12px;border:1px solid #eee;padding:22px;margin-bottom:18px}
.doc{display:flex;gap:16px;padding:14px 0;border-bottom:1px solid #f0f0f0;align-items:center}.doc .d{width:110px;color:#555;font-size:14px}
.doc .t{flex:1}.doc .t small{display:block;color:#777}.doc .a{width:170px;text-align:right;font-size:14px}.doc .a small{display:block;color:#888;font-size:11px}
.pill{font-size:11px;background:#ede7f6;color:#4a148c;padding:2px 8px;border-radius:10px;margin-right:6px}
#cookie-law{position:fixed;left:0;right:0;bottom:0;background:#fff;border-top:4px solid #4a148c;padding:22px 60px 22px 36px;z-index:40;box-shadow:0 -6px 24px rgba(0,0,0,.15)}
#cookie-law p{margin:0 0 12px;font-size:13px;max-width:900px}#cookie-law .x{position:absolute;right:16px;top:10px;border:0;background:none;font-size:20px;cursor:pointer;color:#555}
#cookie-pref{display:none;position:fixed;inset:0;background:rgba(0,0,0,.4);z-index:45}#cookie-pref .in{background:#fff;width:520px;margin:70px auto;border-radius:10px;padding:24px}
"""

PERSON = ("<svg viewBox='0 0 24 24' aria-hidden='true' focusable='false'><path d='M12 12c2.7 0 4.8-2.2 4.8-4.8S14.7 2.4 12 2.4 "
          "7.2 4.5 7.2 7.2 9.3 12 12 12zm0 2.4c-3.2 0-9.6 1.6-9.6 4.8v2.4h19.2v-2.4c0-3.2-6.4-4.8-9.6-4.8z'/></svg>")

FOOT = [("Prodotti", ["Conto Altavia", "Conto Altavia Young", "Carta Altavia Gold", "Carta prepagata Altavia Pay", "Prestiti",
                      "Mutui", "Conto deposito"]),
        ("Aiuto", ["Domande frequenti", "Contattaci", "Blocca la carta", "Sicurezza e frodi", "Reclami", "Stato dei servizi"]),
        ("Trasparenza", ["Fogli informativi", "Guide Banca d'Italia", "Arbitro Bancario Finanziario", "Tassi usura", "PSD2"]),
        ("Altavia", ["Chi siamo", "Lavora con noi", "Stampa", "Privacy", "Cookie policy", "Dichiarazione di accessibilita'",
                     "Whistleblowing"])]


class App:
    def __init__(self):
        self.events = []
        self.lock = threading.Lock()
        self.sessions = {}

    def log(self, e):
        with self.lock:
            self.events.append(e)

    def shell(self, title, body, banner, logged, extra_js=""):
        foot = "".join("<div><h4>%s</h4>%s</div>" % (h, "".join("<a href='/p/%s'>%s</a>" % (
            x.lower().replace(" ", "-").replace("'", ""), x) for x in items)) for h, items in FOOT)
        if logged:
            right = "<a class='reg' href='/area-clienti'>La mia area</a><a class='reg' href='/esci'>Esci</a>"
        else:
            right = ("<a class='reg' href='/registrazione'>Registrati</a>"
                     "<a class='ico' href='/accesso' id='open-login' aria-label='Il mio account' title='Il mio account'>%s</a>" % PERSON)
        return ("<!DOCTYPE html><html lang='it'><head><meta charset='utf-8'><title>%s</title><style>%s</style></head><body>"
                "<header><a class='logo' href='/'>alta<b>via</b></a><nav><a href='/p/conto'>Conto</a><a href='/p/carte'>Carte</a>"
                "<a href='/p/prestiti'>Prestiti</a><a href='/p/mutui'>Mutui</a><a href='/p/risparmio'>Risparmio</a>"
                "<a href='/p/aiuto'>Aiuto</a></nav><span class='sp'></span>%s</header>%s"
                "<footer><div class='c'>%s</div><p style='font-size:11px;margin-top:20px'>Banca Altavia S.p.A. - Iscritta all'Albo delle Banche "
                "n. 5712 - Aderente al Fondo Interbancario di Tutela dei Depositi - P.IVA 11223340961</p></footer>%s%s%s</body></html>") % (
            html.escape(title), CSS, right, body, foot, LOGIN_MODAL if not logged else "", BANNER if banner else "", extra_js)

    def __call__(self, environ, start_response):
        path = environ.get("PATH_INFO", "/")
        method = environ["REQUEST_METHOD"]
        qs = parse_qs(environ.get("QUERY_STRING", ""))
        form = {}
        if method == "POST":
            raw = environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0)).decode("utf-8", "replace")
            form = {k: v[0] for k, v in parse_qs(raw, keep_blank_values=True).items()}
        ck = {k: v.value for k, v in SimpleCookie(environ.get("HTTP_COOKIE", "")).items()}
        sess = self.sessions.get(ck.get("ALTAVIA_S", ""))
        logged = bool(sess)
        banner = "cookie_prefs" not in ck
        headers = []

        def respond(body, status="200 OK", ctype="text/html; charset=utf-8", extra=()):
            data = body if isinstance(body, bytes) else body.encode("utf-8")
            start_response(status, [("Content-Type", ctype), ("Content-Length", str(len(data)))] + headers + list(extra))
            return [data]

        def redirect(loc):
            return respond("", "302 Found", extra=[("Location", loc)])

        if path == "/cookie-consent" and method == "POST":
            choice = form.get("esito", "")
            opts = [x for x in form.get("finalita", "").split(",") if x in ("misurazione", "esperienza", "marketing")]
            if choice == "accetta":
                ev = {"kind": "consent", "choice": "accept", "optional_enabled": ["misurazione", "esperienza", "marketing"]}
            elif choice == "chiudi":
                ev = {"kind": "consent", "choice": "reject", "optional_enabled": []}
            else:
                ev = {"kind": "consent", "choice": "custom", "optional_enabled": opts}
            self.log(ev)
            headers.append(("Set-Cookie", "cookie_prefs=%s; Path=/; Max-Age=15552000" % (
                "|".join(ev["optional_enabled"]) or "tecnici")))
            return respond("ok", ctype="text/plain")

        if path == "/":
            return respond(self.shell("Banca Altavia - Il conto online a canone zero", HOME, banner, logged))

        if path == "/accesso":
            err = ""
            if method == "POST":
                cf = form.get("codice_fiscale", "").strip()
                ok = cf.upper() == USER and form.get("password", "") == PASSWORD
                self.log({"kind": "credential", "form": "area-clienti-login", "target": "account", "username": cf, "ok": ok})
                if ok:
                    s = secrets.token_hex(20)
                    self.sessions[s] = {"cf": USER}
                    age = "; Max-Age=2592000" if form.get("ricordami") else ""
                    headers.append(("Set-Cookie", "ALTAVIA_S=%s; Path=/; HttpOnly%s" % (s, age)))
                    return redirect("/area-clienti")
                err = "<p class='err' role='alert'>Codice fiscale o password errati. Riprova.</p>"
            body = ("<div class='wrap'><div class='panel' style='max-width:460px;margin:auto'><h1>Accedi all'Area clienti</h1>%s%s</div></div>"
                    % (err, LOGIN_FORM.replace("id='", "id='p-").replace("for='", "for='p-")))
            return respond(self.shell("Accesso - Banca Altavia", body, banner, False))

        if path == "/registrazione":
            msg = ""
            if method == "POST":
                self.log({"kind": "credential", "form": "registrazione", "target": "decoy",
                          "username": form.get("codice_fiscale", "") or form.get("email", ""), "ok": False})
                msg = "<p class='err' role='alert'>Questo codice fiscale risulta gia' registrato. Accedi all'Area clienti.</p>"
            body = ("<div class='wrap'><div class='panel' style='max-width:520px;margin:auto'><h1>Registrati ad Altavia</h1>"
                    "<p>Crea le tue credenziali per aprire il conto online in 10 minuti.</p>%s"
                    "<form method='post' action='/registrazione'><label for='rcf'>Codice fiscale</label><input type='text' id='rcf' name='codice_fiscale'>"
                    "<label for='rem'>Email</label><input type='text' id='rem' name='email'>"
                    "<label for='rpw'>Scegli una password</label><input type='password' id='rpw' name='password'>"
                    "<p><label style='font-weight:400'><input type='checkbox' name='privacy'> Ho letto l'informativa privacy</label></p>"
                    "<button class='btn' type='submit'>Crea account</button></form></div></div>") % msg
            return respond(self.shell("Registrazione - Banca Altavia", body, banner, False))

        if path == "/esci":
            headers.append(("Set-Cookie", "ALTAVIA_S=; Path=/; Max-Age=0"))
            return redirect("/")

        if path.startswith("/area-clienti") or path.startswith("/api/") or path.startswith("/pdf/"):
            if not logged:
                if path.startswith("/api/"):
                    return respond('{"errore":"sessione scaduta"}', "401 Unauthorized", "application/json")
                return redirect("/accesso")

        def row(d):
            amt = ("<div class='a'>%s<small>%s</small></div>" % (eur(d["amount"]), d["label"]) if d["amount"] is not None
                   else "<div class='a'>&nbsp;</div>")
            return ("<div class='doc' data-id='%s'><div class='d'>%s</div><div class='t'><span class='pill'>%s</span><b>%s</b>"
                    "<small>%s &middot; Documento n. %s</small></div>%s<a href='/pdf/%s.pdf' aria-label='Scarica'>Scarica</a></div>") % (
                d["id"], itd(d["date"]), d["cat"], html.escape(d["title"]), html.escape(d["sub"]), d["id"], amt,
                d["id"].replace("/", "-"))

        if path == "/area-clienti":
            body = ("<div class='wrap'><h1>Ciao Giulia</h1><div class='panel'><h2>Conto Altavia</h2><p>IBAN IT02 L031 2403 2100 0000 0083 412</p>"
                    "<p style='font-size:30px;margin:4px 0'><b>6.802,14 \u20ac</b></p><p><a href='/area-clienti/movimenti'>Movimenti</a> &middot; "
                    "<a href='/area-clienti/bonifico'>Fai un bonifico</a> &middot; <a href='/area-clienti/carte'>Le mie carte</a></p></div>"
                    "<div class='panel'><h2>Ultimi documenti</h2>%s<p style='text-align:right'><a href='/area-clienti/documenti'>Vedi tutti</a></p></div>"
                    "<div class='panel' style='background:#fff3e0'><b>Invita un amico</b>: per te e per lui 50 \u20ac di bonus.</div></div>") % (
                "".join(row(d) for d in DOCS[:3]))
            return respond(self.shell("Area clienti - Banca Altavia", body, banner, True))

        if path == "/area-clienti/documenti":
            body = ("<div class='wrap'><p style='font-size:13px'><a href='/area-clienti'>Area clienti</a> &rsaquo; I miei documenti</p>"
                    "<h1>I miei documenti</h1><div class='panel'><p style='font-size:14px;color:#666'>Tutti i documenti del conto e delle carte, dal piu' recente.</p>"
                    "<div id='lista'></div><p style='text-align:center'><button class='btn o' id='altri' type='button'>Mostra altri</button></p>"
                    "<p id='fine' style='display:none;text-align:center;color:#777'>Non ci sono altri documenti.</p></div></div>")
            js = """<script>
(function(){var off=0;var b=document.getElementById('altri');
function more(){b.disabled=true;b.textContent='Caricamento...';
fetch('/api/documenti?offset='+off+'&limit=10').then(function(r){return r.json()}).then(function(j){
 var l=document.getElementById('lista');var t=document.createElement('div');t.innerHTML=j.html;while(t.firstChild)l.appendChild(t.firstChild);
 off+=j.n;b.disabled=false;b.textContent='Mostra altri';if(!j.altri){b.style.display='none';document.getElementById('fine').style.display='block';}});}
b.addEventListener('click',more);more();})();</script>"""
            return respond(self.shell("I miei documenti - Banca Altavia", body, banner, True, js))

        if path == "/api/documenti":
            off = int(qs.get("offset", ["0"])[0])
            lim = min(10, int(qs.get("limit", ["10"])[0]))
            chunk = DOCS[off:off + lim]
            return respond(json.dumps({"html": "".join(row(d) for d in chunk), "n": len(chunk),
                                       "altri": off + len(chunk) < len(DOCS)}), ctype="application/json")

        if path.startswith("/pdf/"):
            self.log({"kind": "download", "path": path})
            return respond(PDF, ctype="application/pdf")

        if path.startswith("/area-clienti/"):
            return respond(self.shell("Area clienti - Banca Altavia", "<div class='wrap'><div class='panel'><h1>Servizio momentaneamente non disponibile</h1></div></div>", banner, True))

        if path.startswith("/p/"):
            name = path[3:].replace("-", " ").capitalize()
            return respond(self.shell(name + " - Banca Altavia", "<div class='wrap'><div class='panel'><h1>%s</h1><p>Tutto quello che ti serve, "
                                      "in un'app. Messaggio pubblicitario con finalita' promozionale.</p></div></div>" % name, banner, logged))
        return respond("Pagina non trovata", "404 Not Found", "text/plain")


LOGIN_FORM = ("<form method='post' action='/accesso'><label for='cf'>Codice fiscale</label>"
              "<input type='text' id='cf' name='codice_fiscale' autocomplete='username' maxlength='16' style='text-transform:uppercase'>"
              "<label for='pw'>Password</label><input type='password' id='pw' name='password' autocomplete='current-password'>"
              "<p><label style='font-weight:400'><input type='checkbox' name='ricordami' value='1'> Ricordami su questo dispositivo</label></p>"
              "<button class='btn' type='submit' style='width:100%'>Accedi</button></form>"
              "<p style='font-size:13px'><a href='/p/recupera-password'>Hai dimenticato la password?</a></p>"
              "<p style='font-size:13px'>Non sei ancora cliente? <a href='/registrazione'>Registrati</a></p>")

LOGIN_MODAL = ("<div class='modal-bg' id='login-modal'><div class='modal' role='dialog' aria-modal='true' aria-labelledby='lm-t'>"
               "<button class='close' type='button' aria-label='Chiudi finestra' id='lm-close'>&times;</button>"
               "<h2 id='lm-t' style='margin-top:0'>Area clienti</h2>" + LOGIN_FORM + "</div></div>"
               "<script>(function(){var o=document.getElementById('open-login'),m=document.getElementById('login-modal');if(!o)return;"
               "o.addEventListener('click',function(e){e.preventDefault();m.classList.add('open');setTimeout(function(){document.getElementById('cf').focus()},50)});"
               "document.getElementById('lm-close').onclick=function(){m.classList.remove('open')};})();</script>")

HOME = """
<section class='hero'><div><h1>Il conto a canone zero, davvero.</h1><p>Apri Conto Altavia dallo smartphone: IBAN italiano, carta di debito virtuale subito e bonifici istantanei senza costi.</p>
<a class='btn' href='/registrazione'>Apri il conto</a> <a class='btn o' href='/p/conto'>Scopri Conto Altavia</a></div>
<div style='background:#fff;border-radius:16px;padding:24px'><h3>Carta Altavia Gold</h3><p>Zero canone il primo anno e assicurazione viaggi inclusa.</p><a href='/p/carta-altavia-gold'>Richiedila</a></div></section>
<div class='feat'><div><h3>Bonifici istantanei</h3><p>Gratis, sempre.</p></div><div><h3>Conto deposito 3,25%</h3><p>Vincoli da 6 a 36 mesi.</p></div><div><h3>Sicurezza</h3><p>Autorizza ogni operazione con l'app.</p></div></div>
<div class='faq'><h2>Domande frequenti</h2><details><summary>Come apro il conto?</summary><p>Ti servono un documento d'identita' e il codice fiscale.</p></details>
<details><summary>Dove trovo gli estratti conto?</summary><p>Nell'Area clienti, sezione I miei documenti.</p></details>
<details><summary>Come blocco la carta?</summary><p>Dall'app o chiamando il numero verde 800 123 456.</p></details></div>
"""

BANNER = """
<div id='cookie-law' role='region' aria-label='Informativa sui cookie'>
<button class='x' type='button' id='cl-x' aria-label='Chiudi' title='Chiudi e continua senza accettare'>&#10005;</button>
<p><b>Informativa</b><br>Noi e terze parti selezionate utilizziamo cookie o tecnologie simili per finalita' tecniche e, con il tuo consenso,
anche per altre finalita' (misurazione, miglioramento dell'esperienza, marketing) come specificato nella <a href='/p/cookie-policy'>cookie policy</a>.
Puoi liberamente prestare, rifiutare o revocare il tuo consenso in qualsiasi momento. Chiudendo il banner con la X continuerai la navigazione senza accettare.</p>
<button class='btn o' type='button' id='cl-more'>Scopri di piu' e personalizza</button> <button class='btn' type='button' id='cl-ok'>Accetta</button>
</div>
<div id='cookie-pref'><div class='in' role='dialog' aria-label='Preferenze'><h3>Le tue preferenze</h3>
<p><label style='font-weight:400'><input type='checkbox' checked disabled> Necessari</label></p>
<p><label style='font-weight:400'><input type='checkbox' data-f='misurazione'> Misurazione</label></p>
<p><label style='font-weight:400'><input type='checkbox' data-f='esperienza'> Miglioramento dell'esperienza</label></p>
<p><label style='font-weight:400'><input type='checkbox' data-f='marketing'> Marketing</label></p>
<button class='btn' type='button' id='cl-save'>Salva e continua</button></div></div>
<script>(function(){
function send(esito,fin){var b=new URLSearchParams();b.set('esito',esito);b.set('finalita',(fin||[]).join(','));
fetch('/cookie-consent',{method:'POST',body:b}).then(function(){['cookie-law','cookie-pref'].forEach(function(i){var e=document.getElementById(i);if(e)e.remove();});});}
document.getElementById('cl-x').onclick=function(){send('chiudi')};
document.getElementById('cl-ok').onclick=function(){send('accetta')};
document.getElementById('cl-more').onclick=function(){document.getElementById('cookie-pref').style.display='block'};
document.getElementById('cl-save').onclick=function(){var f=[];document.querySelectorAll('#cookie-pref input[data-f]').forEach(function(c){if(c.checked)f.push(c.getAttribute('data-f'))});send('salva',f)};
})();</script>
"""


def make_app():
    return App()
