"""The web protocol: JSON over WebSocket for the browser client (docs/web-protocol.md)."""
