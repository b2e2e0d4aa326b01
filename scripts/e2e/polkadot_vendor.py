"""The team's vendored polkadot-js browser bundles, for dapp pages in Chromium (issue 25).

They live in ../shared/vendor/polkadot-js beside the clone (SIGIL_VENDOR_DIR/polkadot-js elsewhere; see
../shared/vendor/README.md) and are served from there to the test's dapp pages under /vendor/, never
copied into the project. `e2e_browser.serve_dapp(…, vendor=True)` serves them and fills a page's
`{scripts}` with `script_tags()`; `vendor_ready(who)` says whether they are there: without them a run
says NOT RUN loudly, and fails when SIGILTEST_REQUIRE_VENDOR=1 (CI, .ci/run).
"""
import os
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
VENDOR = pathlib.Path(os.environ.get("SIGIL_VENDOR_DIR") or ROOT.parent / "shared" / "vendor") / "polkadot-js"
# In the load order the bundles need (UMD globals polkadotUtil, polkadotUtilCrypto, polkadotKeyring,
# polkadotTypes, polkadotApi, polkadotExtensionDapp).
BUNDLES = ["bundle-polkadot-util.js", "bundle-polkadot-util-crypto.js", "bundle-polkadot-keyring.js",
           "bundle-polkadot-types.js", "bundle-polkadot-api.js", "bundle-polkadot-extension-dapp.js"]


def script_tags():
    """The <script> elements that load every bundle from the dapp server's /vendor/, in order."""
    return "\n".join(f'<script src="/vendor/{name}"></script>' for name in BUNDLES)


def bundle(name):
    """The bytes of one vendored bundle, or None when `name` is not one of them."""
    return (VENDOR / name).read_bytes() if name in BUNDLES else None


def vendor_ready(who):
    """True when every bundle is there. Otherwise: exits with FAILED when SIGILTEST_REQUIRE_VENDOR=1,
    else prints a loud NOT RUN banner naming `who` (what will not run) and returns False."""
    missing = [name for name in BUNDLES if not (VENDOR / name).is_file()]
    if not missing:
        return True
    message = (f"the vendored polkadot-js bundles are missing from {VENDOR} ({', '.join(missing)}); they come "
               f"with ../shared beside the clone, or set SIGIL_VENDOR_DIR")
    if os.environ.get("SIGILTEST_REQUIRE_VENDOR") == "1":
        sys.exit(f"{who}: FAILED: {message} (CI requires them)")
    not_run(who, message)
    return False


def not_run(who, message):
    banner = "!" * 100
    print(f"{banner}\n{who}: NOT RUN: {message}\n{banner}", file=sys.stderr, flush=True)
