/*
 * Sigil bridge: exposes the Sigil signing gateway to a web page as a polkadot-js compatible
 * injected wallet, window.injectedWeb3.sigil = { enable, version }, answers the ICONex/Hana
 * browser relay events (ICONEX_RELAY_REQUEST → ICONEX_RELAY_RESPONSE) for ICON dapps, and offers an
 * Ethereum provider (EIP-1193) announced by EIP-6963, also as window.ethereum when no wallet took it.
 *
 * Wire protocol: docs/protocol.md. Behaviour copied from polkadot-js/extension
 * packages/extension-base/src/page/{index,Injected,Accounts,Metadata,Signer}.ts.
 *
 * Load it with <script src="http://127.0.0.1:9715/bridge.js"></script> (add ?as=polkadot-js to also
 * register under the 'polkadot-js' name, ?as=ethereum to take window.ethereum even from another wallet). It only ever talks to the origin it was loaded from, or,
 * when injected by the Sigil userscript, to that userscript over window.postMessage.
 */
(() => {
  'use strict';
  const VERSION = '0.1.0';
  const NAME = 'sigil';
  /* global __sigilConfig */ // set (lexically) by sigil.user.js when it injects this file inline
  const injectedConfig = typeof __sigilConfig === 'object' && __sigilConfig ? __sigilConfig : null;
  const scriptSrc = document.currentScript && document.currentScript.src;
  const params = scriptSrc ? new URL(scriptSrc).searchParams : new URLSearchParams();
  const aliases = (injectedConfig ? injectedConfig.as || [] : params.getAll('as')).filter((a) => a === 'polkadot-js' || a === 'ethereum');

  const w = window;
  w.injectedWeb3 = w.injectedWeb3 || {};
  if (w.injectedWeb3[NAME] && w.injectedWeb3[NAME].isSigil) return; // loaded twice: keep the first

  const randomId = () => {
    const b = new Uint8Array(16);
    crypto.getRandomValues(b);
    return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  };
  const session = randomId(); // one per tab (per page load); scopes replies and subscriptions
  let counter = 0;
  const nextId = () => `sigil.${Date.now()}.${++counter}`;

  // Pending handlers by request id (page/index.ts handleResponse): subscription handlers stay.
  const handlers = new Map();
  let ethereumEvent = () => {}; // set by the Ethereum provider below
  const deliver = (data) => {
    if (!data || typeof data.id !== 'string') return;
    if (data.id.startsWith('ethereum.')) { ethereumEvent(data.id.slice(9), 'subscription' in data ? data.subscription : data.response); return; }
    const h = handlers.get(data.id);
    if (!h) return; // duplicate or stale reply: already settled
    if (!h.subscriber) handlers.delete(data.id);
    if ('subscription' in data) h.subscriber && h.subscriber(data.subscription);
    else if ('error' in data && data.error != null) h.reject(new Error(String(data.error)));
    else if ('response' in data) h.resolve(data.response);
  };
  // The gateway run `current` now serves this tab. A request waiting for a person is lost when another
  // run holds it (the 202 named it), also when the stream never reached that run; one from a gateway
  // that names no run is lost when the tab saw the run change (`restarted`). Fail those, clearly.
  const LOST = 'Sigil restarted; the request was lost. Please try again.';
  const failWaiting = (current, restarted) => {
    for (const [id, h] of handlers) {
      if (h.waiting && (h.server ? h.server !== current : restarted)) { handlers.delete(id); h.reject(new Error(LOST)); }
    }
  };
  // Re-registers live subscriptions after a gateway restart (same ids, so unsubscribe still works).
  const resubscribe = () => {
    for (const [id, h] of handlers) {
      if (h.subscriber) transport.send(id, 'pub(accounts.subscribe)', null).catch(() => {});
    }
  };

  const UNREACHABLE = 'Sigil is not reachable: is `sigil serve` running, and did the browser allow this site to ' +
    'access local network devices?';

  // --- HTTP transport: fetch + one EventSource per tab, to the bridge's own origin only. -----------
  // Both transports tell the Ethereum provider when the gateway is lost and back (EIP-1193 disconnect/connect).
  const link = { lost: () => {}, back: () => {}, suspect: () => {} };
  const httpTransport = (base) => {
    let source = null;
    let serverId = null;
    const fetchOpts = (body) => {
      const o = {
        method: 'POST', mode: 'cors', credentials: 'omit', cache: 'no-store',
        headers: { 'Content-Type': 'application/json', 'X-Sigil-Session': session },
        body: JSON.stringify(body),
      };
      // Chrome Local Network Access (developer.chrome.com/blog/local-network-access): loopback target.
      if (/^http:\/\/(127\.|\[::1\]|localhost)/.test(base)) o.targetAddressSpace = 'loopback';
      return o;
    };
    let reopenDelay = 1000;
    let reopenTimer = null;
    let closing = false;
    let lastEventId = ''; // a reopened stream resumes after it, as EventSource's own reconnect does
    const openStream = () => {
      if (source || closing) return;
      clearTimeout(reopenTimer); // a request opened it first: the pending reopen is not needed
      reopenTimer = null;
      const resume = lastEventId ? `&lastEventID=${encodeURIComponent(lastEventId)}` : '';
      const es = new EventSource(`${base}/v1/events?session=${session}${resume}`);
      source = es;
      es.addEventListener('hello', (ev) => {
        reopenDelay = 1000;
        let info = {};
        try { info = JSON.parse(ev.data); } catch (_) { /* ignore */ }
        if (info.server) {
          const restarted = serverId !== null && info.server !== serverId;
          failWaiting(info.server, restarted);
          if (restarted) resubscribe();
          serverId = info.server;
        }
        link.back();
      });
      es.addEventListener('error', () => {
        if (es.readyState === EventSource.OPEN) return;
        link.suspect();
        // EventSource reconnects by itself after a network error (retry: from the server, resending
        // Last-Event-ID) but gives up for good on an HTTP error, such as the 503 of a gateway that is
        // shutting down: then a new stream is opened, so a restart never leaves the tab deaf.
        if (es.readyState === EventSource.CLOSED && source === es) {
          source = null;
          reopenTimer = setTimeout(openStream, reopenDelay);
          reopenDelay = Math.min(reopenDelay * 2, 30000);
        }
      });
      es.onmessage = (ev) => {
        if (ev.lastEventId) lastEventId = ev.lastEventId;
        try { deliver(JSON.parse(ev.data)); } catch (_) { /* ignore */ }
      };
    };
    return {
      async send(id, message, request) {
        openStream();
        let res;
        try {
          res = await fetch(`${base}/v1/request`, fetchOpts({ id, message, request }));
        } catch (_) {
          throw new Error(UNREACHABLE);
        }
        let body = null;
        try { body = await res.json(); } catch (_) { /* non-JSON */ }
        if (res.status === 202) return { pending: true, server: body && body.server };
        if (body && (('response' in body) || ('error' in body))) return body;
        throw new Error(`Sigil refused the request (HTTP ${res.status})`);
      },
      listen: openStream,
      // One JSON request to another endpoint of the gateway (POST /v1/ethereum): {status, json} or {unreachable}.
      async post(path, body) {
        let res;
        try { res = await fetch(base + path, fetchOpts(body)); } catch (_) { return { unreachable: true }; }
        let json = null;
        try { json = await res.json(); } catch (_) { /* non-JSON */ }
        return { status: res.status, json };
      },
      close() {
        try {
          fetch(`${base}/v1/session/close`, { ...fetchOpts({}), keepalive: true }).catch(() => {});
        } catch (_) { /* ignore */ }
        closing = true;
        if (source) source.close();
      },
    };
  };

  // --- postMessage transport: the userscript's content side relays (like an extension content script).
  const messageTransport = (channel) => {
    const waiting = new Map();
    w.addEventListener('message', (ev) => {
      const d = ev.data;
      if (ev.source !== w || !d || d.sigil !== channel || d.dir !== 'relay') return;
      if (d.kind === 'reply') {
        const p = waiting.get(d.rid);
        if (p) { waiting.delete(d.rid); p(d.body); }
      } else if (d.kind === 'event') deliver(d.body);
      else if (d.kind === 'restarted') { failWaiting(d.server, true); resubscribe(); }
      else if (d.kind === 'lost') link.lost();
      else if (d.kind === 'back') link.back();
    });
    const relay = (path, body) => new Promise((resolve) => {
      const rid = randomId();
      waiting.set(rid, resolve);
      w.postMessage({ sigil: channel, dir: 'page', kind: 'request', rid, session, path, body }, '*');
    });
    return {
      async send(id, message, request) {
        const body = await relay('/v1/request', { id, message, request });
        if (body && body.unreachable) throw new Error(UNREACHABLE);
        if (body && body.status === 202) return { pending: true, server: body.json && body.json.server };
        if (body && body.json && (('response' in body.json) || ('error' in body.json))) return body.json;
        throw new Error(`Sigil refused the request (HTTP ${body ? body.status : 0})`);
      },
      listen() {}, // the userscript polls the session's events from its first request on
      post: (path, body) => relay(path, body).then((r) => r || { unreachable: true }),
      close() { w.postMessage({ sigil: channel, dir: 'page', kind: 'close', session }, '*'); },
    };
  };

  const transport = injectedConfig && injectedConfig.channel
    ? messageTransport(injectedConfig.channel)
    : httpTransport(scriptSrc ? new URL(scriptSrc).origin : '');

  // sendMessage (page/index.ts): resolves with the response, rejects with Error(error).
  const sendMessage = (message, request, subscriber) => new Promise((resolve, reject) => {
    const id = nextId();
    const h = { resolve, reject, subscriber, waiting: false };
    handlers.set(id, h);
    transport.send(id, message, request === undefined ? null : request).then((r) => {
      if (r.pending) { h.waiting = true; h.server = typeof r.server === 'string' ? r.server : null; } // the reply comes on the stream
      else deliver({ ...r, id });
    }, (err) => { handlers.delete(id); reject(err); });
  });

  const accounts = {
    get: (anyType) => sendMessage('pub(accounts.list)', { anyType }),
    subscribe: (cb) => {
      let subId = null;
      let done = false;
      sendMessage('pub(accounts.subscribe)', null, cb).then((id) => {
        subId = id;
        if (done) sendMessage('pub(accounts.unsubscribe)', { id }).catch(console.error);
      }).catch(console.error);
      return () => {
        if (done) return;
        done = true;
        if (subId) {
          const h = handlers.get(subId);
          if (h) handlers.delete(subId);
          sendMessage('pub(accounts.unsubscribe)', { id: subId }).catch(console.error);
        }
      };
    },
  };
  const metadata = {
    get: () => sendMessage('pub(metadata.list)'),
    provide: (def) => sendMessage('pub(metadata.provide)', def),
  };
  let nextSignId = 0; // page/Signer.ts: the numeric id overrides the string one
  const signer = {
    signPayload: async (payload) => ({ ...(await sendMessage('pub(extrinsic.sign)', payload)), id: ++nextSignId }),
    signRaw: async (raw) => ({ ...(await sendMessage('pub(bytes.sign)', raw)), id: ++nextSignId }),
  };
  const provider = {
    listProviders: () => sendMessage('pub(rpc.listProviders)'),
    startProvider: (key) => sendMessage('pub(rpc.startProvider)', key),
    send: (method, params) => sendMessage('pub(rpc.send)', { method, params }),
    subscribe: (type, method, params, cb) => sendMessage('pub(rpc.subscribe)', { method, params, type }, cb),
    unsubscribe: (type, method, subscriptionId) => sendMessage('pub(rpc.unsubscribe)', { method, subscriptionId, type }),
    connect: () => Promise.reject(new Error('Sigil does not expose RPC providers')),
    disconnect: () => Promise.resolve(),
    isClonable: false,
    isConnected: false,
    hasSubscriptions: false,
  };
  const injected = Object.freeze({ accounts, metadata, provider, signer });

  // page/index.ts enable(): authorize first; only a rejection matters.
  const enable = async (originName) => {
    await sendMessage('pub(authorize.tab)', { origin: originName });
    return injected;
  };

  // --- ICON: the ICONex / Hana browser relay (docs/protocol.md "ICON"). Dapps dispatch
  // CustomEvent('ICONEX_RELAY_REQUEST', {detail: {type, payload}}) on window and listen for
  // 'ICONEX_RELAY_RESPONSE' {detail: {type, payload}}. Each type goes to Sigil as an icon(...)
  // message over the same transport and site identity as the polkadot-js messages; Sigil answers
  // {code, result} (code 1 = success, -1000 = the person said no, ICONex Connect v1 codes otherwise).
  const iconRespond = (type, payload) => {
    w.dispatchEvent(new CustomEvent('ICONEX_RELAY_RESPONSE', { detail: payload === undefined ? { type } : { type, payload } }));
  };
  const iconCall = async (message, request) => {
    const r = await sendMessage(message, request);
    return r && typeof r.code === 'number' ? r : { code: -9999, result: 'unexpected answer from Sigil' };
  };
  const iconRelay = async (type, payload) => {
    switch (type) {
      case 'REQUEST_HAS_ACCOUNT': {
        const r = await iconCall('icon(hasAccount)');
        iconRespond('RESPONSE_HAS_ACCOUNT', { hasAccount: r.code === 1 && !!(r.result && r.result.hasAccount) });
        break;
      }
      case 'REQUEST_HAS_ADDRESS': {
        const address = typeof payload === 'string' ? payload : (payload && payload.address) || '';
        const r = await iconCall('icon(hasAddress)', address);
        iconRespond('RESPONSE_HAS_ADDRESS', { hasAddress: r.code === 1 && !!(r.result && r.result.hasAddress) });
        break;
      }
      case 'REQUEST_ADDRESS': {
        const r = await iconCall('icon(address)');
        if (r.code === 1) iconRespond('RESPONSE_ADDRESS', r.result);
        else if (r.code !== -1000) iconRespond('RESPONSE_ADDRESS', { error: r.result });
        break; // a person's "no" is silence, as in ICONex
      }
      case 'REQUEST_JSON-RPC': {
        let r;
        try { r = await iconCall('icon(jsonRpc)', payload === undefined ? null : payload); } catch (e) {
          r = { code: -9999, result: { jsonrpc: '2.0', id: payload && payload.id, error: { code: -9999, message: String(e.message || e) } } };
        }
        if (r.code === -1000) iconRespond('CANCEL_JSON-RPC');
        else if (r.result && typeof r.result === 'object') iconRespond('RESPONSE_JSON-RPC', r.result);
        else iconRespond('RESPONSE_JSON-RPC', { jsonrpc: '2.0', id: payload && payload.id, error: { code: r.code, message: String(r.result) } });
        break;
      }
      case 'REQUEST_SIGNING': {
        let r;
        try { r = await iconCall('icon(signing)', payload === undefined ? null : payload); } catch (_) { r = { code: -9999 }; }
        if (r.code === 1) iconRespond('RESPONSE_SIGNING', r.result);
        else iconRespond('CANCEL_SIGNING');
        break;
      }
      default: break; // not ours (REQUEST_SCORE and others): leave it to whoever else listens
    }
  };
  w.addEventListener('ICONEX_RELAY_REQUEST', (ev) => {
    const d = ev && ev.detail;
    if (!d || typeof d !== 'object' || typeof d.type !== 'string') return;
    iconRelay(d.type, d.payload).catch((e) => console.warn('Sigil ICON relay:', e && e.message));
  });

  // --- Ethereum: an EIP-1193 provider (request, on/removeListener; events connect, disconnect,
  // chainChanged, accountsChanged, message), announced by EIP-6963 and, for older dapps, put at
  // window.ethereum when no other wallet took it (README "How an EVM dapp connects"). Every request is one
  // JSON-RPC 2.0 call (EIP-1474) to POST /v1/ethereum over the same transport and session; the gateway's
  // answer (it may take as long as a person takes to decide) settles the promise: its result, or a
  // ProviderRpcError with the gateway's code as it is (4001, 4100, 4200, 4900, 4901, -32602, -32603, …).
  const rpcError = (code, message, data) => {
    const e = new Error(message);
    e.code = code;
    if (data !== undefined) e.data = data;
    return e;
  };
  const listeners = new Map(); // event name → [listener, …] (a Node.js EventEmitter's surface)
  const emit = (event, arg) => {
    for (const fn of [...(listeners.get(event) || [])]) {
      try { fn(arg); } catch (e) { console.error(e); }
    }
  };
  let rpcId = 0;
  let connected = false; // EIP-1193 "connected": some chain is reachable through Sigil
  let chainId = null;
  let accountsSeen = null; // JSON of the last accounts array the dapp was told about
  let used = false;
  const setChain = (id) => {
    if (typeof id !== 'string' || id === chainId) return;
    const first = chainId === null;
    chainId = id;
    if (!first) emit('chainChanged', id);
  };
  const setAccounts = (list) => {
    if (!Array.isArray(list) || JSON.stringify(list) === accountsSeen) return;
    const first = accountsSeen === null;
    accountsSeen = JSON.stringify(list);
    if (!first || list.length) emit('accountsChanged', [...list]);
  };
  const call = async (method, params) => {
    const r = await transport.post('/v1/ethereum', { jsonrpc: '2.0', id: ++rpcId, method, params });
    if (r.unreachable) {
      link.lost();
      throw rpcError(4900, UNREACHABLE);
    }
    const b = r.json;
    if (b && b.jsonrpc === '2.0' && b.error && typeof b.error.code === 'number') {
      throw rpcError(b.error.code, String(b.error.message || ''), b.error.data);
    }
    if (!b || b.jsonrpc !== '2.0' || !('result' in b)) throw rpcError(-32603, `Sigil refused the request (HTTP ${r.status})`);
    if (method === 'eth_chainId') setChain(b.result);
    if (method === 'eth_accounts' || method === 'eth_requestAccounts') setAccounts(b.result);
    return b.result;
  };
  // connect ({chainId}) once a chain answers; again after a disconnect when the gateway is back.
  const checkConnection = () => call('eth_chainId', []).then((id) => {
    if (!connected) { connected = true; emit('connect', { chainId: id }); }
  }, () => {});
  link.lost = () => {
    if (!connected) return;
    connected = false;
    emit('disconnect', rpcError(4900, 'Sigil is not reachable (disconnected)'));
  };
  link.back = () => { if (used && !connected) checkConnection(); };
  link.suspect = () => { if (connected) call('eth_chainId', []).catch(() => {}); }; // the stream broke: is Sigil gone?
  ethereumEvent = (name, payload) => {
    if (name === 'accountsChanged') setAccounts(payload);
    else if (name === 'chainChanged') setChain(payload);
    else if (name === 'message') emit('message', payload);
  };
  const request = async (args) => {
    if (!args || typeof args !== 'object' || typeof args.method !== 'string' || !args.method) {
      throw rpcError(-32600, 'Expected a single, non-array, object argument with a method name');
    }
    if (!used) {
      used = true;
      transport.listen(); // the tab's event stream brings accountsChanged and chainChanged
      if (args.method !== 'eth_chainId') checkConnection();
    }
    const result = await call(args.method, args.params === undefined ? [] : args.params);
    if (args.method === 'eth_chainId' && !connected) { connected = true; emit('connect', { chainId: result }); }
    return result;
  };
  const on = (event, fn) => {
    if (typeof fn === 'function') listeners.set(event, [...(listeners.get(event) || []), fn]);
    return ethereum;
  };
  const removeListener = (event, fn) => {
    const list = (listeners.get(event) || []).filter((f) => f !== fn);
    if (list.length) listeners.set(event, list); else listeners.delete(event);
    return ethereum;
  };
  const ethereum = {
    isSigil: true,
    request,
    on,
    addListener: on,
    removeListener,
    off: removeListener,
    once: (event, fn) => { const once = (arg) => { removeListener(event, once); fn(arg); }; return on(event, once); },
    removeAllListeners: (event) => { if (event === undefined) listeners.clear(); else listeners.delete(event); return ethereum; },
    isConnected: () => connected,
    // Legacy surface (EIP-1193 appendix; EIP-1102 enable) for older dapps: thin wrappers over request.
    enable: () => request({ method: 'eth_requestAccounts' }),
    sendAsync: (payload, cb) => request(payload).then(
      (result) => cb(null, { jsonrpc: '2.0', id: payload.id, result }),
      (e) => cb(e, { jsonrpc: '2.0', id: payload.id, error: { code: e.code, message: e.message, data: e.data } })),
  };
  // EIP-6963: announce now and whenever a dapp asks (uuid: one RFC 4122 v4 per page load).
  const uuid = (() => {
    const b = new Uint8Array(16);
    crypto.getRandomValues(b);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  })();
  const ICON = 'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHdpZHRoPSI5NiIgaGVpZ2h0' +
    'PSI5NiIgdmlld0JveD0iMCAwIDk2IDk2Ij48cmVjdCB3aWR0aD0iOTYiIGhlaWdodD0iOTYiIHJ4PSIyMiIgZmlsbD0iIzNhMmY4ZiIvPjxjaXJjbGUg' +
    'Y3g9IjQ4IiBjeT0iNDgiIHI9IjI3IiBmaWxsPSJub25lIiBzdHJva2U9IiNmZmYiIHN0cm9rZS13aWR0aD0iNyIvPjxwYXRoIGQ9Ik0zNSA0OWw5IDkg' +
    'MTctMTkiIGZpbGw9Im5vbmUiIHN0cm9rZT0iI2ZmZiIgc3Ryb2tlLXdpZHRoPSI3IiBzdHJva2UtbGluZWNhcD0icm91bmQiIHN0cm9rZS1saW5lam9p' +
    'bj0icm91bmQiLz48L3N2Zz4=';
  const announcement = Object.freeze({ info: Object.freeze({ uuid, name: 'Sigil', icon: ICON, rdns: 'dev.sigil' }), provider: ethereum });
  const announce = () => w.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: announcement }));
  w.addEventListener('eip6963:requestProvider', announce);
  announce();
  if (aliases.includes('ethereum')) { // asked for: window.ethereum is Sigil's, also when a wallet assigns it later
    try { Object.defineProperty(w, 'ethereum', { get: () => ethereum, set: () => {}, configurable: true }); } catch (_) { /* locked */ }
  } else if (!w.ethereum) w.ethereum = ethereum;

  const entry = Object.freeze({ enable, version: VERSION, isSigil: true });
  if (!w.injectedWeb3[NAME]) w.injectedWeb3[NAME] = entry;
  for (const alias of aliases) if (alias !== 'ethereum' && !w.injectedWeb3[alias]) w.injectedWeb3[alias] = entry; // never clobber
  w.addEventListener('pagehide', (ev) => { if (!ev.persisted) transport.close(); });
})();
