#!/usr/bin/env bash
# Installs what iwrbench needs outside Python: a Chromium it can drive, Tesseract, and (as root) the
# unprivileged user Chromium runs as with its sandbox on.
# Idempotent: prints what it finds and installs only what is missing.
set -euo pipefail

have() { command -v "$1" >/dev/null 2>&1; }
SUDO=""
if [ "$(id -u)" != "0" ]; then
  if have sudo; then SUDO="sudo"; fi
fi

# Chromium's sandbox cannot run as root: when iwrbench runs as root (CI, a fresh machine), the browser is
# started as this user, with no login, no home and no password (src/iwrbench/browser/sandbox.py).
# Without root this is not needed: the browser runs as the user running iwrbench.
BROWSER_USER=iwr-browser
if [ "$(id -u)" = "0" ]; then
  if ! id -u "$BROWSER_USER" >/dev/null 2>&1; then
    echo "system: making the user $BROWSER_USER that Chromium runs as (its sandbox on)"
    useradd --system --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin \
      --comment "iwrbench browser (sandboxed Chromium)" "$BROWSER_USER"
  fi
  for t in unshare setpriv pivot_root mount; do
    have "$t" || PATH="$PATH:/usr/sbin:/sbin" have "$t" || { echo "system: $t (util-linux/mount) is missing" >&2; exit 1; }
  done
fi

missing=()
chromium_bin=""
for b in chromium chromium-browser google-chrome google-chrome-stable; do
  if have "$b"; then chromium_bin=$(command -v "$b"); break; fi
done
[ -n "$chromium_bin" ] || missing+=(chromium)
have tesseract || missing+=(tesseract-ocr)
# fonts so that pages render the same on every machine
[ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || missing+=(fonts-dejavu-core)
[ -d /usr/share/fonts/truetype/liberation ] || missing+=(fonts-liberation)

if [ ${#missing[@]} -eq 0 ]; then
  echo "system: chromium ($chromium_bin) and tesseract present"
  exit 0
fi

if have apt-get && { [ "$(id -u)" = "0" ] || [ -n "$SUDO" ]; }; then
  echo "system: installing ${missing[*]} with apt-get"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  exit 0
fi

echo "system: cannot install ${missing[*]} (no apt-get or not root)." >&2
if [[ " ${missing[*]} " == *" chromium "* ]]; then
  echo "system: falling back to Playwright's own Chromium (needs internet): .venv/bin/playwright install chromium" >&2
  .venv/bin/playwright install chromium || { echo "system: no Chromium; install chromium and rerun" >&2; exit 1; }
fi
if ! have tesseract; then
  echo "system: install Tesseract (e.g. apt-get install tesseract-ocr) for OCR metrics" >&2
  exit 1
fi
