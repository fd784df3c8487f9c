// The identity mode of observe.js on its own: which document this is (its address, its
// time origin) and how far it loaded. The last look of an observation with frames sends
// this instead of the whole page script. Read-only.
() => ({ ok: true, url: location.href, timeOrigin: String(performance.timeOrigin), readyState: document.readyState })
