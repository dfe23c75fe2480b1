#!/usr/bin/env bash
# A walk through the service with curl, against `npm run serve -- --secret my-secret-key`.
# BASE and SECRET point it elsewhere: BASE=http://127.0.0.1:9000 SECRET=... bash docs/curl-walkthrough.sh
set -euo pipefail

BASE=${BASE:-http://127.0.0.1:8787}
SECRET=${SECRET:-my-secret-key}

echo '== 1. core.ping with the secret'
curl -fsS -X POST "$BASE/core/ping" -H "authorization: bearer $SECRET"
echo

echo '== 2. auth.create: an authorization that may call type.string.*'
AUTH=$(curl -fsS -X POST "$BASE/auth/create" \
  -H "authorization: bearer $SECRET" \
  -H 'content-type: application/vnd.service+json' \
  -H 'accept: text/plain' \
  --data-binary '[["$$", "abilities", ["type.string"]]]')
echo "$AUTH"

echo '== 3. type.string.reverse with the authorization'
curl -fsS -X POST "$BASE/type/string/reverse" \
  -H "authorization: bearer $AUTH" \
  -H 'content-type: text/plain' \
  --data-binary 'hello'
echo

echo '== 4. keyv.get with the same authorization: refused (401)'
curl -s -w '\n%{http_code}\n' -X POST "$BASE/keyv/get?bucket=users&key=alice" \
  -H "authorization: bearer $AUTH"
