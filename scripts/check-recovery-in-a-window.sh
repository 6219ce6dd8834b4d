#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue #20's acceptance for recovery, in a real window: Xvfb, a window manager (openbox) and
# keys and clicks sent with xdotool. Not part of CI (it needs those packages and ~40 s); run it
# after touching views/document/autosave or MainWindow::offerRecovery:
#   xvfb-run -a -s "-screen 0 1600x1000x24" bash scripts/check-recovery-in-a-window.sh
# It prints what it saw and leaves screenshots of the two dialogs in $OUT (default /tmp/recovery).
set -euo pipefail
APP="${APP:-build/app/accel-explorer}"
OUT="${OUT:-/tmp/recovery}"
rm -rf "$OUT" && mkdir -p "$OUT"
export XDG_DATA_HOME="$OUT/data" XDG_CONFIG_HOME="$OUT/config"
for tool in openbox xdotool import; do
    command -v "$tool" >/dev/null || { echo "needs $tool (apt-get install openbox xdotool imagemagick)"; exit 2; }
done
openbox >/dev/null 2>&1 &
sleep 1
"$APP" --version >/dev/null
cp presets/scenarios/lesson-default.json "$OUT/a.json"
cp presets/scenarios/support-assistant.json "$OUT/b.json"

edit_and_wait() { # one batch step in the window, then past the two-second autosave
    local window=$1
    xdotool windowactivate --sync "$window"
    eval "$(xdotool getwindowgeometry --shell "$window")"
    xdotool mousemove $((X + WIDTH * 2 / 3)) $((Y + HEIGHT / 2)) click 1
    sleep 0.5
    xdotool key plus plus
    sleep 3.5
}

echo "1. edit a.json, kill -9, start with b.json: the offer names a.json; Recover opens it apart"
"$APP" "$OUT/a.json" >/dev/null 2>&1 & a=$!
sleep 4
edit_and_wait "$(xdotool search --sync --onlyvisible --name 'a.json' | head -1)"
kill -9 $a
"$APP" "$OUT/b.json" >/dev/null 2>&1 & b=$!
sleep 6
dialog=$(xdotool search --onlyvisible --name 'Recover unsaved work' | head -1)
import -window "$dialog" "$OUT/offer-a.png"
xdotool windowactivate --sync "$dialog" key Return
sleep 3
for w in $(xdotool search --onlyvisible --name 'json'); do echo "   window: $(xdotool getwindowname "$w")"; done
kill $b

echo "2. two windows: the second offers nothing while the first lives, and closing it keeps"
echo "   the first's autosave; after the first dies the next start offers its work"
# a data folder of its own: part 1 ended with SIGTERM, which leaves its windows' work behind
export XDG_DATA_HOME="$OUT/data2"
"$APP" >/dev/null 2>&1 & first=$!
sleep 4
edit_and_wait "$(xdotool search --sync --onlyvisible --pid $first | tail -1)"
"$APP" >/dev/null 2>&1 & second=$!
sleep 5
echo "   offers while the first lives: $(xdotool search --onlyvisible --name 'Recover unsaved work' | wc -l)"
xdotool windowactivate --sync "$(xdotool search --onlyvisible --pid $second | tail -1)" key ctrl+q
sleep 2
echo "   the first's autosave after the second closed: $(find "$OUT/data2" -name 'session-*.json' | wc -l) file(s)"
kill -9 $first
"$APP" >/dev/null 2>&1 & third=$!
sleep 6
dialog=$(xdotool search --onlyvisible --name 'Recover unsaved work' | head -1)
[ -n "$dialog" ] && import -window "$dialog" "$OUT/offer-untitled.png"
echo "   offered after the first died: $([ -n "$dialog" ] && echo yes || echo no)"
kill $third
echo "screenshots: $OUT/offer-a.png, $OUT/offer-untitled.png"
