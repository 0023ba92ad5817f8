#!/usr/bin/env bash
# Measures how much CPU an interactive retro run uses while nothing happens (DESIGN.md: a machine
# waiting for a key must cost under 5% of one core). Runs the command in a tmux terminal for
# SECONDS and reads the process's CPU ticks from /proc.
# Usage: scripts/idle-cpu.sh [SECONDS] -- retro ARGS...   (default: 10 s of `retro testcard`)
set -euo pipefail
secs=10
if [ "${1:-}" != "" ] && [ "${1:-}" != "--" ]; then secs=$1; shift; fi
[ "${1:-}" = "--" ] && shift
cmd=("$@")
[ ${#cmd[@]} -eq 0 ] && cmd=(target/release/retro testcard)
session=retro-idle-$$
tmux new-session -d -s "$session" -x 100 -y 36 "${cmd[*]}; sleep 5"
trap 'tmux kill-session -t "$session" 2>/dev/null || true' EXIT
sleep 2
# The command runs as the child of the pane's shell: take that process, not any other retro
# running on the machine.
pid=$(pgrep -P "$(tmux display-message -p -t "$session" '#{pane_pid}')" | head -1)
echo "measuring: $(ps -o pid=,args= -p "$pid")"
hz=$(getconf CLK_TCK)
t1=$(awk '{print $14+$15}' "/proc/$pid/stat")
sleep "$secs"
t2=$(awk '{print $14+$15}' "/proc/$pid/stat")
tmux capture-pane -p -t "$session" | grep -v '^ *$' | tail -3 | sed 's/^/screen: /'
awk -v d=$((t2 - t1)) -v hz="$hz" -v s="$secs" 'BEGIN { printf "CPU: %.2f%% of one core over %d s\n", 100 * d / hz / s, s }'
