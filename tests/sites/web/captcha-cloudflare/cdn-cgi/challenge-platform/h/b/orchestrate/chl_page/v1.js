// Stands in for Cloudflare's challenge orchestration script: it only declares the options object.
window._cf_chl_opt = {cvId: '3', cType: 'managed', cRay: 'fixture'};
