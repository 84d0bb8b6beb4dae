"""Web: dispatch over HTTP. The operators' console and the passenger page, their REST endpoints (addresses, sign-up,
safety), the installable passenger app and the operations endpoints."""
