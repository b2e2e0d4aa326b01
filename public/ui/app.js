// Sigil approval page. No framework; every value from the server is inserted with textContent, never
// as HTML. The secret token comes from the URL fragment (never in a Referer); requests send it in
// X-Sigil-Token, except EventSource and the userscript link, which cannot and use ?token= (so keep
// access logs off for this port behind a proxy: docs/deployment.md).
(() => {
  'use strict';
  const token = new URLSearchParams(location.hash.slice(1)).get('token') || sessionStorage.getItem('sigil-token') || '';
  if (token) { sessionStorage.setItem('sigil-token', token); history.replaceState(null, '', location.pathname); }
  const $ = (id) => document.getElementById(id);
  const el = (tag, props = {}, children = []) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(props)) {
      if (k === 'text') e.textContent = v; else if (k === 'class') e.className = v; else e.setAttribute(k, v);
    }
    for (const c of children) if (c) e.append(c);
    return e;
  };
  const status = (text) => { $('status').textContent = text; };

  const api = async (path, body) => {
    const res = await fetch(path, {
      method: body ? 'POST' : 'GET', cache: 'no-store', credentials: 'omit',
      headers: body ? { 'Content-Type': 'application/json', 'X-Sigil-Token': token } : { 'X-Sigil-Token': token },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    return res.json();
  };

  // Values that are hex (0x…) go in wrapped monospace blocks.
  const isHex = (v) => /^0x[0-9a-f]{8,}$/i.test(v) || /\(genesis 0x/.test(v);
  const rows = (summary) => el('dl', {}, summary.flatMap((r) => [
    el('dt', { text: r.label, class: r.warning ? 'warning' : '' }),
    el('dd', { text: r.value, class: [r.warning ? 'warning' : '', isHex(r.value) ? 'hex' : ''].join(' ').trim() }),
  ]));

  // The Polkadot identicon: polkadot-js's circle positions (@polkadot/ui-shared icons/polkadot.ts,
  // 64 × 64, five-point layout) filled with the colours Sigil computed (SignerCore PolkadotIdenticon).
  const SVG = 'http://www.w3.org/2000/svg';
  const centres = (() => {
    const C = 32; const r = C / 4 * 3;
    const rroot3o2 = r * Math.sqrt(3) / 2; const ro2 = r / 2; const rroot3o4 = r * Math.sqrt(3) / 4;
    const ro4 = r / 4; const r3o4 = r * 3 / 4;
    return [[C, C - r], [C, C - ro2], [C - rroot3o4, C - r3o4], [C - rroot3o2, C - ro2], [C - rroot3o4, C - ro4],
      [C - rroot3o2, C], [C - rroot3o2, C + ro2], [C - rroot3o4, C + ro4], [C - rroot3o4, C + r3o4], [C, C + r],
      [C, C + ro2], [C + rroot3o4, C + r3o4], [C + rroot3o2, C + ro2], [C + rroot3o4, C + ro4], [C + rroot3o2, C],
      [C + rroot3o2, C - ro2], [C + rroot3o4, C - ro4], [C + rroot3o4, C - r3o4], [C, C]];
  })();
  const identicon = (colours) => {
    const svg = document.createElementNS(SVG, 'svg');
    svg.setAttribute('viewBox', '0 0 64 64'); svg.setAttribute('class', 'identicon'); svg.setAttribute('aria-hidden', 'true');
    const circle = (cx, cy, r, fill) => {
      const c = document.createElementNS(SVG, 'circle');
      c.setAttribute('cx', String(cx)); c.setAttribute('cy', String(cy)); c.setAttribute('r', String(r)); c.setAttribute('fill', fill);
      svg.append(c);
    };
    circle(32, 32, 32, '#eee');
    centres.forEach(([x, y], i) => circle(x, y, 5, colours[i]));
    return svg;
  };
  // An address: identicon, the person's name for it, the short form; the full address on focus,
  // hover and copy (and always to screen readers).
  const address = (m) => {
    const code = el('code', { class: 'addr', tabindex: '0', title: m.address, 'aria-label': m.address, 'data-address': m.address, text: m.short });
    code.addEventListener('focus', () => { code.textContent = m.address; });
    code.addEventListener('blur', () => { code.textContent = m.short; });
    code.addEventListener('copy', (ev) => { ev.clipboardData.setData('text/plain', m.address); ev.preventDefault(); });
    return el('span', { class: 'who', 'data-role': m.role || '' }, [
      m.identicon ? identicon(m.identicon) : null, m.name ? el('span', { class: 'name', text: m.name }) : null, code,
    ]);
  };
  // As SignerCore's AddressText.short: the ends of an address (the full one in Details and titles).
  const shortAddress = (a) => {
    const head = /^(hx|cx|0x)/.test(a) ? 6 : 4;
    return a.length <= head + 6 ? a : `${a.slice(0, head)}…${a.slice(-4)}`;
  };
  const roleWords = { from: 'From', to: 'To', account: 'Account', as: 'On behalf of', principal: 'Principal', 'account id': 'Account id' };

  const decide = async (inner, path, body) => {
    const article = inner.closest('article') || inner;
    for (const b of article.querySelectorAll('button')) b.disabled = true;
    // Focus leaves the buttons at once, before the decision is sent (a decided button must never hold
    // it, even while the page re-renders), and then goes to the next request's heading: never to a
    // button, so nothing approves by accident.
    const own = article.querySelector('h3, summary');
    if (own) own.focus({ preventScroll: true });
    const next = article.nextElementSibling || article.previousElementSibling;
    try { await api(path, body); } catch (e) { status(`Could not send the decision: ${e.message}`); }
    await refresh();
    const heading = next && document.body.contains(next) ? next.querySelector('h3, summary') : $('pending-heading');
    if (heading) heading.focus();
  };

  // The full view of one request: the sentence, who is involved, warnings, choices, Details, buttons.
  const fillApproval = (article, a, state) => {
    const heading = el('h3', { id: `a${a.id}-h`, tabindex: '-1', class: 'headline', text: a.headline || a.title });
    article.setAttribute('aria-labelledby', heading.id);
    const site = el('p', { class: 'site' }, [`Asked by `, el('strong', { text: a.source })]);
    if (a.kind === 'authorize') site.append(`, which calls itself “${a.appName || '(no name)'}”`);
    article.append(heading, site);
    const mentions = (a.mentions || []);
    if (mentions.length) {
      article.append(el('ul', { class: 'mentions' }, mentions.map((m) => el('li', {}, [
        el('span', { class: 'role', text: `${roleWords[m.role] || m.role}:` }), address(m),
      ]))));
    }
    if (a.kind === 'icon-hash') {
      // ICON REQUEST_SIGNING: a bare hash nobody can show in words (the site opted in on the command line).
      article.append(el('p', { class: 'warning blind', role: 'alert', text: 'BLIND SIGNING: this site asks you to sign a bare hash. Sigil cannot tell what it authorises; it could move all your funds. Reject unless you trust this site completely.' }));
    }
    const warnings = (a.warnings || []).filter((w) => a.kind !== 'icon-hash' || !w.startsWith('Blind signing'));
    if (warnings.length) {
      article.append(el('ul', { class: 'warnings', 'aria-label': 'Warnings' }, warnings.map((w) => el('li', { class: 'warning', text: w }))));
    }
    let picks = [];
    if (a.kind === 'authorize') {
      // Least privilege: nothing ticked, unless the person granted this site accounts before.
      const before = new Set(((state.sites || []).find((s) => s.source === a.source) || {}).accounts || []);
      const fs = el('fieldset', {}, [el('legend', { text: `Accounts ${a.source} may see` })]);
      // Ethereum accounts are granted by the Ethereum connection prompt (eth_requestAccounts), never here.
      const offered = state.accounts.filter((acc) => acc.type !== 'ethereum');
      if (!offered.length) fs.append(el('p', { text: 'You have no accounts.' }));
      picks = offered.map((acc) => {
        const box = el('input', { type: 'checkbox', value: acc.key, name: 'account', 'aria-label': `Let ${a.source} see ${acc.name || acc.address} (${acc.type}, ${acc.address})` });
        box.checked = before.has(acc.key);
        fs.append(el('label', {}, [box, ' ', address({ ...acc, role: 'account' }), el('span', { class: 'type', text: ` ${acc.type}` })]));
        return box;
      });
      article.append(fs);
    }
    const details = el('details', { class: 'more' }, [el('summary', { text: 'Details' })]);
    const facts = [{ label: 'site', value: a.source }];
    if (a.kind === 'authorize') facts.push({ label: 'calls itself', value: a.appName || '(no name)', warning: a.suspicious });
    details.append(rows(facts.concat(a.summary || [])));
    // The state carries at most 40 rows a request (values cut at 1,000 characters): the rest is
    // fetched on demand and shown as one block of text (SignerCore ApprovalDetails).
    if (a.partial) {
      const label = a.moreRows > 0 ? `Show ${a.moreRows} more row${a.moreRows === 1 ? '' : 's'} (full text)` : 'Show the full text';
      const more = el('button', { type: 'button', class: 'more-rows', text: label, 'aria-label': `${label} of the request of ${a.source}` });
      more.addEventListener('click', async () => {
        more.disabled = true;
        try {
          const full = await api(`/api/details?id=${encodeURIComponent(a.id)}`);
          more.replaceWith(el('pre', { class: 'full-text', tabindex: '0', 'aria-label': 'Every detail in full', text: full.text }));
        } catch (e) { more.disabled = false; status(`Could not load the details: ${e.message}`); }
      });
      details.append(more);
    }
    article.append(details);
    // Names carry the site; the sentence (the heading) is their description.
    const approve = el('button', { type: 'button', class: 'approve', text: 'Approve', 'aria-label': `Approve the request of ${a.source}`, 'aria-describedby': heading.id });
    const reject = el('button', { type: 'button', class: 'reject', text: 'Reject', 'aria-label': `Reject the request of ${a.source}`, 'aria-describedby': heading.id });
    approve.addEventListener('click', () => decide(article, '/api/approve', {
      id: a.id, accounts: picks.filter((b) => b.checked).map((b) => b.value),
    }));
    reject.addEventListener('click', () => decide(article, '/api/reject', { id: a.id }));
    article.append(el('div', { class: 'buttons' }, [approve, reject]));
    article.dataset.filled = '1';
  };

  // Beyond the first few, a request is one line that opens to the full view (fast with 64 waiting).
  const FULL = 3;
  const renderApproval = (a, state, index) => {
    const article = el('article', { 'data-approval': String(a.id), 'data-kind': a.kind });
    // Escape anywhere in a request rejects it (Enter or a click on Approve is the only way to approve).
    article.addEventListener('keydown', (ev) => {
      if (ev.key !== 'Escape' || ev.defaultPrevented) return;
      ev.preventDefault();
      decide(article, '/api/reject', { id: a.id });
    });
    if (index < FULL) { fillApproval(article, a, state); return article; }
    article.className = 'compact';
    const line = el('summary', { id: `a${a.id}-s`, text: `${a.headline || a.title} — ${a.source}` });
    const box = el('details', {}, [line]);
    article.setAttribute('aria-labelledby', line.id);
    box.addEventListener('toggle', () => {
      if (!box.open || article.dataset.filled) return;
      const inner = el('div', { class: 'inner' });
      fillApproval(inner, a, state);
      inner.removeAttribute('aria-labelledby');
      article.dataset.filled = '1';
      box.append(inner);
    });
    article.append(box);
    return article;
  };

  // Attention: the title count, and (opt-in) a desktop notification and a sound for a request that
  // arrives while the page is in the background.
  const seen = new Set();
  let firstState = true;
  const prefs = { notify: localStorage.getItem('sigil-notify') === '1', sound: localStorage.getItem('sigil-sound') === '1' };
  const beep = () => {
    try {
      const ctx = new AudioContext(); const osc = ctx.createOscillator(); const gain = ctx.createGain();
      osc.frequency.value = 880; gain.gain.value = 0.08; osc.connect(gain); gain.connect(ctx.destination);
      osc.start(); osc.stop(ctx.currentTime + 0.18); osc.onended = () => ctx.close();
    } catch (e) { /* no audio: the title count still shows it */ }
  };
  const announce = (fresh) => {
    if (!fresh.length || !document.hidden) return;
    if (prefs.notify && 'Notification' in window && Notification.permission === 'granted') {
      const n = new Notification(fresh.length === 1 ? 'Sigil: a request is waiting' : `Sigil: ${fresh.length} requests are waiting`,
        { body: fresh.map((a) => `${a.headline || a.title} (${a.source})`).join('\n'), tag: 'sigil-pending' });
      n.onclick = () => { window.focus(); n.close(); };
    }
    if (prefs.sound) beep();
  };
  const setupAttention = () => {
    const notify = $('pref-notify'); const sound = $('pref-sound');
    notify.checked = prefs.notify && 'Notification' in window && Notification.permission === 'granted';
    sound.checked = prefs.sound;
    if (!('Notification' in window)) notify.disabled = true;
    notify.addEventListener('change', async () => {
      if (notify.checked && Notification.permission !== 'granted') {
        notify.checked = (await Notification.requestPermission()) === 'granted';
      }
      prefs.notify = notify.checked; localStorage.setItem('sigil-notify', prefs.notify ? '1' : '0');
    });
    sound.addEventListener('change', () => { prefs.sound = sound.checked; localStorage.setItem('sigil-sound', prefs.sound ? '1' : '0'); });
  };

  // A connected site: its accounts (changeable on the page), Revoke with one confirmation.
  const renderSite = (s, state) => {
    const names = s.accounts.map((k) => { const a = state.accounts.find((x) => x.key === k); return a ? (a.name || a.short) : k.slice(0, 10); });
    const edit = el('button', { type: 'button', class: 'plain', text: 'Accounts', 'aria-expanded': 'false', 'aria-label': `Accounts of ${s.source}` });
    const revoke = el('button', { type: 'button', class: 'reject', text: 'Revoke', 'aria-label': `Revoke ${s.source}` });
    const li = el('li', { 'data-site': s.source }, [
      el('span', { class: 'site-line', text: `${s.source} (${s.appName}) — ${s.accounts.length} account(s)${names.length ? ': ' + names.join(', ') : ''}` }), edit, revoke,
    ]);
    const panel = el('div', { class: 'site-panel', hidden: '' });
    li.append(panel);
    edit.addEventListener('click', () => {
      const open = panel.hidden;
      panel.replaceChildren(); panel.hidden = !open; edit.setAttribute('aria-expanded', String(open));
      if (!open) return;
      const granted = new Set(s.accounts);
      const fs = el('fieldset', {}, [el('legend', { text: `Accounts ${s.source} may see` })]);
      const boxes = state.accounts.map((acc) => {
        const box = el('input', { type: 'checkbox', value: acc.key, 'aria-label': `Let ${s.source} see ${acc.name || acc.address} (${acc.type}, ${acc.address})` });
        box.checked = granted.has(acc.key);
        fs.append(el('label', {}, [box, ' ', address({ ...acc, role: 'account' })]));
        return box;
      });
      const save = el('button', { type: 'button', class: 'approve', text: 'Save accounts', 'aria-label': `Save accounts of ${s.source}` });
      save.addEventListener('click', async () => {
        save.disabled = true;
        try { await api('/api/accounts', { source: s.source, accounts: boxes.filter((b) => b.checked).map((b) => b.value) }); status(`Saved the accounts of ${s.source}.`); } catch (e) { status(`Could not save: ${e.message}`); }
        refresh();
      });
      panel.append(fs, el('div', { class: 'buttons' }, [save]));
      boxes[0] && boxes[0].focus();
    });
    revoke.addEventListener('click', () => {
      // Asks once: the confirmation replaces the panel; Cancel or Escape goes back.
      panel.hidden = false; edit.setAttribute('aria-expanded', 'false');
      const yes = el('button', { type: 'button', class: 'reject confirm', text: 'Yes, revoke', 'aria-label': `Yes, revoke ${s.source}` });
      const no = el('button', { type: 'button', class: 'plain', text: 'Cancel', 'aria-label': `Cancel: keep ${s.source} connected` });
      const close = () => { panel.replaceChildren(); panel.hidden = true; revoke.focus(); };
      no.addEventListener('click', close);
      panel.addEventListener('keydown', (ev) => { if (ev.key === 'Escape') { ev.preventDefault(); close(); } });
      yes.addEventListener('click', async () => {
        yes.disabled = true;
        try { await api('/api/revoke', { source: s.source }); } catch (e) { status(e.message); }
        refresh();
      });
      panel.replaceChildren(el('p', { role: 'alert', text: `Revoke ${s.source}? It loses access to every account until it asks again.` }), el('div', { class: 'buttons' }, [yes, no]));
      no.focus();
    });
    li.dataset.sig = JSON.stringify([s, state.accounts.map((a) => [a.key, a.name])]);
    return li;
  };

  // Keyed updates: a request or site already shown keeps its element (and the person's focus, open
  // Details, ticks); only what arrived or left changes.
  const reconcile = (container, items, key, make, sig) => {
    const old = new Map([...container.children].map((e) => [e.dataset.key, e]));
    const next = items.map((item, i) => {
      const k = key(item); const e = old.get(k);
      if (e && (!sig || e.dataset.sig === sig(item))) return e;
      const made = make(item, i); made.dataset.key = k; return made;
    });
    const focused = document.activeElement;
    // Remove what left first, so elements that stay are not moved (moving one drops its focus).
    const keep = new Set(next);
    for (const e of [...container.children]) if (!keep.has(e)) e.remove();
    next.forEach((e, i) => { if (container.children[i] !== e) container.insertBefore(e, container.children[i] || null); });
    if (focused && focused !== document.body) {
      if (!document.body.contains(focused)) container.closest('section').querySelector('h2').focus();
      else if (document.activeElement !== focused) focused.focus({ preventScroll: true });
    }
  };

  const render = (state) => {
    // Oldest first (ids increase in arrival order).
    const pendingList = [...state.pending].sort((x, y) => x.id - y.id);
    reconcile($('pending'), pendingList, (a) => String(a.id), (a, i) => renderApproval(a, state, i));
    // A request that moved into the first few is shown in full.
    [...$('pending').children].slice(0, FULL).forEach((article, i) => {
      if (article.classList.contains('compact')) {
        const full = renderApproval(pendingList[i], state, 0); full.dataset.key = article.dataset.key; article.replaceWith(full);
      }
    });
    $('empty').hidden = state.pending.length > 0;
    const fresh = pendingList.filter((a) => !seen.has(a.id));
    for (const a of pendingList) seen.add(a.id);
    if (!firstState) announce(fresh);
    firstState = false;
    // Sites held back by the request rate limit: one line, however many origins (issue 15).
    const throttled = state.throttled || [];
    $('throttled').hidden = throttled.length === 0;
    if (throttled.length) {
      const origins = throttled.reduce((n, t) => n + t.origins, 0);
      const refused = throttled.reduce((n, t) => n + t.refused, 0);
      const names = throttled.slice(0, 3).map((t) => t.owner).join(', ') + (throttled.length > 3 ? ` and ${throttled.length - 3} more` : '');
      $('throttled').textContent = `Throttled in the last minute: ${origins} site(s) of ${names} (${refused} request(s) refused). Connected sites are not affected.`;
    }
    reconcile($('sites'), state.sites, (s) => s.source, (s) => renderSite(s, state),
      (s) => JSON.stringify([s, state.accounts.map((a) => [a.key, a.name])]));
    $('no-sites').hidden = state.sites.length > 0;
    // Blind signing: on only where the person turned it on (docs/blind-signing.md).
    const blind = state.blindSigning || [];
    $('blind-sites').replaceChildren(...blind.map((origin) => {
      const off = el('button', { type: 'button', text: 'Turn off', 'aria-label': `Turn off blind signing for ${origin}` });
      off.addEventListener('click', async () => {
        off.disabled = true;
        try { await api('/api/blind-signing', { source: origin, on: false }); } catch (e) { status(e.message); }
        refresh();
      });
      return el('li', { 'data-blind': origin }, [el('span', { text: `${origin}: blind signing ON` }), off]);
    }));
    $('no-blind').hidden = blind.length > 0;
    $('bridge-url').textContent = `<script src="${state.bridgeURL}"></script>`;
    $('userscript').href = `/sigil.user.js?token=${encodeURIComponent(token)}`;
    $('bookmarklet').href = state.bookmarklet;
    document.title = state.pending.length ? `(${state.pending.length}) Sigil approvals` : 'Sigil approvals';
  };

  // Turning blind signing on takes two deliberate clicks: the second names the site.
  let blindPending = '';
  const resetBlind = () => {
    blindPending = '';
    $('blind-allow').textContent = 'Allow blind signing…';
    $('blind-cancel').hidden = true;
  };
  $('blind-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const origin = $('blind-origin').value.trim();
    if (!origin) { status('Type the site\'s origin, e.g. https://app.example'); return; }
    if (blindPending !== origin) {
      blindPending = origin;
      $('blind-allow').textContent = `Confirm: allow blind signing for ${origin}`;
      $('blind-cancel').hidden = false;
      return;
    }
    resetBlind();
    try {
      await api('/api/blind-signing', { source: origin, on: true });
      $('blind-origin').value = '';
    } catch (e) { status(`Blind signing not changed: ${e.message} (use the exact origin, scheme://host[:port])`); }
    refresh();
  });
  $('blind-cancel').addEventListener('click', resetBlind);
  $('blind-origin').addEventListener('input', resetBlind);

  // History: the journal's recent entries (filters as query parameters) and its verification.
  const journalQuery = () => {
    const q = new URLSearchParams();
    for (const [name, id] of [['site', 'filter-site'], ['decision', 'filter-decision'], ['account', 'filter-account']]) {
      const v = $(id).value.trim();
      if (v) q.set(name, v);
    }
    return q.toString();
  };
  const when = (ms) => new Date(ms).toLocaleString();
  const renderEntry = (e) => {
    const head = el('summary', {}, [
      `#${e.seq} · ${when(e.time)} · `, el('span', { class: `decision decision-${e.decision}`, text: e.decision }),
      ` · ${e.origin || 'sigil'} · ${e.method}`,
      e.account ? ' · ' : null, e.account ? el('code', { class: 'addr', title: e.account, text: shortAddress(e.account) }) : null,
    ]);
    const facts = [
      { label: 'app name', value: e.app || '—' }, { label: 'protocol', value: e.protocol },
    ];
    if (e.account) facts.push({ label: 'account', value: e.account });
    if (e.detail) facts.push({ label: 'detail', value: e.detail });
    const shown = (e.shown || []).map((r) => ({ label: r.label, value: r.value, warning: r.warning }));
    if (e.shownTruncated) shown.push({ label: '…', value: 'cut at the journal-shown-limit (the digest covers all of it)', warning: true });
    const digests = [
      { label: 'shown digest', value: e.summaryDigest }, { label: 'signed digest', value: e.subjectDigest },
      { label: 'signature', value: e.result }, { label: 'hash', value: e.hash },
    ].filter((d) => d.value && d.value !== '0x');
    return el('li', { 'data-seq': String(e.seq), 'data-decision': e.decision, 'data-origin': e.origin }, [
      el('details', {}, [head, rows(facts), el('h4', { text: 'What was shown' }), rows(shown), rows(digests)]),
    ]);
  };
  const renderJournal = (j) => {
    const badge = $('journal-badge');
    const banner = $('journal-banner');
    const v = j.verification;
    badge.hidden = true; banner.hidden = true;
    if (!j.enabled) {
      badge.hidden = false; badge.className = 'warning'; badge.textContent = 'The journal is off (--no-journal).';
    } else if (v && v.ok) {
      const cp = v.lastCheckpoint ? `, last checkpoint ${v.lastCheckpoint.number} at entry ${v.lastCheckpoint.seq}` : ', no checkpoint yet';
      badge.hidden = false; badge.className = 'badge';
      badge.textContent = `✓ Journal verified through entry ${v.headSeq}${cp} (checked ${when(v.checkedAt)}).`;
    } else if (v) {
      banner.hidden = false;
      banner.textContent = 'The journal does NOT verify: ' + v.problems.map((p) => `${p.kind} at entry ${p.seq}: ${p.message}`).join('\n');
    }
    const select = $('filter-decision');
    if (select.options.length === 1) for (const d of j.decisions || []) select.append(el('option', { value: d, text: d }));
    $('history').replaceChildren(...j.entries.map(renderEntry));
    $('history-empty').hidden = j.entries.length > 0;
  };
  const refreshJournal = async () => {
    try { renderJournal(await api('/api/journal?' + journalQuery())); } catch (e) { status(`History unavailable (${e.message})`); }
  };
  for (const id of ['filter-site', 'filter-account']) $(id).addEventListener('change', refreshJournal);
  $('filter-decision').addEventListener('change', refreshJournal);
  $('history-filter').addEventListener('submit', (ev) => { ev.preventDefault(); refreshJournal(); });
  $('journal-verify').addEventListener('click', async () => {
    $('journal-verify').disabled = true;
    try { await api('/api/journal/verify', {}); } catch (e) { status(`Could not verify: ${e.message}`); }
    $('journal-verify').disabled = false;
    refreshJournal();
  });

  let refreshing = false;
  let again = false;
  const refresh = async () => {
    if (refreshing) { again = true; return; }
    refreshing = true;
    try { render(await api('/api/state')); await refreshJournal(); status('Live'); } catch (e) {
      status(token ? `Not connected to Sigil (${e.message}). Is it running?` : 'Open this page with the link `sigil serve` printed (it carries the token).');
    }
    refreshing = false;
    if (again) { again = false; refresh(); }
  };

  setupAttention();
  if (!token) { status('Open this page with the link `sigil serve` printed (it carries the token).'); return; }
  // EventSource gives up for good on an HTTP error (a 503 at Sigil's connection cap): then a new one is
  // opened, unless the token is refused — a restarted Sigil has a new one, and this link is dead.
  let reopenDelay = 1000;
  const listen = () => {
    const events = new EventSource(`/api/events?token=${encodeURIComponent(token)}`);
    events.addEventListener('changed', refresh);
    events.onopen = () => { reopenDelay = 1000; refresh(); };
    events.onerror = async () => {
      status('Reconnecting to Sigil…');
      if (events.readyState !== EventSource.CLOSED) return;
      try { await api('/api/state'); } catch (e) {
        if (e.message === 'HTTP 403') {
          status('This approval link is no longer valid (did Sigil restart?): open the URL `sigil serve` printed.');
          return;
        }
      }
      setTimeout(listen, reopenDelay);
      reopenDelay = Math.min(reopenDelay * 2, 30000);
    };
  };
  listen();
  refresh();
})();
