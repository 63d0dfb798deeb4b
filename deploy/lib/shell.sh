#!/usr/bin/env bash
# heliograph shell [--controller URL] [--user U:P | --token T] [-c LINE]: the controller's console, over
# its REST API (POST /api/v1/console), from anywhere the API is reachable. Run by deploy/heliograph and
# by a distribution's bin/heliograph (which ships it in libexec/), each setting DIST (and CREDENTIALS
# where the admin password is not in DIST/data).
set -euo pipefail

usage() {
    cat <<EOF
Usage: heliograph shell [--controller URL] [--user USER:PASSWORD | --token TOKEN] [-c LINE]

The console of a running controller (the commands of run --console: help, switches, hosts, lb, ...)
over its REST API, authenticated like every API request. Each line runs in the controller and its
output is printed here; a session lives for one line (variables do not carry over).

  --controller URL   the controller (default http://127.0.0.1:8080)
  --user, --token    credentials: HTTP Basic or a bearer token; by default, for a controller on
                     this machine, the admin password in ${CREDENTIALS:-$DIST/data/initial-credentials}
  -c LINE            run this one line and exit: status 1 if it failed

Without -c, lines come from the terminal (a prompt, line editing and history in
~/.heliograph_shell_history) or from piped input, one command a line; the status is 1 if any
failed. exit, quit or the end of input leaves the shell: the controller keeps running. Needs curl
and jq.
EOF
}

die() {
    echo "heliograph shell: $*" >&2
    exit 2
}

controller="http://127.0.0.1:8080"
user=""
token=""
one=""
while (($#)); do
    case "$1" in
        -h | --help) usage; exit 0 ;;
        --controller) (($# >= 2)) || die "--controller needs a URL"; controller=${2%/}; shift 2 ;;
        --user) (($# >= 2)) || die "--user needs USER:PASSWORD"; user=$2; shift 2 ;;
        --token) (($# >= 2)) || die "--token needs a token"; token=$2; shift 2 ;;
        -c) (($# >= 2)) || die "-c needs a command line"; one=$2; shift 2 ;;
        *) die "unknown argument '$1' (shell --help)" ;;
    esac
done
command -v curl >/dev/null || die "curl is needed (apt-get install curl)"
command -v jq >/dev/null || die "jq is needed (apt-get install jq)"
# shellcheck source=controller-auth.sh
source "$(dirname "${BASH_SOURCE[0]}")/controller-auth.sh"
controller_auth

# run LINE: prints its output, and its error on stderr; false when it failed. Wrong credentials, or
# no controller there, end the shell: no later line could do better.
run() {
    local body status answer
    answer=$(mktemp)
    body=$(jq -cn --arg line "$1" '{command: $line}')
    if ! status=$(curl -sS -o "$answer" -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
            --data-binary "$body" "${auth[@]}" "$controller/api/v1/console"); then
        rm -f "$answer"
        die "no answer from $controller"
    fi
    case "$status" in
        200)
            jq -j '.output | if . == "" or endswith("\n") then . else . + "\n" end' "$answer"
            if jq -e '.error != null' "$answer" >/dev/null; then
                jq -r '"error: " + .error' "$answer" >&2
                rm -f "$answer"
                return 1
            fi
            rm -f "$answer"
            ;;
        401)
            rm -f "$answer"
            die "$controller refused the credentials (401)"
            ;;
        *)
            echo "error: $controller answered $status: $(jq -r '.message // .' "$answer" 2>/dev/null || cat "$answer")" >&2
            rm -f "$answer"
            return 1
            ;;
    esac
}

leaves() {
    [[ "$1" =~ ^[[:space:]]*(exit|quit|logout)[[:space:]]*$ ]]
}

if [[ -n "$one" ]]; then
    leaves "$one" && exit 0
    run "$one"
    exit
fi

failed=0
if [[ -t 0 ]]; then
    history_file=~/.heliograph_shell_history
    touch "$history_file" 2>/dev/null && history -r "$history_file"
    echo "Heliograph console at $controller (help lists the commands; exit leaves the shell)"
    while IFS= read -r -e -p "heliograph> " line; do
        [[ -n "${line// }" ]] || continue
        history -s "$line"
        history -w "$history_file" 2>/dev/null || true
        leaves "$line" && break
        run "$line" || failed=1
    done
else
    while IFS= read -r line || [[ -n "$line" ]]; do
        [[ -n "${line// }" && ! "$line" =~ ^[[:space:]]*# ]] || continue
        leaves "$line" && break
        run "$line" || failed=1
    done
fi
exit "$failed"
