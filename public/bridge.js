// Sigil bridge script: placeholder. The real bridge (window.injectedWeb3['sigil'], speaking the
// polkadot-js extension protocol to this gateway over HTTP) is written in a later issue.
