// Sigil's ICRC-29 signer page (docs/protocol.md, ICP section): a dapp opens it with window.open and
// sends ICRC-25 JSON-RPC requests with postMessage. The dapp's identity is event.origin — the
// browser's word, never a field of the message. Requests are relayed to this port's /v1/icrc29 (a
// same-origin request, which no other site can make) and the answer is posted back to that origin.
(() => {
  'use strict';
  const log = (text) => { document.getElementById('log').textContent = text; };
  const isRequest = (d) => d !== null && typeof d === 'object' && d.jsonrpc === '2.0' &&
    typeof d.method === 'string' && (typeof d.id === 'string' || typeof d.id === 'number');
  let peer = null;

  window.addEventListener('message', async (event) => {
    // Only the window that opened us, and only a JSON-RPC request.
    if (event.source === null || event.source !== window.opener || !isRequest(event.data)) return;
    const origin = event.origin;
    if (typeof origin !== 'string' || origin === 'null' || origin === window.location.origin) return;
    if (peer !== origin) {
      peer = origin;
      document.getElementById('peer').textContent = origin;
    }
    const reply = (message) => event.source.postMessage(message, origin);
    if (event.data.method === 'icrc29_status') {
      reply({ jsonrpc: '2.0', id: event.data.id, result: 'ready' });
      return;
    }
    log(`${event.data.method}: waiting for Sigil…`);
    try {
      const response = await fetch('/v1/icrc29', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Sigil-ICRC29-Origin': origin },
        body: JSON.stringify(event.data),
        cache: 'no-store',
      });
      if (!response.ok) throw Object.assign(new Error(`HTTP ${response.status}`), { status: response.status });
      reply(await response.json());
      log(`${event.data.method}: answered`);
    } catch (e) {
      // ICRC-25 4000: `data` is {status (the HTTP status), message}, absent when no HTTP answer came.
      const error = { code: 4000, message: 'Network error' };
      if (e.status) error.data = { status: e.status, message: `Sigil answered HTTP ${e.status}` };
      reply({ jsonrpc: '2.0', id: event.data.id, error });
      log(`${event.data.method}: Sigil did not answer`);
    }
  });
})();
