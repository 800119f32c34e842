/**
 * A fixed public key in unpacked builds gives the extension the same id on every machine, so the
 * web app (VITE_EXTENSION_ID, defaulting to this id) can message it in development and in the
 * end-to-end suite. Only the public half exists; nothing can be signed with it. The store package
 * drops the key, and the store assigns the published id (set VITE_EXTENSION_ID to it for release).
 */
export const DEV_EXTENSION_PUBLIC_KEY =
  'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAsnkbZ5SPh+H7BbRd4uglGCUNaSl9d460ObDJ3UyNkahskrlrt3FB4PkQ4Dlc3W+8VAUH0dLSJa5IIonRbiq3ZDT+eY69mfOoKrY7pJX0nrlIHMQ/0e+LK7UjSx5ilobdFuRY+Mwst37XeVTXZ5jqNlyXEFGHSS+0Mfbyr5z6FyRggZTR94wokpznuccnt97Ljmle9JzACvVZzEUQZbACCm6cZ1fq1DLyLxz51ZlEi8CYOioXx15++j7PEL5u+IK4oCE1QCUEO3NmkY5oDyVAZeZlTw4NuJrEB04anDD/xPiKE4Fqmo7pPiXktTifYnn8rtyvavXDxqXxOr6BpJ52UwIDAQAB';

/** Chrome's id for DEV_EXTENSION_PUBLIC_KEY: the SHA-256 of the key's DER, first 32 hex digits spelled a–p. */
export const DEV_EXTENSION_ID = 'cffkdamphljkkoeejkpcgmgaielfpcda';
