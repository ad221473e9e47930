// Why a page is an error, as a short reason to count by: the error code Node or undici gave
// (`ECONNREFUSED`, `ENOTFOUND`, `UND_ERR_HEADERS_TIMEOUT`), `HTTP 5xx` for a server error, or the
// crawler's own words with numbers taken out (`more than N redirects`). Pure.

export function errorReason(error: string | undefined): string {
  if (error === undefined || error.trim() === '') return 'unknown';
  const http = /^HTTP (\d)\d\d\b/.exec(error);
  if (http) return `HTTP ${http[1]}xx`;
  const code = /^([A-Z][A-Z0-9_]{2,}):/.exec(error);
  if (code) return code[1]!;
  return error.split(':', 1)[0]!.replace(/\d+/g, 'N').slice(0, 60).trim();
}
