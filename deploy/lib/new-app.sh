#!/usr/bin/env bash
# heliograph new-app NAME [--package P] [--dir D]: a standalone Maven project for an app, from the
# distribution's SDK (sdk/template, sdk/repository). Run by deploy/heliograph, which sets DIST.
set -euo pipefail

usage() {
    cat <<EOF
Usage: heliograph new-app NAME [--package PACKAGE] [--dir DIR]

Creates DIR (default ./NAME), a Maven project that builds a Heliograph app bundle outside this
repository: a packet-in listener named NAME, a REST resource at /api/v1/NAME, a web UI page, a
metatype configuration (pid PACKAGE) and unit tests. It builds against the SDK of the distribution
at $DIST (sdk/repository) and the Maven repository the controller's build filled:

  cd DIR && mvn package            (offline: mvn -o -Daether.offline.protocols=file package)
  heliograph deploy-app target/NAME-1.0.0-SNAPSHOT.jar [--controller URL]

NAME      lower case letters, digits and dashes, starting with a letter (at most 32)
--package the Java package (default com.example.NAME without dashes)
--dir     where to create the project; it must not exist, or be empty
EOF
}

die() {
    echo "heliograph new-app: $*" >&2
    exit 1
}

JAVA_KEYWORDS=" abstract assert boolean break byte case catch char class const continue default do double else
 enum extends final finally float for goto if implements import instanceof int interface long native new package
 private protected public return short static strictfp super switch synchronized this throw throws transient try
 void volatile while true false null _ "

name=""
package=""
dir=""
while (($#)); do
    case "$1" in
        -h | --help) usage; exit 0 ;;
        --package) (($# >= 2)) || die "--package needs a value"; package=$2; shift 2 ;;
        --dir) (($# >= 2)) || die "--dir needs a value"; dir=$2; shift 2 ;;
        -*) die "unknown option '$1' (new-app --help)" ;;
        *) [[ -z "$name" ]] || die "one NAME only, got '$name' and '$1'"; name=$1; shift ;;
    esac
done
[[ -n "$name" ]] || { usage >&2; die "NAME is missing"; }
[[ "$name" =~ ^[a-z]([a-z0-9-]{0,30}[a-z0-9])?$ ]] \
    || die "NAME '$name' must be lower case letters, digits and dashes, start with a letter, not end with a dash, at most 32"
package=${package:-com.example.${name//-/}}
[[ "$package" =~ ^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)*$ ]] \
    || die "package '$package' must be lower case Java identifiers separated by dots"
IFS=. read -ra parts <<<"$package"
for part in "${parts[@]}"; do
    [[ "$JAVA_KEYWORDS" != *" $part "* ]] || die "package '$package': '$part' is a Java keyword"
done
dir=${dir:-$name}
if [[ -e "$dir" ]]; then
    [[ -d "$dir" && -z "$(ls -A "$dir")" ]] || die "$dir exists and is not an empty directory"
fi

sdk="$DIST/sdk"
[[ -d "$sdk/template" && -d "$sdk/repository" ]] \
    || die "no SDK in $DIST (sdk/template, sdk/repository): build the distribution first (heliograph build)"
versions=("$sdk"/repository/io/heliograph/heliograph-app-parent/*/)
[[ ${#versions[@]} -eq 1 && -d "${versions[0]}" ]] || die "expected one heliograph-app-parent version in $sdk/repository"
version=$(basename "${versions[0]}")

# hello-app -> HelloApp: the prefix of the app's class names
class=""
IFS=- read -ra words <<<"$name"
for w in "${words[@]}"; do
    class+="${w^}"
done
[[ "$class" =~ ^[A-Z] ]] || class="App$class"

mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
package_path=${package//./\/}
sdk_url="file://$(cd "$sdk/repository" && pwd)"

replace() {
    sed -e "s|__PACKAGE_PATH__|$package_path|g" -e "s|__PACKAGE__|$package|g" -e "s|__CLASS__|$class|g" \
        -e "s|__NAME__|$name|g" -e "s|__HELIOGRAPH_VERSION__|$version|g" -e "s|__SDK_URL__|$sdk_url|g"
}

(cd "$sdk/template" && find . -type f) | while IFS= read -r file; do
    target="$dir/$(printf '%s' "${file#./}" | replace)"
    mkdir -p "$(dirname "$target")"
    replace <"$sdk/template/$file" >"$target"
done

cat <<EOF
Created $dir: app '$name', package $package, against Heliograph $version.
  cd $dir && mvn package
  heliograph deploy-app target/$name-1.0.0-SNAPSHOT.jar                  (into $DIST/hot)
  heliograph deploy-app target/$name-1.0.0-SNAPSHOT.jar --controller http://HOST:8080 --user admin:PASSWORD
Then: GET /api/v1/$name, and the page '$name' in the web UI.
EOF
