#!/bin/sh
# usage: listen.sh BINARY DATAROOT  -- stdio, 2026-07-28: discover, listen, then close stdin; prints exit time
M='"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"sh","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}'
{ printf '%s\n' \
 "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{$M}}" \
 "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"subscriptions/listen\",\"params\":{$M,\"notifications\":{\"resourcesListChanged\":true,\"resourceSubscriptions\":[\"docs://getting-started.md\"]}}}"
  sleep 1; } | { start=$(date +%s.%N); "$1" --stdio --data-root "$2" 2>/dev/null; end=$(date +%s.%N); echo "exit after stdin closed: $(echo "$end - $start - 1" | bc) s" >&2; }
