#!/usr/bin/env bash
# heliograph deploy-app JAR [--controller URL] [--user U:P | --token T] [--remove]: installs, updates or
# removes an app bundle, in the local distribution's hot/ or over a controller's REST API. Run by
# deploy/heliograph, which sets DIST.
set -euo pipefail

usage() {
    cat <<EOF
Usage: heliograph deploy-app JAR [--controller URL [--user USER:PASSWORD | --token TOKEN]] [--remove]

Installs the app bundle JAR, or updates the one with its symbolic name, without restarting the
controller; --remove uninstalls it instead.

  without --controller  into this distribution's hot/ ($DIST/hot), as <symbolic name>.jar: the
                        running controller picks it up within a second (FileInstall)
  --controller URL      through that controller's REST API (/api/v1/bundles): an update if a bundle
                        of that symbolic name is installed, else an install and a start. Needs curl
                        and jq. Credentials: --user (HTTP Basic) or --token (bearer); by default, for
                        a controller on this machine, the admin password in
                        $DIST/data/initial-credentials
EOF
}

die() {
    echo "heliograph deploy-app: $*" >&2
    exit 1
}

jar=""
controller=""
user=""
token=""
remove=false
while (($#)); do
    case "$1" in
        -h | --help) usage; exit 0 ;;
        --controller) (($# >= 2)) || die "--controller needs a URL"; controller=${2%/}; shift 2 ;;
        --user) (($# >= 2)) || die "--user needs USER:PASSWORD"; user=$2; shift 2 ;;
        --token) (($# >= 2)) || die "--token needs a token"; token=$2; shift 2 ;;
        --remove) remove=true; shift ;;
        -*) die "unknown option '$1' (deploy-app --help)" ;;
        *) [[ -z "$jar" ]] || die "one JAR only, got '$jar' and '$1'"; jar=$1; shift ;;
    esac
done
[[ -n "$jar" ]] || { usage >&2; die "JAR is missing"; }
[[ -f "$jar" ]] || die "$jar: no such file"

# The bundle's symbolic name from its manifest (72-byte lines, continued by a leading space).
manifest() {
    if command -v unzip >/dev/null; then
        unzip -p "$jar" META-INF/MANIFEST.MF 2>/dev/null
    else
        local tmp
        tmp=$(mktemp -d)
        (cd "$tmp" && jar xf "$(realpath "$jar")" META-INF/MANIFEST.MF 2>/dev/null && cat META-INF/MANIFEST.MF)
        rm -rf "$tmp"
    fi
}
bsn=$(manifest | tr -d '\r' | awk '/^ / { line = line substr($0, 2); next } { if (line != "") print line; line = $0 }
    END { print line }' | sed -n 's/^Bundle-SymbolicName: *//p' | cut -d';' -f1 | tr -d ' ')
[[ -n "$bsn" ]] || die "$jar is not an OSGi bundle: its manifest has no Bundle-SymbolicName"

if [[ -z "$controller" ]]; then
    hot="$DIST/hot"
    [[ -d "$hot" ]] || die "no $hot: build the distribution first (heliograph build), or name a --controller"
    target="$hot/$bsn.jar"
    if $remove; then
        [[ -f "$target" ]] || die "$bsn is not in $hot ($target)"
        rm -f "$target"
        echo "removed $target: the controller uninstalls $bsn within a second"
    else
        # FileInstall watches *.jar only: copy beside, then rename over, so it never reads half a jar
        cp "$jar" "$target.new"
        mv -f "$target.new" "$target"
        echo "copied to $target: the controller installs or updates $bsn within a second"
    fi
    exit 0
fi

command -v curl >/dev/null || die "curl is needed for --controller (apt-get install curl)"
command -v jq >/dev/null || die "jq is needed for --controller (apt-get install jq)"
# shellcheck source=controller-auth.sh
source "$(dirname "${BASH_SOURCE[0]}")/controller-auth.sh"
controller_auth

# call METHOD PATH [curl args...]: the body on stdout; a status other than 2xx ends the script with it
call() {
    local method=$1 path=$2 out status
    shift 2
    out=$(mktemp)
    status=$(curl -sS -o "$out" -w '%{http_code}' -X "$method" "${auth[@]}" "$@" "$controller$path") \
        || { rm -f "$out"; die "$method $controller$path failed"; }
    if [[ "$status" != 2* ]]; then
        local body
        body=$(cat "$out")
        rm -f "$out"
        die "$method $path answered $status: $body"
    fi
    cat "$out"
    rm -f "$out"
}

id=$(call GET /api/v1/bundles | jq -r --arg bsn "$bsn" '[.[] | select(.symbolicName == $bsn)][0].id // empty')
jar_body=(-H "Content-Type: application/java-archive" --data-binary "@$jar")
if $remove; then
    [[ -n "$id" ]] || die "$bsn is not installed on $controller"
    call DELETE "/api/v1/bundles/$id" >/dev/null
    echo "uninstalled $bsn (bundle $id) from $controller"
elif [[ -n "$id" ]]; then
    state=$(call PUT "/api/v1/bundles/$id" "${jar_body[@]}" | jq -r .state)
    echo "updated $bsn (bundle $id) on $controller: $state"
else
    # an upload is started too; one that cannot start is refused and not left installed
    installed=$(call POST /api/v1/bundles "${jar_body[@]}")
    echo "installed $bsn as bundle $(jq -r .id <<<"$installed") on $controller: $(jq -r .state <<<"$installed")"
fi
