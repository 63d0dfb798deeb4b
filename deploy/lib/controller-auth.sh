# shellcheck shell=bash disable=SC2034,SC2154
# Sourced by the scripts that call a controller's REST API (deploy-app, shell): checks the URL and sets
# the array `auth` to curl's credential arguments. Expects controller, user, token and DIST set, and a
# die function. For a controller on this machine without --user or --token: the admin password in
# CREDENTIALS (default: the distribution's data/initial-credentials). (The variables are the
# caller's: shellcheck, checking this file alone, would call them unset and auth unused.)
controller_auth() {
    local credentials=${CREDENTIALS:-$DIST/data/initial-credentials}
    [[ "$controller" =~ ^https?:// ]] || die "--controller '$controller' must be an http:// or https:// URL"
    auth=()
    if [[ -n "$token" ]]; then
        auth=(-H "Authorization: Bearer $token")
    elif [[ -n "$user" ]]; then
        auth=(-u "$user")
    elif [[ "$controller" =~ ^https?://(localhost|127\.0\.0\.1)(:|/|$) && -r "$credentials" ]]; then
        auth=(-u "admin:$(sed -n 's/^password=//p' "$credentials")")
    else
        die "no credentials for $controller: --user USER:PASSWORD or --token TOKEN"
    fi
}
