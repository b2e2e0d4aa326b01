// ==UserScript==
// @name         Sigil signing gateway
// @namespace    https://github.com/sigil/sigil
// @version      0.1.0
// @description  Puts the Sigil wallet (window.injectedWeb3.sigil) into the pages you choose, also on sites whose CSP forbids 127.0.0.1.
// @match        https://polkadot.js.org/apps/*
// @match        https://dev.papi.how/*
// @run-at       document-start
// @noframes
// @grant        GM_xmlhttpRequest
// @grant        GM_addElement
// @connect      127.0.0.1
// @connect      localhost
// ==/UserScript==
// Add the sites you use under "@match" (or in your userscript manager's per-script settings).
// Served by `sigil serve` from the approval page, with the gateway URL and a relay token filled in.
// Wire protocol: docs/protocol.md ("Relay clients"). Like an extension's content script, this side
// relays the page's messages to the gateway; the site identity it states is this tab's own
// location.origin, which the page cannot change.
(function () {
  'use strict';
  const GATEWAY = '__SIGIL_GATEWAY__';
  const RELAY_TOKEN = '__SIGIL_RELAY_TOKEN__';
  const AS = []; // add 'polkadot-js' for dapps that only look for that name, 'ethereum' to take window.ethereum
  const BRIDGE_SOURCE = '__SIGIL_BRIDGE_SOURCE__';

  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  const channel = 'sigil-' + Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  const pageOrigin = location.origin;
  const code = '(() => { const __sigilConfig = ' + JSON.stringify({ channel, as: AS }) + ';\n' + BRIDGE_SOURCE + '\n})();';
  const inject = () => {
    try {
      GM_addElement('script', { textContent: code }); // bypasses the page's CSP (Tampermonkey, Violentmonkey)
    } catch (_) {
      const s = document.createElement('script');
      s.textContent = code;
      (document.head || document.documentElement).appendChild(s);
      s.remove();
    }
  };
  // At document start there may be no <html> element yet. The observer's callback runs as a
  // microtask, which the HTML parser performs before it runs the page's first script.
  if (document.documentElement) inject();
  else new MutationObserver((_, observer) => {
    if (!document.documentElement) return;
    observer.disconnect();
    inject();
  }).observe(document, { childList: true });

  const toPage = (msg) => window.postMessage(Object.assign({ sigil: channel, dir: 'relay' }, msg), '*');
  const headers = (session) => ({
    'Content-Type': 'application/json',
    'Authorization': 'Bearer ' + RELAY_TOKEN,
    'X-Sigil-Relay-Origin': pageOrigin,
    'X-Sigil-Session': session,
  });
  // POST /v1/ethereum answers when the person has decided (minutes): no timeout there.
  const PATHS = { '/v1/request': 60000, '/v1/ethereum': undefined };
  const call = (method, path, session, body) => new Promise((resolve) => {
    GM_xmlhttpRequest({
      method, url: GATEWAY + path, headers: headers(session), data: body === undefined ? undefined : JSON.stringify(body),
      timeout: path in PATHS ? PATHS[path] : 60000, anonymous: true,
      onload: (r) => { let json = null; try { json = JSON.parse(r.responseText); } catch (_) { /* ignore */ } resolve({ status: r.status, json }); },
      onerror: () => resolve({ unreachable: true }),
      ontimeout: () => resolve({ unreachable: true }),
    });
  });

  const polling = new Set();
  let serverId = null;
  let down = false;
  const poll = async (session) => {
    let after = '';
    while (polling.has(session)) {
      const r = await call('GET', '/v1/poll?session=' + encodeURIComponent(session) + '&after=' + encodeURIComponent(after), session);
      if (r.unreachable || r.status !== 200 || !r.json) {
        if (r.unreachable) { down = true; toPage({ kind: 'lost' }); }
        await new Promise((ok) => setTimeout(ok, 2000));
        continue;
      }
      if (down) { down = false; toPage({ kind: 'back' }); }
      if (serverId && r.json.server !== serverId) toPage({ kind: 'restarted', server: r.json.server });
      serverId = r.json.server;
      for (const ev of r.json.events || []) { after = ev.eventId; toPage({ kind: 'event', body: ev.data }); }
    }
  };

  window.addEventListener('message', async (ev) => {
    const d = ev.data;
    if (ev.source !== window || !d || d.sigil !== channel || d.dir !== 'page' || typeof d.session !== 'string') return;
    if (d.kind === 'request') {
      if (!polling.has(d.session)) { polling.add(d.session); poll(d.session); }
      const path = d.path === undefined ? '/v1/request' : d.path;
      if (!Object.prototype.hasOwnProperty.call(PATHS, path)) return; // only the two request endpoints
      toPage({ kind: 'reply', rid: d.rid, body: await call('POST', path, d.session, d.body) });
    } else if (d.kind === 'close') {
      polling.delete(d.session);
      call('POST', '/v1/session/close', d.session, {});
    }
  });
})();
