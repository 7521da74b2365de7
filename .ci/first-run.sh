#!/usr/bin/env bash
# What a newcomer does, on a fresh clone of the commit under test and without the CI's
# ELECTRON_SKIP_BINARY_DOWNLOAD (here Electron's binary cannot be downloaded, as on many machines):
# the README's `npm install && npm start` must install, build and serve the app in the browser,
# whose printed link must open the app; then Ctrl-C must stop it. Every wait is bounded.
set -uo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
pgid=""
cleanup() {
  [ -n "$pgid" ] && kill -KILL -- "-$pgid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "first run: $*"
  for log in install start; do [ -f "$work/$log.log" ] && { echo "--- $log.log (last 40 lines)"; tail -n 40 "$work/$log.log"; }; done
  exit 1
}

git clone -q --no-checkout "$repo" "$work/coffer" && git -C "$work/coffer" checkout -q "$(git -C "$repo" rev-parse HEAD)" || fail "git clone failed"
cd "$work/coffer"
unset ELECTRON_SKIP_BINARY_DOWNLOAD DISPLAY WAYLAND_DISPLAY
export XDG_CONFIG_HOME="$work/config" # the desktop store `npm start` uses lands here, not in ~/.config

timeout 900 npm install --no-audit --no-fund >"$work/install.log" 2>&1 || fail "npm install failed"
! grep -q EBADENGINE "$work/install.log" || fail "npm install warned that a package does not support this Node ($(node --version))"

# Its own process group, so Ctrl-C can be sent to all of it as a terminal does; a free port.
setsid npm start -- --port 0 >"$work/start.log" 2>&1 &
started=$!
for _ in $(seq 1 50); do
  # Field 5 of /proc/PID/stat, counted after the parenthesised command name (procps may be absent).
  [ "$(sed 's/.*) //' "/proc/$started/stat" 2>/dev/null | cut -d' ' -f3)" = "$started" ] && { pgid="$started"; break; }
  sleep 0.1
done
[ -n "$pgid" ] || fail "npm start did not get a process group of its own"
link=""
for _ in $(seq 1 300); do
  link="$(grep -o 'http://127\.0\.0\.1:[0-9]*/_coffer/?token=[A-Za-z0-9_-]*' "$work/start.log" | head -n 1)"
  [ -n "$link" ] && break
  kill -0 -- "-$pgid" 2>/dev/null || fail "npm start exited before printing the app's link"
  sleep 1
done
[ -n "$link" ] || fail "npm start printed no link within 300 s"
grep -q 'Opening Coffer in your browser' "$work/start.log" || fail "npm start did not say it opens the browser build"

# As a browser opens it (node's fetch, as curl may be absent): the link sets the session cookie
# and redirects to the app, which is then fetched with it.
page="$(timeout 30 node -e '
  const link = process.argv[1];
  (async () => {
    const first = await fetch(link, { redirect: "manual" });
    const cookie = (first.headers.get("set-cookie") ?? "").split(";")[0];
    const page = await fetch(new URL(first.headers.get("location") ?? "", link), { headers: { cookie } });
    process.stdout.write(`${page.status} ${await page.text()}`);
  })().catch((err) => { console.error(err.message); process.exit(1); });
' "$link")" || fail "the printed link did not answer"
[[ "$page" == "200 "* ]] && grep -q '<title>Coffer</title>' <<<"$page" || fail "the printed link did not serve the app: $page"

kill -INT -- "-$pgid"
for _ in $(seq 1 30); do
  kill -0 -- "-$pgid" 2>/dev/null || { pgid=""; echo "first run: npm install, npm start (${link%%/_coffer*}), Ctrl-C: all fine"; exit 0; }
  sleep 1
done
fail "npm start was still running 30 s after Ctrl-C"
