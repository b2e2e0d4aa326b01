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

  const rows = (summary) => el('dl', {}, summary.flatMap((r) => [
    el('dt', { text: r.label, class: r.warning ? 'warning' : '' }),
    el('dd', { text: r.value, class: r.warning ? 'warning' : '' }),
  ]));

  const decide = async (article, path, body) => {
    for (const b of article.querySelectorAll('button')) b.disabled = true;
    try { await api(path, body); } catch (e) { status(`Could not send the decision: ${e.message}`); }
    refresh();
  };

  const renderApproval = (a, accounts) => {
    const heading = el('h3', { id: `a${a.id}-h`, text: a.title });
    const article = el('article', { 'aria-labelledby': heading.id, 'data-approval': String(a.id), 'data-kind': a.kind }, [heading]);
    const facts = [{ label: 'site', value: a.source }];
    if (a.kind === 'authorize') {
      facts.push({ label: 'calls itself', value: a.appName || '(no name)', warning: a.suspicious });
      if (a.suspicious) facts.push({ label: 'warning', value: 'This name looks suspicious: trust the site address above, not the name.', warning: true });
    }
    if (a.kind === 'icon-hash') {
      // ICON REQUEST_SIGNING: a bare hash nobody can show in words (the site opted in on the command line).
      article.append(el('p', { class: 'warning blind', role: 'alert', text: 'BLIND SIGNING: this site asks you to sign a bare hash. Sigil cannot tell what it authorises; it could move all your funds. Reject unless you trust this site completely.' }));
    }
    article.append(rows(facts.concat(a.summary || [])));
    let picks = [];
    if (a.kind === 'authorize') {
      const fs = el('fieldset', {}, [el('legend', { text: 'Accounts this site may see' })]);
      if (!accounts.length) fs.append(el('p', { text: 'You have no accounts.' }));
      picks = accounts.map((acc) => {
        const box = el('input', { type: 'checkbox', value: acc.key, name: 'account' });
        box.checked = true;
        fs.append(el('label', {}, [box, ` ${acc.name || ''} ${acc.address} (${acc.type})`]));
        return box;
      });
      article.append(fs);
    }
    const approve = el('button', { type: 'button', class: 'approve', text: 'Approve' });
    const reject = el('button', { type: 'button', class: 'reject', text: 'Reject' });
    approve.addEventListener('click', () => decide(article, '/api/approve', {
      id: a.id, accounts: picks.filter((b) => b.checked).map((b) => b.value),
    }));
    reject.addEventListener('click', () => decide(article, '/api/reject', { id: a.id }));
    article.append(el('div', { class: 'buttons' }, [approve, reject]));
    return article;
  };

  const render = (state) => {
    const pending = $('pending');
    pending.replaceChildren(...state.pending.map((a) => renderApproval(a, state.accounts)));
    $('empty').hidden = state.pending.length > 0;
    // Sites held back by the request rate limit: one line, however many origins (issue 15).
    const throttled = state.throttled || [];
    $('throttled').hidden = throttled.length === 0;
    if (throttled.length) {
      const origins = throttled.reduce((n, t) => n + t.origins, 0);
      const refused = throttled.reduce((n, t) => n + t.refused, 0);
      const names = throttled.slice(0, 3).map((t) => t.owner).join(', ') + (throttled.length > 3 ? ` and ${throttled.length - 3} more` : '');
      $('throttled').textContent = `Throttled in the last minute: ${origins} site(s) of ${names} (${refused} request(s) refused). Connected sites are not affected.`;
    }
    $('sites').replaceChildren(...state.sites.map((s) => {
      const revoke = el('button', { type: 'button', class: 'reject', text: 'Revoke' });
      revoke.addEventListener('click', async () => {
        revoke.disabled = true;
        try { await api('/api/revoke', { source: s.source }); } catch (e) { status(e.message); }
        refresh();
      });
      return el('li', { 'data-site': s.source }, [
        el('span', { text: `${s.source} (${s.appName}) — ${s.accounts.length} account(s)` }), revoke,
      ]);
    }));
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
      ` · ${e.origin || 'sigil'} · ${e.method}${e.account ? ' · ' + e.account : ''}`,
    ]);
    const facts = [
      { label: 'app name', value: e.app || '—' }, { label: 'protocol', value: e.protocol },
    ];
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

  if (!token) { status('Open this page with the link `sigil serve` printed (it carries the token).'); return; }
  const events = new EventSource(`/api/events?token=${encodeURIComponent(token)}`);
  events.addEventListener('changed', refresh);
  events.onopen = refresh;
  events.onerror = () => status('Reconnecting to Sigil…');
  refresh();
})();
