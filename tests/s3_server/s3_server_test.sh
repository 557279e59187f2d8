#!/usr/bin/env bash
# Checks the S3 server of scripts/start-s3 (the CTest fixture `s3`) does what floe's S3 tests
# rely on, with curl's SigV4 signing: PUT, GET, ranged GET, HEAD, ListObjectsV2, DELETE, and a
# 403 SignatureDoesNotMatch for a wrong secret (the server verifies signatures).
# Reads the settings start-s3 wrote to $FLOE_S3_RUN/env (default /tmp/floe-test-s3/env).
set -euo pipefail

RUN=${FLOE_S3_RUN:-/tmp/floe-test-s3}
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
[ -f "$RUN/env" ] || fail "no $RUN/env: the S3 server is not running (scripts/start-s3)"
# shellcheck disable=SC1091
. "$RUN/env"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A path-style URL of the bucket followed by $2 (with secret $1). curl splits --user at its first
# colon and the access key holds one: the credentials go in the URL, percent-encoded.
host=${FLOE_S3_ENDPOINT#http://}
url_with() { echo "http://${FLOE_S3_ACCESS_KEY_ID//:/%3A}:$1@$host/$FLOE_S3_BUCKET$2"; }
url() { url_with "$FLOE_S3_SECRET_ACCESS_KEY" "$1"; }

# s3 METHOD URL [curl options...]: the body goes to $tmp/body, the headers to $tmp/headers; prints
# the HTTP status.
s3() {
  local method=$1 target=$2
  shift 2
  curl -sS --aws-sigv4 "aws:amz:$FLOE_S3_REGION:s3" -X "$method" -o "$tmp/body" \
    -D "$tmp/headers" -w '%{http_code}' "$@" "$target"
}

# expect WHAT WANTED GOT
expect() {
  if [ "$2" != "$3" ]; then
    echo "--- response body:" >&2
    cat "$tmp/body" >&2 2>/dev/null || true
    echo >&2
    fail "$1: expected '$2', got '$3'"
  fi
}

key="s3-server-test/$$-$RANDOM.txt"
content=0123456789abcdefghij
printf '%s' "$content" >"$tmp/object"
sha=$(sha256sum "$tmp/object" | cut -d' ' -f1)
unsigned=(-H "x-amz-content-sha256: UNSIGNED-PAYLOAD")

code=$(s3 PUT "$(url "/$key")" -H "x-amz-content-sha256: $sha" \
  -H "Content-Type: application/octet-stream" --data-binary @"$tmp/object")
expect "PUT $key status" 200 "$code"

code=$(s3 GET "$(url "/$key")" "${unsigned[@]}")
expect "GET status" 200 "$code"
expect "GET body" "$content" "$(cat "$tmp/body")"

code=$(s3 GET "$(url "/$key")" "${unsigned[@]}" -H "Range: bytes=2-9")
expect "ranged GET (bytes=2-9) status" 206 "$code"
expect "ranged GET (bytes=2-9) body" "${content:2:8}" "$(cat "$tmp/body")"

code=$(s3 HEAD "$(url "/$key")" "${unsigned[@]}" -I)
expect "HEAD status" 200 "$code"
length=$(tr -d '\r' <"$tmp/headers" | sed -n 's/^[Cc]ontent-[Ll]ength: *//p' | tail -n 1)
expect "HEAD Content-Length" "${#content}" "$length"

code=$(s3 GET "$(url "?list-type=2&prefix=s3-server-test%2F")" "${unsigned[@]}")
expect "ListObjectsV2 status" 200 "$code"
grep -q "<Key>$key</Key>" "$tmp/body" || {
  cat "$tmp/body" >&2
  fail "ListObjectsV2 does not name $key"
}

code=$(s3 GET "$(url_with wrong-secret "/$key")" "${unsigned[@]}")
expect "GET with a wrong secret status" 403 "$code"
grep -q SignatureDoesNotMatch "$tmp/body" || {
  cat "$tmp/body" >&2
  fail "GET with a wrong secret: no SignatureDoesNotMatch in the body"
}

code=$(s3 DELETE "$(url "/$key")" "${unsigned[@]}")
expect "DELETE status" 204 "$code"
code=$(s3 GET "$(url "/$key")" "${unsigned[@]}")
expect "GET after DELETE status" 404 "$code"

echo "s3 server: PUT, GET, ranged GET, HEAD, ListObjectsV2, DELETE and SigV4 checks pass"
